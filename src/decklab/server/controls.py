"""Control characters kept out of stored text and out of the moderator's terminal.

A report's reason, a nickname or a chat line is typed by anyone; ``decklab admin``
prints them to a terminal, where an escape sequence (``ESC ] 0 ; … BEL`` sets the
window title, ``ESC [ 2 J`` clears the screen, some terminals answer queries as typed
input) would act instead of being read. So text is stored without control characters,
and everything the admin command prints goes through :func:`for_terminal` as well, for
the rows written before that or by another path.
"""

from __future__ import annotations

import unicodedata

_BIDI = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
"""Direction overrides and isolates: they reorder what follows on the screen (the
"Trojan Source" trick), so a line could read otherwise than it is."""


def _control(ch: str) -> bool:
    return unicodedata.category(ch) == "Cc" or ch in _BIDI


def strip_controls(text: str, keep_newlines: bool = False) -> str:
    """``text`` without control characters (C0, DEL, C1) nor direction overrides; line
    breaks are kept (as ``\\n``) when ``keep_newlines``, a tab becomes a space."""
    text = text.replace("\r\n", "\n").replace("\t", " ")
    return "".join(ch for ch in text if not _control(ch) or (keep_newlines and ch == "\n"))


def for_terminal(value: object) -> str:
    """``value`` as text a terminal shows and does not obey: each control character
    (newlines too, so one record stays one line) is written out as its escape, as
    ``\\x1b`` or ``\\u202e``."""
    text = str(value)
    if not any(_control(ch) for ch in text):
        return text
    out = []
    for ch in text:
        if not _control(ch):
            out.append(ch)
        elif ord(ch) < 0x100:
            out.append(f"\\x{ord(ch):02x}")
        else:
            out.append(f"\\u{ord(ch):04x}")
    return "".join(out)
