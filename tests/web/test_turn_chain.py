"""A game over days, end to end (issue 21, "What it must show"): two accounts, in
separate browser contexts, at a turn-based Lonely Face table whose deadline policy is
"a bot plays that move", on a server whose wall clock the test moves by hand and whose
mail goes to a local SMTP sink. The seat to act first is away (its tab in the
background); the clock passes its deadline, and the server's own deadline loop has a bot
play that move; the other seat's person is then mailed "your turn" (a link to the table,
no card), and their tab's title says it is their turn until they have moved.

Each link of the chain is asserted where it could break: the seat waits until its
deadline (not a second less), the move is the seat's and the log says the deadline
played it, the mail goes to that person only once it is their turn, the title changes
both ways."""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from decklab.engine.state import seat_name
from decklab.server.bots import BotPool
from server.smtpsink import Sink, smtp_sink  # the tests' folder is on the path

from .live import LiveServer, Wall
from .ui import click_first_move, ready

GAME = "lonely-face"
DAY = 86400.0
PASSWORD = "a long enough password"
TITLE_MINE = "() => document.title.startsWith('● Your turn — ')"
TITLE_NOT = (
    "() => document.body.dataset.ready === 'true' && !!document.querySelector('.felt-wrap')"
    " && !document.title.startsWith('●')"
)
CARD = re.compile(r"\b(?:10|[2-9TJQKA])[SHDC♠♥♦♣]\b|[♠♥♦♣]")
"""A card as the games write it (``QS``, ``10H``) or any suit symbol."""


@pytest.fixture
def turn_live(tmp_path: Path) -> Iterator[tuple[LiveServer, Sink]]:
    """A server of its own: an injected wall clock, mail to a loopback SMTP sink."""
    pool = BotPool(workers=1)
    try:
        with (
            smtp_sink() as sink,
            LiveServer(
                tmp_path,
                pool=pool,
                wall=Wall(),
                smtp_host="127.0.0.1",
                smtp_port=sink.port,
                smtp_from="tables@decklab.test",
            ) as server,
        ):
            yield server, sink
    finally:
        pool.close()


class _Records(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@contextmanager
def _server_log() -> Iterator[_Records]:
    """The server's log records (it runs in this process), INFO and up."""
    logger = logging.getLogger("decklab.server")
    handler = _Records()
    level = logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    try:
        yield handler
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level)


def _site_call(page: Any, method: str, path: str, body: dict[str, Any]) -> Any:
    """A request as the site's own page makes it (the session cookie, the CSRF header)."""
    return page.evaluate(
        """async ([method, path, body]) => {
            const me = await (await fetch('/api/me')).json();
            const answer = await fetch(path, {method, body: JSON.stringify(body),
                headers: {'content-type': 'application/json', 'x-csrf-token': me.csrf}});
            return [answer.status, await answer.json()];
        }""",
        [method, path, body],
    )


def _sign_up(page: Any, base: str, name: str) -> None:
    page.goto(base + "/account")
    ready(page)
    page.fill("#signup-name", name)
    page.fill("#signup-password", PASSWORD)
    page.click("#signup-form button[type=submit]")
    page.wait_for_selector(f"h1:has-text('Hello, {name}')")
    status, prefs = _site_call(
        page, "PUT", "/api/account/notifications", {"email": f"{name}@example.test"}
    )
    assert status == 200 and prefs["email_turn"] and prefs["mail_enabled"], prefs


def _wait_version_past(page: Any, version: int) -> None:
    page.wait_for_function(
        "v => Number(document.querySelector('.felt-wrap')?.dataset.version ?? -1) > v",
        arg=version,
    )


def _movers(table: Any) -> list[int]:
    """The seat of each move in a table's history (chance's entries left out)."""
    return [e.actor for e in table.entries if e.actor >= 0]


def _due(table: Any, seat: int) -> float:
    """The seat's deadline (wall-clock seconds) at a turn-based table."""
    assert table.deadlines is not None and seat in table.deadlines.due, "no deadline"
    due: float = table.deadlines.due[seat]
    return due


