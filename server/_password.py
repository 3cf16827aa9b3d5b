"""Checking a password a client gives (the server's, ``hello.password``; a table's,
``join_table.password``/``spectate.password``) in constant time, whatever its characters.

A table's password is kept in the journal of live tables (``records.journal``) only as a ``Digest``:
the table restored after a restart checks what players give against that."""

from __future__ import annotations

import hashlib
import secrets
from typing import Any

import attrs


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
