"""Hostile HTTP clients against a real ``decklab serve``: bodies past the limit whatever their
framing, half-sent headers, forged client addresses, foreign Origin and Host headers, and
one error shape for everything (issue 19, items 3, 5, 7 and 9)."""

from __future__ import annotations

import select
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from starlette.websockets import WebSocketDisconnect

from decklab.engine.info import Option
from decklab.engine.registry import game_names, get_game
from decklab.server.api.app import create_app
from decklab.server.bots import BotPool

from ..conftest import TestClient, fast_settings
from ..games import two_player
from ..serverproc import ServerProcess

LIMIT = 64 * 1024


def rss_bytes(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise RuntimeError("no VmRSS")


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerProcess]:
    proc = ServerProcess(f"sqlite:///{tmp_path / 'db.sqlite3'}", tmp_path, None)
    proc.start()
    try:
        yield proc
    finally:
        proc.stop()


def chunked_head(port: int) -> bytes:
    return (
        f"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
        "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
    ).encode()


def chunk(data: bytes) -> bytes:
    return b"%x\r\n%s\r\n" % (len(data), data)


def test_chunked_body_refused_at_the_limit(server: ServerProcess) -> None:
    """A chunked body is counted as it arrives: the 413 comes once the limit is passed,
    while the client is still sending, and the server keeps none of the rest."""
    piece = b'{"game": "x", "pad": "' + b"a" * (16 * 1024 - 22)
    with socket.create_connection(("127.0.0.1", server.port)) as sock:
        sock.sendall(chunked_head(server.port))
        sent, answer = 0, b""
        while sent < 1024 * 1024:
            sock.sendall(chunk(piece if sent == 0 else b"a" * 16 * 1024))
            sent += 16 * 1024
            if select.select([sock], [], [], 0.05)[0]:
                answer = sock.recv(65536)
                break
        assert answer.startswith(b"HTTP/1.1 413"), (sent, answer[:200])
        assert sent <= LIMIT + 64 * 1024, f"answered only after {sent} bytes"
        assert b'"too_large"' in answer + sock.recv(65536)

    # a 64 MB chunked body at full speed: refused, and the server's memory stays put
    assert server.proc is not None
    before = rss_bytes(server.proc.pid)
    block = chunk(b"a" * 1024 * 1024)
    with socket.create_connection(("127.0.0.1", server.port)) as sock:
        sock.settimeout(10)
        sock.sendall(chunked_head(server.port))
        try:
            for _ in range(64):
                sock.sendall(block)
        except OSError:
            pass  # the server hung up after its 413: that is the point
        else:
            sock.sendall(b"0\r\n\r\n")
        try:
            answer = sock.recv(65536)
        except OSError:
            answer = b"HTTP/1.1 413 (reset after the answer)"
    assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
    time.sleep(0.2)
    assert rss_bytes(server.proc.pid) - before < 8 * 1024 * 1024


# --------------------------------------------------------------- one error shape (item 9)


def assert_error(answer: httpx.Response, status: int, code: str | None = None) -> None:
    assert answer.status_code == status, answer.text
    assert answer.headers["content-type"].startswith("application/json")
    body = answer.json()
    assert set(body) == {"error"} and set(body["error"]) == {"code", "message"}, body
    assert isinstance(body["error"]["message"], str) and body["error"]["message"]
    if code is not None:
        assert body["error"]["code"] == code, body


def test_every_error_has_the_one_shape(database_url: str, bot_pool: BotPool) -> None:
    app = create_app(fast_settings(database_url=database_url, tables_per_window=1), pool=bot_pool)

    @app.get("/api/test-fault", include_in_schema=False)
    async def fault() -> None:
        raise RuntimeError("a bug")

    with TestClient(app, raise_server_exceptions=False) as client:
        assert_error(client.get("/api/no-such-route"), 404, "not_found")
        assert_error(client.delete("/api/games"), 405, "method_not_allowed")
        assert_error(
            client.post(
                "/api/tables", content=b"{not json", headers={"content-type": "application/json"}
            ),
            400,
            "bad_json",
        )
        assert_error(client.post("/api/tables", json={"game": 5}), 422, "invalid")
        assert_error(client.get("/api/tables/x/replay?step=-1"), 422, "invalid")
        assert_error(
            client.post(
                "/api/tables",
                content=b"[" + b" " * 70000 + b"]",
                headers={"content-type": "application/json"},
            ),
            413,
            "too_large",
        )
        assert_error(client.get("/api/tables/nope"), 404, "not_found")
        fault_answer = client.get("/api/test-fault")
        assert_error(fault_answer, 500, "internal")
        assert "a bug" not in fault_answer.text
        assert fault_answer.headers["x-content-type-options"] == "nosniff"
        assert client.post("/api/tables", json={"game": two_player()}).status_code == 201
        assert_error(client.post("/api/tables", json={"game": two_player()}), 429, "rate_limited")


