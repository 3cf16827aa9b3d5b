"""Kept sessions: the token that brings a player back to his seat, per server, on disk.

``neveryu join HOST:PORT`` keeps its session token (docs/PROTOCOL.md, "Resume") so that, after
the client died or the machine slept, the same command resumes the seat by itself. One JSON
file per kept session, in ``sessions/`` under the user's state folder (platformdirs'
``user_state_dir("neveryu")``; ``NEVERYU_STATE_DIR`` overrides it)::

    {"server": "192.168.1.20:7420", "name": "ann", "token": "q3Yl...", "seq": 812,
     "deal_seq": 640, "deal_events": 37, "saved": 1764460900}

``seq`` is the last event seen, ``deal_seq`` the ``seq`` of the current deal's ``deal_started``
(0: none), ``deal_events`` how many of the current deal's events (those a ``state.history``
holds, docs/PROTOCOL.md) were shown, ``saved`` Unix time in seconds. The token is a secret: the
folder is made 0700 and each file 0600 (readable by the user only).

A running client holds a lock on its entry (a ``.lock`` file beside it, ``flock`` on POSIX,
``msvcrt.locking`` on Windows) so that a second client of the same user and server does not
take the first one's seat; the lock goes with its process, also after ``SIGKILL``. A file that
cannot be read or parsed is reported (a sentence for the player) and set aside, never fatal.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import secrets
import time
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

import attrs

KEEP_S = 2 * 24 * 3600  # a kept session older than this is stale (its table is long gone)


def state_dir(environ: dict[str, str] | os._Environ[str] | None = None) -> Path:
    """The folder for kept sessions: ``NEVERYU_STATE_DIR``, else platformdirs' user state dir."""
    env = os.environ if environ is None else environ
    if env.get("NEVERYU_STATE_DIR"):
        return Path(env["NEVERYU_STATE_DIR"])
    import platformdirs

    return Path(platformdirs.user_state_dir("neveryu", appauthor=False))


@attrs.frozen
class Kept:
    """A kept session: the server (``"host:port"``), the player's name, the token, the last
    ``seq`` seen, the ``seq`` of the current deal's start (0: none) and how many of the deal's
    history events were shown (``deal_events``)."""

    server: str
    name: str
    token: str
    seq: int
    deal_seq: int
    saved: float
    deal_events: int = 0

    @property
    def replay_from(self) -> int:
        """The ``last_seq`` to resume with. A client started afresh knows nothing of the deal, so
        it asks for every event since the deal began (the server replays them if it still keeps
        them, else sends the deal's state): the deal is rebuilt, and what came after ``seq`` is
        what the player missed."""
        return max(0, self.deal_seq - 1) if self.deal_seq else self.seq


def _lock(handle: IO[bytes]) -> bool:
    """Take an exclusive lock on ``handle`` without waiting; False when another process has it."""
    try:
        import fcntl
    except ImportError:  # Windows
        import msvcrt

        try:
            msvcrt.locking(handle.fileno(), msvcrt.LK_NBLCK, 1)  # type: ignore[attr-defined]
        except OSError:
            return False
        return True
    try:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return False
    return True


def _slug(server: str) -> str:
    return re.sub(r"[^A-Za-z0-9.-]+", "_", server)[:80]


