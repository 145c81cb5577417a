"""Screenshots of every game's table in the browser, at desktop and at phone width,
in the light and the dark theme, and a few frames of a reveal animating.

Run from the repository root: ``.venv/bin/python docs/screenshots/web/shoot.py``.
A live server on loopback, one person (p1) and bots; p1 makes a few moves first
so the table looks like a game in progress. Needs /usr/bin/chromium. The PNGs are
reduced to 256 colours (Pillow) to keep the folder small.

``<game>-<size>.png`` is the light theme, ``<game>-<size>-dark.png`` the dark one;
``reveal-NN.png`` are frames of the first reveal (a face-down card turned face up)
of a game of REVEAL_GAME: the page's animations are paused when the redraw that
flips cards starts them, then stepped through in REVEAL_STEP_MS steps.
"""

from __future__ import annotations

import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT))

from tests.web.live import CHROMIUM, LiveServer, seat_script  # noqa: E402

from decklab.engine.registry import game_names, get_game  # noqa: E402
from decklab.server.bots import BotPool  # noqa: E402

OUT = Path(__file__).resolve().parent
SIZES = {"desktop": (1280, 800), "phone": (360, 740)}
THEMES = {"light": "", "dark": "-dark"}
MOVES = 4
REVEAL_GAME = "facade"
REVEAL_STEP_MS = 40

WATCH_FLIPS = """() => {
  const el = document.querySelector('.felt-wrap');
  window.flipCaught = false;
  new MutationObserver(() => {
    const m = window.decklabMotion;
    if (window.flipCaught || !m || !m.reveals) return;
    // the redraw that turned cards over: hold every animation at its start
    window.flipCaught = true;
    for (const a of document.getAnimations()) a.pause();
  }).observe(el, { attributes: true, attributeFilter: ['data-version'] });
}"""


def small_png(path: Path) -> None:
    """Reduce a screenshot to 256 colours: a third of the bytes, the same look."""
    from PIL import Image

    with Image.open(path) as image:
        reduced = image.convert("RGB").quantize(colors=256, method=Image.Quantize.MEDIANCUT)
    reduced.save(path, optimize=True)


def move(live: LiveServer, table_id: str, token: str, rng: random.Random, n: int) -> bool:
    """p1 plays one random legal move if it may; whether the game goes on."""
    state = live.state(table_id, token)["state"]
    if state["terminal"]:
        return False
    if state["legal"]:
        action = rng.choice(sorted(state["legal"]))
        try:
            live.call(
                "POST",
                f"/api/tables/{table_id}/actions",
                {"action": action, "version": state["version"], "client_id": f"r{n}"},
                token=token,
            )
        except AssertionError as exc:
            if "stale" not in str(exc):
                raise
    return True


def reveal_frames(live: LiveServer, browser: Any) -> None:
    """Frames of the first redraw that turns cards face up, the animation stepped through."""
    n = get_game(REVEAL_GAME).info.default_players
    table_id = live.table(REVEAL_GAME, n, ["open"] + ["greedy"] * (n - 1))
    token = live.join(table_id, "p1", "ann")
    width, height = SIZES["desktop"]
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    page.goto(live.base + "/")
    seat_script(page, table_id, token, "p1", "ann")
    page.goto(f"{live.base}/table/{table_id}")
    page.wait_for_selector(".felt-wrap[data-version] .felt")
    page.evaluate(WATCH_FLIPS)
    rng = random.Random(5)
    deadline = time.monotonic() + 120
    made = 0
    while not page.evaluate("window.flipCaught") and time.monotonic() < deadline:
        if not move(live, table_id, token, rng, made):
            break
        made += 1
        page.wait_for_timeout(150)
    if not page.evaluate("window.flipCaught"):
        print("no reveal seen: no frames written")
        context.close()
        return
    felt = page.locator(".felt-wrap")
    longest = page.evaluate(
        "Math.max(...document.getAnimations().map(a => a.effect.getComputedTiming().endTime))"
    )
    for i, at in enumerate(range(0, int(longest) + REVEAL_STEP_MS, REVEAL_STEP_MS)):
        page.evaluate("t => document.getAnimations().forEach(a => { a.currentTime = t; })", at)
        path = OUT / f"reveal-{i:02d}.png"
        felt.screenshot(path=str(path), animations="allow")
        small_png(path)
        print(path.relative_to(ROOT))
    context.close()


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
            # a deal number is for a game played alone (the server refuses it otherwise)
            deal = {"deal": 3} if n == 1 else {}
            table_id = live.table(game, n, ["open"] + ["greedy"] * (n - 1), **deal)
            token = live.join(table_id, "p1", "ann")
            advance(live, table_id, token, random.Random(4))
            for size, (width, height) in SIZES.items():
                for scheme, suffix in THEMES.items():
                    context = browser.new_context(
                        viewport={"width": width, "height": height}, color_scheme=scheme
                    )
                    page = context.new_page()
                    page.goto(live.base + "/")
                    seat_script(page, table_id, token, "p1", "ann")
                    page.goto(f"{live.base}/table/{table_id}")
                    page.wait_for_selector(".felt-wrap[data-version]")
                    page.wait_for_timeout(400)
                    path = OUT / f"{game}-{size}{suffix}.png"
                    page.screenshot(path=str(path), full_page=size == "desktop")
                    small_png(path)
                    print(path.relative_to(ROOT))
                    context.close()
        reveal_frames(live, browser)
        browser.close()
    pool.close()


if __name__ == "__main__":
    main()
