"""Playing on the table itself, as a person on a phone would: taps on the cards, the
places and the action bar's remaining choices (never the list of moves), and the
checks a phone-first table must pass at every step (issue 22)."""

from __future__ import annotations

import random
from typing import Any

from .live import LiveServer, seat_script
from .ui import IDLE, offered, ready, version, wait_turn

Page = Any

PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1280, "height": 800}

SHORT = {
    # short games keep the suite quick on a small machine; the table is the same
    "notorious": {"games": 1, "rounds": 2},
    "corporation": {"max_rounds": 3},
    "lonely-face": {"stall_rounds": 3},
}

TAPS = """
([words, selected]) => {
  // the next tap toward a move: a split target naming two of its words, a card or a
  // place naming one, or a remaining choice in the action bar
  const sel = new Set(selected);
  const seen = (el) => el.checkVisibility();
  const parts = [...document.querySelectorAll('.felt [data-part]')].filter(seen);
  for (const el of parts) {
    if (words.includes(el.dataset.key) && words.includes(el.dataset.part)) return [el.dataset.key, el.dataset.part];
  }
  for (const el of document.querySelectorAll('.felt .card-btn[data-key], .felt .zone-btn[data-key]:not([data-part])')) {
    if (seen(el) && words.includes(el.dataset.key) && !sel.has(el.dataset.key)) return [el.dataset.key, null];
  }
  for (const el of document.querySelectorAll('.action-bar [data-word]')) {
    if (words.includes(el.dataset.word)) return ['word', el.dataset.word];
  }
  for (const el of document.querySelectorAll('.action-bar [data-bar-action]')) {
    if (el.dataset.barAction === words.join(' ')) return ['action', el.dataset.barAction];
  }
  return null;
}
"""


def open_seat(page: Page, live: LiveServer, table_id: str, token: str) -> None:
    page.goto(live.base + "/")
    seat_script(page, table_id, token, "p1", "ann")
    page.goto(f"{live.base}/table/{table_id}")
    ready(page)


def new_table(live: LiveServer, game: str, players: int, bot: str = "greedy") -> tuple[str, str]:
    seats = ["open"] + [bot] * (players - 1)
    table_id = live.table(game, players, seats, options=SHORT.get(game, {}))
    return table_id, live.join(table_id, "p1", "ann")


def _selector(kind: str, a: str, b: str | None) -> str:
    if kind == "word":
        return f'.action-bar [data-word="{b}"]'
    if kind == "action":
        return f'.action-bar [data-bar-action="{b}"]'
    if b is not None:
        return f'.felt [data-key="{a}"][data-part="{b}"]'
    return f'.felt .card-btn[data-key="{a}"], .felt .zone-btn[data-key="{a}"]:not([data-part])'


CORNERS = """
() => {
  // a person taps the part of a card that shows, its top-left corner on a fan: while a
  // move is half made, every other target there is still the one hit (a chosen card's
  // lifted picture or its badge must not lie over a neighbour's corner)
  const out = [];
  for (const el of document.querySelectorAll('.felt .card-btn[data-key], .felt .zone-btn[data-key]')) {
    if (!el.checkVisibility() || el.getAttribute('aria-pressed') === 'true') continue;
    // brought out from under the docked hand first, as a person scrolls to it
    el.scrollIntoView({ block: 'center' });
    const r = el.getBoundingClientRect();
    const dock = document.querySelector('.dock');
    if (dock && !dock.contains(el) && r.top + 6 >= dock.getBoundingClientRect().top) continue;
    const hit = document.elementFromPoint(r.left + 4, r.top + 6);
    if (hit && !(hit === el || el.contains(hit)) && hit.closest('.felt'))
      out.push(`${el.dataset.key}: its corner hits ${hit.outerHTML.slice(0, 90)}`);
  }
  return out;
}
"""


