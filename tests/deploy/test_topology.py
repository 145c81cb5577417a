"""The deployed topology, end to end: a browser plays through nginx over TLS, its live
connection upgraded to a WebSocket through the proxy, with two decklab processes on one
PostgreSQL database behind it; and the per-address limits count real client addresses.

nginx runs the shipped ``deploy/nginx/decklab.conf`` (see :mod:`site`). The limits part
needs ``--trusted-proxy`` (decklab believes ``X-Forwarded-For`` from nginx only).
"""

from __future__ import annotations

import random
import re
import time
import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from server import pgserver
from server.games import two_player
from web.ui import IDLE, play_on_cards, ready, version, wait_turn

from .site import Site, missing_binaries

GAME = two_player()
TABLES_PER_MINUTE = 2

if (why := missing_binaries()) is not None:
    pytest.skip(reason=why, allow_module_level=True)


def _database(pg_server: pgserver.PgServer) -> str:
    return pg_server.create_database(f"d_{uuid.uuid4().hex[:12]}")


@pytest.fixture(scope="module")
def site(pg_server: pgserver.PgServer, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    folder = tmp_path_factory.mktemp("site")
    # The page's WebSocket comes with the Origin of the proxied site, https://…, which
    # decklab sees as its own when it believes nginx's X-Forwarded-Proto; this site does
    # not depend on --trusted-proxy, so that origin is allowed by name.
    with Site(folder, _database(pg_server), "--allowed-origin", "{https}") as running:
        yield running


def client(local_address: str = "127.0.0.1") -> httpx.Client:
    """A client connecting from ``local_address`` (both loopback) to the site."""
    transport = httpx.HTTPTransport(local_address=local_address, verify=False)
    return httpx.Client(transport=transport, timeout=20, verify=False)


def test_plain_http_is_sent_to_https(site: Site) -> None:
    with client() as c:
        answer = c.get(f"{site.http}/table/abc")
    assert answer.status_code == 301
    assert answer.headers["location"].startswith("https://")


def test_both_processes_answer_through_the_proxy_over_tls(site: Site) -> None:
    seen = set()
    for _ in range(8):
        with client() as c:
            seen.add(c.get(f"{site.https}/api/health").json()["process"])
    assert len(seen) == 2


def test_metrics_and_large_bodies_stop_at_the_proxy(site: Site) -> None:
    with client() as c:
        assert c.get(f"{site.https}/metrics").status_code == 404
        big = c.post(f"{site.https}/api/tables", content=b"x" * 70_000)
        assert big.status_code == 413
    # Prometheus scrapes each instance on its own loopback port
    direct = httpx.get(f"{site.servers[0].base}/metrics")
    assert direct.status_code == 200 and "decklab_moves" in direct.text


def test_browser_plays_through_tls_with_a_websocket_through_the_proxy(
    site: Site, browser: Any
) -> None:
    context = browser.new_context(ignore_https_errors=True, viewport={"width": 1280, "height": 900})
    context.set_default_timeout(30000)
    rng = random.Random(7)
    try:
        page = context.new_page()
        page.goto(site.https + "/")
        ready(page)
        page.fill("#nick", "ann")
        page.dispatch_event("#nick", "change")
        page.select_option("#game", GAME)
        page.select_option('select[data-seat="p1"]', "you")
        page.select_option('select[data-seat="p2"]', "open")
        page.click("button.primary")
        page.wait_for_url(re.compile(r"/table/[\w-]+$"))
        ready(page)
        assert page.url.startswith("https://")
        table = page.url.rsplit("/", 1)[1]
        with client() as c:
            joined = c.post(
                f"{site.https}/api/tables/{table}/join", json={"seat": "p2", "nickname": "bob"}
            )
            assert joined.status_code == 200, joined.text
            bob = {"Authorization": f"Bearer {joined.json()['token']}"}
            moves_by_page = moves_by_rest = 0
            while moves_by_page < 2 or moves_by_rest < 2:
                # The page is the one to ask whose turn it is: a REST read served by the
                # other process may be a moment behind (it hears of moves by NOTIFY).
                page.wait_for_function(
                    f"{IDLE} && document.querySelector('.felt-wrap').dataset.toAct"
                )
                to_act = (page.get_attribute(".felt-wrap", "data-to-act") or "").split()
                if "p2" in to_act:
                    acked = _move_by_rest(c, site, table, bob, version(page), f"bob{moves_by_rest}")
                    # the move made through REST (perhaps on the other process) reaches
                    # the page through its live connection
                    page.wait_for_function(
                        "v => Number(document.querySelector('.felt-wrap').dataset.version) >= v",
                        arg=acked,
                    )
                    moves_by_rest += 1
                else:
                    assert wait_turn(page, "p1")
                    play_on_cards(page, rng)
                    moves_by_page += 1
            assert version(page) >= 4
    finally:
        context.close()
    # nginx writes a WebSocket's line when it closes, just after the page does
    deadline = time.monotonic() + 15
    while not (upgraded := _upgrades(site, table)) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert upgraded, "the page's live connection was not upgraded through nginx"


def _move_by_rest(
    c: httpx.Client, site: Site, table: str, auth: dict[str, str], at: int, client_id: str
) -> int:
    """The seat's first legal move at version ``at`` or later, through REST; its version.
    A process a moment behind answers "stale": asked again, it has caught up."""
    for _ in range(100):
        state = c.get(f"{site.https}/api/tables/{table}/state", headers=auth).json()
        if state["version"] >= at and state["state"]["legal"]:
            body = {"action": state["state"]["legal"][0], "version": state["version"]}
            answer = c.post(
                f"{site.https}/api/tables/{table}/actions",
                json={**body, "client_id": client_id},
                headers=auth,
            )
            if answer.status_code == 200:
                acked: int = answer.json()["version"]
                return acked
            assert answer.status_code == 409, answer.text
        time.sleep(0.1)
    raise AssertionError("the move through REST was never accepted")


def _upgrades(site: Site, table: str) -> list[str]:
    """nginx's log lines of a live connection of ``table`` answered 101 (upgraded)."""
    lines = site.access_log.read_text().splitlines()
    return [x for x in lines if f"/api/tables/{table}/live " in x and '" 101 ' in x]


@pytest.fixture(scope="module")
def limited_site(
    pg_server: pgserver.PgServer, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Site]:
    folder = tmp_path_factory.mktemp("limited")
    options = ("--trusted-proxy", "127.0.0.1", "--tables-per-minute", str(TABLES_PER_MINUTE))
    with Site(folder, _database(pg_server), *options) as running:
        yield running


def _create(c: httpx.Client, site: Site, **headers: str) -> int:
    body = {"game": GAME, "players": 2}
    return c.post(f"{site.https}/api/tables", json=body, headers=headers).status_code


def test_table_quota_counts_the_real_client_address_behind_the_proxy(
    limited_site: Site,
) -> None:
    """Limits are per address *per process*: behind two processes one address gets at
    most twice ``--tables-per-minute`` (docs/deploy.md says so)."""
    site = limited_site
    with client("127.0.0.1") as one, client("127.0.0.2") as two:
        codes = [_create(one, site) for _ in range(2 * TABLES_PER_MINUTE + 2)]
        assert codes.count(201) <= 2 * TABLES_PER_MINUTE and codes[-1] == 429, codes
        # nginx puts the address it sees in X-Forwarded-For: a claimed one changes nothing
        assert _create(one, site, **{"X-Forwarded-For": "198.51.100.7"}) == 429
        # another address has a quota of its own
        assert _create(two, site) == 201
