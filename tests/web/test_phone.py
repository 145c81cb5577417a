"""The table in your hand (issue 22): at 360×740 and at 1280×800, for every game at its
smallest and largest player count (bots in the other seats), a whole game is played by
taps on the table alone. At every step the hand and the action bar are on screen,
nothing scrolls sideways, every enabled control and playable card is at least 44×44 px
and is what its own centre hits; so are the end screen and the replay."""

from __future__ import annotations

import random
from typing import Any

import pytest

from decklab.engine import registry

from .live import LiveServer
from .tapping import DESKTOP, PHONE, check_geometry, new_table, open_seat, play_game_by_taps

CASES = [
    (game, n)
    for game in registry.game_names()
    for n in sorted({registry.game_info(game).min_players, registry.game_info(game).max_players})
]


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
@pytest.mark.parametrize(("game", "players"), CASES, ids=[f"{g}-{n}" for g, n in CASES])
def test_a_whole_game_by_taps_on_the_table(
    browser: Any, live: LiveServer, game: str, players: int, size: dict[str, int]
) -> None:
    ctx = browser.new_context(viewport=size, has_touch=True)
    ctx.set_default_timeout(30000)
    try:
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        table_id, token = new_table(live, game, players)
        open_seat(page, live, table_id, token)
        taps = play_game_by_taps(page, random.Random(f"{game}{players}"))
        assert taps, "p1 never had a move"
        # the end screen, with what everyone held, and the replay stay within the width
        page.wait_for_selector(".end h2")
        if players > 1:
            page.wait_for_selector(".held .held-seat")
        check_geometry(page, "end screen")
        page.goto(f"{live.base}/replay/{table_id}?as=p1")
        page.wait_for_selector(".felt")
        width = page.evaluate(
            "[document.documentElement.scrollWidth, document.documentElement.clientWidth]"
        )
        assert width[0] <= width[1], f"the replay scrolls sideways: {width}"
        assert not errors
        print(
            f"{game} {players} {size['width']}: {sum(taps) / len(taps):.2f} taps a move over {len(taps)}"
        )
    finally:
        ctx.close()
