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
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
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


class Backoff:
    """A captcha-free slowdown per account instead of a lock-out: after ``free`` failed
    password checks in a row (a typo or two cost nothing), ``n`` more (from any address)
    make the next check of that account wait ``min(cap_s, base_s * 2 ** (n - 1))`` after
    the last failure. An attacker's guesses slow to one per ``cap_s`` whatever the
    addresses they come from, while the owner's right password, from anywhere, is taken
    within ``cap_s``: nobody can lock anyone out. A success forgets the account's
    failures; so does ``forget_s`` without one. ``cap_s`` 0: no slowdown."""

    def __init__(self, free: int, base_s: float, cap_s: float, forget_s: float) -> None:
        self.free = free
        self.base_s = base_s
        self.cap_s = cap_s
        self.forget_s = forget_s
        self.failures: dict[Key, tuple[int, float]] = {}
        self._swept = -math.inf

    def wait(self, key: Key, now: float) -> float:
        """Seconds until ``key`` may be checked again (0: now)."""
        got = self.failures.get(key)
        if got is None or got[0] <= self.free or self.cap_s <= 0:
            return 0.0
        count, last = got
        delay = min(self.cap_s, self.base_s * 2.0 ** (count - self.free - 1))
        return max(0.0, last + delay - now)

    def failed(self, key: Key, now: float) -> None:
        count = self.failures.get(key, (0, now))[0]
        self.failures[key] = (count + 1, now)
        if now - self._swept > self.forget_s:
            self._swept = now
            for old in [k for k, (_, at) in self.failures.items() if now - at > self.forget_s]:
                del self.failures[old]

    def succeeded(self, key: Key) -> None:
        self.failures.pop(key, None)


class PasswordCheck:
    """One password check in progress (see :meth:`Limits.password_check`): the service
    says how it went; a check that ended otherwise (the hashing pool busy) counts as
    neither, so that no refusal of the server's clears an account's failures."""

    def __init__(self) -> None:
        self.failed = False
        self.passed = False

    def verdict(self, good: bool) -> None:
        self.failed, self.passed = not good, good


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

        self.clock: Callable[[], float] = time.monotonic
        """The limits' clock (a test moves its own instead of waiting)."""
        self.login_pairs = Buckets(
            s.logins_per_account_window,
            s.login_window_s,
            "password attempts for this account from this address",
        )
        self.login_addresses = Buckets(
            s.logins_per_address_window, s.login_window_s, "password attempts from this address"
        )
        self.password_backoff = Backoff(
            s.password_backoff_free,
            s.password_backoff_base_s,
            s.password_backoff_cap_s,
            s.login_window_s * 12,
        )
        self.password_checking = Slots(1, "password checks of this account")
        self.passkey_addresses = Buckets(
            s.passkeys_per_address_window, s.login_window_s, "passkey ceremonies from this address"
        )
        self.passkey_registrations = Buckets(
            s.passkey_registrations_per_window,
            s.login_window_s,
            "passkey registrations for this account",
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
        now = self.clock()
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

    @contextmanager
    def password_check(self, address: str, account_key: str) -> Iterator[PasswordCheck]:
        """Admission to one password check of ``account_key`` from ``address`` (a login, a
        password change, a deletion), counted *before* anything is hashed:

        - the address's budget and the (account, address) pair's are spent, good or bad:
          one address cannot guess at any account, nor spread over many, for long;
        - the account's :class:`Backoff` after failures (429 with ``Retry-After``, never a
          lock: the owner's password from another address is taken within its cap);
        - one check of an account at a time: concurrent guesses at one account are refused
          at once rather than hashed side by side.

        The caller gives the yielded check its :meth:`PasswordCheck.verdict`."""
        now = self.clock()
        wait = self.password_backoff.wait(account_key, now)
        if wait > 0:
            raise RateLimited("too many wrong passwords for this account: wait a moment", wait)
        if self.password_checking.held.get(account_key, 0) >= 1:
            raise RateLimited("this account's password is being checked already", 1)
        self.charge(
            Charge(self.login_addresses, address),
            Charge(self.login_pairs, (account_key, address)),
        )
        self.password_checking.acquire(account_key)
        check = PasswordCheck()
        try:
            yield check
        finally:
            self.password_checking.release(account_key)
            if check.failed:
                self.password_backoff.failed(account_key, self.clock())
            elif check.passed:
                self.password_backoff.succeeded(account_key)

    def passkey(self, address: str) -> None:
        """One passkey ceremony begun or finished from ``address``: a budget of its own,
        so that password failures never slow a passkey login (nor fill its table)."""
        self.charge(Charge(self.passkey_addresses, address))

    def passkey_registration(self, address: str, account_id: int) -> None:
        """One passkey registration begun: the account's budget and the address's."""
        self.charge(
            Charge(self.passkey_addresses, address),
            Charge(self.passkey_registrations, account_id),
        )

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
