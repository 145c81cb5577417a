"""Hostile HTTP clients against a real ``decklab serve``: bodies past the limit whatever their
framing, half-sent headers, forged client addresses, foreign Origin and Host headers, and
one error shape for everything (issue 19, items 3, 5, 7 and 9)."""

from __future__ import annotations

import select
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

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
