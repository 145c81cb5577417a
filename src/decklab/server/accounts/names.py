"""Usernames: what may be one, and the folded key that makes ``Ann`` and ``ann`` one name."""

from __future__ import annotations

import re

NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{1,19}$")
"""2–20 letters, digits, ``_`` and ``-``, starting with a letter or digit (Lichess's rule)."""


def check_username(name: str) -> str | None:
    """Why a username is refused (None: it is fine)."""
    if not NAME.match(name):
        return "a username is 2 to 20 letters, digits, _ or -, starting with a letter or digit"
    return None


def name_key(name: str) -> str:
    """The key names are unique by (case folded)."""
    return name.strip().casefold()
