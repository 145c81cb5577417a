"""The device cookie at the HTTP edge: what links a logged-out browser to the accounts
that took seats from it, so that a block still refuses its person as a guest
(:mod:`decklab.server.seating`).

The cookie is random, set when an account takes a seat in a browser that has none,
``HttpOnly`` (no script reads it) and ``SameSite=Lax`` (a cross-site request does not
carry it); the server keeps only its SHA-256. It authenticates nothing: it can only
refuse a seat.
"""

from __future__ import annotations

from fastapi import Request, Response

from decklab.server.api.session import secure_site
from decklab.server.seating import DEVICE_COOKIE, DEVICE_MAX_AGE_S
from decklab.server.tokens import new_token

DEVICE_MAX_LEN = 100
"""A cookie longer than any this server sets is ignored (it was not set here)."""


def device_of(request: Request) -> str | None:
    """The request's device cookie (None: none, or not one this server sets)."""
    value = request.cookies.get(DEVICE_COOKIE)
    return value if value and len(value) <= DEVICE_MAX_LEN else None


def ensure_device(request: Request, response: Response) -> str:
    """The request's device cookie, set on ``response`` first if it has none."""
    value = device_of(request)
    if value is None:
        value = new_token()
        response.set_cookie(
            DEVICE_COOKIE,
            value,
            max_age=DEVICE_MAX_AGE_S,
            path="/",
            secure=secure_site(request),
            httponly=True,
            samesite="lax",
        )
    return value
