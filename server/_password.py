"""Checking a password a client gives (the server's, ``hello.password``; a table's,
``join_table.password``/``spectate.password``) in constant time, whatever its characters."""

from __future__ import annotations

import secrets
from typing import Any


def password_ok(given: Any, want: str | None) -> bool:
    """True when there is no password (``want`` None) or ``given`` is it. Compares the UTF-8
    bytes (``secrets.compare_digest`` refuses str with non-ASCII characters: a password in
    Cyrillic must work). ``given`` None or absent counts as ""."""
    if want is None:
        return True
    return secrets.compare_digest(str(given or "").encode("utf-8"), want.encode("utf-8"))
