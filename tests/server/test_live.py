"""The live protocol through the real WebSocket: versions, acks, resends, stale intents,
reconnects, chat, zombie seats, clocks, tokens, origins, limits."""

from __future__ import annotations

import json
import time

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from .games import pick, two_player
from .wsdrive import auth, collect, hello, join, new_table, receive, until

GAME = two_player()
URL = "/api/tables/{}/live"


def _two_people(client: TestClient, **body: object) -> tuple[str, list[str]]:
    table = new_table(client, game=GAME, players=2, **body)
    return table["id"], [
        join(client, table["id"], "p1", "ann"),
        join(client, table["id"], "p2", "bob"),
    ]


def _to_act(client: TestClient, table: str, tokens: list[str]) -> tuple[int, dict]:
    state = client.get(f"/api/tables/{table}/state").json()["state"]
    seat = int(state["to_act"][0][1:]) - 1
    return seat, client.get(f"/api/tables/{table}/state", headers=auth(tokens[seat])).json()


def test_intent_ack_resend_and_stale(client: TestClient) -> None:
    table, tokens = _two_people(client)
    seat, sync = _to_act(client, table, tokens)
    with client.websocket_connect(URL.format(table)) as ws:
        welcome = hello(ws, tokens[seat])
        assert welcome["seat"] == f"p{seat + 1}" and welcome["version"] == sync["version"]
        first = ws.receive_json()
        assert first["type"] == "sync" and first["state"]["legal"] == sync["state"]["legal"]
        intent = {
            "type": "intent",
            "action": first["state"]["legal"][0],
            "version": first["version"],
            "client_id": "c1",
        }
        ws.send_json(intent)
        frames = collect(ws, lambda f: f["type"] == "ack")
        events = [f for f in frames if f["type"] == "event"]
        assert len(events) == 1 and events[0]["version"] == first["version"] + 1
        assert events[0]["kind"] == "action" and events[0]["log"][0]["actor"] == f"p{seat + 1}"
        assert frames[-1] == {"type": "ack", "version": first["version"] + 1, "client_id": "c1"}
        # the same intent again: the same ack, no new event, applied once
        ws.send_json(intent)
        again = collect(ws, lambda f: f["type"] == "ack")
        assert [f for f in again if f["type"] == "event"] == []
        assert again[-1]["version"] == first["version"] + 1
        # a new intent against the old version: stale, with the current state
        ws.send_json({**intent, "client_id": "c2"})
        stale = until(ws, lambda f: f["type"] == "error")
        assert stale["code"] == "stale" and stale["client_id"] == "c2"
        assert stale["sync"]["version"] == first["version"] + 1
    assert client.get(f"/api/tables/{table}").json()["actions"] == 1


def test_reconnect_gets_missed_events_or_a_sync(client: TestClient) -> None:
    table, tokens = _two_people(client)
    with client.websocket_connect(URL.format(table)) as ws:
        hello(ws, tokens[0])
        seen = ws.receive_json()["version"]
    moves = 0
    while moves < 4:  # both seats play on while p1 is away
        seat, sync = _to_act(client, table, tokens)
        body = {
            "action": sync["state"]["legal"][0],
            "version": sync["version"],
            "client_id": f"m{moves}",
        }
        assert (
            client.post(
                f"/api/tables/{table}/actions", json=body, headers=auth(tokens[seat])
            ).status_code
            == 200
        )
        moves += 1
    with client.websocket_connect(URL.format(table)) as ws:
        hello(ws, tokens[0], last=seen)
        missed = collect(ws, lambda f: f["type"] == "event" and f["state"] is not None)
        events = [f for f in missed if f["type"] == "event"]
        assert [e["version"] for e in events] == list(range(seen + 1, seen + 1 + moves))
        assert sum(len(e["log"]) > 0 for e in events) == moves
    with client.websocket_connect(URL.format(table)) as ws:
        hello(ws, tokens[0], last=1)  # older than anything kept would be: still fine
        frame = ws.receive_json()
        assert frame["type"] in {"event", "sync"}
    with client.websocket_connect(URL.format(table)) as ws:
        hello(ws, tokens[0], last=10**6)  # a version from the future: a full sync
        assert ws.receive_json()["type"] == "sync"


