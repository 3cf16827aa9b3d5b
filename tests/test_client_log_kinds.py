"""Every kind of log line read through ``Texts.log_line`` in both languages, plain and ASCII,
for a player and a watcher: the exact texts are pinned in tests/data/log_kinds.json."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from neveryu.client.ui.model_state import Line, Names
from neveryu.client.ui.texts import LOG_KINDS, LOG_KINDS_NOT_MINE, Texts

EXPECTED = Path(__file__).parent / "data" / "log_kinds.json"
N = Names(
    seats=((0, "Аня", None), (1, "Bob", None), (2, "bot:medium", "medium"), (3, "Bob", None)),
    seat=0,
    tags=((1, "ab12"), (3, "cd34")),
)
W = Names(seats=N.seats, seat=None, tags=N.tags)
E = Names()
CASES = [
    ("joined", {"table": 3, "seat": 1}),
    ("joined", {"table": 3, "seat": None}),
    ("player_joined", {"name": "Bob", "seat": 1}),
    ("player_joined", {"name": "Zed", "seat": 2}),
    ("player_joined", {"seat": 0}),
    ("player_joined", {"name": "Q"}),
    ("player_left", {"name": "Bob", "seat": 3, "reason": "dropped"}),
    ("player_left", {"name": "X", "seat": 1}),
    ("player_left", {"seat": 1}),
    ("removed", {"host": "h", "tag": "ff"}),
    ("removed", {"host": "h", "bot": True}),
    ("removed", {"by": 1}),
    ("removed", {"by": 0}),
    ("seat_changed", {"action": "bot", "by": 0, "seat": 2, "strength": "medium"}),
    ("seat_changed", {"action": "zzz", "by": 1, "name": "N", "seat": 1}),
    ("seat_changed", {"action": "removed", "seat": 0}),
    ("deal_started", {"deal_no": 2, "deals": 5, "dealer": 1, "deck": 36}),
    ("deal_started", {"deal_no": 2, "deals": 0, "dealer": 0, "deck": 52}),
    ("deal_started", {"deal_no": 1}),
    ("set_laid", {"seat": 0, "count": 2, "rank": "Q", "cards": ["QS", "QH"]}),
    ("set_laid", {"seat": 1, "count": 2, "rank": "Q", "size": 3}),
    ("set_laid", {"seat": 1, "count": 2, "rank": "10", "size": 2}),
    ("set_laid", {"seat": 1, "count": 1, "rank": "A"}),
    ("none_declared", {"seat": 1, "rank": "K"}),
    ("set_held", {"count": 3, "rank": "9"}),
    ("set_held_quads", {"count": 4, "rank": "9"}),
    ("set_returned", {"cards": ["10H", "2C"]}),
    ("set_returned", {}),
    ("set_revealed", {"cards": ["QS"], "count": 1, "rank": "Q", "claim_true": True}),
    ("set_revealed", {"cards": ["QS"], "none": True, "rank": "K", "seat": 1}),
    ("set_revealed", {"cards": ["QD"], "count": 1, "rank": "Q"}),
    ("pile_taken", {"seat": 1}),
    ("pile_taken", {"seat": 0, "count": 7}),
    ("pile_discarded", {"count": 5}),
    ("pile_discarded", {}),
    ("quads_discarded", {"seat": 1, "ranks": ["Q"]}),
    ("quads_discarded", {"seat": 1, "ranks": ["Q", "K"], "count": 2}),
    ("quads_discarded", {"seat": 0}),
    ("quads_discarded", {"seat": 0, "count": 3}),
    ("quads_window_closed", {"seat": 0}),
    ("quads_window_closed", {"seat": 1}),
    ("stock_drawn", {"seat": 1, "count": 2}),
    ("stock_drawn", {"seat": 1}),
    ("dealer_drawn", {"seat": 1, "draws": [[[0, "2S"], [1, "AH"]], [[0, "3S"], [1, "4H"]]]}),
    ("dealer_drawn", {"seat": 1}),
    ("error", {"msg": "bad"}),
    ("error", {"code": "E1"}),
    ("bye", {"reason": "server_shutdown"}),
    ("bye", {"reason": "weird<x>"}),
    ("bye", {}),
    ("conn_lost", {"reason": "eof"}),
    ("conn_closed", {}),
    ("conn_resumed", {}),
    ("session_kept", {}),
    ("conn_resuming", {"reason": "r"}),
    ("fresh", {"reason": "x"}),
    ("fresh", {}),
    ("deal_ended", {"out": [1, 2], "loser": 0}),
    ("deal_ended", {"winner": 1}),
    ("deal_ended", {}),
    ("match_ended", {"scores": [3, 1, 0, 2]}),
    ("match_ended", {}),
    ("match_started", {"deals": 5}),
    ("match_started", {}),
    ("table_closed", {"reason": "host"}),
    ("table_closed", {}),
    ("player_out", {"seat": 1, "place": 2}),
    ("fair_bad", {"problem": "commitment"}),
    ("fair_bad", {"problem": "nonsense"}),
    ("timed_out", {"seat": 0}),
    ("timed_out", {"seat": 1}),
    ("away_timeout", {"seat": 0}),
    ("away_dropped", {"seat": 1}),
    ("back", {"seat": 0}),
    ("back", {"seat": 2}),
    ("absent", {"seat": 1}),
    ("spectators_more", {"n": 2}),
    ("spectators_fewer", {"n": 1}),
    ("spectators_more", {"n": 2, "seat": 0}),
    (
        "recap",
        {
            "deals": [[1, 0, None], [2, None, 1]],
            "match": True,
            "sets": 3,
            "mine": 1,
            "piles": [[1, 4], [0, None]],
            "out": [2],
            "timed_out": True,
            "chats": 2,
        },
    ),
    ("recap", {"snapshot": True, "now": {"deal": 2, "deals": 3, "turn": 0, "hand": 5, "pile": 2}}),
    ("recap", {"removed": True}),
    ("recap", {}),
    ("undone", {"n": 2}),
    ("believed", {"seat": 1}),
    ("challenged", {"seat": 1, "extra": "x"}),
    ("challenge_void", {}),
    ("fair_ok", {}),
    ("server_restarted", {}),
    ("left_table", {"seat": 0}),
    ("quads_declined", {"seat": 1}),
    ("removed_away", {"seat": 1, "name": "n"}),
    ("fair_seeded", {"seat": 2}),
]


def read_all(lang: str, ascii: bool, live: bool) -> list[str]:
    texts = Texts(lang, ascii, live)
    return [
        texts.log_line(state, Line(key, args, names))
        for key, args in CASES
        for names in (N, W, E)
        for state in (N, E)
    ]


def test_every_kind_of_the_tables_is_read_here() -> None:
    kinds = {key for key, _ in CASES}
    assert set(LOG_KINDS) - {"conn_"} <= kinds
    assert set(LOG_KINDS_NOT_MINE) <= kinds
    assert {key for key in kinds if key.startswith("conn_")}


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize("ascii", [False, True])
@pytest.mark.parametrize("live", [True, False])
def test_every_kind_reads_as_pinned(lang: str, ascii: bool, live: bool) -> None:
    expected = json.loads(EXPECTED.read_text(encoding="utf-8"))
    assert (
        read_all(lang, ascii, live)
        == expected[f"{lang}/{'ascii' if ascii else 'unicode'}/{'live' if live else 'replay'}"]
    )
