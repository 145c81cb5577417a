"""Seat tokens: random, kept by the player, stored only as a hash, compared in constant time."""

from __future__ import annotations

import hashlib
import hmac
import secrets


def new_token() -> str:
    """A fresh seat token: 32 random bytes (256 bits), URL-safe text."""
    return secrets.token_urlsafe(32)


def hash_token(token: str) -> str:
    """What the database keeps: SHA-256 of the token (a token has full entropy, so no
    salt or slow hash is needed to stop guessing)."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def matches(token: str | None, stored_hash: str | None) -> bool:
    """Whether ``token`` is the one whose hash is stored, in constant time."""
    if not token or not stored_hash:
        return False
    return hmac.compare_digest(hash_token(token), stored_hash)
