"""Shared by every test: whatever a test's client receives from a server is checked where it is
received. The client side of the protocol already refuses anything but wire types (a float, bin,
ext, a repeated key: ``BAD_FRAME``) and a broken envelope; here every message is also checked
against its documented message class (``protocol.EVENTS``/``REPLIES``: every field present, of
its type and range), and a type the protocol does not document fails the test. The server sends
exactly as in production: nothing is switched on inside it."""

from __future__ import annotations

import pathlib
import sys
from collections.abc import Iterator
from typing import Any

import pytest

from neveryu import protocol

# `python -m pytest` puts the working directory first on sys.path: from the repository's root its
# folders (engine/, server/, ...) would import as top-level packages, a second copy beside the
# installed neveryu.* that the tests are about. Only tests/ (pyproject's `pythonpath`) is wanted.
_ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path[:] = [p for p in sys.path if pathlib.Path(p or ".").resolve() != _ROOT]


def checked_message(msg: dict[str, Any]) -> None:
    """Raise AssertionError unless ``msg`` (as a client decodes it) is a documented message."""
    registry = protocol.REPLIES if "re" in msg else protocol.EVENTS
    cls = registry.get(msg["t"])
    assert cls is not None, f"the server sent an undocumented message type: {msg['t']!r}"
    try:
        cls.from_wire(msg)
    except protocol.RemoteProtocolError as exc:
        raise AssertionError(f"the server sent a {msg['t']} its schema refuses: {exc}") from None


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "raw_messages: the test feeds a client hand-made server messages; they are not checked"
    )


@pytest.fixture(autouse=True)
def _check_what_clients_receive(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    if request.node.get_closest_marker("raw_messages") is not None:
        return
    receive = protocol.Connection.next_message

    def next_message(self: protocol.Connection) -> dict[str, Any] | None:
        msg = receive(self)
        if msg is not None:
            checked_message(msg)
        return msg

    monkeypatch.setattr(protocol.Connection, "next_message", next_message)


@pytest.fixture
def records_db(tmp_path: pathlib.Path) -> Iterator[str]:
    """A records database for the test's servers (``ServerConfig(db=records_db)``): when the
    test is over, every deal they recorded must replay exactly through the engine and give valid
    hand histories, whole and as each seat saw them (tests/records_checks.py)."""
    from records_checks import check_database

    path = tmp_path / "records.sqlite3"
    yield str(path)
    if path.exists():
        check_database(path)


@pytest.fixture(autouse=True)
def _records_stay_in_the_test(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> Iterator[None]:
    """``neveryu serve`` and ``neveryu play`` record by default in the user's data folder: in a
    test (and the programs it starts) that folder is the test's own, and every deal recorded
    there must replay exactly too. The user's state folder (kept sessions, the player key) is
    the test's own as well."""
    from records_checks import check_database

    folder = tmp_path_factory.mktemp("data")
    monkeypatch.setenv("NEVERYU_DATA_DIR", str(folder))
    # kept sessions and the player key too: the user's own are not the test's, and test workers
    # running at once must not share them
    monkeypatch.setenv("NEVERYU_STATE_DIR", str(tmp_path_factory.mktemp("state")))
    yield
    if (folder / "records.sqlite3").exists():
        check_database(folder / "records.sqlite3")
