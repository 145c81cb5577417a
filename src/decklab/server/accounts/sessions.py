"""Session tokens and the CSRF token that goes with each.

A session token is 32 random bytes in an HttpOnly cookie; the database keeps only its
SHA-256 (:func:`decklab.server.tokens.hash_token`). The CSRF token is derived from it
(an HMAC), so nothing more is stored: the page gets it from ``/api/me`` (which another
site cannot read) and sends it back in a header with every state-changing request that
the cookie authenticates; another site's form or ``fetch`` cannot know it.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets

COOKIE = "decklab_session"
CSRF_HEADER = "x-csrf-token"
MAX_AGE_S = 400 * 24 * 3600
"""Cookies are capped at 400 days by browsers (RFC 6265bis): a session lives until it is
logged out, revoked, or its account deleted."""


def new_session_token() -> str:
    return secrets.token_urlsafe(32)


def csrf_token(session_token: str) -> str:
    digest = hmac.new(session_token.encode(), b"decklab csrf", hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def csrf_matches(session_token: str, sent: str | None) -> bool:
    return bool(sent) and hmac.compare_digest(csrf_token(session_token), sent or "")
