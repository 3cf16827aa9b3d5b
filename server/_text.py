"""Text one client sends that others see (player names, chat), made safe to show.

A hostile client could put terminal escape sequences (``ESC [ 2 J``), other control characters
or bidirectional overrides (U+202E) in its name or chat to garble or spoof what other players'
terminals show. The server passes on no such character: each becomes U+FFFD (docs/PROTOCOL.md,
"hello" and "chat"). Letters, marks, emoji and their joiners (U+200C, U+200D) pass unchanged.
"""

from __future__ import annotations

import unicodedata

REPLACEMENT = "\ufffd"
JOINERS = frozenset("\u200c\u200d")  # zero-width non-joiner and joiner: parts of emoji and scripts
SPACES = frozenset("\t\n\r")  # shown as one space in chat


def shown(text: str) -> str:
    """``text`` with every control, format (bidi overrides, zero-width space), surrogate,
    private-use or unassigned character replaced by U+FFFD; tab and line breaks become a space."""
    out = []
    for ch in text:
        if ch in SPACES:
            out.append(" ")
        elif unicodedata.category(ch)[0] == "C" and ch not in JOINERS:
            out.append(REPLACEMENT)
        else:
            out.append(ch)
    return "".join(out)


def blank(text: str) -> bool:
    """True when ``text`` shows nothing a person could read (only spaces, marks, joiners, U+FFFD)."""
    return not any(unicodedata.category(ch)[0] in "LNPS" and ch != REPLACEMENT for ch in text)
