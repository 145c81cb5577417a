"""Playing in a real browser (Chromium through Playwright) against a live server.

Moves are made as a person makes them, by clicking cards and places; at every
turn the moves the page offers are exactly the server's legal actions.
"""

from __future__ import annotations

import random
import re
from typing import Any

from .live import LiveServer, seat_script
from .tapping import new_table, open_seat
from .ui import offered, play_on_cards, ready, server_legal, version, wait_turn


def create_from_lobby(
    page: Any, live: LiveServer, game: str, seats: dict[str, str], nick: str = "ann", **fields: str
) -> str:
    """Fill the lobby's form (a nickname, the game, seats, fields) and create the table."""
    page.goto(live.base + "/")
    ready(page)
    page.fill("#nick", nick)
    page.dispatch_event("#nick", "change")
    page.select_option("#game", game)
    if "players" in fields:
        page.fill("#players", fields.pop("players"))
        page.dispatch_event("#players", "change")
    for seat, choice in seats.items():
        page.select_option(f'select[data-seat="{seat}"]', choice)
    for selector, value in fields.items():
        page.fill(selector, value)
    page.click("button.primary")
    page.wait_for_url(re.compile(r"/table/[\w-]+$"))
    ready(page)
    table_id: str = page.url.rsplit("/", 1)[1]
    return table_id


def test_two_browsers_play_a_whole_facade_game(browser: Any, live: LiveServer) -> None:
    rng = random.Random(11)
    one = browser.new_context(viewport={"width": 1280, "height": 900})
    two = browser.new_context(viewport={"width": 390, "height": 800})
    try:
        ann, bob = one.new_page(), two.new_page()
        table_id = create_from_lobby(ann, live, "facade", {"p1": "you", "p2": "open"})
        # bob follows the link, takes the open seat
        bob.goto(ann.url)
        ready(bob)
        bob.fill("#join-nick", "bob")
        bob.click('button[data-join="p2"]')
        bob.wait_for_selector(".moves h2")
        pages = {"p1": ann, "p2": bob}
        moves = 0
        while True:
            state = live.service.tables[table_id].state
            if state.is_terminal():
                break
            seat = f"p{state.to_act()[0] + 1}"
            page = pages[seat]
            assert wait_turn(page, seat)
            # never an illegal move offered, never a legal one missing
            assert sorted(offered(page)) == server_legal(live, table_id, seat)
            play_on_cards(page, rng)
            moves += 1
            assert moves < 400
        for page in pages.values():
            page.wait_for_selector(".end h2")
            assert page.locator(".scores tbody tr").count() == 2
        ann.wait_for_selector(".held-seat")
        # play again: a new table, the same seats, the token kept
        ann.click('button[data-role="again"]')
        ann.wait_for_url(lambda url: "/table/" in url and table_id not in url)
        ready(ann)
        ann.wait_for_selector(".seat.me")
        bob.wait_for_selector("a:has-text('Next game')")
    finally:
        one.close()
        two.close()


def test_one_person_and_five_bots_play_corporation_to_the_end(page: Any, live: LiveServer) -> None:
    rng = random.Random(5)
    seats = {f"p{i}": "bot:casual" for i in range(2, 7)}
    seats["p1"] = "you"
    table_id = create_from_lobby(
        page, live, "corporation", seats, players="6", **{"#opt-target": "25"}
    )
    saw_chosen = False
    while wait_turn(page, "p1"):
        # simultaneous rounds: who has chosen and who is still thinking, from to_act
        if page.locator(".seat .seat-turn:has-text('has chosen')").count():
            saw_chosen = True
        assert page.locator('.seat[data-seat="p1"] .seat-turn').inner_text() == "thinking"
        assert sorted(offered(page)) == server_legal(live, table_id, "p1")
        play_on_cards(page, rng)
    assert saw_chosen
    page.wait_for_selector(".end h2")
    assert page.locator(".scores tbody tr").count() == 6
    assert live.service.tables[table_id].finished
    log = page.locator(".log li").all_inner_texts()
    assert len(log) > 6


