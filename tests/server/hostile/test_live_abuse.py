"""Hostile clients of the live WebSocket and the REST routes beside it (issue 19, items 2,
5 and 6): connections that vanish right after ``hello``, frames that break parsers, and
one client that tries to step around the limits with more connections or channels."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import logging
import socket
import struct
import threading
import time
import tracemalloc
import warnings
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import uvicorn
from fastapi import FastAPI
from starlette.types import Receive, Scope, Send
from websockets.asyncio.client import connect

from decklab.server.api.app import create_app
from decklab.server.bots import BotPool

from ..conftest import fast_settings
from ..games import solo, two_player
from ..serverproc import free_port
from ..wsdrive import auth, join, new_table

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient, WebSocketTestSession

URL = "/api/tables/{}/live"
MB = 1024 * 1024
#: Limits high enough that the abrupt clients below are never refused: a refused hello
#: would never be subscribed, and the leak test would prove nothing.
UNLIMITED = {"connections_per_address": 100_000, "address_messages_per_window": 1_000_000}
#: A real server on a loopback port is reached by its IP address, which the default Host
#: policy answers to (the TestClient's ``testserver`` needs ``public_urls``).
LOOPBACK_HOST = {"public_urls": ()}


# ------------------------------------------------------------------ helpers
@contextlib.contextmanager
def serving(app: FastAPI) -> Iterator[str]:
    """``app`` behind a real uvicorn on a loopback port, in a thread of this process (so
    the test can look into the service); yields the base URL."""
    port = free_port()
    config = uvicorn.Config(
        app, host="127.0.0.1", port=port, log_config=None, ws_per_message_deflate=False
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 60
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "the server did not start"
        time.sleep(0.01)
    try:
        yield f"127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(30)


async def hello_and_vanish(url: str, count: int) -> None:
    """``count`` clients that say hello and reset the TCP connection at once (SO_LINGER
    0: an RST, no close handshake), so the server's ``welcome`` goes nowhere."""
    for _ in range(count):
        ws = await connect(url, compression=None)
        await ws.send(json.dumps({"type": "hello"}))
        sock = ws.transport.get_extra_info("socket")
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        ws.transport.abort()


def settle(app: FastAPI, wait_s: float = 15.0) -> int:
    """Waits until no connection follows any table; the listeners left after ``wait_s``."""
    service = app.state.service
    deadline = time.monotonic() + wait_s
    while service.hub.listeners and time.monotonic() < deadline:
        time.sleep(0.05)
    return len(service.hub.listeners)