def test_chat_seats_write_spectators_read(client: TestClient) -> None:
    table, tokens = _two_people(client)
    with (
        client.websocket_connect(URL.format(table)) as player,
        client.websocket_connect(URL.format(table)) as watcher,
    ):
        hello(player, tokens[0])
        hello(watcher)
        player.receive_json(), watcher.receive_json()
        player.send_json({"type": "chat", "text": "<script>alert(1)</script> hi"})
        got = until(watcher, lambda f: f["type"] == "chat")
        assert got["text"] == "<script>alert(1)</script> hi" and got["from"] == "p1"
        watcher.send_json({"type": "chat", "text": "spectators cannot talk"})
        refused = until(watcher, lambda f: f["type"] == "error")
        assert refused["code"] == "forbidden"
    history = client.get(f"/api/tables/{table}/state").json()["chat"]
    assert [m["text"] for m in history] == ["<script>alert(1)</script> hi"]


def test_forged_token_other_seat_and_spectator_posing(client: TestClient) -> None:
    table, tokens = _two_people(client)
    seat, sync = _to_act(client, table, tokens)
    with client.websocket_connect(URL.format(table)) as ws:
        ws.send_json({"type": "hello", "token": "A" * 43})
        assert ws.receive_json()["code"] == "forbidden"
        with pytest.raises(WebSocketDisconnect):
            ws.receive_json()
    legal = sync["state"]["legal"][0]
    with client.websocket_connect(URL.format(table)) as ws:  # the other seat's token
        hello(ws, tokens[1 - seat])
        ws.receive_json()
        ws.send_json(
            {"type": "intent", "action": legal, "version": sync["version"], "client_id": "x"}
        )
        assert until(ws, lambda f: f["type"] == "error")["code"] == "illegal"
    with client.websocket_connect(URL.format(table)) as ws:  # a spectator posing as a seat
        hello(ws)
        ws.receive_json()
        ws.send_json(
            {
                "type": "intent",
                "action": legal,
                "version": sync["version"],
                "client_id": "x",
                "seat": f"p{seat + 1}",
            }
        )
        assert until(ws, lambda f: f["type"] == "error")["code"] == "forbidden"
    assert client.get(f"/api/tables/{table}").json()["actions"] == 0


def test_foreign_origin_refused(client: TestClient) -> None:
    table, _ = _two_people(client)
    with (
        pytest.raises(WebSocketDisconnect) as refused,
        client.websocket_connect(URL.format(table), headers={"origin": "https://evil.example"}),
    ):
        pass
    assert refused.value.code == 4403
    with client.websocket_connect(URL.format(table), headers={"origin": "http://testserver"}) as ws:
        assert hello(ws)["seat"] is None


def test_oversized_flooding_and_binary_frames(client: TestClient) -> None:
    table, tokens = _two_people(client)
    with client.websocket_connect(URL.format(table)) as ws:
        hello(ws, tokens[0])
        ws.receive_json()
        ws.send_text(json.dumps({"type": "chat", "text": "x" * 5000}))
        assert until(ws, lambda f: f["type"] == "error")["code"] == "too_large"
        ws.send_bytes(b"\x00\x01")
        assert until(ws, lambda f: f["type"] == "error")["code"] == "bad_frame"
        for _ in range(110):
            ws.send_json({"type": "ping"})
        codes = []
        for _ in range(300):
            frame = ws.receive_json()
            if frame["type"] == "error":
                codes.append(frame["code"])
            if len(codes) >= 5:
                break
        assert set(codes) == {"rate_limited"}
    assert client.get(f"/api/tables/{table}").json()["version"] == 3


