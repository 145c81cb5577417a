"""'Your turn' outside the page (issue 21, item 4): the tab's title gets a prefix and the
favicon a dot when it becomes the person's turn at a table they have open, and both
clear when they have acted and the turn passed; the settings' notification toggle asks
the browser's permission."""

from __future__ import annotations

from typing import Any

from decklab.engine.registry import game_names, get_game

from .live import LiveServer, seat_script
from .ui import ready

GAME = next(
    n
    for n in game_names()
    if (i := get_game(n).info).min_players <= 2 <= i.max_players and not i.simultaneous
)
PREFIX = "● Your turn — "
TITLE_MINE = "() => document.title.startsWith('● Your turn — ')"
TITLE_NOT = "() => !document.title.startsWith('●') && document.body.dataset.ready === 'true'"


def _icon(page: Any) -> str:
    href: str = page.get_attribute('link[rel="icon"]', "href")
    return href


def _move(live: LiveServer, table_id: str, token: str, n: int) -> None:
    frame = live.state(table_id, token)
    body = {"action": frame["state"]["legal"][0], "version": frame["version"], "client_id": f"n{n}"}
    live.call("POST", f"/api/tables/{table_id}/actions", body, token=token)


def test_the_tab_title_and_favicon_say_your_turn(page: Any, live: LiveServer) -> None:
    table_id = live.table(GAME, 2, ["open", "open"], turn={"move_s": 86400, "on_deadline": "bot"})
    ann = live.join(table_id, "p1", "ann")
    bob = live.join(table_id, "p2", "bob")
    page.goto(live.base + "/")
    seat_script(page, table_id, ann, "p1", "ann")
    page.goto(f"{live.base}/table/{table_id}")
    ready(page)
    page.wait_for_selector(".felt-wrap[data-version]")
    base = page.title().removeprefix(PREFIX)
    assert base.endswith("— decklab")
    seen = {"mine": 0, "theirs": 0}
    for n in range(12):
        to_act = live.service.tables[table_id].state.to_act()
        if live.service.tables[table_id].status != "playing":
            break
        if 0 in to_act:
            page.wait_for_function(TITLE_MINE)
            assert page.title() == PREFIX + base
            assert _icon(page).startswith("data:image/svg+xml")
            assert page.evaluate("document.documentElement.dataset.yourTurn") == "true"
            seen["mine"] += 1
            _move(live, table_id, ann, n)
        else:
            page.wait_for_function(TITLE_NOT)
            assert page.title() == base
            assert _icon(page) == "/static/icon.svg"
            seen["theirs"] += 1
            _move(live, table_id, bob, n)
    assert seen["mine"] >= 2 and seen["theirs"] >= 2, seen  # it changed both ways, twice
    # leaving the table page takes the prefix and the dot away
    page.goto(live.base + "/")
    ready(page)
    assert not page.title().startswith("●") and _icon(page) == "/static/icon.svg"
    assert page.js_errors == []


def test_the_notification_toggle_asks_permission(browser: Any, live: LiveServer) -> None:
    for granted, expected in ((True, "on"), (False, "off")):
        ctx = browser.new_context()
        if granted:
            ctx.grant_permissions(["notifications"], origin=live.base)
        page = ctx.new_page()
        page.goto(live.base + "/")
        ready(page)
        if not granted:  # a person who says no: the browser's answer, without a prompt
            page.evaluate(
                "() => { Object.defineProperty(Notification, 'permission', {get: () => 'default'});"
                " Notification.requestPermission = async () => 'denied'; }"
            )
        page.click("details.settings summary")
        page.click("#set-notify")
        page.wait_for_function("v => localStorage.getItem('decklab.notify') === v", arg=expected)
        assert page.is_checked("#set-notify") is granted
        ctx.close()


def test_a_hidden_tab_gets_a_system_notification_when_allowed(
    browser: Any, live: LiveServer
) -> None:
    ctx = browser.new_context()
    ctx.grant_permissions(["notifications"], origin=live.base)
    # the tab is in the background (Playwright's pages are always visible otherwise)
    ctx.add_init_script("Object.defineProperty(document, 'hidden', {get: () => true})")
    page = ctx.new_page()
    table_id = live.table(GAME, 2, ["open", "open"], turn={"move_s": 86400, "on_deadline": "bot"})
    ann = live.join(table_id, "p1", "ann")
    bob = live.join(table_id, "p2", "bob")
    page.goto(live.base + "/")
    seat_script(page, table_id, ann, "p1", "ann")
    page.evaluate("localStorage.setItem('decklab.notify', 'off')")
    page.goto(f"{live.base}/table/{table_id}")
    ready(page)
    page.wait_for_selector(".felt-wrap[data-version]")
    count = 0
    for n in range(6):
        if 0 in live.service.tables[table_id].state.to_act():
            page.wait_for_function(TITLE_MINE)
            if count == 0:  # the first turn with the toggle off: nothing shown
                assert page.evaluate("window.decklabNotified || 0") == 0
                page.evaluate("localStorage.setItem('decklab.notify', 'on')")
            _move(live, table_id, ann, n)
            count += 1
        else:
            page.wait_for_function(TITLE_NOT)
            _move(live, table_id, bob, n)
    assert count >= 2
    assert page.evaluate("window.decklabNotified || 0") >= 1
    ctx.close()


def test_the_account_page_sets_the_mail(page: Any, live: LiveServer) -> None:
    base = live.base.replace("127.0.0.1", "localhost")
    page.goto(base + "/account")
    ready(page)
    page.fill("#signup-name", "mailer")
    page.fill("#signup-password", "correct horse battery staple")
    page.click("#signup-form button[type=submit]")
    page.wait_for_selector("#mail-form")
    assert page.is_checked("#mail-turn") and page.is_checked("#mail-invite")
    page.fill("#mail-address", "not an address")
    page.evaluate(
        "document.querySelector('#mail-address').type = 'text'"
    )  # past the browser's own check
    page.click("#mail-form button[type=submit]")
    page.wait_for_selector("#account-status.error")
    page.fill("#mail-address", "mailer@example.test")
    page.uncheck("#mail-turn")
    page.click("#mail-form button[type=submit]")
    page.wait_for_selector("#account-status:has-text('Mail settings saved')")
    got = page.evaluate("fetch('/api/account/notifications').then(r => r.json())")
    assert got["email"] == "mailer@example.test"
    assert got["email_turn"] is False and got["email_invite"] is True
    assert page.js_errors == []
