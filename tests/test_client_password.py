"""A server's password (docs/PROTOCOL.md, ``WRONG_PASSWORD``): the full-screen client and the line
mode say the server refused it with ``PasswordRefused`` (no raw error code), and ``neveryu join``
asks for it without echo on a terminal, or says how to give it."""

from __future__ import annotations

import argparse
import os
import shutil

import pytest
from prompt_toolkit.application import create_app_session
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from neveryu.client.commands import join
from neveryu.client.ui import app
from neveryu.client.ui.session_run import PasswordRefused
from neveryu.client.ui.texts import Texts


@pytest.fixture
def server():
    from neveryu.server import ServerConfig, start_in_thread

    running = start_in_thread(ServerConfig(host="127.0.0.1", port=0, name="locked", password="hunter2"))
    try:
        yield running
    finally:
        running.stop()


REFUSED = {None: "this server needs its password", "wrong": "that is not this server's password"}


@pytest.mark.parametrize("password", [None, "wrong"])
def test_a_refused_password_is_raised_not_printed(server, password, capsys):
    refused = pytest.raises(PasswordRefused, match=REFUSED[password])
    with create_pipe_input() as inp, create_app_session(input=inp, output=DummyOutput()), refused:
        app.run_client("127.0.0.1", server.port, name="ann", texts=Texts("en"), password=password)
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize("password", [None, "wrong"])
def test_the_line_mode_raises_a_refused_password_too(server, password, monkeypatch):
    from neveryu.client.plain.session import run_plain
    from neveryu.client.plain.words import PlainTexts

    typed, typing = os.pipe()  # commands from a pipe nothing is written to (until the end)
    monkeypatch.setattr("sys.stdin", os.fdopen(typed))
    try:
        with pytest.raises(PasswordRefused, match=REFUSED[password]):
            run_plain("127.0.0.1", server.port, name="ann", texts=PlainTexts("en"), password=password)
    finally:
        os.close(typing)


def _join(monkeypatch, password, outcomes, typed, tty=True):
    """``neveryu join`` with ``run_client`` answering ``outcomes`` in turn (an exception is
    raised) and ``typed`` the passwords typed; returns the exit code and the passwords tried."""
    tried: list[str | None] = []

    def run_client(host, port, **kw):
        tried.append(kw["password"])
        outcome = outcomes.pop(0)
        if isinstance(outcome, BaseException):
            raise outcome
        return outcome

    monkeypatch.setattr(app, "run_client", run_client)
    monkeypatch.setattr(join, "plain_mode", lambda args: False)
    monkeypatch.setattr(join, "_slot", lambda *a: None)
    monkeypatch.setattr("sys.stdin.isatty", lambda: tty)
    monkeypatch.setattr("getpass.getpass", lambda prompt: typed.pop(0))
    parser = argparse.ArgumentParser()
    join.add_arguments(parser)
    args = parser.parse_args(
        ["127.0.0.1:4999", "--name", "ann"] + (["--password", password] if password else [])
    )
    return join.run(args), tried


def test_join_asks_for_the_password_and_tries_again(monkeypatch, capsys):
    refused = PasswordRefused("this server needs its password")
    code, tried = _join(monkeypatch, None, [refused, refused, 0], ["guess", "hunter2"])
    assert (code, tried) == (0, [None, "guess", "hunter2"])
    assert capsys.readouterr().err == (
        "The server at 127.0.0.1:4999 needs a password.\n"
        "The server at 127.0.0.1:4999 refused that password.\n"
    )


def test_join_gives_up_on_an_empty_password_and_says_how_to_give_one(monkeypatch, capsys):
    refused = PasswordRefused("this server needs its password")
    code, tried = _join(monkeypatch, "wrong", [refused], [""])
    assert (code, tried) == (1, ["wrong"])
    assert capsys.readouterr().err == (
        "The server at 127.0.0.1:4999 refused that password.\n"
        "neveryu join: no password given; with one: neveryu join 127.0.0.1:4999 --password PASSWORD\n"
    )


def test_join_without_a_terminal_to_ask_on_says_how_to_give_it(monkeypatch, capsys):
    refused = PasswordRefused("this server needs its password")
    code, _ = _join(monkeypatch, None, [refused], [], tty=False)
    assert code == 1
    assert capsys.readouterr().err == (
        "neveryu join: the server at 127.0.0.1:4999 needs a password: give it with --password PASSWORD\n"
    )


def test_join_stops_after_three_refused_passwords(monkeypatch, capsys):
    refused = PasswordRefused("this server needs its password")
    code, tried = _join(monkeypatch, "a", [refused] * 3, ["b", "c"])
    assert (code, tried) == (1, ["a", "b", "c"])
    assert capsys.readouterr().err.endswith(
        "neveryu join: the server at 127.0.0.1:4999 refused 3 passwords.\n"
    )


@pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")
def test_join_asks_for_the_password_in_a_terminal_without_echo(server, tmp_path):
    from test_client_tmux import Tmux, join

    tmux = Tmux(64, 20)
    try:
        tmux.start(join(tmp_path, server.port, "--name ann --lang en"))
        tmux.wait_for(lambda s: "Password (Enter alone: give up):" in s, what="the question")
        tmux.keys("guess", "Enter")
        screen = tmux.wait_for(lambda s: "refused that password" in s, what="the refusal")
        assert "guess" not in screen  # typed without echo
        tmux.keys("hunter2", "Enter")
        screen = tmux.wait_for(lambda s: "No tables yet" in s, what="the lobby")
        assert "WRONG_PASSWORD" not in screen
        tmux.keys("q")
        assert "exit 0" in tmux.wait_for(lambda s: "exit " in s, what="the client to quit")
    finally:
        tmux.kill()
