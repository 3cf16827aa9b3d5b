"""What each typed command does (client/plain/commands.py names them): an action through the
controller (client/plain/actions.py), a question answered at once (client/plain/answers.py),
or a setting. ``perform(c, cmd, out, now)`` runs one; every refusal is one line."""

from __future__ import annotations

from collections.abc import Callable

from . import answers
from .actions import PlainController
from .commands import Command, Refusal, lay_order
from .words import CARDS_AS

Out = Callable[[str], None]

QUESTIONS: dict[str, Callable[[PlainController], list[str]]] = {
    "hand": answers.hand_lines,
    "pile": answers.pile_lines,
    "who": answers.who_lines,
    "last": answers.last_lines,
    "legal": lambda c: [answers.legal_line(c)],
    "rules": answers.rules_lines,
    "scores": lambda c: answers.page(c, "scores"),
    "help": answers.help_lines,
}
CALLS: dict[str, Callable[[PlainController], None]] = {
    "no": PlainController.challenge,
    "yes": PlainController.believe,
    "none": PlainController.declare_none,
    "quads": PlainController.discard_quads,
    "keep": PlainController.decline_quads,
    "ready": PlainController.ready,
    "start": PlainController.ready,
}


def perform(c: PlainController, cmd: Command, out: Out, now: float) -> None:
    """Do ``cmd``; what it says goes through ``out`` (answers) or ``c.say`` (refusals)."""
    name, words = cmd.name, cmd.words
    t = c.t
    if name in QUESTIONS:
        for line in QUESTIONS[name](c):
            out(line)
    elif name == "time":
        out(answers.time_line(c, now))
    elif name in CALLS:
        CALLS[name](c)
    elif name == "lay":
        try:
            order = lay_order(words)
        except Refusal as exc:
            c.refuse(exc)
            return
        c.lay_order(order)
    elif name == "chat":
        if cmd.rest:
            c.send_chat(cmd.rest)
        else:
            c.say(t("plain.usage", usage="chat TEXT"))
    elif name == "tables":
        c.asked.add("tables")
        c.refresh()
    elif name in ("join", "watch"):
        c.join_table(words, spectate=name == "watch")
    elif name == "create":
        c.create(words)
    elif name in ("stats", "top", "history"):
        c.ask_page(name, words)
    elif name == "replay":
        _replay(c, words)
    elif name in ("bot", "free"):
        c.host_seat(name, words)
    elif name == "leave":
        if c.state.screen == "table":
            c._leave()
        else:
            c.say(t("plain.no_table"))
    elif name == "quit":
        if c.leave_quits and c.state.screen == "table":
            c._leave()  # as q does in neveryu play: the game ends (end of input or Ctrl-C keeps it)
        else:
            c.quit()
    elif name in ("cards", "bell"):
        _setting(c, name, words)


def _replay(c: PlainController, words: tuple[str, ...]) -> None:
    t = c.t
    if not words or not words[0].isdigit():
        c.say(t("plain.usage", usage="replay ID (history lists them)"))
    elif c.state.connection != "connected":
        c.say(t("no.connection"))
    elif not c.records:
        c.say(t("no.records"))
    else:
        c.send({"t": "get_record", "deal": int(words[0])})
        c.say(t("plain.replay_asking", id=int(words[0])))


def _setting(c: PlainController, name: str, words: tuple[str, ...]) -> None:
    t = c.t
    value = words[0].lower() if words else ""
    if name == "cards" and value in CARDS_AS:
        c.t.cards_as = value  # type: ignore[attr-defined]
        how = t("plain.cards_words") if value == "words" else t("plain.cards_codes")
        c.say(t("plain.setting_cards", how=how))
    elif name == "bell" and value in ("on", "off"):
        c.prefs.bell = value == "on"
        c.say(t("plain.setting_bell", how=t("plain.on") if c.prefs.bell else t("plain.off")))
    else:
        c.say(
            t("plain.usage", usage="cards words | cards codes" if name == "cards" else "bell on | bell off")
        )
