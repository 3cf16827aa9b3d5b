"""Outside bots in ``neveryu arena``: programs that speak the protocol (docs/BOTS.md, "Entering
the arena"), each deal played at a seeded table of a server of the arena's own on 127.0.0.1.

A lineup entry ``cmd:COMMAND`` is such a bot: COMMAND (split as a shell would, no commas) is
started for every deal with ``{host}``, ``{port}`` and ``{table}`` replaced, joins that table
(``join_table``, ``ready``), plays, and exits. Duplicate deals as the built-in arena's
(engine/arena.py): group ``g`` of a variant is played once per rotation of the lineup, each
rotation on a fresh server whose one table (id 1) has the group's seed, so that its deck and
first dealer (docs/PROTOCOL.md, 9.6) are the same in every rotation. An outside bot that does
not take its seat within ``JOIN_S``, crashes, hangs (its turn time runs out) or sends garbage
(the server closes its connection) loses its seat to the server's away bot, as any player
does, and the deal goes on; ``Lost`` reports it.
"""

from __future__ import annotations

import shlex
import subprocess
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import attrs
import msgpack
import trio

from neveryu.engine.arena import Played, group_seed

if TYPE_CHECKING:
    from neveryu.server._settings import TableSettings
    from neveryu.server._table import Table

PREFIX = "cmd:"
JOIN_S = 20.0
"""How long an outside bot may take to start and take its seat, in seconds."""
DEAL_S = 3600.0
"""The longest a deal may take, in seconds (then it counts as not ended)."""
POLL_S = 0.02
"""How often the arena looks at its table while a deal is played, in seconds."""


@attrs.frozen
class Lost:
    """An outside bot (``name``, its lineup entry ``command``) that lost its ``seat`` in a deal
    (``variant``, ``group``, ``rotation``) and why."""

    name: str
    command: str
    variant: str
    group: int
    rotation: int
    seat: int
    why: str


def names(lineup: Sequence[str]) -> tuple[str, ...]:
    """Each entry's name in the results: a strength as it is, ``cmd1``, ``cmd2``... for the
    outside bots in order."""
    out, k = [], 0
    for entry in lineup:
        if entry.startswith(PREFIX):
            k += 1
            out.append(f"cmd{k}")
        else:
            out.append(entry)
    return tuple(out)


async def play_group(
    variant: str, lineup: Sequence[str], seed: int, group: int, turn_ms: int, bot_delay_ms: int
) -> tuple[list[Played], list[Lost]]:
    """The ``len(lineup)`` deals of one duplicate group, and the seats outside bots lost."""
    played, lost = [], []
    for rotation in range(len(lineup)):
        deal, gone = await _play_deal(variant, lineup, seed, group, rotation, turn_ms, bot_delay_ms)
        played.append(deal)
        lost.extend(gone)
    return played, lost


async def _play_deal(
    variant: str, lineup: Sequence[str], seed: int, group: int, rotation: int, turn_ms: int, bot_delay_ms: int
) -> tuple[Played, list[Lost]]:
    from neveryu import protocol
    from neveryu.server import Server, ServerConfig
    from neveryu.server._session import Session

    players, named = len(lineup), names(lineup)
    order = [(s + rotation) % players for s in range(players)]  # seat s is played by lineup[order[s]]
    outside = [s for s in range(players) if lineup[order[s]].startswith(PREFIX)]
    server = Server(ServerConfig(host="127.0.0.1", port=0, record=False, journal=False, restore=False))
    async with trio.open_nursery() as nursery:
        await nursery.start(server.run)
        table = server.open_table(_settings(variant, players, seed, group, turn_ms, bot_delay_ms))
        table.arrange([None if lineup[i].startswith(PREFIX) else lineup[i] for i in order])
        watcher, watch = Session("arena", replay=1, address="127.0.0.1"), _Watch()
        watcher.attach(watch)
        table.handle(watcher, protocol.Spectate(id=1, table=table.id))
        procs = {s: _start(lineup[order[s]], server.port, table.id) for s in outside}
        try:
            why = await _seated(table, procs)
            table.start_match()
            game = table.game
            assert game is not None
            with trio.move_on_after(DEAL_S):
                while not (game.deal is not None and game.deal.over):
                    await trio.sleep(POLL_S)
            for s in outside:
                if s not in why and s in watch.away:
                    why[s] = _why(procs[s], s in watch.timed_out)
            deal = game.deal
            assert deal is not None
            ended = deal.over
            result = Played(
                variant=variant,
                group=group,
                rotation=rotation,
                bots=tuple(named[i] for i in order),
                deck=(),
                dealer=deal.dealer,
                ended=ended,
                out=tuple(deal.out) if ended else (),
                loser=deal.loser if ended else None,
                winner=deal.winner if ended else None,
                scores=tuple(game.match.scores) if ended else (),
                hand_counts=tuple(len(h) for h in deal.hands) if ended else (),
                actions=(),
                bot_errors=0,
            )
        finally:
            for p in procs.values():
                _stop(p)
            server.shutdown()
            nursery.cancel_scope.cancel()
    gone = [
        Lost(named[order[s]], lineup[order[s]], variant, group, rotation, s, w)
        for s, w in sorted(why.items())
    ]
    return result, gone


