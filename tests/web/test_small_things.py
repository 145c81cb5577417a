"""The small things a player trips on: icons that fonts lack, a JSON 404 page, a chat
line lost to the rate limit, a solo end that talks of winners, no retry of a deal,
option help in developer words, a caption under its picture."""

from __future__ import annotations

import random
import re
import urllib.error
import urllib.request
from typing import Any

from .live import LiveServer, seat_script
from .ui import ready, server_legal

SAFE_TEXT = re.compile(r"^[\x20-\x7e\u00a0-\u00ff]*$")
"""Latin-1 text: every font Debian's Chromium falls back on has these glyphs."""


def sit(page: Any, live: LiveServer, table_id: str, seat: str = "p1", nick: str = "ann") -> str:
    token = live.join(table_id, seat, nick)
    page.goto(live.base + "/")
    seat_script(page, table_id, token, seat, nick)
    return token


def finish_alone(live: LiveServer, table_id: str, token: str) -> None:
    """Play a game of one to its end through the API (random legal moves)."""
    rng = random.Random(5)
    for n in range(2000):
        frame = live.state(table_id, token)
        if frame["state"]["terminal"]:
            return
        legal = server_legal(live, table_id, "p1")
        version = frame["version"]
        live.call(
            "POST",
            f"/api/tables/{table_id}/actions",
            {"action": rng.choice(legal), "version": version, "client_id": f"t{n}"},
            token=token,
        )
    raise AssertionError("the game did not end")


def test_replay_buttons_draw_their_icons_and_use_only_safe_characters(
    page: Any, live: LiveServer
) -> None:
    table_id = live.table("cabin", 1, ["open"], deal=3)
    page.goto(f"{live.base}/replay/{table_id}")
    ready(page)
    page.wait_for_selector(".replay-controls button")
    buttons = page.locator(".replay-controls button[data-step]")
    assert buttons.count() == 4
    for i in range(4):
        button = buttons.nth(i)
        assert SAFE_TEXT.match(button.inner_text()), button.inner_text()
        box = button.locator("svg").bounding_box()
        assert box is not None and box["width"] > 0 and box["height"] > 0


def test_an_unknown_page_is_an_html_page_with_a_link_home(page: Any, live: LiveServer) -> None:
    answer = page.goto(live.base + "/nosuchpage")
    assert answer is not None and answer.status == 404
    assert answer.headers["content-type"].startswith("text/html")
    assert page.locator('a[href="/"]').count() >= 1
    assert "not found" in page.inner_text("h1").lower()
    # the site's own look, from its own stylesheet
    assert page.locator('link[rel=stylesheet][href="/static/style.css"]').count() == 1
    # the API keeps its JSON error, even asked by a browser
    request = urllib.request.Request(live.base + "/api/nosuch", headers={"accept": "text/html"})
    try:
        urllib.request.urlopen(request, timeout=10)
    except urllib.error.HTTPError as exc:
        assert exc.code == 404
        assert exc.headers["content-type"] == "application/json"
        assert b'"error"' in exc.read()
    else:
        raise AssertionError("an unknown API path answered")


def test_a_refused_chat_line_stays_in_the_input_and_says_why_beside_it(
    page: Any, live: LiveServer
) -> None:
    table_id = live.table("lonely-face", 2, ["open", "greedy"])
    sit(page, live, table_id)
    page.goto(f"{live.base}/table/{table_id}")
    ready(page)
    burst = live.settings.chat_burst
    for n in range(burst):
        page.fill("#chat-text", f"hello {n}")
        page.press("#chat-text", "Enter")
        page.wait_for_function(
            "n => document.querySelectorAll('.chat-list li').length === n", arg=n + 1
        )
    page.fill("#chat-text", "one too many")
    page.press("#chat-text", "Enter")
    page.wait_for_function("() => document.querySelector('#chat-error')?.textContent")
    assert page.input_value("#chat-text") == "one too many"
    assert "Not sent" in page.inner_text("#chat-error")
    assert page.locator(".chat-list li").count() == burst
    # the Moves panel is not where a chat refusal is told
    assert "chat" not in page.inner_text(".moves").lower()


def test_a_solo_end_shows_the_score_without_chat_or_hands_and_retries_the_deal(
    page: Any, live: LiveServer
) -> None:
    table_id = live.table("cabin", 1, ["open"], deal=11, public=False)
    token = sit(page, live, table_id)
    finish_alone(live, table_id, token)
    page.goto(f"{live.base}/table/{table_id}")
    ready(page)
    page.wait_for_selector(".end .solo-score")
    end = page.inner_text(".end")
    assert "Nobody won" not in end
    assert re.search(r"Your score: -?\d+", end)
    assert "perfect" in end.lower()
    assert page.locator(".held").count() == 0
    assert not page.locator(".chat").is_visible()
    assert page.locator("#chat-text").count() == 0
    # retry the same deal: a new table, same deal number, and the player seated
    page.click('button[data-role="retry"]')
    page.wait_for_url(re.compile(r"/table/(?!" + re.escape(table_id) + r"$)[\w-]+$"))
    ready(page)
    new_id = page.url.rsplit("/", 1)[1]
    assert new_id != table_id
    summary = live.call("GET", f"/api/tables/{new_id}")
    assert summary["deal"] == 11 and summary["game"] == "cabin"
    assert summary["seats"][0]["nickname"] == "ann"
    page.wait_for_selector('.solo button[data-role="undo"]')


def test_option_help_reads_as_words_with_defaults_and_no_ruling_ids(
    page: Any, live: LiveServer
) -> None:
    page.goto(live.base + "/")
    ready(page)
    games = page.locator("#game option").evaluate_all("els => els.map(e => e.value)")
    seen = 0
    for game in games:
        page.select_option("#game", game)
        for help_text in page.locator(".field[data-option] small").all_inner_texts():
            seen += 1
            assert not re.search(r"\([A-Z]{1,2}\d{1,2}[);,]", help_text), help_text
            assert "(default:" not in help_text and "False" not in help_text, help_text
            assert "by default" in help_text.lower(), help_text
    assert seen
    # the ruling ids are still at hand, as a tooltip (this game's options cite F1)
    page.select_option("#game", "facade")
    titles = page.locator(".field[data-option] small[title]").evaluate_all(
        "els => els.map(e => e.title)"
    )
    assert "Rulings: F1" in titles, titles


def test_a_rules_caption_sits_above_its_picture(page: Any, live: LiveServer) -> None:
    page.goto(live.base + "/rules/cabin")
    ready(page)
    page.wait_for_selector(".diagram .felt")
    caption = page.locator(".diagram figcaption").bounding_box()
    picture = page.locator(".diagram .diagram-table").bounding_box()
    assert caption is not None and picture is not None
    assert caption["y"] + caption["height"] <= picture["y"] + 1