def test_heartbeat_closes_a_silent_connection_and_keeps_an_answering_one(
    client: TestClient,
) -> None:
    """Pings every heartbeat (1 s here); a connection that sends nothing for two is
    closed with 4408, one that answers with pongs stays open."""
    table, _ = _two_people(client)
    with (
        client.websocket_connect(URL.format(table)) as silent,
        client.websocket_connect(URL.format(table)) as alive,
    ):
        hello(silent)
        hello(alive)
        started = time.monotonic()
        pings = 0
        while time.monotonic() - started < 3.5:
            pings += receive(alive)["type"] == "ping"  # answers each ping
        assert pings >= 2
        with pytest.raises(WebSocketDisconnect) as closed:
            for _ in range(100):
                silent.receive_json()  # never answers
        assert closed.value.code == 4408
        assert time.monotonic() - started >= 2.0
        assert until(alive, lambda f: f["type"] == "ping")["type"] == "ping"


def test_leaver_replaced_by_bot_and_reclaimed(hasty_client: TestClient) -> None:
    client = hasty_client
    table = new_table(client, game=GAME, players=2)["id"]
    tokens = [join(client, table, "p1", "ann")]
    with (
        client.websocket_connect(URL.format(table)) as present,
        client.websocket_connect(URL.format(table)) as watcher,
    ):
        # p1's page is open before the game starts: a seat with none is away too, and
        # once p1's grace (0.3 s from the start) ran out before its page said hello, a
        # bot took p1 and gave it back, two versions the count below did not expect
        hello(present, tokens[0])
        tokens.append(join(client, table, "p2", "bob"))
        hello(watcher)
        synced = watcher.receive_json()
        assert client.post(f"/api/tables/{table}/leave", headers=auth(tokens[1])).status_code == 204
        if synced.get("type") == "sync" and synced["state"]["seats"][1]["zombie"]:
            # p2 never opened the page: its grace (0.3 s) may run out before the watcher
            # is there, and then the bot already holds the seat in the watcher's sync
            zombie = synced
        else:
            zombie = until(watcher, lambda f: f["type"] == "event" and f["kind"] == "zombie")
            assert zombie["detail"] == {"seat": "p2", "why": "away"}
        assert zombie["state"]["seats"][1]["zombie"] is True
        # the bot plays p2's turns while p1 plays its own; the watcher's events drive
        # p1, so how fast the bot answers never matters (only p1 can move while the
        # public state says p1 is to act)
        state, version, p2_moves = zombie["state"], zombie["version"], 0
        for i in range(200):
            if p2_moves >= 2 or not state["to_act"]:
                break
            if state["to_act"] == ["p1"]:
                mine = client.get(f"/api/tables/{table}/state", headers=auth(tokens[0])).json()
                assert mine["version"] == version
                body = {
                    "action": mine["state"]["legal"][0],
                    "version": version,
                    "client_id": f"m{i}",
                }
                answer = client.post(
                    f"/api/tables/{table}/actions", json=body, headers=auth(tokens[0])
                )
                assert answer.status_code < 300, answer.text
            event = until(watcher, lambda f: f["type"] == "event")
            assert event["version"] == version + 1
            if event["kind"] == "action" and event["detail"]["seat"] == "p2":
                p2_moves += 1
                assert event["log"]
            state, version = event["state"], event["version"]
        assert p2_moves >= 1
        with client.websocket_connect(URL.format(table)) as back:
            hello(back, tokens[1])
            reclaim = until(watcher, lambda f: f["type"] == "event" and f["kind"] == "reclaim")
            assert reclaim["state"]["seats"][1]["zombie"] is False


@pytest.mark.parametrize("on_timeout", ["bot", "forfeit"])
def test_clock_running_out(client: TestClient, on_timeout: str) -> None:
    before_start = time.monotonic()  # the clock starts after this, when both have joined
    table, tokens = _two_people(
        client, clock={"base_s": 1, "increment_s": 0, "on_timeout": on_timeout}
    )
    with client.websocket_connect(URL.format(table)) as ws:
        hello(ws, tokens[0])
        first = ws.receive_json()
        assert first["state"]["clock"]["remaining_ms"]["p1"] <= 1000
        if on_timeout == "bot":
            event = until(ws, lambda f: f["type"] == "event" and f["kind"] == "zombie")
            assert event["detail"]["why"] == "time"
        else:
            event = until(ws, lambda f: f["type"] == "event" and f["kind"] == "end")
            assert event["detail"]["timeout"] in {"p1", "p2"}
            assert client.get(f"/api/tables/{table}").json()["status"] == "finished"
        # never before the clock's second has run out (it started after ``before_start``)
        assert time.monotonic() - before_start >= 0.95