def _settings(
    variant: str, players: int, seed: int, group: int, turn_ms: int, bot_delay_ms: int
) -> TableSettings:
    """The arena's table: one deal, seeded by the group (docs/PROTOCOL.md, 9.6), no grace."""
    from neveryu.server._settings import TableSettings

    return TableSettings(
        variant=variant,
        options={},
        seats=players,
        turn_ms=turn_ms,
        bot_delay_ms=bot_delay_ms,
        grace_ms=0,
        deals=1,
        seed=group_seed(seed, variant, group) % 2**63,
    )


async def _seated(table: Table, procs: dict[int, subprocess.Popen[bytes]]) -> dict[int, str]:
    """Wait until every outside bot (``procs``, by seat) has taken its seat and is ready, one of
    them has exited without, or ``JOIN_S`` is over; the seats nobody took."""
    seats = table.seats
    with trio.move_on_after(JOIN_S):
        while not all(seats[s].session is not None and seats[s].ready for s in procs):
            if any(p.poll() is not None and seats[s].session is None for s, p in procs.items()):
                break
            await trio.sleep(POLL_S)
    return {s: "did not take its seat" for s in procs if seats[s].session is None}


def _why(proc: subprocess.Popen[bytes], timed_out: bool) -> str:
    """Why an outside bot that went away lost its seat (a crashed one has exited by the time
    its connection closed)."""
    code = proc.poll()
    if code is not None and code != 0:
        return f"exited with code {code}"
    if timed_out:
        return "no action within its turn time"
    return "its connection closed (a message the server refused, or it left)"


def _start(entry: str, port: int | None, table: int) -> subprocess.Popen[bytes]:
    words = shlex.split(entry[len(PREFIX) :])
    args = [w.format(host="127.0.0.1", port=port, table=table) for w in words]
    return subprocess.Popen(
        args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )


def _stop(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        proc.kill()
    proc.wait()


class _Watch:
    """The arena's spectator's connection, which keeps the table open: it notes the seats that
    went away (``table_update``) and whose turn time ran out (``timed_out``)."""

    def __init__(self) -> None:
        self.away: set[int] = set()
        self.timed_out: set[int] = set()

    def send(self, frame: bytes) -> None:
        msg = msgpack.unpackb(frame[4:])
        if msg.get("t") == "table_update":
            self.away.update(seat["seat"] for seat in msg["table"]["seats"] if seat.get("away"))
        elif msg.get("t") == "timed_out":
            self.timed_out.add(msg["seat"])

    def note_error(self, code: str, msg: str) -> None:
        pass


def play_all(
    variants: Sequence[str],
    lineup: Sequence[str],
    seed: int,
    groups: int,
    turn_ms: int,
    bot_delay_ms: int,
    add: Callable[[int], None],
) -> tuple[list[Played], list[Lost], bool]:
    """Every group of every variant, one after the other (``add(n)`` after each group's ``n``
    deals): the deals, the seats lost, and whether Ctrl-C stopped the run (what was played is
    kept)."""
    played: list[Played] = []
    lost: list[Lost] = []
    try:
        for variant in variants:
            for group in range(groups):
                deals, gone = trio.run(play_group, variant, lineup, seed, group, turn_ms, bot_delay_ms)
                played.extend(deals)
                lost.extend(gone)
                add(len(deals))
    except KeyboardInterrupt:
        return played, lost, True
    return played, lost, False
