"""Seating a registered bot account from the lobby's form (issue 21's bot API; until
now only through the API): a seat's choice "bot account…" with a name, checked by the
server. A name that is no bot account is refused in the form, at that seat, and nothing
is made; a bot account's name makes the table with that account in the seat, shown as
"name (bot)" on the table page and in the lobby."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .live import LiveServer
from .test_accessibility import violations
from .ui import ready

GAME = "lonely-face"
PASSWORD = "a long enough password"


@pytest.fixture
def own_live(tmp_path: Path) -> Iterator[LiveServer]:
    """A server of its own: its sign-up budget (5 an hour from one address) is this
    test's, whatever the other browser tests spent on the shared one."""
    with LiveServer(tmp_path) as server:
        yield server


def _bot_account(browser: Any, live: LiveServer, name: str) -> None:
    """Register ``name`` as a bot account as its owner would: sign up, make an API token
    (logged in, with the CSRF header), upgrade with the token alone."""
    ctx = browser.new_context()
    try:
        page = ctx.new_page()
        page.goto(live.base.replace("127.0.0.1", "localhost") + "/")
        ready(page)
        status, token = page.evaluate(
            """async ([name, password]) => {
                const json = {'content-type': 'application/json'};
                const up = await fetch('/api/account/signup', {method: 'POST', headers: json,
                    body: JSON.stringify({username: name, password})});
                if (up.status !== 201) return [up.status, await up.text()];
                const me = await (await fetch('/api/me')).json();
                const made = await fetch('/api/account/tokens', {method: 'POST',
                    headers: {...json, 'x-csrf-token': me.csrf},
                    body: JSON.stringify({label: 'lobby test'})});
                return [made.status, (await made.json()).token];
            }""",
            [name, PASSWORD],
        )
        assert status == 201, token
    finally:
        ctx.close()
    upgraded = live.call("POST", "/api/bot/account/upgrade", token=token)
    assert upgraded is not None


def _form(page: Any, live: LiveServer, seat_name: str) -> None:
    """The lobby's form for a two-seat table: you in p1, a bot account named in p2."""
    page.goto(live.base + "/")
    ready(page)
    page.fill("#nick", "ann")
    page.select_option("#game", GAME)
    page.select_option("#seat-2", "account")
    assert page.is_visible("#seat-2-account") and not page.is_visible("#seat-1-account")
    page.fill("#seat-2-account", seat_name)


def test_the_lobby_seats_a_bot_account_or_says_why_not(
    browser: Any, page: Any, own_live: LiveServer
) -> None:
    live = own_live
    _bot_account(browser, live, "robo")
    made_before = len(live.service.tables)
    # no name: the form says so at that seat, and asks the server nothing
    _form(page, live, "  ")
    page.click("button.primary")
    page.wait_for_selector("#seat-2-err:has-text('Name the bot account')")
    assert page.inner_text("#create-error") == "Please correct the fields marked above."
    # a name that is no bot account: the server's refusal, at that seat; nothing made
    page.fill("#seat-2-account", "nobody")
    page.click("button.primary")
    page.wait_for_selector("#seat-2-err:has-text('is not a bot account')")
    assert "'nobody' is not a bot account" in page.inner_text("#seat-2-err")
    assert page.inner_text("#create-error") == "Please correct the fields marked above."
    assert page.url.rstrip("/") == live.base and len(live.service.tables) == made_before
    assert violations(page) == []  # the name field and its error, as shown
    # the bot account's name (any case): made, the account in seat p2
    page.fill("#seat-2-account", "Robo")
    page.click("button.primary")
    page.wait_for_url("**/table/*")
    table_id = page.url.rstrip("/").split("/")[-1]
    summary = live.call("GET", f"/api/tables/{table_id}")
    p2 = next(s for s in summary["seats"] if s["seat"] == "p2")
    assert p2["nickname"] == "robo" and p2["bot_account"] is True, p2
    ready(page)
    page.wait_for_selector('li.seat[data-seat="p2"] .seat-name strong')
    assert page.inner_text('li.seat[data-seat="p2"] .seat-name strong') == "robo (bot)"
    assert page.js_errors == []