def test_solo_cabin_with_undo_and_a_hint(page: Any, live: LiveServer) -> None:
    rng = random.Random(3)
    table_id = create_from_lobby(page, live, "cabin", {"p1": "you"}, "sol", **{"#deal": "42"})
    assert "deal 42" in page.inner_text(".table-meta")
    assert wait_turn(page, "p1")
    # a hint with its reason, marked in the list of moves
    page.click('button[data-role="hint"]')
    page.wait_for_selector(".hint strong")
    hint = page.inner_text(".hint")
    assert hint.startswith("Hint:") and len(hint) > 15
    hinted = page.get_attribute("button.move.hinted", "data-action")
    assert hinted in offered(page)
    # in the game's words (what the move builds or lets go; the next best), not the
    # search's figures: those are one click away, behind a disclosure
    assert "deals sampled" not in hint and re.search(r"squid|deep sea", hint), hint
    figures = page.locator("details.hint-figures")
    assert figures.count() == 1 and not figures.evaluate("d => d.open")
    page.click("details.hint-figures summary")
    assert "deals sampled" in figures.inner_text()
    # play a move, then take it back: the same table as before
    before_moves, before_felt = sorted(offered(page)), page.inner_html(".felt")
    play_on_cards(page, rng, hinted)
    assert wait_turn(page, "p1")
    assert page.is_enabled('button[data-role="undo"]')
    v = version(page)
    page.click('button[data-role="undo"]')
    page.wait_for_function(
        "v => Number(document.querySelector('.felt-wrap').dataset.version) > v", arg=v
    )
    assert wait_turn(page, "p1")
    page.wait_for_function(
        "n => document.querySelectorAll('.all-moves button[data-action]').length === n",
        arg=len(before_moves),
    )
    assert sorted(offered(page)) == before_moves
    assert page.inner_html(".felt") == before_felt
    while wait_turn(page, "p1"):
        play_on_cards(page, rng)
    page.wait_for_selector(".end h2")
    # statistics count the finished game
    page.wait_for_function("() => document.querySelector('.stats dd')?.textContent === '1'")
    assert live.service.tables[table_id].finished


def test_a_reload_or_a_dropped_connection_resumes_at_the_same_state(
    page: Any, live: LiveServer
) -> None:
    rng = random.Random(8)
    table_id = live.table("lonely-face", 2, ["open", "greedy"])
    token = live.join(table_id, "p1", "ann")
    page.goto(live.base + "/")
    seat_script(page, table_id, token, "p1", "ann")
    page.goto(f"{live.base}/table/{table_id}")
    ready(page)
    for _ in range(3):
        assert wait_turn(page, "p1")
        play_on_cards(page, rng)
    assert wait_turn(page, "p1")
    felt, moves, v = page.inner_html(".felt"), sorted(offered(page)), version(page)
    page.reload()
    ready(page)
    assert wait_turn(page, "p1")
    assert (page.inner_html(".felt"), sorted(offered(page)), version(page)) == (felt, moves, v)
    # a network drop: "reconnecting" shows, then the table is live again, same state
    page.evaluate("window.decklabLive.drop()")
    page.wait_for_selector("body[data-conn=reconnecting]", timeout=10000)
    assert "Reconnecting" in page.inner_text(".conn")
    page.wait_for_selector("body[data-conn=live]")
    assert wait_turn(page, "p1")
    assert (page.inner_html(".felt"), version(page)) == (felt, v)
    play_on_cards(page, rng)


def test_chat_with_markup_shows_as_text(page: Any, live: LiveServer) -> None:
    table_id = live.table("lonely-face", 2, ["open", "greedy"])
    token = live.join(table_id, "p1", "ann")
    page.goto(live.base + "/")
    seat_script(page, table_id, token, "p1", "ann")
    page.goto(f"{live.base}/table/{table_id}")
    ready(page)
    text = '<img src=x onerror="window.pwned=1"><b>bold</b> & <script>window.pwned=2</script>'
    page.fill("#chat-text", text)
    page.press("#chat-text", "Enter")
    page.wait_for_selector(".chat-text")
    shown = page.inner_text(".chat-list .chat-text")
    assert shown == " ".join(text.split())
    assert page.locator(".chat-list img, .chat-list b, .chat-list script").count() == 0
    assert page.evaluate("window.pwned === undefined")


