"""Accounts in a real browser: sign up, log out, log in with the password, add a passkey
(Chromium's virtual authenticator, through the DevTools protocol), log in with it, and
log in on a second device (another browser context), where the account's seats follow.

The pages are opened at ``localhost``: a passkey's relying party is a host name (an IP
address cannot be one), and ``localhost`` is a secure context over http.
"""

from __future__ import annotations

import re
from typing import Any

from decklab.engine.registry import game_names, get_game

from .live import LiveServer
from .test_accessibility import violations
from .ui import offered, ready, server_legal

PASSWORD = "a long enough password"


def _two_player_game() -> str:
    return next(
        n
        for n in game_names()
        if get_game(n).info.min_players <= 2 <= get_game(n).info.max_players
        and not get_game(n).info.simultaneous
    )


def _authenticator(context: Any, page: Any) -> Any:
    """A platform authenticator with resident keys that says yes at once."""
    cdp = context.new_cdp_session(page)
    cdp.send("WebAuthn.enable")
    cdp.send(
        "WebAuthn.addVirtualAuthenticator",
        {
            "options": {
                "protocol": "ctap2",
                "transport": "internal",
                "hasResidentKey": True,
                "hasUserVerification": True,
                "isUserVerified": True,
                "automaticPresenceSimulation": True,
            }
        },
    )
    return cdp


def _log_in(page: Any, name: str) -> None:
    page.fill("#login-name", name)
    page.fill("#login-password", PASSWORD)
    page.click("#login-form button[type=submit]")
    page.wait_for_selector(f"h1:has-text('Hello, {name}')")


def test_sign_up_log_in_passkey_and_a_second_device(browser: Any, live: LiveServer) -> None:
    base = live.base.replace("127.0.0.1", "localhost")
    one = browser.new_context(viewport={"width": 1280, "height": 900})
    two = browser.new_context(viewport={"width": 390, "height": 800})
    try:
        page = one.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        _authenticator(one, page)
        page.goto(base + "/account")
        ready(page)
        assert violations(page) == []
        # sign up: logged in at once
        page.fill("#signup-name", "pia")
        page.fill("#signup-password", PASSWORD)
        page.click("#signup-form button[type=submit]")
        page.wait_for_selector("h1:has-text('Hello, pia')")
        assert page.text_content("#account-link") == "pia"
        assert violations(page) == []
        cookie = next(c for c in one.cookies() if c["name"] == "decklab_session")
        assert cookie["httpOnly"] and cookie["sameSite"] == "Lax"
        # the page cannot read its session cookie
        assert "decklab_session" not in page.evaluate("document.cookie")
        # log out, log in with the password
        page.click("#logout")
        page.wait_for_selector("#login-form")
        _log_in(page, "pia")
        # a passkey, then log out and in with it alone
        page.click("#passkey-add")
        page.wait_for_selector("#account-status:has-text('Passkey added')")
        page.click("#logout")
        page.wait_for_selector("#passkey-login")
        page.click("#passkey-login")
        page.wait_for_selector("h1:has-text('Hello, pia')")
        # a table of two: pia takes p1 from her page (the site's own requests, CSRF token
        # and all), a guest p2
        game = _two_player_game()
        table_id, token = page.evaluate(
            """async (game) => {
                const me = await (await fetch('/api/me')).json();
                const headers = {'content-type': 'application/json', 'x-csrf-token': me.csrf};
                const t = await (await fetch('/api/tables', {method: 'POST', headers,
                    body: JSON.stringify({game, players: 2})})).json();
                const j = await (await fetch(`/api/tables/${t.id}/join`, {method: 'POST', headers,
                    body: JSON.stringify({seat: 'p1', nickname: 'pia'})})).json();
                return [t.id, j.token];
            }""",
            game,
        )
        live.join(table_id, "p2", "guest")
        # the second device: nothing but the password
        other = two.new_page()
        other.on("pageerror", lambda exc: errors.append(str(exc)))
        other.goto(base + "/account")
        ready(other)
        _log_in(other, "pia")
        other.wait_for_selector(f"#my-active li[data-table='{table_id}']")
        other.click(f"#my-active li[data-table='{table_id}'] a")
        other.wait_for_url(re.compile(rf"/table/{table_id}$"))
        ready(other)
        other.wait_for_selector("#moves-h")
        seat = other.evaluate("() => window.decklabTable.seat")
        assert seat["seat"] == "p1" and seat["token"] == token
        other.wait_for_function("() => window.decklabTable && !window.decklabTable.scheduled")
        legal = server_legal(live, table_id, "p1")
        if legal:  # p1's turn: the second device is offered exactly p1's moves
            other.wait_for_function(
                "() => document.querySelectorAll('.all-moves button[data-action]').length > 0"
            )
            assert sorted(offered(other)) == legal
        assert errors == []
    finally:
        one.close()
        two.close()


def test_leaving_the_account_page_while_it_loads_raises_no_error(
    browser: Any, live: LiveServer
) -> None:
    """The account page draws the games first and its friends and mail panels after; a
    player who follows a link before they load must not get a script error (the panels
    once looked for the page they belonged to, found nothing, and the error's message
    was then written to a status line that was gone too)."""
    base = live.base.replace("127.0.0.1", "localhost")
    context = browser.new_context()
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(base + "/account")
        ready(page)
        held: list[Any] = []
        page.route("**/api/me/friends", lambda route: held.append(route))  # held: the panel waits
        page.fill("#signup-name", "lea")
        page.fill("#signup-password", PASSWORD)
        page.click("#signup-form button[type=submit]")
        page.wait_for_selector("h1:has-text('Hello, lea')")
        for _ in range(100):
            if held:
                break
            page.wait_for_timeout(50)
        assert held, "the friends panel never asked for the friends"
        page.click("#my-ratings")  # on to another page before the panels are in
        page.wait_for_url(re.compile(r"/player/lea$"))
        with page.expect_response(lambda r: "/api/me/friends" in r.url):
            held[0].continue_()
        page.evaluate("() => new Promise((done) => setTimeout(done, 200))")  # let it settle
        assert errors == []
        assert page.query_selector("#friends") is None  # not added to the page now shown
    finally:
        context.close()
