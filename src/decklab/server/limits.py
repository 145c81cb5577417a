"""Limits that one client cannot step around by opening more connections.

A limit per connection alone is no limit: one seat on ten connections got ten
budgets. So, as Lichess does, the server also counts per client address and per
seat, whatever the connection or the channel (WebSocket or REST):

- concurrent connections per address and per seat (:class:`Slots`);
- messages per seat and per address, joins per address, hints per seat and per
  address (:class:`Buckets`, token buckets: a burst up to the budget, then the
  budget's rate).

Memory stays bounded whatever the number of clients: a bucket that has refilled
is the same as no bucket and is forgotten, and a key with no connection left is
dropped. An address is the ASGI client's (``scope["client"]``): whoever rewrites
it from ``X-Forwarded-For`` for trusted proxies does so before this sees it.
"""

from __future__ import annotations

import math
import time
from collections.abc import Hashable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from decklab.server.config import Settings
from decklab.server.errors import ServiceError

if TYPE_CHECKING:
    from fastapi import FastAPI, Request
    from fastapi.responses import JSONResponse

Key = Hashable


class RateLimited(ServiceError):
    """Over a limit: HTTP 429 with ``Retry-After``; a ``rate_limited`` frame live."""

    def __init__(self, message: str, retry_after_s: float) -> None:
        # ``Retry-After`` wants whole seconds: at least 1
        super().__init__("rate_limited", message, 429, retry_after=max(1, math.ceil(retry_after_s)))
        self.retry_after_s = retry_after_s


class Buckets:
    """A token bucket per key: at most ``count`` events in a burst, refilled at
    ``count`` per ``window_s``. O(1) memory per key (tokens and a time), and a full
    bucket is forgotten (sweeping at most once a window), so idle keys cost nothing."""

    def __init__(self, count: int, window_s: float, what: str) -> None:
        self.count = count
        self.window_s = window_s
        self.what = what
        self.rate = count / window_s if window_s > 0 else math.inf
        self.state: dict[Key, tuple[float, float]] = {}
        self._swept = time.monotonic()

    def wait(self, key: Key, now: float) -> float:
        """Seconds until ``key`` may spend one (0: now)."""
        tokens = self._tokens(key, now)
        return 0.0 if tokens >= 1 else (1 - tokens) / self.rate

    def spend(self, key: Key, now: float) -> None:
        self.state[key] = (self._tokens(key, now) - 1, now)
        if now - self._swept > self.window_s:
            self._sweep(now)

    def _tokens(self, key: Key, now: float) -> float:
        got = self.state.get(key)
        if got is None:
            return float(self.count)
        tokens, at = got
        return min(float(self.count), tokens + (now - at) * self.rate)

    def _sweep(self, now: float) -> None:
        self._swept = now
        for key in [k for k in self.state if self._tokens(k, now) >= self.count]:
            del self.state[key]


class Slots:
    """At most ``count`` holders at once per key (open connections)."""

    def __init__(self, count: int, what: str) -> None:
        self.count = count
        self.what = what
        self.held: dict[Key, int] = {}

    def acquire(self, key: Key) -> bool:
        held = self.held.get(key, 0)
        if held >= self.count:
            return False
        self.held[key] = held + 1
        return True

    def release(self, key: Key) -> None:
        held = self.held.get(key, 0) - 1
        if held > 0:
            self.held[key] = held
        else:
            self.held.pop(key, None)


@dataclass(frozen=True)
class Charge:
    """One event counted against a bucket under a key."""

    buckets: Buckets
    key: Key


class Limits:
    """Every per-address and per-seat limit of one server process."""

    def __init__(self, settings: Settings) -> None:
        s = settings
        self.address_connections = Slots(s.connections_per_address, "connections from this address")
        self.seat_connections = Slots(s.connections_per_seat, "connections of this seat")
        self.seat_messages = Buckets(
            s.seat_messages_per_window, s.message_window_s, "messages from this seat"
        )
        self.address_messages = Buckets(
            s.address_messages_per_window, s.message_window_s, "messages from this address"
        )
        self.joins = Buckets(s.joins_per_window, s.join_window_s, "joins from this address")
        self.seat_hints = Buckets(s.hints_per_seat_window, s.hint_window_s, "hints for this seat")
        self.address_hints = Buckets(
            s.hints_per_address_window, s.hint_window_s, "hints from this address"
        )

        self.login_accounts = Buckets(
            s.logins_per_account_window, s.login_window_s, "login attempts for this account"
        )
        self.login_addresses = Buckets(
            s.logins_per_address_window, s.login_window_s, "login attempts from this address"
        )
        self.signups = Buckets(
            s.signups_per_window, s.signup_window_s, "accounts from this address"
        )
        self.bot_requests = Buckets(
            s.bot_requests_per_window, s.bot_window_s, "requests with this API token"
        )
        self.bot_streams = Slots(s.bot_streams_per_token, "streams open with this API token")

    def charge(self, *charges: Charge) -> None:
        """Count one event against every charge, or against none: if any bucket is
        empty, :class:`RateLimited` names it and says when to come back."""
        now = time.monotonic()
        for charge in charges:
            wait = charge.buckets.wait(charge.key, now)
            if wait > 0:
                raise RateLimited(f"too many {charge.buckets.what}: slow down", wait)
        for charge in charges:
            charge.buckets.spend(charge.key, now)

    def message(self, address: str, seat: tuple[str, int] | None) -> None:
        """One message (a frame, an action, a chat line) of an address, maybe seated."""
        charges = [Charge(self.address_messages, address)]
        if seat is not None:
            charges.append(Charge(self.seat_messages, seat))
        self.charge(*charges)

    def hint(self, address: str, seat: tuple[str, int] | None) -> None:
        """One hint asked for: the expert thinks, which costs CPU; counted on top of
        the message itself."""
        charges = [Charge(self.address_hints, address)]
        if seat is not None:
            charges.append(Charge(self.seat_hints, seat))
        self.charge(*charges)

    def join(self, address: str) -> None:
        self.charge(Charge(self.joins, address))

    def login(self, address: str, account_key: str | None) -> None:
        """One login attempt (password or passkey), of an address, maybe naming an account:
        both budgets are spent, whether the attempt succeeds or not."""
        charges = [Charge(self.login_addresses, address)]
        if account_key is not None:
            charges.append(Charge(self.login_accounts, account_key))
        self.charge(*charges)

    def signup(self, address: str) -> None:
        self.charge(Charge(self.signups, address))

    def bot(self, address: str, token_hash: str) -> None:
        """One request of the bot API: its API token's budget and its address's."""
        self.charge(Charge(self.address_messages, address), Charge(self.bot_requests, token_hash))


def install(app: FastAPI, settings: Settings) -> None:
    """Give ``app`` its :class:`Limits` (``app.state.limits``) and the 429 answer."""
    app.state.limits = Limits(settings)
    app.add_exception_handler(RateLimited, _too_many)  # type: ignore[arg-type]


async def _too_many(_request: Request, exc: RateLimited) -> JSONResponse:
    from fastapi.responses import JSONResponse

    return JSONResponse(
        {
            "error": {
                "code": exc.code,
                "message": exc.message,
                "retry_after_s": exc.retry_after,
            }
        },
        status_code=429,
        headers={"Retry-After": str(exc.retry_after)},
    )
