"""Passwords: argon2id hashes (argon2-cffi's defaults, RFC 9106's second choice).

Hashing is slow on purpose (tens of milliseconds and 64 MiB): callers run it off the
event loop. A login for an unknown name still verifies against a hash, so the time an
answer takes does not tell which names exist.
"""

from __future__ import annotations

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

MIN_LENGTH = 8
MAX_LENGTH = 256
"""NIST SP 800-63B: at least 8 characters, long passphrases allowed, no composition rules."""

_hasher = PasswordHasher()
_NOBODY = _hasher.hash("a password nobody has")


def hash_password(password: str) -> str:
    """The PHC string kept in the database (``$argon2id$v=19$m=…``)."""
    return _hasher.hash(password)


def verify(stored: str | None, password: str) -> bool:
    """Whether ``password`` is the one ``stored`` was made from (None: no password set,
    checked against a dummy hash all the same)."""
    try:
        return _hasher.verify(stored or _NOBODY, password) and stored is not None
    except (VerificationError, InvalidHashError):
        return False
