"""Write docs/screenshots/<game>.svg: each game's table in the Textual interface,
and docs/screenshots/small/<game>.svg: the same table in an 80×24 terminal.

Run it with ``.venv/bin/python docs/screenshots.py`` after a change to a layout
or to the drawing. Each game is dealt from a fixed seed and played a few moves
by greedy bots (the person's seat too), so that the table shows a game under
way; the person sits at p1 and the screenshot is taken when it is p1's move.
"""

from __future__ import annotations

import asyncio
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

from decklab.bots import make_agent
from decklab.engine.registry import get_game
from decklab.play.tui import PlayApp, Session

HERE = Path(__file__).parent / "screenshots"
SIZE = (140, 44)
SMALL = (80, 24)

SCENES: dict[str, dict[str, Any]] = {
    # game: seats, options, seed, moves played before the screenshot
    "cabin": {"specs": ["human"], "options": {}, "seed": 42, "moves": 30},
    "facade": {"specs": ["human", "greedy", "greedy"], "options": {}, "seed": 7, "moves": 40},
    "lonely-face": {"specs": ["human", "greedy", "greedy"], "options": {}, "seed": 3, "moves": 14},
    "corporation": {"specs": ["human"] + ["greedy"] * 4, "options": {}, "seed": 5, "moves": 12},
    "notorious": {"specs": ["human"] + ["greedy"] * 3, "options": {}, "seed": 2, "moves": 13},
}


def _rules(_: type) -> str:
    return "(rules)"


def scene(game: str) -> Session:
    """The game of the screenshot: dealt, then played on by greedy bots for every seat."""
    spec = SCENES[game]
    session = Session.new(
        get_game(game),
        list(spec["specs"]),
        options=spec["options"],
        seed=spec["seed"],
        save_path=Path(tempfile.gettempdir()) / f"decklab-screenshot-{game}.json",
        hint_spec="greedy",
    )
    bots = [make_agent(f"greedy:seed={i}") for i in range(session.state.num_players)]
    for _ in range(spec["moves"]):
        state = session.state
        if state.is_terminal():
            break
        seat = state.to_act()[0]
        session.apply(seat, bots[seat].choose(state, seat))
    return session


async def shoot(game: str, out: Path, size: tuple[int, int] = SIZE) -> None:
    app = PlayApp(scene(game), rules=_rules, pace=0)
    async with app.run_test(size=size) as pilot:
        for _ in range(500):
            await pilot.pause(0.01)
            screen = app.game_screen
            if screen.asking is not None or screen.session.state.is_terminal():
                break
        await pilot.pause(0.5)
        app.save_screenshot(str(out))


def main(games: list[str]) -> None:
    os.environ.setdefault("DECKLAB_HOME", tempfile.mkdtemp(prefix="decklab-shots-"))
    (HERE / "small").mkdir(parents=True, exist_ok=True)
    for game in games or list(SCENES):
        for out, size in ((HERE / f"{game}.svg", SIZE), (HERE / "small" / f"{game}.svg", SMALL)):
            asyncio.run(shoot(game, out, size))
            print(f"wrote {out}")


if __name__ == "__main__":
    main(sys.argv[1:])
