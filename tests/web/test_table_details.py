"""The table page's finer points: the undo window of a move chosen on the cards, the
log (whole numbers, long lines, the newest entry in sight), each score broken down
at the end, and the seats around an oval table at desktop width (a row on a phone)."""

from __future__ import annotations

import time
from typing import Any

from .live import LiveServer, seat_script
from .ui import ready, version, wait_turn


def _open(page: Any, live: LiveServer, table_id: str, token: str, undo_ms: int | None) -> None:
    page.goto(live.base + "/")
    seat_script(page, table_id, token, "p1", "ann")
    if undo_ms is not None:
        page.evaluate("ms => localStorage.setItem('decklab.undoMs', String(ms))", undo_ms)
    page.goto(f"{live.base}/table/{table_id}")
    ready(page)


def _p1_moves(live: LiveServer, table_id: str) -> int:
    """How many moves p1 has made at the server."""
    return sum(actor == 0 for actor, _ in live.service.tables[table_id].state.history)


def _pend(page: Any) -> str:
    """Click the first card of p1's hand: one move uses it, so it waits to be sent."""
    card = page.locator('.felt .zone[data-owner="p1"] .card-btn[data-key]').first
    key = card.get_attribute("data-key")
    card.click(position={"x": 4, "y": 6})
    page.wait_for_selector(".pending")
    action: str = page.get_attribute(".pending", "data-pending")
    assert key in action.split()
    return action


def test_a_move_chosen_on_the_cards_waits_out_an_undo_window(page: Any, live: LiveServer) -> None:
    table_id = live.table("corporation", 4, ["open", "greedy", "greedy", "greedy"])
    token = live.join(table_id, "p1", "ann")
    _open(page, live, table_id, token, 1500)
    assert wait_turn(page, "p1")
    legal = set(
        page.locator(".all-moves button[data-action]").evaluate_all(
            "els => els.map(e => e.dataset.action)"
        )
    )
    action = _pend(page)
    assert action in legal  # only a legal move is ever held
    # held back, with the way to take it back focused and a countdown
    assert page.evaluate("document.activeElement.dataset.role") == "take-back"
    assert page.inner_text(".pending .countdown").endswith(" s")
    assert _p1_moves(live, table_id) == 0
    # Escape takes it back: after the window nothing was sent
    page.keyboard.press("Escape")
    page.wait_for_selector(".pending", state="detached")
    assert "Taken back" in page.inner_text(".moves .error")
    time.sleep(1.8)
    assert _p1_moves(live, table_id) == 0
    assert page.evaluate("window.decklabTable.played || 0") == 0
    # chosen again and left alone, it is sent when the window runs out
    action = _pend(page)
    page.wait_for_function("() => (window.decklabTable.played || 0) === 1", timeout=15000)
    assert page.locator(".pending").count() == 0
    deadline = time.monotonic() + 10
    while _p1_moves(live, table_id) == 0 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _p1_moves(live, table_id) == 1
    # "Play it now" sends at once
    assert wait_turn(page, "p1")
    _pend(page)
    page.click('button[data-role="send-now"]')
    page.wait_for_function("() => (window.decklabTable.played || 0) === 2", timeout=15000)


def test_alone_a_move_is_sent_at_once(page: Any, live: LiveServer) -> None:
    """Playing alone, the server undoes moves: no window is needed there."""
    table_id = live.table("cabin", 1, ["open"], deal=5)
    token = live.join(table_id, "p1", "ann")
    _open(page, live, table_id, token, 5000)
    assert wait_turn(page, "p1")
    v = version(page)
    for word in page.get_attribute(".all-moves button[data-action]", "data-action").split():
        target = page.locator(f'.felt [data-key="{word}"]').first
        if target.count():
            target.click(
                position={"x": 4, "y": 6}
                if "card-btn" in (target.get_attribute("class") or "")
                else None
            )
            if page.evaluate("(window.decklabTable.played || 0) > 0"):
                break
        assert page.locator(".pending").count() == 0
    page.wait_for_function(
        "v => Number(document.querySelector('.felt-wrap').dataset.version) > v",
        arg=v,
        timeout=15000,
    )


