"""The session cookie at the HTTP edge: who is logged in, the cookie's attributes, and
the CSRF guard in front of every state-changing request a cookie authenticates.

A browser sends the cookie with every request to this site, including one that a page
on another site makes it send (a form, a ``fetch`` in no-cors mode): that is cross-site
request forgery. Three fences, each enough alone for today's browsers:

- the cookie is ``SameSite=Lax``: a cross-site POST does not carry it;
- a state-changing request that carries the cookie must carry ``X-CSRF-Token`` too, the
  token derived from the session (:mod:`decklab.server.accounts.sessions`), which only a
  page of this site can read (``/api/me``), and which a form cannot set as a header;
- such a request (and a login or sign-up, which sets a cookie) is refused when its
  ``Origin`` is another site's or its ``Sec-Fetch-Site`` says ``cross-site``.
"""

from __future__ import annotations

import json
from typing import Annotated

from fastapi import Depends, Request, Response
from starlette.requests import HTTPConnection
from starlette.types import ASGIApp, Receive, Scope, Send

from decklab.server.accounts.service import AccountService, Caller
from decklab.server.accounts.sessions import COOKIE, CSRF_HEADER, MAX_AGE_S, csrf_matches
from decklab.server.api.origin import SitePolicy
from decklab.server.errors import ServiceError

SAFE_METHODS = ("GET", "HEAD", "OPTIONS")
LOGIN_PATHS = (
    "/api/account/signup",
    "/api/account/login",
    "/api/account/passkeys/login",
)
"""Requests that open a session: no CSRF token yet (whatever stale cookie they carry),
but checked for a foreign Origin, so another site cannot log a visitor into its account."""


class CsrfGuard:
    """ASGI middleware: the CSRF fences above, before any route reads the request."""

    def __init__(self, app: ASGIApp, policy: SitePolicy) -> None:
        self.app = app
        self.policy = policy

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope.get("method", "GET") in SAFE_METHODS:
            await self.app(scope, receive, send)
            return
        conn = HTTPConnection(scope)
        cookie = conn.cookies.get(COOKIE)
        path = scope.get("path", "")
        opening = path.startswith(LOGIN_PATHS)
        why = None
        if cookie or opening:
            headers = conn.headers
            if headers.get("sec-fetch-site") == "cross-site" or not self.policy.origin_allowed(
                headers.get("origin"), headers.get("host"), scope.get("scheme", "http")
            ):
                why = "a request from another site may not act for a logged-in person"
            elif cookie and not opening and not csrf_matches(cookie, headers.get(CSRF_HEADER)):
                why = f"a logged-in request that changes something needs the {CSRF_HEADER} header"
        if why is None:
            await self.app(scope, receive, send)
            return
        body = json.dumps({"error": {"code": "csrf", "message": why}}).encode()
        await send(
            {
                "type": "http.response.start",
                "status": 403,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})


def get_accounts(request: Request) -> AccountService:
    accounts: AccountService = request.app.state.accounts
    return accounts


AccountsDep = Annotated[AccountService, Depends(get_accounts)]


async def optional_caller(request: Request, accounts: AccountsDep) -> Caller | None:
    """The logged-in account (None: a guest, or a cookie that logs in nobody any more)."""
    return await accounts.caller(request.cookies.get(COOKIE))


async def required_caller(caller: Annotated[Caller | None, Depends(optional_caller)]) -> Caller:
    if caller is None:
        raise ServiceError("unauthorized", "log in first", 401)
    return caller


MaybeCallerDep = Annotated[Caller | None, Depends(optional_caller)]
CallerDep = Annotated[Caller, Depends(required_caller)]


def secure_site(request: Request) -> bool:
    """Whether cookies get ``Secure``: the request came over https (a trusted proxy's
    forwarded scheme counts) or the site's public URL is https."""
    policy: SitePolicy = request.app.state.site_policy
    return request.url.scheme == "https" or any(s.scheme == "https" for s in policy.public_sites)


def set_session_cookie(response: Response, request: Request, token: str) -> None:
    response.set_cookie(
        COOKIE,
        token,
        max_age=MAX_AGE_S,
        path="/",
        secure=secure_site(request),
        httponly=True,
        samesite="lax",
    )


def clear_session_cookie(response: Response, request: Request) -> None:
    response.delete_cookie(
        COOKIE, path="/", secure=secure_site(request), httponly=True, samesite="lax"
    )