def int_option() -> tuple[str, Option]:
    for name in game_names():
        for option in get_game(name).info.options:
            if option.kind is int:
                return name, option
    raise LookupError("no game has a whole-number option")


def test_string_for_a_whole_number_option_refused(client: TestClient) -> None:
    game, option = int_option()
    value = option.minimum if option.minimum is not None else 5
    for wrong in (str(value), True, float(value) + 0.5, [value]):
        answer = client.post("/api/tables", json={"game": game, "options": {option.name: wrong}})
        assert answer.status_code in (400, 422), (wrong, answer.text)
        assert answer.json()["error"]["code"] in ("bad_option", "invalid")
        assert option.name in answer.json()["error"]["message"]
    assert client.get("/api/tables").json() == []
    made = client.post("/api/tables", json={"game": game, "options": {option.name: value}})
    assert made.status_code == 201, made.text
    assert made.json()["options"][option.name] == value


# ------------------------------------------------------- half-sent headers (item 5, bullet 2)


def test_half_sent_headers_closed_after_the_timeout(tmp_path: Path) -> None:
    """50 connections that send half a request line, and one that sends half a second
    request after a full one, are all closed by the server; a normal request still works."""
    proc = ServerProcess(f"sqlite:///{tmp_path / 'db.sqlite3'}", tmp_path, None)
    proc.extra = ["--header-timeout", "1"]
    proc.start()
    socks: list[socket.socket] = []
    try:
        for _ in range(50):
            sock = socket.create_connection(("127.0.0.1", proc.port))
            sock.sendall(b"GET /api/hea")
            socks.append(sock)
        kept = socket.create_connection(("127.0.0.1", proc.port))
        kept.sendall(f"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1:{proc.port}\r\n\r\n".encode())
        answer = b""
        while not answer.endswith(b"}"):  # the health answer, whole
            answer += kept.recv(65536)
        assert answer.startswith(b"HTTP/1.1 200")
        kept.sendall(b"GET /api/health HTTP/1.1\r\nHo")
        socks.append(kept)
        started = time.monotonic()
        for sock in socks:
            sock.settimeout(max(0.1, started + 4 - time.monotonic()))
            try:
                assert sock.recv(65536) == b"", "the server answered half a request"
            except TimeoutError:
                pytest.fail("a connection with half-sent headers was still open after 4 s")
            except ConnectionResetError:
                pass  # closed too
        assert httpx.get(f"{proc.base}/api/health", timeout=5).status_code == 200
    finally:
        for sock in socks:
            sock.close()
        proc.stop()


# ------------------------------------------------------- trusted proxies (item 5, bullet 4)


def create(client: TestClient, forwarded: str | None = None) -> int:
    headers = {"x-forwarded-for": forwarded} if forwarded else {}
    return client.post("/api/tables", json={"game": two_player()}, headers=headers).status_code


def test_forged_forwarded_for_from_an_untrusted_peer_is_ignored(
    database_url: str, bot_pool: BotPool
) -> None:
    settings = fast_settings(
        database_url=database_url, tables_per_window=2, trusted_proxies=("10.0.0.0/8",)
    )
    app = create_app(settings, pool=bot_pool)
    with TestClient(app, client=("192.0.2.7", 40000)) as client:
        codes = [create(client, f"203.0.113.{i}") for i in range(4)]
    assert codes == [201, 201, 429, 429]


def test_a_trusted_proxy_gives_each_forwarded_client_its_own_quota(
    database_url: str, bot_pool: BotPool
) -> None:
    settings = fast_settings(
        database_url=database_url, tables_per_window=2, trusted_proxies=("10.0.0.0/8",)
    )
    app = create_app(settings, pool=bot_pool)
    with TestClient(app, client=("10.1.2.3", 40000)) as client:
        # the right-most address not a trusted proxy is the client's: a forged left part
        # ("1.1.1.1, ") changes nothing
        first = [create(client, f"1.1.1.{i}, 198.51.100.1, 10.9.9.9") for i in range(3)]
        second = [create(client, "198.51.100.2") for _ in range(3)]
    assert first == [201, 201, 429]
    assert second == [201, 201, 429]


