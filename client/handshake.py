"""What a client says of a peer that is not a neveryu server (the terminal client's
client/ui/net.py and ``neveryu bot``'s client/botclient.py say it alike): how long the handshake
may take, and the words for a peer that says nothing, closes at once, or answers something else.
"""

from __future__ import annotations

HANDSHAKE_S = 5.0  # connect, then welcome: each within this (the server's own handshake time)
RETRY_DELAYS_S = (0.5, 1.0, 2.0, 3.0, 5.0)  # between tries to resume a lost connection


class Refused(Exception):
    """The peer is not a neveryu server we can talk to; the message says why, for people."""


def silent(address: str, seconds: float) -> str:
    """A peer that accepted the connection and said nothing within ``seconds``."""
    return f"no answer from {address} within {seconds:g} s: is it a neveryu server?"


def closed_at_once(address: str) -> str:
    """A peer that closed the connection before any frame."""
    return f"{address} closed the connection without a word: is it a neveryu server?"


def not_neveryu(address: str, first: bytes) -> str:
    """What to say when ``address`` answered ``first`` (its first bytes) instead of a neveryu
    frame: a web server by its status line, anything else as "something else"."""
    if first.startswith(b"HTTP/"):
        status = first.split(b"\r\n", 1)[0].decode("ascii", "replace")[:60]
        return f"{address} is not a neveryu server: it answers as a web server ({status})"
    if first.startswith((b"SSH-", b"220 ", b"+OK", b"* OK")):
        line = first.split(b"\n", 1)[0].decode("ascii", "replace").strip()[:60]
        return f"{address} is not a neveryu server: it answers {line!r}"
    return f"{address} is not a neveryu server: it answers something else"