def test_keyboard_alone_plays_a_move(page: Any, live: LiveServer) -> None:
    table_id = live.table("cabin", 1, ["open"], deal=7)
    token = live.join(table_id, "p1", "ann")
    page.goto(live.base + "/")
    seat_script(page, table_id, token, "p1", "ann")
    page.goto(f"{live.base}/table/{table_id}")
    ready(page)
    assert wait_turn(page, "p1")
    v = version(page)
    # Tab to the first card that can be chosen, then Enter until a move is played
    for _ in range(60):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.matches('.card-btn, .zone-btn, button.move')"):
            break
    # the focus is visible
    assert page.evaluate("getComputedStyle(document.activeElement).outlineStyle") == "solid"
    page.keyboard.press("Enter")
    for _ in range(5):
        if version(page) > v:
            break
        page.wait_for_timeout(100)
        if page.evaluate("document.activeElement.matches('.card-btn, .zone-btn, button.move')"):
            page.keyboard.press("Enter")
        else:
            page.focus("button.move")
            page.keyboard.press("Enter")
    page.wait_for_function(
        "v => Number(document.querySelector('.felt-wrap').dataset.version) > v", arg=v
    )


def test_a_clock_shows_and_runs_for_the_seat_to_play(page: Any, live: LiveServer) -> None:
    table_id = live.table(
        "lonely-face", 2, ["open", "greedy"], clock={"base_s": 300, "increment_s": 2}
    )
    token = live.join(table_id, "p1", "ann")
    page.goto(live.base + "/")
    seat_script(page, table_id, token, "p1", "ann")
    page.goto(f"{live.base}/table/{table_id}")
    ready(page)
    assert wait_turn(page, "p1")
    clock = page.locator('.clock[data-seat="p1"]')
    shown = clock.inner_text()
    assert re.fullmatch(r"[45]:\d\d", shown)
    # the page counts down by itself between frames: wait for it to show less (in
    # seconds, not by comparing strings), however long a busy machine takes to tick
    page.wait_for_function(
        """first => {
            const [m, s] = document.querySelector('.clock[data-seat="p1"]').textContent.split(':');
            return Number(m) * 60 + Number(s) < first;
        }""",
        arg=int(shown[0]) * 60 + int(shown[2:]),
        timeout=60000,
    )


def test_the_form_shows_each_error_next_to_its_field(page: Any, live: LiveServer) -> None:
    page.goto(live.base + "/")
    ready(page)
    page.fill("#nick", "ann")
    page.select_option("#game", "corporation")
    # a bound the options spec gives is checked in the page
    page.fill("#opt-target", "0")
    page.click("button.primary")
    assert page.inner_text("#opt-target-err") == "at least 1"
    assert "/table/" not in page.url
    # a rule only the game knows comes back from the server, next to its field
    page.select_option("#game", "facade")
    page.fill("#opt-house_suits", "ZZ")
    page.click("button.primary")
    page.wait_for_function("() => document.querySelector('#opt-house_suits-err').textContent")
    assert "house_suits" in page.inner_text("#opt-house_suits-err")
    assert page.inner_text("#create-error") == "Please correct the fields marked above."


def test_a_late_answer_to_a_resync_never_takes_the_table_back_in_time(
    page: Any, live: LiveServer
) -> None:
    """A resync (after an undo or an update) fetches the state over HTTP; if frames
    newer than its answer arrive meanwhile, the late answer must not replace them (the
    page would offer the moves of a position already gone)."""
    rng = random.Random(3)
    table_id, token = new_table(live, "lonely-face", 2)
    open_seat(page, live, table_id, token)
    assert wait_turn(page, "p1")
    # the next /state answer is held back until the test lets it go
    page.evaluate(
        """() => {
            const real = window.fetch;
            window.heldBack = null;
            window.fetch = (url, opts) => {
              const p = real(url, opts);
              if (!String(url).endsWith('/state')) return p;
              window.fetch = real;
              return new Promise((ok) => { window.heldBack = () => p.then(ok); });
            };
            window.decklabTable.resync();
        }"""
    )
    page.wait_for_function("() => window.heldBack !== null")
    before = version(page)
    play_on_cards(page, rng)
    page.wait_for_function(
        "v => Number(document.querySelector('.felt-wrap').dataset.version) > v", arg=before
    )
    newer = version(page)
    page.evaluate("() => window.heldBack()")
    page.wait_for_timeout(300)
    page.wait_for_function("() => !window.decklabTable.scheduled")
    assert version(page) >= newer
    assert sorted(offered(page)) == sorted(server_legal(live, table_id, "p1"))
