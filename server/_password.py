"""Checking a password a client gives (the server's, ``hello.password``; a table's,
``join_table.password``/``spectate.password``) in constant time, whatever its characters.

A table's password is kept in the journal of live tables (``records.journal``) only as a ``Digest``:
the table restored after a restart checks what players give against that. The server's password
is guarded against guessing (``Guard``): one try a second per address after a wrong one."""

from __future__ import annotations

import hashlib
import math
import secrets
from collections.abc import Callable
from typing import Any

import attrs
import trio


@attrs.frozen
class Digest:
    """A password as the journal keeps it: ``sha256`` (lowercase hex) of the UTF-8 bytes of
    ``salt + ":" + password``, ``salt`` 32 random hex characters."""

    salt: str
    sha256: str

    @classmethod
    def of(cls, password: str) -> Digest:
        salt = secrets.token_hex(16)
        return cls(salt, _hash(salt, password))

    def matches(self, given: str) -> bool:
        return secrets.compare_digest(_hash(self.salt, given), self.sha256)


def _hash(salt: str, password: str) -> str:
    return hashlib.sha256(f"{salt}:{password}".encode()).hexdigest()


def password_ok(given: Any, want: str | Digest | None) -> bool:
    """True when there is no password (``want`` None) or ``given`` is it (a ``Digest``: hashes
    to it). Compares the UTF-8 bytes (``secrets.compare_digest`` refuses str with non-ASCII
    characters: a password in Cyrillic must work). ``given`` None or absent counts as ""."""
    if want is None:
        return True
    if isinstance(want, Digest):
        return want.matches(str(given or ""))
    return secrets.compare_digest(str(given or "").encode("utf-8"), want.encode("utf-8"))


GUESS_WAIT_S = 1.0
"""After a wrong server password from an address, how long its next ``hello`` waits before it
is checked (``Guard``)."""

MAX_WATCHED = 4096  # addresses remembered at most (the oldest are forgotten first)


class Guard:
    """The server's password against guessing: after a wrong password from an address, its next
    ``hello`` is checked only ``GUESS_WAIT_S`` later (and the one after, ``GUESS_WAIT_S`` after
    that, if that was wrong too), so one address tries at most one password a second however
    many connections it opens; a player who mistyped is let in a moment later."""

    def __init__(self) -> None:
        self._wait_until: dict[str, float] = {}  # address -> when its next check may be made

    def waits(self, address: str) -> bool:
        """A ``hello`` from ``address`` must wait for its turn (``in_turn``) before ``refusal``."""
        return self._wait_until.get(address, -math.inf) > trio.current_time()

    async def in_turn(self, address: str, then: Callable[[], None]) -> None:
        """Call ``then`` (the ``hello``'s handling) once ``address`` may try a password again
        (another wrong one meanwhile puts its turn off again)."""
        while self.waits(address):
            await trio.sleep_until(self._wait_until[address])
        then()

    def refusal(self, address: str, given: Any, want: str | None) -> str | None:
        """Why ``given`` (``hello.password``) from ``address`` is refused (the text of
        ``WRONG_PASSWORD``), or None when it is let in. A wrong one makes the address wait."""
        if password_ok(given, want):
            return None
        if given is None:  # (no guess: the client asks its player, then tries again)
            return "this server needs its password"
        self._wait_until.pop(address, None)
        self._wait_until[address] = trio.current_time() + GUESS_WAIT_S
        while len(self._wait_until) > MAX_WATCHED:
            del self._wait_until[next(iter(self._wait_until))]
        return "that is not this server's password"