def errors_logged(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [
        f"{r.name}: {r.getMessage()[:80]}" for r in caplog.records if r.levelno >= logging.ERROR
    ]


def busy_table(base: str) -> str:
    """A table two bots play on: events keep coming to whoever follows it."""
    answer = httpx.post(
        f"http://{base}/api/tables",
        json={"game": two_player(), "players": 2, "seats": [{"kind": "bot", "bot": "greedy"}] * 2},
    )
    assert answer.status_code == 201, answer.text
    table: str = answer.json()["id"]
    return table


# ------------------------------------------------------------------ item 2: the leak
def test_abrupt_hello_and_close_leaves_memory_and_listeners_as_they_were(
    database_url: str, bot_pool: BotPool, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    app = create_app(
        fast_settings(database_url=database_url, **UNLIMITED, **LOOPBACK_HOST), pool=bot_pool
    )
    with serving(app) as base:
        table = busy_table(base)
        url = f"ws://{base}{URL.format(table)}"
        asyncio.run(hello_and_vanish(url, 50))  # warm up: first-use allocations
        settle(app)
        gc.collect()
        tracemalloc.start()
        try:
            before = tracemalloc.get_traced_memory()[0]
            asyncio.run(hello_and_vanish(url, 1000))
            left = settle(app)
            gc.collect()
            grown = tracemalloc.get_traced_memory()[0] - before
        finally:
            tracemalloc.stop()
        held = app.state.service.tables[table].listeners
    assert left == 0 and not held, f"{left} listeners left after 1,000 closes, +{grown / MB:.1f} MB"
    assert grown < 10 * MB, f"memory grew by {grown / MB:.1f} MB after 1,000 abrupt closes"
    assert errors_logged(caplog) == []


def test_a_client_gone_during_the_handshake_logs_no_error(
    database_url: str, bot_pool: BotPool, caplog: pytest.LogCaptureFixture
) -> None:
    """The 59-in-60 ``Exception in ASGI application``: logged at debug level now."""
    caplog.set_level(logging.DEBUG, logger="decklab.server.live")
    caplog.set_level(logging.WARNING)
    app = create_app(
        fast_settings(database_url=database_url, **UNLIMITED, **LOOPBACK_HOST), pool=bot_pool
    )
    with serving(app) as base:
        url = f"ws://{base}{URL.format(busy_table(base))}"
        asyncio.run(hello_and_vanish(url, 60))
        settle(app)
    assert errors_logged(caplog) == []


# ------------------------------------------------------------------ item 6: bad input
def _answer(ws: WebSocketTestSession) -> dict[str, Any]:
    """The next frame that answers the client (not the table's own traffic)."""
    while True:
        frame: dict[str, Any] = ws.receive_json()
        if frame["type"] in ("error", "pong", "ack", "hint", "welcome"):
            return frame


NESTED = "[" * 2000
SURROGATE = '"\\ud800"'  # JSON text for a lone surrogate: valid JSON, no valid text


@pytest.mark.parametrize(
    "first",
    [
        NESTED,
        '{"type": "hello", "token": @}'.replace("@", SURROGATE),
        '{"type": "hello", "client_id": @}'.replace("@", SURROGATE),
        '{"type": @}'.replace("@", SURROGATE),
    ],
    ids=["nested", "token", "client_id", "type"],
)
def test_a_malformed_hello_gets_a_clean_bad_frame(client: TestClient, first: str) -> None:
    table = new_table(client, game=two_player(), players=2)["id"]
    with client.websocket_connect(URL.format(table)) as ws:
        ws.send_text(first)
        frame = ws.receive_json()
    assert frame["type"] == "error" and frame["code"] == "bad_frame", frame


def test_malformed_frames_after_hello_get_clean_errors_and_change_nothing(
    client: TestClient,
) -> None:
    table = new_table(client, game=two_player(), players=2)["id"]
    tokens = [join(client, table, "p1", "ann"), join(client, table, "p2", "bob")]
    before = client.get(f"/api/tables/{table}").json()
    bad = [
        NESTED,
        '{"type": "intent", "action": "x", "version": 0, "client_id": @}'.replace("@", SURROGATE),
        '{"type": "intent", "action": @, "version": 0, "client_id": "a"}'.replace("@", SURROGATE),
        '{"type": "chat", "text": @}'.replace("@", SURROGATE),
        '{"type": @}'.replace("@", SURROGATE),
        '{"type": "ping", "x": {@: 1}}'.replace("@", SURROGATE),
    ]
    with client.websocket_connect(URL.format(table)) as ws:
        ws.send_json({"type": "hello", "token": tokens[0]})
        assert _answer(ws)["type"] == "welcome"
        for text in bad:
            ws.send_text(text)
            frame = _answer(ws)
            assert frame["type"] == "error" and frame["code"] == "bad_frame", (text[:40], frame)
        ws.send_json({"type": "ping"})
        assert _answer(ws)["type"] == "pong"  # still served
    after = client.get(f"/api/tables/{table}").json()
    assert after["actions"] == before["actions"]
    assert client.get(f"/api/tables/{table}/state", headers=auth(tokens[0])).json()["chat"] == []


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("join", '{"seat": "p1", "nickname": @}'.replace("@", SURROGATE)),
        ("actions", '{"action": "x", "version": 0, "client_id": @}'.replace("@", SURROGATE)),
        ("actions", '{"action": @, "version": 0, "client_id": "a"}'.replace("@", SURROGATE)),
        ("chat", '{"text": @}'.replace("@", SURROGATE)),
        ("actions", NESTED),
        ("join", NESTED),
    ],
    ids=[
        "join-nickname",
        "actions-client_id",
        "actions-action",
        "chat-text",
        "actions-nested",
        "join-nested",
    ],
)
def test_a_lone_surrogate_or_deep_nesting_in_a_rest_body_gets_a_clean_error(
    client: TestClient, path: str, body: str
) -> None:
    table = new_table(client, game=two_player(), players=2)["id"]
    token = join(client, table, "p2", "bob")
    answer = client.post(
        f"/api/tables/{table}/{path}",
        content=body,
        headers={"content-type": "application/json", **auth(token)},
    )
    assert 400 <= answer.status_code < 500 and answer.json()["error"]["code"], answer.text
    assert client.get(f"/api/tables/{table}").json()["seats"][0]["kind"] == "open"