def tap_move(page: Page, action: str, check: bool = False) -> int:
    """Play ``action`` by taps on the table alone; returns how many taps it took. With
    ``check``, every step of a half-made move is checked for targets hidden under
    another (``CORNERS``)."""
    words = action.split()
    before = version(page)
    played = page.evaluate("window.decklabTable.played || 0")
    taps = 0
    while True:
        selected = page.evaluate("window.decklabTable.selected")
        found = page.evaluate(TAPS, [words, selected])
        assert found is not None, f"no tap on the table leads to {action!r} (chosen: {selected})"
        kind, part = found
        if kind in ("word", "action"):
            sel = _selector(kind, "", part)
        else:
            sel = _selector("", kind, part)
        page.locator(sel).first.tap()
        taps += 1
        assert taps <= len(words) + 1, f"{action!r} took more taps than it has words"
        page.wait_for_function(IDLE)
        if page.evaluate(
            "n => (window.decklabTable.played || 0) > n || window.decklabTable.pending !== null",
            played,
        ):
            break
        if check:
            page.evaluate(SETTLED)
            hidden = page.evaluate(CORNERS)
            if hidden:
                page.screenshot(path="/tmp/wp/fail-corners.png")
            assert not hidden, f"{action!r} after {taps} tap(s): {hidden[:4]}"
    page.wait_for_function(
        """([v, n]) => {
            const t = window.decklabTable;
            return (t.played || 0) > n && t.pending === null && t.sending === null
                && Number(document.querySelector('.felt-wrap').dataset.version) > v;
        }""",
        arg=[before, played],
    )
    return taps


GEOMETRY = """
() => {
  // what a phone-first page promises at this moment: hand and action bar on screen,
  // no sideways scrolling, every control and playable card at least 44×44 px and the
  // one hit at its own centre
  const W = innerWidth, H = innerHeight, out = [];
  const doc = document.documentElement;
  if (doc.scrollWidth > doc.clientWidth) out.push(`page ${doc.scrollWidth} px wide in ${doc.clientWidth}`);
  for (const sel of ['.own-wrap', '.action-bar']) {
    const el = document.querySelector(sel);
    if (!el || el.hidden || !el.firstChild) continue;
    const r = el.getBoundingClientRect();
    if (r.top < -0.5 || r.bottom > H + 0.5 || r.left < -0.5 || r.right > W + 0.5)
      out.push(`${sel} outside the viewport: ${JSON.stringify(r)}`);
  }
  const x0 = scrollX, y0 = scrollY;
  const controls = [...document.querySelectorAll(
    '.table-page button:not([disabled]), .table-page summary, .table-page input, .table-page select')];
  for (const el of controls) {
    let r = el.getBoundingClientRect();
    if (!r.width || !r.height || !el.checkVisibility()) continue; // not drawn (a closed list)
    const name = el.dataset.action || el.dataset.key || el.dataset.role || el.textContent.trim().slice(0, 30);
    if (r.width < 43.5 || r.height < 43.5) out.push(`${name}: ${r.width.toFixed(0)}×${r.height.toFixed(0)} px`);
    // a target under the docked hand is brought above it first, as a person scrolls to it
    const dock = document.querySelector('.dock');
    const dockTop = dock && !dock.contains(el) ? dock.getBoundingClientRect().top : H;
    const box = el.closest('.own-wrap');
    const clip = box ? box.getBoundingClientRect() : { top: 0, bottom: H };
    if (r.top < clip.top || r.bottom > Math.min(H, dockTop, clip.bottom)) { el.scrollIntoView({ block: 'nearest' }); r = el.getBoundingClientRect(); }
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    if (!hit || !(hit === el || el.contains(hit)))
      out.push(`${name}: its centre hits ${hit ? hit.outerHTML.slice(0, 80) : 'nothing'}`);
  }
  scrollTo(x0, y0);
  return out;
}
"""


SETTLED = "() => Promise.all(document.getAnimations().map((a) => a.finished.catch(() => null)))"
"""Waits for the cards in flight (motion.js, ≤ 300 ms) to land: a card mid-flight is
drawn scaled and may lie over another, which says nothing of the layout at rest."""


def check_geometry(page: Page, where: str) -> None:
    page.evaluate(SETTLED)
    problems = page.evaluate(GEOMETRY)
    if problems:
        page.screenshot(path=f"/tmp/wp/fail-{where.replace(' ', '_')}.png", full_page=True)
    assert not problems, f"{where}: {problems[:6]}"


def play_game_by_taps(page: Page, rng: random.Random, check: bool = True) -> list[int]:
    """Play p1's moves to the end of the game by taps; returns the taps of each move."""
    counts: list[int] = []
    while wait_turn(page, "p1", timeout=60000):
        if check:
            check_geometry(page, f"move {len(counts) + 1}")
        action = rng.choice(offered(page))
        counts.append(tap_move(page, action, check))
    return counts