class Slot:
    """This client's place in the store for one server: ``kept`` the session to resume (None:
    none), ``save()`` and ``forget()`` its entry, ``close()`` lets the lock go. Every failure
    to write is reported once through ``problem`` (a sentence) and otherwise ignored."""

    def __init__(
        self,
        path: Path,
        lock: IO[bytes],
        server: str,
        kept: Kept | None,
        problem: Callable[[str], None],
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.path = path
        self.server = server
        self.kept = kept
        self._lock = lock
        self._problem = problem
        self._clock = clock
        self._written: tuple[str, str, int, int, int] | None = None
        self._failed = False

    def save(self, name: str, token: str, seq: int, deal_seq: int, deal_events: int = 0) -> None:
        """Keep ``token`` (for ``name``) with the last ``seq`` seen, the current deal's first
        ``deal_seq`` and its ``deal_events`` shown; every change is written at once (a client
        killed a moment later must not count what its player saw as missed)."""
        now = self._clock()
        what = (name, token, seq, deal_seq, deal_events)
        if what == self._written:
            return
        body = {"server": self.server, "name": name, "token": token, "seq": seq, "deal_seq": deal_seq}
        body["deal_events"] = deal_events
        body["saved"] = int(now)
        try:
            _write_private(self.path, json.dumps(body))
        except OSError as exc:
            self._report(f"cannot keep the session in {self.path}: {exc.strerror or exc}")
            return
        self._written = what

    def forget(self) -> None:
        """Remove the entry: there is no seat to come back to."""
        self._written = None
        try:
            self.path.unlink(missing_ok=True)
        except OSError as exc:
            self._report(f"cannot remove {self.path}: {exc.strerror or exc}")

    def close(self) -> None:
        """Let the lock go (the entry stays, unless forgotten: then its lock file goes too)."""
        with contextlib.suppress(OSError):
            if not self.path.exists():
                self.path.with_suffix(".lock").unlink(missing_ok=True)
        with contextlib.suppress(OSError):
            self._lock.close()

    def _report(self, text: str) -> None:
        if not self._failed:
            self._failed = True
            self._problem(text)


def _write_private(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file made 0600, replacing it whole."""
    tmp = path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise


def _read(path: Path) -> Kept:
    """The entry in ``path``. Raises OSError (unreadable) or ValueError (not an entry)."""
    data: Any = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(data, dict):
        raise ValueError("not a JSON object")
    try:
        kept = Kept(
            str(data["server"]),
            str(data.get("name") or ""),
            str(data["token"]),
            int(data.get("seq") or 0),
            int(data.get("deal_seq") or 0),
            float(data.get("saved") or 0),
            int(data.get("deal_events") or 0),
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise ValueError(f"missing or bad field: {exc}") from None
    if not kept.token:
        raise ValueError("no token")
    return kept


def open_slot(
    server: str,
    name: str | None,
    *,
    folder: Path | None = None,
    problem: Callable[[str], None] = lambda text: None,
    clock: Callable[[], float] = time.time,
) -> Slot | None:
    """This client's slot for ``server`` (``"host:port"``): the most recently saved session of
    that server for the player ``name`` that no running client holds, locked for this process,
    or a new empty slot. Stale entries are removed; unreadable ones reported through
    ``problem`` and set aside (renamed ``*.bad``). None when the folder cannot be used at all
    (reported too): the client then keeps nothing."""
    folder = (folder or state_dir()) / "sessions"
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError as exc:
        problem(f"cannot use {folder} to keep the session: {exc.strerror or exc}")
        return None
    prefix = _slug(server) + "-"
    found: list[tuple[Kept, Path]] = []
    try:
        paths = sorted(folder.glob(prefix + "*.json"))
    except OSError as exc:
        problem(f"cannot read {folder}: {exc.strerror or exc}")
        paths = []
    for path in paths:
        try:
            kept = _read(path)
        except (OSError, ValueError, UnicodeDecodeError) as exc:
            why = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            problem(f"the kept session {path} cannot be read ({why}); it is set aside")
            with contextlib.suppress(OSError):
                path.rename(path.with_suffix(".bad"))
            continue
        if kept.server != server or (name is not None and kept.name != name):
            continue  # another server's, or another player's (--name): not this client's to take
        if clock() - kept.saved > KEEP_S:
            with contextlib.suppress(OSError):
                path.unlink()
            continue
        found.append((kept, path))
    _sweep_locks(folder, prefix)
    found.sort(key=lambda kp: -kp[0].saved)
    for kept, path in found:
        lock = _open_lock(path, problem)
        if lock is None:
            continue
        if _lock(lock):
            return Slot(path, lock, server, kept, problem, clock)
        lock.close()
    path = folder / f"{prefix}{secrets.token_hex(4)}.json"
    lock = _open_lock(path, problem)
    if lock is None or not _lock(lock):
        return None
    return Slot(path, lock, server, None, problem, clock)


def _sweep_locks(folder: Path, prefix: str) -> None:
    """Remove the lock files of entries that are gone, unless a running client holds them (one
    killed before it kept anything leaves its lock file behind)."""
    with contextlib.suppress(OSError):
        for lock_path in folder.glob(prefix + "*.lock"):
            if lock_path.with_suffix(".json").exists():
                continue
            with contextlib.suppress(OSError), open(lock_path, "r+b") as handle:
                if _lock(handle):
                    lock_path.unlink()


def _open_lock(path: Path, problem: Callable[[str], None]) -> IO[bytes] | None:
    try:
        fd = os.open(path.with_suffix(".lock"), os.O_RDWR | os.O_CREAT, 0o600)
    except OSError as exc:
        problem(f"cannot lock {path}: {exc.strerror or exc}")
        return None
    return os.fdopen(fd, "r+b")
