"""Playing by keyboard (issue 22): arrows cross the hand, the grid and the zones, Enter
plays; u or Ctrl+Z undoes, h asks a hint, m opens the list of moves; other seats'
moves are read out through a live region. A whole game averages under 6 key presses
a move (Lonely Face and the Cabin are measured)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from .live import LiveServer
from .tapping import SETTLED, new_table, open_seat
from .ui import IDLE, offered, version, wait_turn

PATH = """
async ([key, part]) => {
  // the arrow keys from the focused target to the one naming ``key`` (and ``part``)
  const { arrowTarget, TARGETS } = await import('/static/keys.js');
  const t = window.decklabTable;
  const start = document.activeElement;
  if (!start || !start.matches(TARGETS)) return null;
  const goal = (el) => el.dataset.key === key && (part ? el.dataset.part === part : !el.dataset.part);
  const seen = new Map([[start, []]]);
  const queue = [start];
  while (queue.length) {
    const el = queue.shift();
    if (goal(el)) return seen.get(el);
    for (const k of ['ArrowRight', 'ArrowLeft', 'ArrowDown', 'ArrowUp']) {
      const next = arrowTarget(t.root, el, k, (e) => t.eligible(e));
      if (next && !seen.has(next)) { seen.set(next, [...seen.get(el), k]); queue.push(next); }
    }
  }
  return null;
}
"""

NEXT = """
([words, selected]) => {
  const sel = new Set(selected);
  for (const el of document.querySelectorAll('.felt [data-part]'))
    if (words.includes(el.dataset.key) && words.includes(el.dataset.part)) return ['part', el.dataset.key, el.dataset.part];
  for (const el of document.querySelectorAll('.felt .card-btn[data-key], .felt .zone-btn[data-key]:not([data-part])'))
    if (words.includes(el.dataset.key) && !sel.has(el.dataset.key)) return ['key', el.dataset.key, null];
  for (const el of document.querySelectorAll('.action-bar [data-word]'))
    if (words.includes(el.dataset.word)) return ['word', el.dataset.word, null];
  for (const el of document.querySelectorAll('.action-bar [data-bar-action]'))
    if (el.dataset.barAction === words.join(' ')) return ['action', el.dataset.barAction, null];
  return null;
}
"""

AT_GOAL = """
([key, part]) => {
  const el = document.activeElement;
  return !!el && el.dataset.key === key && (part ? el.dataset.part === part : !el.dataset.part);
}
"""

LOG: list[str] = []

ON_TARGET = (
    "document.activeElement && document.activeElement.matches('.felt .card-btn, .felt .zone-btn')"
)


def key_move(page: Any, action: str) -> int:
    """Play ``action`` by keys alone; returns the presses it took."""
    words = action.split()
    played = page.evaluate("window.decklabTable.played || 0")
    before = version(page)
    presses = 0

    def press(key: str) -> None:
        nonlocal presses
        LOG.append(key[:5])
        page.keyboard.press(key)
        presses += 1

    while True:
        page.wait_for_function(IDLE)
        step = page.evaluate(NEXT, [words, page.evaluate("window.decklabTable.selected")])
        assert step is not None, f"no key leads to {action!r}"
        kind, a, b = step
        if kind in ("word", "action"):
            attr = "data-word" if kind == "word" else "data-bar-action"
            sel = f'.action-bar [{attr}="{a}"]'
            for _ in range(30):
                if page.evaluate(f"document.activeElement.matches('{sel}')"):
                    break
                press("Tab")
            else:
                raise AssertionError(f"Tab never reached the choice {a!r}")
        else:
            for _ in range(60):
                if page.evaluate(ON_TARGET):
                    break
                press("Tab")
            # the arrows go by where the targets lie: cards still sliding (motion.js, the
            # last move's animation) would give a path the keys then do not follow
            for _ in range(3):
                page.evaluate(SETTLED)
                path = page.evaluate(PATH, [a, b])
                assert path is not None, f"the arrows do not reach {a} {b or ''}: " + page.evaluate(
                    "() => JSON.stringify({sel: window.decklabTable.selected, at: document.activeElement.outerHTML.slice(0, 120),"
                    " el: [...document.querySelectorAll('.felt .card-btn, .felt .zone-btn')].filter(e => window.decklabTable.eligible(e)).map(e => e.dataset.key)})"
                )
                for k in path:
                    press(k)
                if page.evaluate(AT_GOAL, [a, b]):
                    break
            else:
                raise AssertionError(f"the arrows' path did not lead to {a} {b or ''}")
        press("Enter")
        page.wait_for_function(IDLE)
        if page.evaluate(
            "n => (window.decklabTable.played || 0) > n || window.decklabTable.pending !== null",
            played,
        ):
            break
        assert presses < 80
    page.wait_for_function(
        """([v, n]) => {
            const t = window.decklabTable;
            return (t.played || 0) > n && t.pending === null && t.sending === null
                && Number(document.querySelector('.felt-wrap').dataset.version) > v;
        }""",
        arg=[before, played],
    )
    return presses


@pytest.mark.parametrize(("game", "players"), [("lonely-face", 2), ("cabin", 1)])
def test_a_whole_game_by_keyboard_averages_under_six_presses_a_move(
    page: Any, live: LiveServer, game: str, players: int
) -> None:
    table_id, token = new_table(live, game, players)
    open_seat(page, live, table_id, token)
    rng = random.Random(game)
    counts: list[int] = []
    while wait_turn(page, "p1", timeout=60000):
        counts.append(key_move(page, rng.choice(offered(page))))
    assert counts
    mean = sum(counts) / len(counts)
    print(f"{game}: {mean:.2f} presses a move over {len(counts)} (max {max(counts)})")
    assert mean < 6, f"{game}: {mean:.2f} presses a move: {counts} {LOG[:80]}"
    assert not page.js_errors


def settled(page: Any, live: LiveServer, table_id: str) -> None:
    """Wait until the page shows the table's current version with undo offered, nothing
    waiting to be sent. An undo names the version it was asked at, and the server refuses
    one asked at an older version (a frame still on its way: CI's loaded machine once
    pressed Ctrl+Z a moment too early, and the undo never came)."""
    for _ in range(50):
        current = live.service.tables[table_id].version
        page.wait_for_function(
            """v => { const t = window.decklabTable;
                return t.frame && t.frame.version === v && t.frame.can_undo
                    && t.pending === null && t.sending === null; }""",
            arg=current,
        )
        if live.service.tables[table_id].version == current:
            return
    raise AssertionError("the table's version kept moving")


def press_and_see_a_new_version(page: Any, key: str) -> None:
    """Press ``key`` and wait until the page shows another version than before it. The
    version is read before the key: read after it, it may already be the new one (the
    race this test lost under load), and the wait would wait for one more."""
    before = version(page)
    page.keyboard.press(key)
    page.wait_for_function(
        "v => Number(document.querySelector('.felt-wrap').dataset.version) !== v", arg=before
    )


def test_shortcuts_undo_hint_and_the_move_list(page: Any, live: LiveServer) -> None:
    table_id, token = new_table(live, "cabin", 1)
    open_seat(page, live, table_id, token)
    assert wait_turn(page, "p1")
    v0 = version(page)
    key_move(page, offered(page)[0])
    assert version(page) > v0
    settled(page, live, table_id)
    press_and_see_a_new_version(page, "Control+z")  # Ctrl+Z undoes, alone
    v1 = version(page)
    key_move(page, offered(page)[0])
    settled(page, live, table_id)
    press_and_see_a_new_version(page, "u")  # and so does u
    assert version(page) != v1
    page.keyboard.press("h")
    page.wait_for_selector(".hint strong", timeout=30000)
    page.keyboard.press("m")
    # the list opens (it may be open already) and focus lands on its first move, once
    # the page has drawn it
    page.wait_for_function(
        "() => document.querySelector('.all-moves').open"
        " && document.activeElement.matches('.all-moves button[data-action]')"
    )


def test_an_undo_asked_while_the_move_is_on_its_way_undoes_that_move(
    page: Any, live: LiveServer
) -> None:
    """Ctrl+Z pressed in the same moment as a move, before its answer came, undoes that
    move once it is in. It used to name the version the page still showed, and the server
    refused it as stale ("choose again"): the race the shortcut test once lost on CI."""
    table_id, token = new_table(live, "cabin", 1)
    open_seat(page, live, table_id, token)
    assert wait_turn(page, "p1")
    key_move(page, offered(page)[0])
    settled(page, live, table_id)
    table = live.service.tables[table_id]
    kept, v = len(table.state.history), table.version
    page.evaluate(
        """m => {
            document.querySelector(`.all-moves button[data-action="${m}"]`).click();
            document.body.dispatchEvent(
                new KeyboardEvent('keydown', { key: 'z', ctrlKey: true, bubbles: true }));
        }""",
        offered(page)[0],
    )
    page.wait_for_function(
        "v => Number(document.querySelector('.felt-wrap').dataset.version) >= v", arg=v + 2
    )
    assert table.version == v + 2  # the move, then its undo: nothing refused
    assert len(table.state.history) == kept
    assert "moved on" not in page.inner_text("body")


def test_other_seats_moves_are_announced(page: Any, live: LiveServer) -> None:
    table_id, token = new_table(live, "lonely-face", 2)
    open_seat(page, live, table_id, token)
    assert page.get_attribute(".announce", "aria-live") == "polite"
    while wait_turn(page, "p1"):
        key_move(page, offered(page)[0])
        text = page.inner_text(".announce")
        if "p2" in text:
            break
    assert "p2" in page.inner_text(".announce")
