"""Screenshots of every game's table in the browser, at desktop and at phone width.

Run from the repository root: ``.venv/bin/python docs/screenshots/web/shoot.py``.
A live server on loopback, one person (p1) and bots; p1 makes a few moves first
so the table looks like a game in progress. Needs /usr/bin/chromium.
"""

from __future__ import annotations

import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT))

from tests.web.live import CHROMIUM, LiveServer, seat_script  # noqa: E402

from decklab.engine.registry import game_names, get_game  # noqa: E402
from decklab.server.bots import BotPool  # noqa: E402

OUT = Path(__file__).resolve().parent
SIZES = {"desktop": (1280, 860), "phone": (360, 780)}
MOVES = 4


def advance(live: LiveServer, table_id: str, token: str, rng: random.Random) -> None:
    """p1 plays a few random legal moves (bots answer), as at a table in progress."""
    made = 0
    deadline = time.monotonic() + 30
    while made < MOVES and time.monotonic() < deadline:
        frame = live.state(table_id, token)
        state = frame["state"]
        if state["terminal"]:
            return
        if state["legal"]:
            action = rng.choice(sorted(state["legal"]))
            try:
                live.call(
                    "POST",
                    f"/api/tables/{table_id}/actions",
                    {"action": action, "version": state["version"], "client_id": f"s{made}"},
                    token=token,
                )
            except AssertionError as exc:
                if "stale" not in str(exc):
                    raise
                continue  # a bot moved in between: look again
            made += 1
        else:
            time.sleep(0.1)
    # let the bots answer the last move
    for _ in range(50):
        if live.state(table_id, token)["state"]["legal"]:
            return
        time.sleep(0.1)


def main() -> None:
    from playwright.sync_api import sync_playwright

    pool = BotPool(workers=2)
    with (
        LiveServer(Path(tempfile.mkdtemp()), pool=pool) as live,
        sync_playwright() as pw,
    ):
        browser = pw.chromium.launch(executable_path=CHROMIUM)
        for game in game_names():
            n = get_game(game).info.default_players
            table_id = live.table(game, n, ["open"] + ["greedy"] * (n - 1), deal=3)
            token = live.join(table_id, "p1", "ann")
            advance(live, table_id, token, random.Random(4))
            for size, (width, height) in SIZES.items():
                context = browser.new_context(viewport={"width": width, "height": height})
                page = context.new_page()
                page.goto(live.base + "/")
                seat_script(page, table_id, token, "p1", "ann")
                page.goto(f"{live.base}/table/{table_id}")
                page.wait_for_selector(".felt-wrap[data-version]")
                page.wait_for_timeout(400)
                path = OUT / f"{game}-{size}.png"
                page.screenshot(path=str(path), full_page=True)
                print(path.relative_to(ROOT))
                context.close()
        browser.close()
    pool.close()


if __name__ == "__main__":
    main()
