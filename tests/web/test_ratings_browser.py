"""Ratings and friends in a real browser: two accounts (separate browser contexts) and a
bot play a rated table to the end on the table page; then the game's leaderboard lists
all three (the bot flagged), the rules page shows the bot's rating, and the profile,
reached from the account page, plots the rating history with a point for the game.
Then, on the account page, one adds the other as a friend and invites him to a seat
(he sees the invitation on his), and starts a rematch with the same people. (One test:
the live server allows 5 sign-ups an hour from one address, for every browser test.)"""

from __future__ import annotations

import re
import time
from typing import Any

from decklab.engine.state import seat_name
from server.ratedgames import short_game  # the tests' folder is on the path (no __init__)

from .live import LiveServer
from .test_accessibility import violations
from .ui import click_first_move, ready, wait_turn

PASSWORD = "a long enough password"


def _sign_up(page: Any, base: str, name: str) -> None:
    page.goto(base + "/account")
    ready(page)
    page.fill("#signup-name", name)
    page.fill("#signup-password", PASSWORD)
    page.click("#signup-form button[type=submit]")
    page.wait_for_selector(f"h1:has-text('Hello, {name}')")


def _site_fetch(page: Any, path: str, body: dict[str, Any]) -> Any:
    """A POST as the site's own page makes it (the session cookie, the CSRF header)."""
    return page.evaluate(
        """async ([path, body]) => {
            const me = await (await fetch('/api/me')).json();
            const answer = await fetch(path, {method: 'POST', body: JSON.stringify(body),
                headers: {'content-type': 'application/json', 'x-csrf-token': me.csrf}});
            return [answer.status, await answer.json()];
        }""",
        [path, body],
    )


def test_a_rated_game_updates_leaderboard_and_profile(browser: Any, live: LiveServer) -> None:
    base = live.base.replace("127.0.0.1", "localhost")
    game, options = short_game()
    contexts = [browser.new_context(viewport={"width": 1280, "height": 900}) for _ in range(2)]
    errors: list[str] = []
    try:
        pages = [c.new_page() for c in contexts]
        for page in pages:
            page.on("pageerror", lambda exc: errors.append(str(exc)))
        _sign_up(pages[0], base, "ria")
        _sign_up(pages[1], base, "sam")
        # the lobby offers "rated" to a person logged in
        pages[0].goto(base + "/")
        ready(pages[0])
        pages[0].wait_for_selector("#rated", state="attached")
        seats = [{"kind": "open"}, {"kind": "open"}, {"kind": "bot", "bot": "greedy"}]
        status, table = _site_fetch(
            pages[0],
            "/api/tables",
            {"game": game, "players": 3, "options": options, "seats": seats, "rated": True},
        )
        assert status == 201 and table["rated"] is True, table
        for index, (page, name) in enumerate(zip(pages, ["ria", "sam"], strict=True)):
            status, got = _site_fetch(
                page, f"/api/tables/{table['id']}/join", {"seat": f"p{index + 1}", "nickname": name}
            )
            assert status == 200, got
            page.evaluate(
                "([t, seat]) => localStorage.setItem('decklab.seat.' + t, JSON.stringify(seat))",
                [table["id"], {"token": got["token"], "seat": got["seat"], "nickname": name}],
            )
            page.goto(f"{base}/table/{table['id']}")
            ready(page)
            page.wait_for_selector(".felt-wrap[data-version]")
        # play to the end on the table pages: whoever is to move clicks a move
        deadline = time.monotonic() + 120
        while live.service.tables[table["id"]].status != "finished":
            assert time.monotonic() < deadline, "the game did not end"
            state = live.service.tables[table["id"]].state
            movers = [i for i in state.to_act() if i < 2]
            if not movers:
                time.sleep(0.05)
                continue
            page = pages[movers[0]]
            if wait_turn(page, seat_name(movers[0])):
                click_first_move(page)
        # the leaderboard: both accounts and the bot, flagged
        page = pages[0]
        page.goto(f"{base}/leaderboard/{game}")
        ready(page)
        page.wait_for_selector("table.leaderboard tr[data-player='ria']", timeout=10000)
        rows = page.locator("table.leaderboard tbody tr")
        names = rows.evaluate_all("rs => rs.map(r => r.dataset.player)")
        assert sorted(names) == ["bot:greedy", "ria", "sam"]
        assert page.get_attribute("tr[data-player='bot:greedy']", "data-bot") == "yes"
        assert violations(page) == []
        # the game's page shows the bot's rating
        page.goto(f"{base}/rules/{game}")
        ready(page)
        page.wait_for_selector(".bot-ratings tr[data-player='bot:greedy']")
        # the profile, from the account page: one rating, a plot with a point
        page.goto(base + "/account")
        ready(page)
        page.click("#my-ratings")
        page.wait_for_url(re.compile(r"/player/ria$"))
        ready(page)
        page.wait_for_selector(f"#player-ratings li[data-game='{game}']")
        points = page.locator(f"section.rating-history[data-game='{game}'] svg circle.point")
        assert points.count() >= 1
        assert violations(page) == []
        # friends, on the account page: ria adds sam, invites him to a seat of a new table
        waiting = _site_fetch(page, "/api/tables", {"game": game, "players": 3, "options": options})
        status, _ = _site_fetch(
            page, f"/api/tables/{waiting[1]['id']}/join", {"seat": "p1", "nickname": "ria"}
        )
        assert status == 200
        page.goto(base + "/account")
        ready(page)
        page.wait_for_selector("#friend-form")
        page.fill("#friend-name", "sam")
        page.click("#friend-form button[type=submit]")
        page.wait_for_selector("#friends-list li[data-friend='sam']")
        page.select_option("#invite-table", waiting[1]["id"])
        page.fill("#invite-seat", "p2")
        page.click("#invite-form button[type=submit]")
        page.wait_for_selector("#friends-status:has-text('kept for sam')")
        assert violations(page) == []
        other = pages[1]
        other.goto(base + "/account")
        ready(other)
        other.wait_for_selector(f"#my-invitations li[data-table='{waiting[1]['id']}']")
        # a rematch of the rated table, with the same people: a new table, both seated
        page.click(f"#rematches li[data-table='{table['id']}'] button")
        page.wait_for_url(re.compile(r"/table/(?!" + re.escape(table["id"]) + r"$)"))
        again = live.call("GET", f"/api/tables/{table['id']}")["next"]
        seated = [s["nickname"] for s in live.call("GET", f"/api/tables/{again}")["seats"]]
        assert seated == ["ria", "sam", None]
        assert errors == []
    finally:
        for context in contexts:
            context.close()
