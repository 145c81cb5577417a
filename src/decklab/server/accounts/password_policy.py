"""Which new passwords are refused: too short or too long, one of the 10,000 most common,
or made from the username or the site's name (NIST SP 800-63B, section 5.1.1.2: no
composition rules, but a check against known and context-specific words).

The list ships with the package (``common_passwords.txt.gz``, from the ranked list of
the zxcvbn project: ``scripts/common-passwords.py``) and is read once, at the first check.
"""

from __future__ import annotations

import functools
import gzip
import re
from importlib.resources import files

from decklab.server.accounts.passwords import MAX_LENGTH, MIN_LENGTH

SITE_NAMES = ("decklab",)
_FILLER = re.compile(r"[\W_\d]+")


@functools.cache
def common_passwords() -> frozenset[str]:
    """The 10,000 most common passwords, in lower case."""
    data = files("decklab.server.accounts").joinpath("common_passwords.txt.gz").read_bytes()
    return frozenset(gzip.decompress(data).decode().split())


def _core(text: str) -> str:
    """A word with case, digits and punctuation taken off: what "ann1984!" is made of."""
    return _FILLER.sub("", text.lower())


def refusal(password: str, username: str = "", site_names: tuple[str, ...] = ()) -> str | None:
    """Why a new password is refused, in words for the person choosing it (None: fine)."""
    if len(password) < MIN_LENGTH:
        return f"a password has at least {MIN_LENGTH} characters"
    if len(password) > MAX_LENGTH:
        return f"a password has at most {MAX_LENGTH} characters"
    lowered = password.lower()
    if lowered in common_passwords() or lowered.strip() in common_passwords():
        return "that password is one of the most common: choose another"
    core = _core(password)
    if username and core and core == _core(username):
        return "a password may not be your username: choose another"
    for name in (*SITE_NAMES, *site_names):
        if core and core == _core(name):
            return "a password may not be the site's name: choose another"
    if len(set(lowered)) <= 2:
        return "a password of one or two repeated characters is too easy to guess"
    return None


def site_names(public_urls: tuple[str, ...]) -> tuple[str, ...]:
    """The words of the site's public host names ("cards.example": "cards", "example"),
    which no password may be."""
    names: list[str] = []
    for url in public_urls:
        host = url.split("://", 1)[-1].split("/", 1)[0].split(":", 1)[0]
        names += [host, *host.split(".")]
    return tuple(n for n in names if n)