# ------------------------------------------------------------------ item 5: limits
class AddressFromHeader:
    """Sets the ASGI client address from ``x-test-client``, as the trusted-proxy handling
    does from ``X-Forwarded-For``: two addresses through one TestClient."""

    def __init__(self, app: FastAPI) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            given = dict(scope["headers"]).get(b"x-test-client")
            if given is not None:
                scope = {**scope, "client": (given.decode(), 40000)}
        await self.app(scope, receive, send)


@contextlib.contextmanager
def limited(database_url: str, bot_pool: BotPool, **settings: Any) -> Iterator[TestClient]:
    app = create_app(fast_settings(database_url=database_url, **settings), pool=bot_pool)
    with TestClient(AddressFromHeader(app), base_url="http://testserver") as test_client:
        yield test_client


SECOND = {"x-test-client": "127.0.0.2"}


def test_one_seat_on_ten_connections_gets_one_seat_budget_answered(
    database_url: str, bot_pool: BotPool
) -> None:
    budget = 30
    with limited(
        database_url, bot_pool, seat_messages_per_window=budget, connections_per_seat=10
    ) as client:
        table = new_table(client, game=two_player(), players=2)["id"]
        token = join(client, table, "p1", "ann")
        answered = refused = 0
        with contextlib.ExitStack() as stack:
            sockets = [
                stack.enter_context(client.websocket_connect(URL.format(table))) for _ in range(10)
            ]
            for ws in sockets:
                ws.send_json({"type": "hello", "token": token})
                assert _answer(ws)["type"] == "welcome"
            for ws in sockets:
                for _ in range(20):  # 200 in all, each connection far below its own 100
                    ws.send_json({"type": "ping"})
                for _ in range(20):
                    frame = _answer(ws)
                    if frame["type"] == "pong":
                        answered += 1
                    else:
                        assert frame["code"] == "rate_limited" and frame["retry_after_s"] >= 1
                        refused += 1
    # the window is 20 s: a few seconds of test refill at most a handful more
    assert answered <= budget + 10, f"{answered} pings answered for one seat"
    assert refused >= 200 - budget - 10


def test_one_address_is_capped_in_connections_and_another_is_not(
    database_url: str, bot_pool: BotPool
) -> None:
    with limited(database_url, bot_pool, connections_per_address=5) as client:
        table = new_table(client, game=two_player(), players=2)["id"]
        with contextlib.ExitStack() as stack:
            for _ in range(5):
                ws = stack.enter_context(client.websocket_connect(URL.format(table)))
                ws.send_json({"type": "hello"})
                assert _answer(ws)["type"] == "welcome"
            with client.websocket_connect(URL.format(table)) as extra:
                extra.send_json({"type": "hello"})
                frame = extra.receive_json()
                assert frame["type"] == "error" and frame["code"] == "rate_limited", frame
                with pytest.raises(Exception) as closed:
                    extra.receive_json()
                assert getattr(closed.value, "code", None) == 4429
            with client.websocket_connect(URL.format(table), headers=SECOND) as other:
                other.send_json({"type": "hello"})
                assert _answer(other)["type"] == "welcome"
        # the five closed: the address may connect again
        with client.websocket_connect(URL.format(table)) as again:
            again.send_json({"type": "hello"})
            assert _answer(again)["type"] == "welcome"


def test_one_seat_is_capped_in_connections(database_url: str, bot_pool: BotPool) -> None:
    with limited(database_url, bot_pool, connections_per_seat=2) as client:
        table = new_table(client, game=two_player(), players=2)["id"]
        token = join(client, table, "p1", "ann")
        with contextlib.ExitStack() as stack:
            for _ in range(2):
                ws = stack.enter_context(client.websocket_connect(URL.format(table)))
                ws.send_json({"type": "hello", "token": token})
                assert _answer(ws)["type"] == "welcome"
            with client.websocket_connect(URL.format(table), headers=SECOND) as extra:
                extra.send_json({"type": "hello", "token": token})
                frame = extra.receive_json()
        assert frame["type"] == "error" and frame["code"] == "rate_limited", frame


