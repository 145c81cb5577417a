"""The browser client's figures: its weight, a table's first paint, a move's round trip
and, apart from it, how long the move's animation runs.

    .venv/bin/python bench/web.py [--moves 40]

Everything on loopback: a live server in this process, Debian's Chromium through
Playwright. A move's round trip is timed in the page, from the click to the own
view redrawn at the new version; its peer, measured in the same run against the
same server, is a bare WebSocket client sending the same kind of intent and
waiting for its event — the ratio is what the browser adds. The animation that the
redraw starts (motion.js, ids ``motion-…``) is timed on its own, from the redraw to
the last of them finished; it is not part of the round trip. Times are reported,
never asserted (a timed assertion would fail on a loaded machine).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from rich.console import Console  # noqa: E402
from rich.progress import track  # noqa: E402
from rich.table import Table  # noqa: E402
from tests.web.live import CHROMIUM, LiveServer, seat_script  # noqa: E402

import decklab  # noqa: E402

WEB = Path(decklab.__file__).parent / "web"
GAME = "cabin"  # a game played alone: the round trip has no bot in it

ROUND_TRIP = """async (action) => {
  const el = document.querySelector('.felt-wrap');
  const before = el.dataset.version;
  const button = document.querySelector(`.all-moves button[data-action="${action}"]`);
  const t0 = performance.now();
  const done = new Promise((resolve) => {
    const watch = new MutationObserver(() => {
      if (el.dataset.version !== before) { watch.disconnect(); resolve(); }
    });
    watch.observe(el, { attributes: true });
  });
  button.click();
  await done;
  const t1 = performance.now();
  const moving = document.getAnimations().filter((a) => (a.id || '').startsWith('motion-'));
  await Promise.all(moving.map((a) => a.finished.catch(() => null)));
  return { trip: t1 - t0, animation: moving.length ? performance.now() - t1 : 0, animations: moving.length };
}"""


def client_weight() -> dict[str, int]:
    """Every file of the client (what the service worker caches), by kind."""
    sizes: dict[str, int] = {}
    for path in sorted(WEB.iterdir()):
        if path.is_file():
            kind = path.suffix.lstrip(".")
            sizes[kind] = sizes.get(kind, 0) + path.stat().st_size
    sizes["total"] = sum(sizes.values())
    return sizes


def ws_round_trips(live: LiveServer, moves: int) -> list[float]:
    """The peer: a bare WebSocket client, intent → its own event, on a table of its own."""
    from websockets.sync.client import connect

    table_id = live.table(GAME, 1, ["open"], deal=5)
    token = live.join(table_id, "p1", "peer")
    times: list[float] = []
    url = live.base.replace("http", "ws") + f"/api/tables/{table_id}/live"
    with connect(url) as ws:
        ws.send(json.dumps({"type": "hello", "token": token}))
        state = None
        while state is None:
            frame = json.loads(ws.recv())
            if frame["type"] == "sync":
                state = frame["state"]
        for n in track(range(moves), description="websocket peer"):
            if state["terminal"]:
                break
            action = sorted(state["legal"])[0]
            t0 = time.perf_counter()
            ws.send(
                json.dumps(
                    {
                        "type": "intent",
                        "action": action,
                        "version": state["version"],
                        "client_id": f"c{n}",
                    }
                )
            )
            while True:
                frame = json.loads(ws.recv())
                if frame["type"] == "event" and frame.get("state"):
                    state = frame["state"]
                    break
            times.append((time.perf_counter() - t0) * 1000)
    return times


Figures = tuple[list[float], list[float], list[float], list[float]]


def browser_figures(live: LiveServer, moves: int) -> Figures:
    from playwright.sync_api import sync_playwright

    paints: list[float] = []
    drawn: list[float] = []
    trips: list[float] = []
    animations: list[float] = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM)
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.goto(live.base + "/")
        for _ in track(range(5), description="first paint"):
            table_id = live.table(GAME, 1, ["open"], deal=5)
            token = live.join(table_id, "p1", "ann")
            seat_script(page, table_id, token, "p1", "ann")
            page.goto(f"{live.base}/table/{table_id}")
            page.wait_for_selector(".felt-wrap[data-version] .felt")
            paints.append(
                page.evaluate(
                    "performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? -1"
                )
            )
            drawn.append(page.evaluate("performance.now()"))
        page.wait_for_selector(".all-moves button[data-action]")
        for _ in track(range(moves), description="browser round trip"):
            if page.get_attribute(".felt-wrap", "data-terminal") == "true":
                break
            page.wait_for_function(
                "() => !window.decklabTable.scheduled && !window.decklabTable.sending"
                " && document.querySelector('.all-moves button[data-action]')"
            )
            action = sorted(
                page.locator(".all-moves button[data-action]").evaluate_all(
                    "els => els.map(e => e.dataset.action)"
                )
            )[0]
            got = page.evaluate(ROUND_TRIP, action)
            trips.append(got["trip"])
            if got["animations"]:
                animations.append(got["animation"])
        browser.close()
    return paints, drawn, trips, animations


def summary(values: list[float]) -> str:
    if not values:
        return "-"
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    return f"p50 {statistics.median(ordered):.1f} ms · p95 {p95:.1f} ms (n={len(ordered)})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=40, help="moves timed per client")
    args = parser.parse_args()
    console = Console()
    weight = client_weight()
    with LiveServer(Path(tempfile.mkdtemp())) as live:
        peer = ws_round_trips(live, args.moves)
        paints, drawn, trips, animations = browser_figures(live, args.moves)
    out = Table(title="decklab web client on loopback")
    out.add_column("measure")
    out.add_column("figure")
    out.add_row(
        "client weight (uncompressed)",
        f"{weight['total'] / 1024:.1f} KB of 300 KB ("
        + ", ".join(f"{k} {v / 1024:.1f} KB" for k, v in weight.items() if k != "total")
        + ")",
    )
    out.add_row("table first contentful paint", summary(paints))
    out.add_row("table drawn (navigation → cards on the felt)", summary(drawn))
    out.add_row("move round trip, browser (click → own view redrawn)", summary(trips))
    out.add_row("move round trip, bare WebSocket peer", summary(peer))
    out.add_row(
        "move's animation (redraw → motion finished; apart from the round trip)",
        summary(animations) + f" · {len(animations)} of {len(trips)} moves animated",
    )
    if trips and peer:
        ratio = statistics.median(trips) / statistics.median(peer)
        out.add_row("browser / peer (median)", f"{ratio:.2f}×")
    console.print(out)


if __name__ == "__main__":
    main()
