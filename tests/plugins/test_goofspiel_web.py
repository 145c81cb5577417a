"""A person plays goofspiel, a plugin game, in a real browser against the greedy bot:
the lobby offers it, the table draws its layout, and the moves offered at every turn
are exactly the server's legal actions."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from web.live import LiveServer  # tests/web (tests/ is on sys.path)
from web.test_play import create_from_lobby
from web.ui import offered, play_on_cards, server_legal, wait_turn

# A browser test of the web platform, as tests/web's: run once, by make test, not again
# by make test-pure (tests/conftest.py says why); goofspiel's rules are tested there.
pytestmark = pytest.mark.once


@pytest.fixture(scope="module")
def live_plugins(plugins: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """A live server started after the plugins were installed (its bots' workers too)."""
    from decklab.server.bots import BotPool

    pool = BotPool(workers=1)
    try:
        with LiveServer(tmp_path_factory.mktemp("web-plugins"), pool=pool) as server:
            yield server
    finally:
        pool.close()


def test_a_person_plays_goofspiel_against_greedy_in_the_browser(
    browser: Any, live_plugins: LiveServer
) -> None:
    live = live_plugins
    catalogue = live.call("GET", "/api/games")
    names = [g["name"] for g in (catalogue["games"] if isinstance(catalogue, dict) else catalogue)]
    assert "goofspiel" in names
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.set_default_timeout(20000)
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        table_id = create_from_lobby(
            page,
            live,
            "goofspiel",
            {"p1": "you", "p2": "bot:casual"},  # casual: the greedy player
            **{"#opt-cards": "6"},
        )
        rng = random.Random(3)
        clicks = 0
        while wait_turn(page, "p1"):
            assert "Prize" in page.locator(".felt-wrap").inner_text()  # the plugin's layout
            assert sorted(offered(page)) == server_legal(live, table_id, "p1")
            play_on_cards(page, rng)
            clicks += 1
            # The bids are counted on the server, not as clicks: a click that lands as
            # the table redraws for the bot's face-down choice may be lost (CI's loaded
            # machine once took 7 for 6 prizes, when such a bid was still refused as
            # stale; it stands now, server/standing.py).
            assert clicks <= 12, "the game does not end"
        page.wait_for_selector(".end h2")
        assert page.locator(".scores tbody tr").count() == 2
        state = live.service.tables[table_id].state
        assert state.is_terminal() and state.info.name == "goofspiel"
        assert sum(1 for actor, _ in state.history if actor == 0) == 6  # one bid per prize
        assert not errors, errors
    finally:
        context.close()
