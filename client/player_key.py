"""The player key: a secret this user's clients send in every ``hello`` (``player_key``), so that
a server knows him again, whatever name he types (docs/PLAYERS.md). No account, no password: the
key is made once, at random, and kept in the user's state folder (the one of the kept sessions,
``session_store.state_dir``; ``NEVERYU_STATE_DIR`` moves it) as the file ``player_key``, made
0600 in a folder made 0700: readable by the user only. A server keeps only its hash.

Whoever copies the file plays as this player (that is how to take one's statistics to another
machine); whoever loses it is a new player. A file that cannot be read, or holds no valid key,
is reported (a sentence for the player) and left as it is: the client then plays as a guest
rather than overwrite what may be someone's identity.
"""

from __future__ import annotations

import contextlib
import os
import re
import secrets
from collections.abc import Callable
from pathlib import Path

from .session_store import state_dir

FILE = "player_key"
KEY_BYTES = 32  # random bytes in a new key (43 characters of base64url)
VALID = re.compile(r"[A-Za-z0-9_-]{32,128}")  # docs/PROTOCOL.md, hello.player_key


def key_path(folder: Path | None = None) -> Path:
    """Where the key is kept: ``player_key`` in ``folder`` (default: the state folder)."""
    return (folder or state_dir()) / FILE


def read_player_key(folder: Path | None = None) -> str | None:
    """The key kept in ``folder`` (default: the state folder), or None when there is none or it
    is not a valid key. Never makes one."""
    try:
        text = key_path(folder).read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError):
        return None
    return text if VALID.fullmatch(text) else None


def player_key(
    folder: Path | None = None, *, problem: Callable[[str], None] = lambda text: None
) -> str | None:
    """This user's player key, made (and kept) the first time. None, reported through
    ``problem``, when the kept file cannot be read or holds no valid key, or when no key can be
    kept: the client then plays as a guest."""
    path = key_path(folder)
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError as exc:
        problem(f"cannot keep a player key in {path.parent}: {exc.strerror or exc}; you play as a guest")
        return None
    key = secrets.token_urlsafe(KEY_BYTES)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return _existing(path, problem)
    except OSError as exc:
        problem(f"cannot keep a player key in {path}: {exc.strerror or exc}; you play as a guest")
        return None
    try:
        with os.fdopen(fd, "w", encoding="ascii") as f:
            f.write(key + "\n")
    except OSError as exc:
        with contextlib.suppress(OSError):
            path.unlink()
        problem(f"cannot keep a player key in {path}: {exc.strerror or exc}; you play as a guest")
        return None
    return key


def _existing(path: Path, problem: Callable[[str], None]) -> str | None:
    """The key in ``path``, which exists; its mode made 0600 if others could read it."""
    try:
        text = path.read_text(encoding="ascii").strip()
        if os.name == "posix" and path.stat().st_mode & 0o077:
            path.chmod(0o600)
    except (OSError, UnicodeDecodeError) as exc:
        why = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        problem(f"cannot read your player key {path} ({why}); you play as a guest")
        return None
    if not VALID.fullmatch(text):
        problem(f"{path} holds no valid player key (it is left as it is); you play as a guest")
        return None
    return text
