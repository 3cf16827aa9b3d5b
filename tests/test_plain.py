"""The line mode (client/plain/, ``neveryu play --plain``): its commands and words in-process,
and whole deals played through it as a script plays them (a pipe) and as a person does (a pty),
by the player of tests/plain_driver.py.

The transcripts of ``verish`` (seed 1, normal bots, no bot delay) are kept whole in
tests/data/plain/ in both languages and compared line for line: a text changed on purpose in
the catalogue changes them; write them again with ``python tests/plain_driver.py`` and read the
difference. The variants where anyone may challenge (``hoyle``, ``cheat``...) race a bot's
challenge against the player's set, so their deals are played to the end and checked line by
line, not compared whole.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from plain_driver import golden, join_piped, play_piped, play_pty

from neveryu import engine
from neveryu.client.plain import answers
from neveryu.client.plain.commands import Command, LayOrder, Refusal, lay_order, parse
from neveryu.client.plain.words import PlainTexts, speakable

LANGS = ("en", "ru")


def test_a_unique_beginning_names_a_command():
    assert parse("leg") == Command("legal")
    assert parse("n") == Command("no")
    assert parse("не верю") == Command("no")
    assert parse("Верю") == Command("yes")
    assert parse("«Не верю!»") == Command("no")  # as the log writes the call
    assert parse("Верю!") == Command("yes")
    assert parse("chat hi all") == Command("chat", ("hi", "all"), "hi all")
    assert parse("") == Command("enter")


def test_an_ambiguous_or_unknown_word_is_refused_with_the_reason():
    with pytest.raises(Refusal) as caught:
        parse("l")
    assert caught.value.key == "plain.ambiguous"
    assert caught.value.args_["commands"] == "lay, last, legal, leave"
    with pytest.raises(Refusal) as caught:
        parse("xyzzy")
    assert caught.value.key == "plain.unknown"


def test_lay_reads_cards_counts_ranks_and_claimed_counts():
    assert lay_order(("7S", "7h", "as", "7")) == LayOrder(("7S", "7H"), None, "7", None)
    assert lay_order(("2", "as", "Q")) == LayOrder(None, 2, "Q", None)
    assert lay_order(("10D",)) == LayOrder(("TD",), None, None, None)
    assert lay_order(("7S", "as", "3", "sevens")) == LayOrder(("7S",), None, "7", 3)
    assert lay_order(("7S", "as", "дамы", "count", "2")) == LayOrder(("7S",), None, "Q", 2)
    with pytest.raises(Refusal) as caught:
        lay_order(("7X",))
    assert caught.value.key == "plain.bad_card"
    with pytest.raises(Refusal) as caught:
        lay_order(("4S", "4H", "fours"))
    assert (caught.value.key, caught.value.args_) == ("plain.claim_as", {"word": "fours", "cards": "4S 4H"})


def test_cards_read_as_words_or_codes():
    assert PlainTexts("en").cards(["7S", "TH"]) == "seven of spades, ten of hearts"
    assert PlainTexts("ru").cards(["7S", "QD", "AC"]) == "семёрка пик, дама бубён, туз треф"
    assert PlainTexts("en", cards="codes").cards(["7S", "TH"]) == "7S 10H"


def test_speakable_replaces_what_a_synthesizer_mangles():
    assert speakable("lay 1–3 as queens · go on") == "lay 1 to 3 as queens, go on"
    assert speakable("положить 1–3 как дам", "ru") == "положить от 1 до 3 как дам"
    assert speakable("Revealed: 7♠ — the claim is true ✓") == "Revealed: 7♠, the claim is true"


@pytest.mark.parametrize("lang", LANGS)
def test_a_seeded_deal_through_a_pipe_reads_as_its_transcript(tmp_path: Path, lang: str):
    lines = play_piped("verish", lang, 1, tmp_path)
    assert lines == golden(lang).read_text(encoding="utf-8").splitlines()


def test_a_deal_at_a_terminal_reads_as_through_a_pipe(tmp_path: Path):
    lines, raw, kept = play_pty("verish", "en", 1, tmp_path)
    typed = {"quit", "no", "yes", "keep", "quads"}
    shown = [x for x in lines if x not in typed and not x.startswith("lay ")]
    assert shown == golden("en").read_text(encoding="utf-8").splitlines()
    assert b"\x1b" not in raw  # no cursor movement, no colour, no mode switched: text only
    assert "lay 1" in lines  # the terminal echoed what was typed
    assert kept  # the terminal echoes and edits lines again, as before the client ran


@pytest.mark.parametrize("variant", sorted(engine.VARIANTS))
def test_a_deal_of_every_variant_is_played_to_the_end(tmp_path: Path, variant: str):
    lang = LANGS[sorted(engine.VARIANTS).index(variant) % 2]
    t = PlainTexts(lang)
    lines = play_piped(variant, lang, 2, tmp_path)
    over = t("log.match_ended", scores="")[:12]
    assert any(x.startswith(over) for x in lines)
    turns = [x for x in lines if x.startswith(t("plain.turn"))]
    assert turns and all("(lay)" in x or "(no)" in x or "(yes)" in x for x in turns)
    assert [x for x in lines if speakable(x, lang) != x] == []
    assert [x for x in lines if any(ch in x for ch in "♠♥♦♣\x1b✓▶")] == []


def _narrated(messages, lang="en"):
    """The lines the line mode prints for ``messages`` (in-process), and the timers it set."""
    from neveryu.client.plain.actions import PlainController
    from neveryu.client.plain.narrator import Narrator

    clock = [100.0]
    lines: list[str] = []
    timers: list[tuple[float, object]] = []
    c = PlainController(PlainTexts(lang), lambda request: None, clock=lambda: clock[0])
    narrator = Narrator(c, lines.append, lambda seconds, fn: timers.append((seconds, fn)))
    for m in messages:
        c.receive(m)
        narrator.told(m, c.take_notices())
    return c, lines, timers


def test_the_turn_is_told_once_and_its_time_at_half_10_and_5_seconds():
    from client_messages import record_deal

    msgs, _ = record_deal("verish", 3, seed=5, seat=0)
    first = next(i for i, m in enumerate(msgs) if m.get("t") == "legal" and m.get("lay") and i > 3)
    c, lines, timers = _narrated(msgs[: first + 1])
    turns = [x for x in lines if x.startswith("Your turn.")]
    assert len(turns) == 1 and turns[0].endswith("(lay).")
    assert [round(seconds, 3) for seconds, _ in timers] == [15.0, 20.0, 25.0]
    for _, fn in timers:
        fn()  # type: ignore[operator]
    assert lines[-3:] == ["15 seconds left.", "10 seconds left.", "5 seconds left."]
    c.receive(msgs[first])  # the same offer again: not told twice
    assert [x for x in lines if x.startswith("Your turn.")] == turns


def test_an_offer_sent_again_unchanged_is_told_again_only_once_answered():
    # The server sends the same offer again when another seat acts within one's turn (a bot
    # that took the pile discards its quads): told once, unless it was answered meanwhile
    # (then the answer did not take, and a script waits to be told again).
    from client_messages import record_deal

    from neveryu.client.plain.actions import PlainController
    from neveryu.client.plain.narrator import Narrator

    msgs, _ = record_deal("verish", 3, seed=5, seat=0)
    first = next(i for i, m in enumerate(msgs) if m.get("t") == "legal" and m.get("lay") and i > 3)
    lines: list[str] = []
    sent: list[dict] = []
    c = PlainController(PlainTexts("en"), sent.append, clock=lambda: 100.0)
    narrator = Narrator(c, lines.append, lambda seconds, fn: None)

    def tell(m):
        c.receive(m)
        narrator.told(m, c.take_notices())

    for m in msgs[: first + 1]:
        tell(m)
    turns = [x for x in lines if x.startswith("Your turn.")]
    assert len(turns) == 1
    tell(dict(msgs[first]))  # the same offer, sent again
    assert [x for x in lines if x.startswith("Your turn.")] == turns
    c.lay_order(lay_order((c.hand[0], "as", c.legal["lay"]["ranks"][0])))  # answered: sent...
    assert [m["t"] for m in sent] == ["lay"] and c.actions_sent == 1
    tell(dict(msgs[first]))  # ...and the same offer again: that answer did not take
    assert [x for x in lines if x.startswith("Your turn.")] == turns * 2


def test_a_refused_lay_says_why_in_one_line_and_sends_nothing():
    from client_messages import record_deal

    msgs, _ = record_deal("verish", 3, seed=5, seat=0)
    first = next(i for i, m in enumerate(msgs) if m.get("t") == "legal" and m.get("lay") and i > 3)
    c, _, _ = _narrated(msgs[: first + 1])
    sent: list[dict] = []
    c.send = sent.append
    missing = next(f"{r}S" for r in "23456789TJQKA" if f"{r}S" not in c.hand)
    c.lay_order(lay_order((missing, "as", "7")))
    assert sent == [] and len(c.notices) == 1 and c.notices[0].startswith("You do not hold")


@pytest.fixture
def server():
    from neveryu.server import ServerConfig, start_in_thread

    config = ServerConfig(host="127.0.0.1", port=0, name="plain-test", seed=3, record=False).evolve(
        table={"bot_delay_ms": 0, "challenge_window_ms": 0, "deal_pause_ms": 100}
    )
    running = start_in_thread(config)
    try:
        yield running
    finally:
        running.stop()


def test_from_the_lobby_a_table_is_made_played_and_left(server, tmp_path: Path):
    lines = join_piped(f"127.0.0.1:{server.port}", "en", tmp_path)
    t = PlainTexts("en")
    assert lines[1] == t("plain.tables_none")
    assert lines[2] == "Asking the server for a table of verish, 4 seats, 3 bots."
    assert lines[3] == t("log.joined", table=1, seat=1)
    assert lines[4] == t("plain.wait_you") == "Type ready (or s) when you are ready to play."
    assert t("plain.wait_start") in lines  # the host's second ready starts the match
    assert "The match starts: 1 deal." in lines  # one deal, not "1 deals"
    assert any(x.startswith("The match is over.") for x in lines)
    left = lines.index(t("log.left_table"))
    assert lines[left + 1 :] == [t("plain.tables_none")]  # a table of bots alone closes
    assert [x for x in lines if speakable(x, "en") != x] == []


def test_hand_before_a_seat_says_where_the_player_is_not_that_he_watches():
    c, lines, _ = _narrated([])
    assert answers.hand_lines(c) == ["Not connected to the server."]
    welcome = {"t": "welcome", "re": 1, "proto": 1, "session": "s", "resumed": False}
    c.receive({**welcome, "table": None, "seat": None})
    assert c.state.screen == "lobby"
    assert answers.hand_lines(c) == ["That works only at a table."]  # no key: a command
    assert lines == []


def test_lines_piped_all_at_once_wait_until_the_player_is_dealt_in(tmp_path: Path):
    """A script that writes its commands before the table exists (``printf 'hand\\nlegal\\n' |
    neveryu play --plain``): they are read once the player sits at the dealt table, then the end
    of the input quits."""
    import subprocess

    import budget
    from plain_driver import child_env, command

    done = subprocess.run(
        command("verish", "en", 3),
        input="hand\nlegal\n",
        capture_output=True,
        text=True,
        env=child_env(tmp_path),
        timeout=budget.seconds(60),
        check=True,
    )
    lines = done.stdout.splitlines()
    hand = next(k for k, line in enumerate(lines) if line.startswith("Your hand, 13 cards: "))
    assert lines[hand + 1].startswith(("You may: ", "Nothing to do now."))  # (his turn, or not yet)
    assert not [line for line in lines if "not at a table" in line.lower() or "not connected" in line.lower()]


def test_every_command_is_told_by_its_line_of_the_help():
    from neveryu.client.plain.commands import HELP, NAMES

    en = PlainTexts("en")
    assert len(set(NAMES)) == len(NAMES)
    for line, names in HELP.items():
        said = en("plain.help." + line)
        assert said != "plain.help." + line and all(name in said for name in names), line


def test_create_offers_the_full_screen_forms_fields_and_values():
    """``create`` fills the full-screen client's form (client/ui/create_form.py): the variant's
    options by name, the form's turn times and deals, a password as typed; a value the form does
    not offer is refused with the ones it does, and nothing is sent."""
    from neveryu.client.plain.actions import PlainController
    from neveryu.client.plain.create import create_form

    words = "hoyle 5 bots hard scoring chips_per_card deck 2x52 declare_none on packet_size 2 turn 30 deals 3"
    assert create_form(tuple(words.split()) + ("password", "PwD"), (), ()).request() == {
        "t": "create_table",
        "variant": "hoyle",
        "options": {"scoring": "chips_per_card", "deck": "2x52", "declare_none": True, "packet_size": 2},
        "seats": 5,
        "bots": ["sharp"] * 4,
        "turn_ms": 30000,
        "deals": 3,
        "password": "PwD",
    }
    with_window = ({"name": "verish", "players": [2, 6], "options": {}, "quads_window_ms": 10000},)
    form = create_form(("verish", "3", "quads", "20"), with_window, ())
    assert form.request()["quads_window_ms"] == 20000
    sent: list[dict] = []
    c = PlainController(PlainTexts("en"), sent.append, clock=lambda: 100.0)
    c.create(("hoyle", "4", "deck", "36"))
    c.create(("verish", "4", "turn", "20"))
    c.create(("cheat", "4", "declare_none", "maybe"))
    c.create(("hoyle", "4", "declare_none", "maybe"))
    assert sent == []
    assert c.take_notices() == [
        "deck is one of auto, 52, 2x52 here, not 36.",
        "turn is one of 0, 15, 30, 45, 60, 90, 120, 180 here, not 20.",
        "A table of cheat takes no declare_none: after the variant and the seats, create takes bots,"
        " N bots, easy, normal, hard, expert, turn S, deals N, password PW, deck auto.",
        "declare_none is one of off, on here, not maybe.",
    ]
    c.create(("verish", "4", "bots", "turn"))
    c.create(("verish", "4", "password"))
    assert c.take_notices() == [
        "turn needs a value after it, as turn 60.",
        "password needs a value after it, as password PW.",
    ]


def test_the_replay_offers_the_full_screen_viewers_moves_and_views():
    """Steps back and forth, the deal's start and end, the reveals, every view: the moves of the
    full-screen replay (client/ui/replay.py) as words, said in lines."""
    from records_deals import played_deals
    from test_records_replay_ui import deal_of

    from neveryu.client.plain.replay import PlainReplay

    record, _ = played_deals("veryu", 1, seed=6)[0]
    said: list[str] = []
    r = PlainReplay(deal_of(record), None, PlainTexts("en", cards="codes"), said.append)
    r.start()
    steps = r.player.steps
    assert said[0].startswith("Deal 7: Enter steps on, back steps back")
    assert said[1] == f"Step 1 of {steps}, 0:00."
    assert said[2:7] == [  # the every-hand view: each seat's hand, then the log's line
        "ann, 9 cards: 8H 9S 9H JS QS KD KC AS AD.",
        "Bot 2, 9 cards: 6S 6H 6C 7H 7D 7C 8D 9C QH.",
        "Bot 3, 9 cards: 6D 8C 9D 10D JD QD QC KS KH.",
        "Bot 4, 9 cards: 7S 8S 10S 10H 10C JH JC AH AC.",
        "Deal 1 of 1: ann deals, a 36-card deck.",
    ]
    for order, index in [("3", 2), ("back", 1), ("end", steps - 1), ("start", 0)]:
        assert r.order(order) and r.index == index, order
    first, second = r.player.reveals[:2]
    assert r.order("reveal") and r.index == first
    assert r.order("reveal") and r.index == second
    assert r.order("reveal back") and r.index == first
    said.clear()
    assert r.order("view 2") and r.view == 1
    hand = " ".join(r.t.card(card) for card in r.player.states[1][first].hand)
    assert said == ["Now as Bot 2 saw it.", f"Bot 2, {r.t.n_cards(hand.count(' ') + 1)}: {hand}."]
    assert r.order("view") and r.view == 2
    assert r.order("view all") and r.view is None
    said.clear()
    assert r.order("view 9") and r.view is None
    assert said == ["No seat 9: view all, or a seat from 1 to 4."]
    assert not r.order("chat hello") and not r.order("")


def test_the_hosts_seat_commands_say_why_not_in_the_players_words():
    """``free`` of a free seat and ``bot`` on a bot's seat are refused before anything is sent,
    in the catalogue's words (the full-screen seats dialog's), not the server's English."""
    from neveryu.client.plain.actions import PlainController

    sent: list[dict] = []
    c = PlainController(PlainTexts("ru"), sent.append, clock=lambda: 100.0)
    seats = [
        {"seat": 0, "name": "ann", "bot": None, "ready": False, "away": False},
        {"seat": 1, "name": None, "bot": None, "ready": False, "away": False},
        {"seat": 2, "name": "bot 3", "bot": "sharp", "ready": True, "away": False},
    ]
    table = {"id": 1, "variant": "verish", "state": "waiting", "seats": seats, "host": 0}
    c.receive({"t": "welcome", "re": 1, "server": {"name": "test"}, "session": "tok"})
    c.receive({"t": "table_joined", "re": 2, "seat": 0, "table": table})
    c.host_seat("free", ("2",))
    c.host_seat("bot", ("3",))
    assert sent == [] and c.notices == ["Место 2 уже свободно.", "Место «Бот 3» уже занимает бот."]
