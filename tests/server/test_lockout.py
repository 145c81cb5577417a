"""No lock-outs: wrong passwords slow an account down (captcha-free, exponential, capped)
instead of locking it; budgets are per (account, address) and per address, so a stranger's
guesses never spend the owner's; passkeys have budgets of their own. The limits' clock is
the test's: nothing here waits on the wall clock."""

from __future__ import annotations

import warnings
from collections.abc import Iterator

import pytest

from decklab.server.api.app import create_app
from decklab.server.bots import BotPool
from decklab.server.limits import Backoff

from .accountdrive import PASSWORD, login, page, signup
from .conftest import fast_settings

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def from_address(client: TestClient, address: str) -> None:
    """Requests from here on come from ``address`` (the ASGI scope's client)."""
    client._transport.client = (address, 1)  # type: ignore[attr-defined]


@pytest.fixture
def app_client(database_url: str, bot_pool: BotPool) -> Iterator[tuple[TestClient, Clock]]:
    app = create_app(fast_settings(database_url=database_url), pool=bot_pool, heavy_pool=bot_pool)
    clock = Clock()
    with TestClient(app, base_url="http://testserver") as client:
        app.state.limits.clock = clock
        yield client, clock


def _login(client: TestClient, username: str, password: str) -> int:
    answer = client.post("/api/account/login", json={"username": username, "password": password})
    return answer.status_code


def test_a_lock_out_from_one_address_does_not_stop_the_right_password_from_another(
    app_client: tuple[TestClient, Clock],
) -> None:
    client, clock = app_client
    signup(client, "victim")
    client.cookies.clear()
    from_address(client, "203.0.113.7")
    codes = []
    for _ in range(12):  # an attacker keeps guessing, a second apart
        codes.append(_login(client, "victim", "not the password"))
        clock.now += 1.0
    assert 429 in codes, codes  # the attacker was slowed and then refused
    assert codes[:3] == [401, 401, 401]
    # the owner, elsewhere, right after the attacker's last guess: taken within the cap
    from_address(client, "198.51.100.20")
    waited = 0.0
    while _login(client, "victim", PASSWORD) == 429:
        clock.now += 0.5
        waited += 0.5
        assert waited <= 4.0, "the right password waited past the backoff's cap"
    assert client.get("/api/me").json()["username"] == "victim"


def test_guesses_spread_over_many_addresses_slow_down_exponentially(
    app_client: tuple[TestClient, Clock],
) -> None:
    client, clock = app_client
    signup(client, "ann")
    client.cookies.clear()
    for i in range(3):  # three typos cost nothing
        from_address(client, f"192.0.2.{i}")
        assert _login(client, "ann", "wrong guess") == 401
    from_address(client, "192.0.2.10")
    assert _login(client, "ann", "wrong guess") == 401
    from_address(client, "192.0.2.11")  # a fresh address, at once: the account waits
    answer = client.post("/api/account/login", json={"username": "ann", "password": "x y z w"})
    assert answer.status_code == 429 and int(answer.headers["retry-after"]) >= 1
    waits = []
    for i in range(6):
        from_address(client, f"192.0.2.{20 + i}")
        step = 0.0
        while _login(client, "ann", "wrong guess") == 429:
            clock.now += 0.25
            step += 0.25
        waits.append(step)
    assert waits == sorted(waits) and waits[-1] == 4.0, waits  # doubling, then capped


def test_a_password_change_from_a_stolen_session_is_no_guessing_oracle(
    app_client: tuple[TestClient, Clock],
) -> None:
    client, clock = app_client
    me = signup(client, "ann")
    answers = []
    for i in range(40):
        body = {"current": f"guess number {i}", "new": "a brand new passphrase"}
        answers.append(client.post("/api/account/password", json=body, headers=page(me)))
        clock.now += 0.1
    codes = [a.status_code for a in answers]
    assert codes.count(401) <= 6, codes  # 40 guesses in 4 s: most refused before hashing
    assert all(c in (401, 429) for c in codes)


def test_passkey_login_is_never_throttled_by_password_failures(
    app_client: tuple[TestClient, Clock],
) -> None:
    client, _ = app_client
    signup(client, "ann")
    client.cookies.clear()
    for i in range(25):  # the address's password budget (20) is spent, over many names
        _login(client, f"name{i}", "wrong guess")
    assert _login(client, "ann", PASSWORD) == 429
    begun = client.post("/api/account/passkeys/login/begin")
    assert begun.status_code == 200, begun.text


def test_passkey_ceremonies_have_budgets_of_their_own(
    app_client: tuple[TestClient, Clock],
) -> None:
    client, clock = app_client
    me = signup(client, "ann")
    codes = [
        client.post("/api/account/passkeys/register/begin", headers=page(me)).status_code
        for _ in range(12)
    ]
    assert codes[:10] == [200] * 10 and codes[10:] == [429, 429], codes
    clock.now += 300.0  # a window later, the budget is back
    assert client.post("/api/account/passkeys/register/begin", headers=page(me)).status_code == 200
    login(client, "ann")  # and passwords never noticed


def test_backoff_forgets_on_success_and_in_time() -> None:
    backoff = Backoff(free=1, base_s=1.0, cap_s=8.0, forget_s=100.0)
    assert backoff.wait("a", 0.0) == 0.0
    backoff.failed("a", 0.0)
    assert backoff.wait("a", 0.0) == 0.0  # one free failure
    backoff.failed("a", 0.0)
    assert backoff.wait("a", 0.0) == 1.0
    backoff.failed("a", 1.0)
    assert backoff.wait("a", 1.0) == 2.0
    backoff.succeeded("a")
    assert backoff.wait("a", 1.0) == 0.0
    backoff.failed("b", 0.0)
    backoff.failed("c", 500.0)  # sweeps what is older than forget_s
    assert "b" not in backoff.failures and "c" in backoff.failures
    assert Backoff(free=0, base_s=1.0, cap_s=0.0, forget_s=1.0).wait("x", 0.0) == 0.0