def _finish_by_rest(live: LiveServer, table_id: str, token: str) -> None:
    """p1 plays its first legal move each turn through the API until the game ends."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        state = live.state(table_id, token)["state"]
        if state["terminal"]:
            return
        if not state["legal"]:
            time.sleep(0.05)
            continue
        try:
            live.call(
                "POST",
                f"/api/tables/{table_id}/actions",
                {
                    "action": state["legal"][0],
                    "version": state["version"],
                    "client_id": f"r{state['version']}",
                },
                token=token,
            )
        except AssertionError as exc:
            if "stale" not in str(exc):
                raise
    raise AssertionError("the game did not end")


def test_the_log_and_the_end_summary_read_well(browser: Any, live: LiveServer) -> None:
    table_id = live.table(
        "corporation", 4, ["open", "greedy", "greedy", "greedy"], options={"target": 20}
    )
    token = live.join(table_id, "p1", "ann")
    _finish_by_rest(live, table_id, token)
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        page = context.new_page()
        _open(page, live, table_id, token, None)
        page.wait_for_selector(".end .breakdown")
        items = page.locator(".log li")
        assert items.count() > 10
        # every number shows whole: the list keeps room left of each entry for its marker
        room = page.evaluate(
            """() => {
                const box = document.querySelector('.log');
                const lis = box.querySelectorAll('li');
                const li = lis[lis.length - 1];
                const probe = document.createElement('span');
                probe.textContent = `${lis.length}. `;
                li.append(probe);
                const wide = probe.getBoundingClientRect().width;
                probe.remove();
                return [li.getBoundingClientRect().left - box.getBoundingClientRect().left, wide];
            }"""
        )
        assert room[0] >= room[1], room
        # the newest entry is in sight, long lines wrap inside the panel
        assert page.evaluate(
            "() => { const b = document.querySelector('.log');"
            " return b.scrollTop + b.clientHeight >= b.scrollHeight - 2; }"
        )
        assert page.evaluate(
            "() => { const b = document.querySelector('.log'); return b.scrollWidth <= b.clientWidth; }"
        )
        # each seat's score taken apart, totals as the server has them
        scores = live.service.tables[table_id].state.result()["scores"]
        seats = page.locator(".breakdown-seat")
        assert seats.count() == len(scores)
        for name, total in scores.items():
            seat = page.locator(f'.breakdown-seat[data-seat="{name}"]')
            assert seat.locator("tfoot td").inner_text() == f"{total:g}"
            assert seat.locator("tbody tr").count() >= 1
    finally:
        context.close()


def test_seats_sit_around_an_oval_table_on_a_desktop_and_in_a_row_on_a_phone(
    browser: Any, live: LiveServer
) -> None:
    table_id = live.table("corporation", 5, ["open"] + ["greedy"] * 4)
    token = live.join(table_id, "p1", "ann")
    for width, shape in ((1280, "grid"), (360, "flex")):
        context = browser.new_context(viewport={"width": width, "height": 900})
        try:
            page = context.new_page()
            _open(page, live, table_id, token, None)
            assert wait_turn(page, "p1")
            ring = page.locator(".felt .ring")
            assert ring.count() == 1
            assert ring.evaluate("el => getComputedStyle(el).display") == shape
            # every seat once, the viewer's own place at the bottom, the middle inside
            owners = ring.locator(".zone[data-owner]").evaluate_all(
                "els => els.map(e => e.dataset.owner)"
            )
            assert sorted(owners) == [f"p{i}" for i in range(1, 6)]
            assert ring.locator('.ring-bottom .zone[data-owner="p1"]').count() == 1
            if shape == "grid":
                bottom = ring.locator(".ring-bottom").bounding_box()
                top = ring.locator(".ring-top").bounding_box()
                mid = ring.locator(".ring-mid").bounding_box()
                assert top["y"] < mid["y"] < bottom["y"]
                left = ring.locator(".ring-left").bounding_box()
                right = ring.locator(".ring-right").bounding_box()
                assert left["x"] < mid["x"] < right["x"]
        finally:
            context.close()
