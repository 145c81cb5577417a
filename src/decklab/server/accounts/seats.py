"""An account's seat tokens, derived so that any of its devices can be handed them.

A guest's seat token is random and only its hash is kept, so it lives in one browser.
An account's seat token is HMAC-SHA256(the account's seat key, the seat's salt): the
seat row keeps the salt and the token's hash, the account row the key, and a logged-in
device asking for its games gets the same token again. Deleting the account deletes
the key: nobody can derive the token again.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets


def new_key() -> bytes:
    """An account's seat key: 32 random bytes."""
    return secrets.token_bytes(32)


def new_salt() -> str:
    """A seat's salt: 16 random bytes as text."""
    return secrets.token_urlsafe(16)


def seat_token(key: bytes, salt: str) -> str:
    """The seat's token: 256 bits, URL-safe text like a guest's."""
    digest = hmac.new(key, salt.encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()
