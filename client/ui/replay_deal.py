"""A recorded deal as the replay reads it (client/ui/replay.py): ``Deal``, made from a server's
record (``deal_of``: ``neveryu replay ID`` reads it from the database) or from a whole record in
the hand-history format (``deal_from_document``: what ``get_record`` sends of a table made with
``reveal_after_deal``). The server's record reader and replay do the work, imported inside these
functions only: the client reads records with them (docs/ARCHITECTURE.md, client/)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import attrs

Msg = dict[str, Any]


@attrs.frozen(kw_only=True)
class Deal:
    """A recorded deal for the replay: its ``id`` in the records, the ``table`` summary it was
    played at, ``views`` (view -> step -> the messages sent), ``times`` (each step's ms from the
    deal's start) and the ``server``'s name."""

    id: int
    table: Msg
    views: Mapping[int | None, Sequence[Sequence[Msg]]]
    times: tuple[int, ...]
    server: str = ""


def deal_of(record: Any, steps: Sequence[Any]) -> Deal:
    """The ``Deal`` of a server's ``DealRecord`` and its replay (``check_record``): every view's
    messages, the server's own projection of each event (``seat_messages``)."""
    from neveryu.server import seat_messages, table_summary

    views = {seat: seat_messages(record, steps, seat) for seat in (None, *range(record.players))}
    return Deal(
        id=record.id or 0,
        table=table_summary(record),
        views=views,
        times=tuple(step.ms for step in steps),
        server=record.server,
    )


def deal_from_document(doc: Any) -> Deal:
    """A whole record in the hand-history format (docs/RECORDS.md: what ``get_record`` sends of a
    table made with ``reveal_after_deal``) as a ``Deal``. The server's record reader and replay
    do it, imported here only: the client reads records with them (docs/ARCHITECTURE.md, client/). Raises
    ValueError for a seat's view (its hidden cards cannot be replayed), a malformed record, or
    one that does not replay."""
    from neveryu.server import RecordError, ReplayError, check_record, record_from_json

    try:
        record = record_from_json(doc)
        return deal_of(record, check_record(record))
    except (RecordError, ReplayError) as exc:
        raise ValueError(str(exc)) from None