def test_a_turn_based_game_over_days_end_to_end(
    browser: Any, turn_live: tuple[LiveServer, Sink]
) -> None:
    live, sink = turn_live
    base = live.base.replace("127.0.0.1", "localhost")  # a secure context for the cookie
    names = ["ann", "bob"]
    contexts = [browser.new_context(viewport={"width": 1280, "height": 900}) for _ in names]
    errors: list[str] = []
    try:
        pages = [c.new_page() for c in contexts]
        for page in pages:
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            page.set_default_timeout(15000)
        for page, name in zip(pages, names, strict=True):
            _sign_up(page, base, name)
        body = {
            "game": GAME,
            "players": 2,
            "seats": [{"kind": "open"}, {"kind": "open"}],
            "turn": {"move_s": DAY, "on_deadline": "bot"},
        }
        status, made = _site_call(pages[0], "POST", "/api/tables", body)
        assert status == 201 and made["turn"]["on_deadline"] == "bot", made
        table_id = made["id"]
        for index, (page, name) in enumerate(zip(pages, names, strict=True)):
            status, got = _site_call(
                page,
                "POST",
                f"/api/tables/{table_id}/join",
                {"seat": f"p{index + 1}", "nickname": name},
            )
            assert status == 200, got
            page.evaluate(
                "([t, seat]) => localStorage.setItem('decklab.seat.' + t, JSON.stringify(seat))",
                [table_id, {"token": got["token"], "seat": got["seat"], "nickname": name}],
            )
        table = live.service.tables[table_id]
        late = table.state.to_act()[0]  # whoever the deal has move first is away
        other = 1 - late
        address = [f"{n}@example.test" for n in names]
        # the game began: the other seat has nothing to do yet, so no mail for it
        assert sink.to(address[other]) == []
        # the away seat's tab is in the background; the other's too, as when waiting
        # days for a turn (the title is what tells them)
        for page in pages:
            page.context.add_init_script(
                "Object.defineProperty(document, 'hidden', {get: () => true});"
                "Object.defineProperty(document, 'visibilityState', {get: () => 'hidden'});"
            )
            page.goto(f"{base}/table/{table_id}")
            ready(page)
            page.wait_for_selector(".felt-wrap[data-version]")
        pages[other].wait_for_function(TITLE_NOT)
        assert not pages[other].title().startswith("●")
        pages[late].wait_for_function(TITLE_MINE)
        start = table.version
        assert table.deadlines is not None and set(table.deadlines.due) == {late}

        with _server_log() as log:
            # a second before the deadline: the seat still waits
            live.advance(_due(table, late) - live.wall.now - 1)
            assert live.in_loop(live.service.run_deadlines) == []
            assert table.version == start
            # past it, as many times as the away seat's turn has steps: the server's own
            # deadline loop has a bot play each, for that seat
            played = 0
            while late in table.state.to_act():
                assert played < 6, "the away seat's turn did not end"
                version = table.version
                live.advance(_due(table, late) - live.wall.now + 1)
                _wait_version_past(pages[other], version)
                assert _movers(table)[-1] == late
                played += 1
            deadline_moves = [
                r
                for r in log.records
                if r.getMessage() == "deadline: move played"
                and getattr(r, "table", None) == table_id
            ]
        assert [getattr(r, "seat", None) for r in deadline_moves] == [seat_name(late)] * played
        assert table.actions == played and _movers(table) == [late] * played
        assert not table.seats[late].zombie  # those moves only: the seat stays its person's
        assert table.state.to_act() == (other,)

        # now it is the other's turn: their tab's title says so ...
        pages[other].wait_for_function(TITLE_MINE)
        # ... and they are mailed, once, with the link to the table and no card
        mails = sink.wait_to(address[other])
        assert len(mails) == 1, [m["Subject"] for m in mails]
        mail = mails[0]
        assert mail["To"] == address[other]
        assert mail["Subject"].startswith(f"decklab: Your turn at {table.cls.info.title}")
        assert table_id in mail["Subject"] and seat_name(other) in mail["Subject"]
        text = mail.get_content()
        assert f"/table/{table_id}" in text and f"Hello {names[other]}," in text
        said = (str(mail["Subject"]) + "\n" + text).replace(table_id, "")
        assert CARD.search(said) is None, said
        hands = (
            table.state.view(late)["hands"][seat_name(late)]
            + table.state.view(other)["hands"][seat_name(other)]
        )
        assert hands and not any(re.search(rf"\b{card}\b", said) for card in hands)

        # they move on their page: the title goes back once the turn has passed
        while other in table.state.to_act():
            click_first_move(pages[other])
        pages[other].wait_for_function(TITLE_NOT)
        pages[late].wait_for_function(TITLE_MINE)  # and the away seat's tab says it is theirs
        assert pages[late].locator('button[data-role="reclaim"]').count() == 0
        assert errors == []
    finally:
        for ctx in contexts:
            ctx.close()
