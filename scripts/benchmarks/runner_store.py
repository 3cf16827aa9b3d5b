"""The sections of ``scripts/bench`` about the records' database: ``records``,
``players``, ``journal``; the rest are in ``runner``."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .profiles import Profile


def records(report, prof: Profile, args) -> None:
    """The records' figures: a record's size, ``neveryu history`` over a large database, and what
    recording costs the server per action (the capacity step without and with it)."""
    import tempfile

    from . import records as rec

    report.say(
        f"\n== records: size of a deal's record ({prof.records_sizes} real deals per variant, 4 seats)"
    )
    sizes = rec.sizes(prof.records_sizes)
    for r in sizes:
        report.say(
            f"  {r['variant']:<12} {r['actions_median']:>5} actions (median)"
            f"  database {r['db_bytes_per_deal']:>6} B/deal (actions column {r['actions_column_median']} B)"
            f"  export {r['export_bytes_median']} B"
        )
    report.say(f"\n== records: neveryu history over {prof.records_history:,} deals (a new process each run)")
    with tempfile.TemporaryDirectory() as folder:
        path = f"{folder}/records.sqlite3"
        filled = rec.fill(
            path, prof.records_history, per_variant=min(200, prof.records_history // 100), say=report.say
        )
        report.say(
            f"  made {filled['deals']:,} deals in {filled['seconds']} s"
            f" ({os.path.getsize(path) / 2**20:.1f} MiB, {os.path.getsize(path) // filled['deals']} B/deal)"
        )
        times = rec.history(path, runs=3 if prof.records_history < 100_000 else 5)
    for label, seconds in times.items():
        report.say(f"  neveryu history {label}: {seconds} s (median)")
    report.say(
        f"\n== records: server CPU per action without and with recording, {prof.records_clients} clients"
        f" ({prof.records_rounds} rounds, alternating which goes first; {prof.capacity_s} s each)"
    )
    cost = rec.overhead(prof.records_clients, prof.capacity_s, prof.records_rounds, prof.warmup_s, report.say)
    per = cost["cpu_us_per_action"]
    overhead = "n/a" if cost["overhead"] is None else f"{cost['overhead']:+.1%}"
    report.say(
        f"  median server CPU: {per['off']} µs/action without, {per['on']} µs/action with:"
        f" recording costs {overhead} (side by side on a busy machine: read with the next line)"
    )
    alone = rec.write_cost(prof.records_sizes)
    share = f"{alone['cpu_us_per_action'] / per['off']:.2%}" if per["off"] else "n/a"
    report.say(
        f"  the writer alone: {alone['cpu_us_per_deal']} µs CPU per {alone['variant']} deal,"
        f" {alone['cpu_us_per_action']} µs per action ({alone['deals']} real deals encoded and committed,"
        f" one transaction each): {share} of the server's CPU per action"
    )
    report.data["records"] = {
        "sizes": sizes,
        "history": {"deals": filled, "seconds": times},
        "overhead": cost,
        "writer": alone,
    }


def players(report, prof: Profile, args) -> None:
    """The players' figures: the ratings' sanity (sharp above honest, intervals apart, in every
    variant), the writer's cost of counting and rating, the leaderboard over a large database."""
    from . import players as pl

    deals = args.rating_deals or prof.players_deals
    report.say(
        f"\n== players: ratings of one sharp against three honest bots, {deals} seeded deals per variant"
        " (mu ± 2 sigma)"
    )
    sanity = pl.sanity(deals, say=report.say)
    apart = sum(r["apart"] for r in sanity)
    report.say(f"  sharp ranked above honest with intervals apart in {apart} of {len(sanity)} variants")
    board_deals = args.board_deals or prof.players_board
    report.say(f"\n== players: the leaderboard over {board_deals:,} deals")
    board = pl.board(board_deals, say=report.say)
    report.data["players"] = {"sanity": sanity, "board": board}


def journal(report, prof: Profile, args) -> None:
    """The journal's figures: restoring live tables at a server's start, and what the journal costs
    the server per action (the capacity step without and with it, records on in both)."""
    import tempfile

    from . import journal as jr

    report.say(
        f"\n== journal: restoring {prof.journal_tables} live tables (the load generator's, 4 clients each,"
        f" {prof.journal_play_s} s of play, then SIGKILL)"
    )
    with tempfile.TemporaryDirectory() as folder:
        db = f"{folder}/records.sqlite3"
        held = jr.live_tables(db, prof.journal_tables, prof.journal_play_s, prof.warmup_s)
        report.say(
            f"  the journal holds {held['tables']} tables ({held['in_a_deal']} in a deal),"
            f" {held['actions']:,} actions of their deals ({os.path.getsize(db) / 2**20:.1f} MiB file)"
        )
        restored = jr.restore(db)
        report.say(
            f"  restored {restored['restored']} tables, {restored['players']} players to come back,"
            f" {restored['actions_replayed']:,} actions replayed: {restored['total_s']} s"
            f" (reading the journal {restored['read_s']} s, rebuilding the tables {restored['rebuild_s']} s,"
            f" CPU {restored['read_cpu_s'] + restored['rebuild_cpu_s']:.3f} s)"
        )
        start = jr.serve_start(db, prof.journal_starts)
        report.say(
            f"  neveryu serve to its listening line: {start['with_s']} s restoring"
            f" {start['restored']} tables,"
            f" {start['empty_s']} s on an empty file (median of {prof.journal_starts};"
            " Python's start and imports included)"
        )
    report.say(
        "\n== journal: server CPU per action without and with the journal (records on),"
        f" {prof.journal_clients} clients ({prof.journal_rounds} rounds, alternating which goes first;"
        f" {prof.capacity_s} s each)"
    )
    cost = jr.overhead(prof.journal_clients, prof.capacity_s, prof.journal_rounds, prof.warmup_s, report.say)
    per = cost["cpu_us_per_action"]
    overhead = "n/a" if cost["overhead"] is None else f"{cost['overhead']:+.1%}"
    report.say(
        f"  median server CPU: {per['off']} µs/action without, {per['on']} µs/action with:"
        f" the journal costs {overhead} (side by side on a busy machine: read with the next lines);"
        f" its writer thread spent {cost['writer_us_per_action']} µs of CPU more per action journaled"
    )
    notes = jr.note_cost(prof.journal_actions)
    writer = jr.write_cost(prof.journal_actions)
    lax = jr.write_cost(prof.journal_actions, synchronous="NORMAL")
    alone = notes["cpu_us_per_action"] + writer["cpu_us_per_action"]
    share = f"{alone / per['off']:.1%}" if per["off"] else "n/a"
    report.say(
        f"  alone: a table's notes {notes['cpu_us_per_action']} µs per action, the writer"
        f" {writer['cpu_us_per_action']} µs per action ({writer['per_batch']} actions a transaction,"
        f" synchronous {writer['synchronous']}; {writer['wall_us_per_action']} µs of its thread's wall"
        f" time): {alone:.2f} µs, {share} of the server's CPU per action; with synchronous"
        f" {lax['synchronous']} the writer {lax['cpu_us_per_action']} µs"
        f" ({lax['wall_us_per_action']} µs wall)"
    )
    report.data["journal"] = {
        "held": held,
        "restore": restored,
        "serve_start": start,
        "overhead": cost,
        "notes": notes,
        "writer": writer,
        "writer_normal": lax,
    }
