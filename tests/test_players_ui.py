"""The players' page of the terminal client's lobby (client/ui/players.py): ``t`` asks the server
for the leaderboard and your statistics, the page shows them, ←→ change the variant. Driven
through the controller, without a terminal."""

from __future__ import annotations

from neveryu.client.ui import players
from neveryu.client.ui.controller import Controller
from neveryu.client.ui.keybar import entries
from neveryu.client.ui.texts import Texts

ANN = {"id": 7, "name": "ann", "tag": "3f2a", "kind": "person"}
SHARP = {"id": 2, "name": "sharp", "tag": None, "kind": "bot"}
BOARD = {
    "t": "leaderboard",
    "re": 3,
    "variant": "hoyle",
    "total": 3,
    "players": [
        {
            "player": SHARP,
            "rating": {"mu": 3812, "sigma": 141, "low": 3530, "high": 4094, "deals": 412, "rank": 1},
        },
        {
            "player": ANN,
            "rating": {"mu": 2954, "sigma": 233, "low": 2488, "high": 3420, "deals": 86, "rank": 2},
        },
    ],
}
STATS = {
    "t": "player_stats",
    "re": 2,
    "players": [
        {
            "player": ANN,
            "variants": [
                {
                    "variant": "hoyle",
                    "deals": 86,
                    "seats": 86,
                    "lost": 0,
                    "won": 20,
                    "places": [20],
                    "score": -6,
                    "sets": 1210,
                    "bluffs": 530,
                    "bluffs_caught": 212,
                    "challenges": 388,
                    "challenges_right": 241,
                    "believes": 0,
                    "believes_right": 0,
                    "cards_taken": 2870,
                    "actions": 1642,
                    "action_ms": 5_912_000,
                    "timeouts": 3,
                    "rating": {"mu": 2954, "sigma": 233, "low": 2488, "high": 3420, "deals": 86, "rank": 2},
                }
            ],
        }
    ],
}


def lobby(lang: str = "en") -> tuple[Controller, list[dict]]:
    sent: list[dict] = []
    c = Controller(Texts(lang), sent.append)
    c.receive({"t": "welcome", "re": 1, "server": {"name": "dorm"}, "session": "tok", "records": True})
    c.records = True  # (run_client sets it from welcome.records)
    c.receive(
        {"t": "variants", "re": 2, "variants": [{"name": "verish"}, {"name": "hoyle"}, {"name": "cheat"}]}
    )
    c.receive(
        {"t": "tables", "re": 3, "tables": [{"id": 1, "variant": "hoyle", "seats": [], "state": "waiting"}]}
    )
    sent.clear()
    return c, sent


def text(c: Controller) -> list[str]:
    return "".join(s for _style, s in players.players_text(c)).splitlines()


def test_t_in_the_lobby_asks_for_the_board_of_the_table_under_the_cursor_and_your_statistics():
    c, sent = lobby()
    assert ("t", "players") in [(k.key, k.label) for k in entries(c)]
    players.open_players(c)
    assert c.dialog is not None and c.dialog.kind == "players"
    assert sent == [{"t": "player_stats"}, {"t": "leaderboard", "variant": "hoyle", "limit": 10}]
    assert text(c) == [
        "Leaderboard: hoyle",
        "Asking the server…",
        "",
        "You have no deal recorded on this server yet.",
    ]
    c.receive(BOARD)
    c.receive(STATS)
    assert text(c) == [
        "Leaderboard: hoyle",
        "  1. Bot (hard)    35.3 (38.1 ± 2.8)  deals: 412",
        "  2. ann#3f2a      24.9 (29.5 ± 4.7)  deals: 86",
        "…and 1 more",
        "Ranked by the first figure: the rating (in brackets) less 2 sigma.",
        "",
        "You: ann#3f2a",
        "rating 29.5 ± 4.7, place 2",
        "deals: 86, won 20 of 86",
        "sets 1210, bluffs 530: caught 212, survived 318",
        "«Не верю» 388 (right 241)",
        "cards taken 2870; 3.6 s per action",
    ]


def test_left_and_right_show_another_variant():
    c, sent = lobby()
    players.open_players(c)
    sent.clear()
    players.switch_variant(c, 1)
    players.switch_variant(c, 1)
    players.switch_variant(c, -1)
    assert [m["variant"] for m in sent] == ["cheat", "verish", "cheat"]
    c.receive(STATS)
    assert text(c)[:2] == ["Leaderboard: cheat", "Asking the server…"]  # (hoyle's board is not cheat's)
    assert text(c)[-1] == "You have not played this variant here yet."


def test_in_russian_and_on_a_server_without_records():
    c, sent = lobby("ru")
    players.open_players(c)
    c.receive(BOARD)
    c.receive(STATS)
    assert text(c) == [
        "Рейтинг: hoyle",
        "  1. Бот (сильный)    35.3 (38.1 ± 2.8)  партий: 412",
        "  2. ann#3f2a         24.9 (29.5 ± 4.7)  партий: 86",
        "…и ещё 1",
        "Порядок по первому числу: это рейтинг (в скобках) минус 2 сигмы.",
        "",
        "Вы: ann#3f2a",
        "рейтинг 29.5 ± 4.7, место 2",
        "партий: 86, выиграно 20 из 86",
        "наборов 1210, блефов 530: поймано 212, прошло 318",
        "«Не верю» 388 (верно 241)",
        "взято карт 2870; 3.6 с на ход",
    ]
    c, sent = lobby()
    c.records = False
    c.dialog = None
    players.open_players(c)
    assert c.dialog is None and sent == []
    assert (
        c.notice is not None
        and c.notice.text == "This server keeps no records: it has no players' statistics."
    )
