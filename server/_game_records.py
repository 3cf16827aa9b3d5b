"""The record of each deal of a match (records.deal_notes, records.writer) and the journal's
notes of its actions: ``DealNotes`` is the part of ``_game.Game`` that notes what a deal's
record needs when it is dealt (or restored from the journal), and hands the journal what was
played and the record when the deal ends. A failure here costs the record, never the game.
"""

from __future__ import annotations

import logging
from typing import Any

from neveryu import engine

from ._seats import Seat
from ._settings import TableSettings
from .records.deal_notes import Recording
from .records.deal_record import DealRecord
from .records.journal import Game as JournalGame
from .records.journal import Journal

log = logging.getLogger("neveryu.server")


class DealNotes(JournalGame):
    """The records' part of a game (``_game.Game``, whose state it reads): ``recording``, the
    notes of the deal being played (None: records are off, or no deal). It reads what the
    journal reads of a game (``records.journal.Game``, declared there once), and more."""

    seats: list[Seat]
    settings: TableSettings
    journal: Journal | None

    def _note_deal(self, deal: engine.Deal, opening: list[engine.Event]) -> None:
        """The deal is dealt: note what its record needs (nothing when records are off)."""
        records = self.table.records
        self.recording = None
        if records is None or not records.on:
            return
        self.recording = Recording(
            server=records.server,
            table=self.table.id,
            settings=self.settings,
            match=self.match_uid,
            deal_no=self.deal_no,
            seats=self.seats,
            deal=deal,
            opening=opening,
            fair={
                "commitment": self.commitment,
                "salt": self.salt,
                **self.fair,
                **({"seed": self.shuffle.seed.hex()} if self.shuffle is not None else {}),
            },
        )

    def _record(self, events: list[engine.Event]) -> DealRecord | None:
        """The deal ended: its record, for the records' writer (None when records are off). A
        failure here costs the record, never the game."""
        recording, referee = self.recording, self.referee
        self.recording = None
        if recording is None or referee is None:
            return None
        try:
            ended = next(e for e in events if isinstance(e, engine.DealEnded))
            return recording.record(referee.applied, ended, self.match.scores)
        except Exception:
            log.exception("table %d: deal %d could not be recorded", self.table.id, self.deal_no)
            return None

    def _note_played(self, ended: list[engine.Event] | None) -> None:
        """After every batch of events: the journal notes the actions accepted since its last
        note; ``ended``: the batch that ended the deal, whose record goes with them (or alone to
        the records when nothing is journaled)."""
        record = self._record(ended) if ended is not None else None
        journal = self.journal
        if journal is not None:
            journal.played(self, record)
        elif record is not None and self.table.records is not None:
            self.table.records.keep(record)

    def _note_restored(self, deal: engine.Deal, notes: dict[str, Any] | None) -> None:
        """The deal restored from the journal (``_restore``): its record's ``notes`` taken up
        again (None: records were off)."""
        records = self.table.records
        if notes is not None and records is not None and records.on:
            self.recording = Recording.restored(
                notes,
                server=records.server,
                table=self.table.id,
                settings=self.settings,
                match=self.match_uid,
                deal_no=self.deal_no,
                deal=deal,
            )
