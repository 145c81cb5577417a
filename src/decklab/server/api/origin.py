"""Which Host a request may name, and which Origin may open a WebSocket.

Two attacks are closed here. *Cross-site WebSocket hijacking*: a page on another site
opens the live socket with the visitor's browser; the browser says where the page came
from in ``Origin``, which must be this server's own origin — scheme, host and port, so
``https://host`` is not ``http://host``. *DNS rebinding*: an attacker's name is made to
resolve to this server, so the browser thinks the page and the server share an origin;
the request then carries the attacker's name in ``Host``, which must be one this server
answers to.

With ``--public-url`` (:attr:`Settings.public_urls`) the server answers only to those
URLs' host and port, and a WebSocket's Origin must be one of them (or an
``--allowed-origin``). Without it (development on one machine) the Host must be
``localhost``, an IP address (no DNS name can be rebound to one) or the name the server
was told to listen on; the Origin must then be the request's own scheme, host and port.
Behind a trusted proxy the scheme is the one it forwards (``X-Forwarded-Proto``).
"""

from __future__ import annotations

import ipaddress
import json
from dataclasses import dataclass
from urllib.parse import urlsplit

from starlette.requests import HTTPConnection
from starlette.types import ASGIApp, Receive, Scope, Send

from decklab.server.config import Settings

DEFAULT_PORTS = {"http": 80, "https": 443}
WEB_SCHEMES = {"http": "http", "https": "https", "ws": "http", "wss": "https"}
UNCHECKED_PATHS = ("/api/health",)
"""Answered whatever the Host: a load balancer's or orchestrator's probe names the
server by its address, and a health answer tells an attacker nothing."""
CLOSE_POLICY = 4403


@dataclass(frozen=True)
class Site:
    """An origin: scheme (``http`` or ``https``), host (lower case) and port."""

    scheme: str
    host: str
    port: int

    @property
    def explicit_port(self) -> bool:
        return self.port != DEFAULT_PORTS[self.scheme]


def parse_origin(text: str) -> Site | None:
    """``https://Cards.Example`` → ``Site("https", "cards.example", 443)``; None if it is
    not an http(s) origin (``null``, a file, nonsense). A path is ignored (public URLs)."""
    try:
        parts = urlsplit(text.strip())
        scheme = WEB_SCHEMES.get(parts.scheme.lower())
        host, port = parts.hostname, parts.port
    except ValueError:
        return None
    if scheme is None or not host:
        return None
    return Site(scheme, host.lower(), port if port is not None else DEFAULT_PORTS[scheme])


def parse_host(header: str) -> tuple[str, int | None] | None:
    """A Host header's name and port (None: no port given); None if it is malformed."""
    if not header or any(c in header for c in "/?#@ \\"):
        return None
    try:
        parts = urlsplit(f"//{header}")
        host, port = parts.hostname, parts.port
    except ValueError:
        return None
    return (host.lower(), port) if host else None


def is_ip(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


class SitePolicy:
    """The Host and Origin rules of one server, from its settings."""

    def __init__(self, settings: Settings) -> None:
        self.public = [parse_origin(url) for url in settings.public_urls]
        if None in self.public:
            bad = [u for u in settings.public_urls if parse_origin(u) is None]
            raise ValueError(f"not an http(s) URL: {', '.join(bad)}")
        self.public_sites = {site for site in self.public if site is not None}
        self.extra_origins = {
            site for site in map(parse_origin, settings.allowed_origins) if site is not None
        }
        bind = settings.bind_host.strip("[]").lower()
        self.bind_name = bind if bind and bind not in ("0.0.0.0", "::") else ""

    def host_allowed(self, header: str | None) -> bool:
        parsed = parse_host(header or "")
        if parsed is None:
            return False
        host, port = parsed
        if self.public_sites:
            return any(
                site.host == host
                and (site.port == port if port is not None else not site.explicit_port)
                for site in self.public_sites
            )
        return host == "localhost" or is_ip(host) or host == self.bind_name

    def origin_allowed(self, origin: str | None, host: str | None, scheme: str) -> bool:
        """No Origin (not a browser); else the server's own origin or an allowed one."""
        if origin is None:
            return True
        site = parse_origin(origin)
        if site is None:
            return False
        if site in self.extra_origins or site in self.public_sites:
            return True
        if self.public_sites:
            return False
        own_scheme = WEB_SCHEMES.get(scheme, "http")
        parsed = parse_host(host or "")
        if parsed is None:
            return False
        name, port = parsed
        return site == Site(own_scheme, name, port or DEFAULT_PORTS[own_scheme])


def origin_allowed(ws: HTTPConnection) -> bool:
    """The live socket's Origin check, by the application's :class:`SitePolicy`."""
    policy: SitePolicy = ws.app.state.site_policy
    return policy.origin_allowed(
        ws.headers.get("origin"), ws.headers.get("host"), ws.scope.get("scheme", "http")
    )


class HostCheck:
    """ASGI middleware: a request (HTTP or WebSocket) naming a Host this server does not
    answer to gets 400 (a WebSocket: closed with 4403 before it is accepted)."""

    def __init__(self, app: ASGIApp, policy: SitePolicy) -> None:
        self.app = app
        self.policy = policy

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (
            scope["type"] not in ("http", "websocket")
            or scope.get("path", "").startswith(UNCHECKED_PATHS)
            or self.policy.host_allowed(HTTPConnection(scope).headers.get("host"))
        ):
            await self.app(scope, receive, send)
            return
        if scope["type"] == "websocket":
            await receive()  # websocket.connect
            await send({"type": "websocket.close", "code": CLOSE_POLICY})
            return
        body = json.dumps(
            {"error": {"code": "bad_host", "message": "this server does not answer to that Host"}}
        ).encode()
        await send(
            {
                "type": "http.response.start",
                "status": 400,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})