def test_many_spectators_of_one_address_share_one_message_budget(
    database_url: str, bot_pool: BotPool
) -> None:
    budget = 40
    with limited(database_url, bot_pool, address_messages_per_window=budget) as client:
        table = new_table(client, game=two_player(), players=2)["id"]
        answered = 0
        with contextlib.ExitStack() as stack:
            sockets = [
                stack.enter_context(client.websocket_connect(URL.format(table))) for _ in range(8)
            ]
            for ws in sockets:
                ws.send_json({"type": "hello"})
                assert _answer(ws)["type"] == "welcome"
            for ws in sockets:
                for _ in range(20):
                    ws.send_json({"type": "ping"})
                answered += sum(_answer(ws)["type"] == "pong" for _ in range(20))
            with client.websocket_connect(URL.format(table), headers=SECOND) as other:
                other.send_json({"type": "hello"})
                assert _answer(other)["type"] == "welcome"
                other.send_json({"type": "ping"})
                assert _answer(other)["type"] == "pong"
    assert answered <= budget + 10, f"{answered} pings answered for one address"


def _refused(answer: httpx.Response) -> None:
    assert answer.status_code == 429, answer.text
    assert answer.json()["error"]["code"] == "rate_limited"
    assert int(answer.headers["retry-after"]) >= 1


def test_joins_are_capped_per_address(database_url: str, bot_pool: BotPool) -> None:
    with limited(database_url, bot_pool, joins_per_window=3) as client:
        tables = [new_table(client, game=two_player(), players=2)["id"] for _ in range(3)]
        for seat in ("p1", "p2"):
            join(client, tables[0], seat)
        join(client, tables[1], "p1")
        _refused(client.post(f"/api/tables/{tables[1]}/join", json={"seat": "p2", "nickname": "x"}))
        seats = client.get(f"/api/tables/{tables[1]}").json()["seats"]
        assert seats[1]["kind"] == "open"  # refused: nothing changed
        other = client.post(
            f"/api/tables/{tables[1]}/join", json={"seat": "p2", "nickname": "y"}, headers=SECOND
        )
        assert other.status_code == 200, other.text


def test_hints_are_capped_per_seat_and_per_address(database_url: str, bot_pool: BotPool) -> None:
    with limited(
        database_url, bot_pool, hints_per_seat_window=2, hints_per_address_window=3
    ) as client:
        first, second = (new_table(client, game=solo(), players=1)["id"] for _ in range(2))
        one, two = join(client, first, "p1"), join(client, second, "p1")
        for _ in range(2):
            assert client.get(f"/api/tables/{first}/hint", headers=auth(one)).status_code == 200
        _refused(client.get(f"/api/tables/{first}/hint", headers=auth(one)))  # the seat's
        assert client.get(f"/api/tables/{second}/hint", headers=auth(two)).status_code == 200
        _refused(client.get(f"/api/tables/{second}/hint", headers=auth(two)))  # the address's
        answer = client.get(f"/api/tables/{second}/hint", headers={**auth(two), **SECOND})
        assert answer.status_code == 200, answer.text


def test_rest_actions_and_live_frames_share_the_seat_budget(
    database_url: str, bot_pool: BotPool
) -> None:
    budget = 10
    with limited(database_url, bot_pool, seat_messages_per_window=budget) as client:
        table = new_table(client, game=two_player(), players=2)["id"]
        token = join(client, table, "p1", "ann")
        join(client, table, "p2", "bob")
        with client.websocket_connect(URL.format(table)) as ws:
            ws.send_json({"type": "hello", "token": token})
            assert _answer(ws)["type"] == "welcome"
            for _ in range(budget + 5):
                ws.send_json({"type": "ping"})
            answered = sum(_answer(ws)["type"] == "pong" for _ in range(budget + 5))
        assert answered <= budget + 2
        body = {"text": "hi"}
        _refused(client.post(f"/api/tables/{table}/chat", json=body, headers=auth(token)))