# ----------------------------------------------------------------- Origin and Host (item 7)

LIVE = "/api/tables/{}/live"


def opens(client: TestClient, headers: dict[str, str]) -> bool:
    """Whether the live socket of a new table opens with these headers."""
    table = client.post("/api/tables", json={"game": two_player()}).json()["id"]
    base = client.base_url  # TestClient's sockets otherwise go to ws://testserver
    url = f"{'wss' if base.scheme == 'https' else 'ws'}://{base.netloc.decode()}"
    try:
        with client.websocket_connect(url + LIVE.format(table), headers=headers) as ws:
            ws.send_json({"type": "hello"})
            return bool(ws.receive_json()["type"] == "welcome")
    except WebSocketDisconnect:
        return False


def test_origin_with_another_scheme_refused(client: TestClient) -> None:
    assert not opens(client, {"origin": "https://testserver"})
    assert not opens(client, {"origin": "http://testserver:8080"})
    assert opens(client, {"origin": "http://testserver"})
    assert opens(client, {"origin": "http://testserver:80"})


def test_dns_rebinding_host_refused(database_url: str, bot_pool: BotPool) -> None:
    """Without --public-url: loopback names and addresses only; a DNS name pointed at the
    server (with the matching Origin a rebound page sends) gets 400 and no socket."""
    app = create_app(fast_settings(database_url=database_url, public_urls=()), pool=bot_pool)
    with TestClient(app, base_url="http://127.0.0.1:8000") as client:
        rebound = {"host": "evil.example:8000", "origin": "http://evil.example:8000"}
        answer = client.get("/api/games", headers=rebound)
        assert_error(answer, 400, "bad_host")
        assert not opens(client, rebound)
        for host in ("127.0.0.1:8000", "localhost:8000", "[::1]:8000"):
            assert client.get("/api/games", headers={"host": host}).status_code == 200
        assert opens(client, {"origin": "http://127.0.0.1:8000"})
    public = fast_settings(database_url=database_url, public_urls=("https://cards.example",))
    with TestClient(create_app(public, pool=bot_pool), base_url="https://cards.example") as client:
        assert client.get("/api/games").status_code == 200
        assert opens(client, {"origin": "https://cards.example"})
        assert_error(client.get("/api/games", headers={"host": "127.0.0.1"}), 400, "bad_host")
        assert not opens(client, {"origin": "https://evil.example"})
        assert client.get("/api/health", headers={"host": "10.0.0.5:8000"}).status_code == 200


def test_forwarded_proto_from_a_trusted_proxy_sets_the_scheme(
    database_url: str, bot_pool: BotPool
) -> None:
    """Behind a TLS proxy the page's origin is https: believed from the proxy only."""
    settings = fast_settings(
        database_url=database_url, public_urls=(), trusted_proxies=("127.0.0.1",)
    )
    app = create_app(settings, pool=bot_pool)
    tls = {"origin": "https://127.0.0.1:8443", "x-forwarded-proto": "https"}
    with TestClient(app, base_url="http://127.0.0.1:8443", client=("127.0.0.1", 5)) as proxy:
        assert opens(proxy, tls)
        assert not opens(proxy, {"origin": "https://127.0.0.1:8443"})
    with TestClient(app, base_url="http://127.0.0.1:8443", client=("192.0.2.1", 5)) as direct:
        assert not opens(direct, tls)


def test_mistyped_proxy_or_public_url_stops_the_server(tmp_path: Path) -> None:
    """uvicorn would take a mistyped proxy address for a name that never matches: the
    server refuses to start instead (exit 2, a clear message)."""
    from typer.testing import CliRunner

    from decklab.cli import app

    database = ["--database", f"sqlite:///{tmp_path / 'db.sqlite3'}"]
    for wrong in (["--trusted-proxy", "10.0.0.300"], ["--public-url", "cards.example"]):
        result = CliRunner().invoke(app, ["serve", *database, *wrong])
        assert result.exit_code == 2, result.output
        assert wrong[1] in result.output