class Ticks:
    """A monotonic clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_clock_runs_out_on_the_injected_clock_not_before(client: TestClient) -> None:
    """Every live clock reads the service's one ``ticks``: a test that injects it moves
    the clocks by hand, and a slow machine cannot run one out. The seat to act times out
    when the clock passes its minute and not a millisecond before."""
    service = client.app.state.service  # type: ignore[attr-defined]
    ticks = Ticks()
    service.ticks = ticks
    table, tokens = _two_people(client, clock={"base_s": 60, "increment_s": 0, "on_timeout": "bot"})
    seat, _ = _to_act(client, table, tokens)
    with client.websocket_connect(URL.format(table)) as ws:
        hello(ws, tokens[1 - seat])
        first = ws.receive_json()
        assert first["state"]["clock"]["remaining_ms"][f"p{seat + 1}"] == 60000
        ticks.now += 59.999
        client.portal.call(service.ticks_moved)  # type: ignore[union-attr]
        ws.send_json({"type": "ping"})
        assert until(ws, lambda f: f["type"] == "pong")["type"] == "pong"
        assert not service.tables[table].seats[seat].zombie
        ticks.now += 0.001
        client.portal.call(service.ticks_moved)  # type: ignore[union-attr]
        event = until(ws, lambda f: f["type"] == "event" and f["kind"] == "zombie")
        assert event["detail"]["why"] == "time"
        assert event["detail"]["seat"] == f"p{seat + 1}"


def test_simultaneous_round_tells_who_has_chosen(client: TestClient) -> None:
    game = pick(lambda i: i.simultaneous)
    table = new_table(
        client,
        game=game,
        players=4,
        seats=[{"kind": "open"}] + [{"kind": "bot", "bot": "greedy"}] * 3,
    )
    token = join(client, table["id"], "p1")
    with client.websocket_connect(URL.format(table["id"])) as ws:
        hello(ws, token)
        state = ws.receive_json()["state"]
        assert state["seat"] == "p1"
        # The bots choose while p1 thinks (warm bot workers may have chosen before this
        # connection opened: the sync says so then); each choice is an event that
        # leaves p1 with its own choice still to make.
        while state["to_act"] != ["p1"]:
            assert "p1" in state["to_act"] and len(state["to_act"]) > 1
            frame = until(ws, lambda f: f["type"] == "event" and f["kind"] == "action")
            state = frame["state"]
        assert state["legal"]


def test_logs_hold_no_token_and_no_card(
    client: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    """Structured logs name tables, seats and codes, never a token, an action or a card."""
    import logging
    import re

    from decklab.server.logs import JsonFormatter

    caplog.set_level(logging.DEBUG)
    table, tokens = _two_people(client)
    with client.websocket_connect(URL.format(table)) as ws:
        ws.send_json({"type": "hello", "token": "forged-token-" + "x" * 30})
        assert ws.receive_json()["code"] == "forbidden"
    for i in range(12):
        seat, sync = _to_act(client, table, tokens)
        if sync["state"]["status"] != "playing":
            break
        body = {
            "action": sync["state"]["legal"][0],
            "version": sync["version"],
            "client_id": f"m{i}",
        }
        client.post(f"/api/tables/{table}/actions", json=body, headers=auth(tokens[seat]))
        client.post(
            f"/api/tables/{table}/actions",
            json={**body, "client_id": "bad", "action": "no"},
            headers=auth(tokens[seat]),
        )
    text = "\n".join(JsonFormatter().format(r) for r in caplog.records)
    assert caplog.records, "nothing was logged at all"
    for token in [*tokens, "forged-token-"]:
        assert token not in text
    assert not re.search(r"\b(?:10|[2-9TJQKA])[SHDC]\b", text), "a card appears in the logs"
