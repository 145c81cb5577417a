"""A ban is total (docs/server.md, "Moderation"), on SQLite and PostgreSQL: ``decklab
admin ban-account`` ends the account's session, its API tokens and its seat tokens (chat
and moves, the bot API's streams, joins and moves), its seats at tables not finished go
to bots for good, and an unban brings none of them back. With two server processes on
one PostgreSQL database a ban and a mute hold in both within a second. What the admin
command prints carries no terminal escape."""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import select
from starlette.testclient import TestClient
from typer.testing import CliRunner

from decklab.cli import app as cli_app
from decklab.server.store.db import make_engine
from decklab.server.store.models import ReportRow, SeatRow

from . import pgserver
from .accountdrive import page, signup
from .games import two_player
from .serverproc import ForkedServer
from .test_bot_api import bot_account, no_cookie
from .wsdrive import auth

PASSWORD = "correct horse battery staple"


def _admin(database_url: str, *args: str) -> Any:
    command, *rest = args
    return CliRunner().invoke(cli_app, ["admin", command, "--database", database_url, "--", *rest])


def _within(seconds: float, done: Callable[[], bool]) -> float:
    """Poll ``done`` until it holds; the seconds it took (fails past ``seconds``)."""
    start = time.monotonic()
    while not done():
        took = time.monotonic() - start
        assert took < seconds, f"not within {seconds} s"
        time.sleep(0.02)
    return time.monotonic() - start


def _seat_rows(database_url: str, table: str) -> list[tuple[str | None, bool, int | None]]:
    engine = make_engine(database_url)
    try:
        with engine.connect() as db:
            rows = db.execute(
                select(SeatRow.token_hash, SeatRow.zombie, SeatRow.account_id)
                .where(SeatRow.table_id == table)
                .order_by(SeatRow.seat)
            ).all()
            return [(t, bool(z), a) for t, z, a in rows]
    finally:
        engine.dispose()


def _chat(client: Any, table: str, token: str, text: str = "hi") -> int:
    answer = client.post(f"/api/tables/{table}/chat", json={"text": text}, headers=auth(token))
    return int(answer.status_code)


def _join(client: Any, table: str, seat: str, nickname: str) -> Any:
    return client.post(f"/api/tables/{table}/join", json={"seat": seat, "nickname": nickname})


def _act(client: Any, table: str, token: str) -> int:
    sync = client.get(f"/api/tables/{table}/state", headers=auth(token))
    if sync.status_code != 200:
        return int(sync.status_code)
    body = sync.json()
    legal = body["state"]["legal"] or ["nothing"]
    answer = client.post(
        f"/api/tables/{table}/actions",
        json={"action": legal[0], "version": body["version"], "client_id": uuid.uuid4().hex},
        headers=auth(token),
    )
    return int(answer.status_code)


def test_a_ban_ends_every_token_and_an_unban_gives_none_back(
    client: TestClient, database_url: str
) -> None:
    # A person: a session cookie, an API token, a seat at a table in play.
    ann = signup(client, "ann")
    ann_api = client.post("/api/account/tokens", json={"label": "t"}, headers=page(ann)).json()
    cookie = client.cookies.get("decklab_session") or ""
    table = client.post(
        "/api/tables", json={"game": two_player(), "players": 2}, headers=page(ann)
    ).json()["id"]
    joined = client.post(
        f"/api/tables/{table}/join", json={"seat": "p1", "nickname": "ann"}, headers=page(ann)
    )
    assert joined.status_code == 200, joined.text
    ann_seat = joined.json()["token"]
    waiting = client.post(
        "/api/tables", json={"game": two_player(), "players": 2}, headers=page(ann)
    ).json()
    client.cookies.clear()
    assert _join(client, waiting["id"], "p2", "g").status_code == 200
    guest = client.post(f"/api/tables/{table}/join", json={"seat": "p2", "nickname": "g"})
    assert guest.status_code == 200
    assert _chat(client, table, ann_seat) in (200, 201)
    # A bot account: seated by a table's creator, and joined by itself.
    robo = bot_account(client, "robo")
    client.cookies.clear()
    with no_cookie(client):
        seated = client.post(
            "/api/tables",
            json={"game": two_player(), "seats": [{"kind": "account", "name": "robo"}, {}]},
        )
        assert seated.status_code == 201, seated.text
        by_creator = seated.json()["id"]
        own = client.post("/api/tables", json={"game": two_player(), "players": 2}).json()["id"]
        assert (
            client.post(
                f"/api/bot/table/{own}/join", json={"seat": "p1"}, headers=auth(robo)
            ).status_code
            == 200
        )
        assert _join(client, own, "p2", "g").status_code == 200
        assert client.get("/api/bot/account", headers=auth(robo)).status_code == 200

    for name in ("ann", "robo"):
        assert _admin(database_url, "ban-account", name).exit_code == 0

    # The seats go to bots, their tokens gone: within a second, by the server itself.
    def handed_over() -> bool:
        rows = [_seat_rows(database_url, t)[0] for t in (table, by_creator, own)]
        return all(token is None and zombie for token, zombie, _ in rows)

    _within(1.0, handed_over)
    client.cookies.clear()

    def everything_refused() -> None:
        client.cookies.set("decklab_session", cookie)
        assert client.get("/api/me").status_code == 401
        client.cookies.clear()
        refused = client.get("/api/bot/account", headers=auth(ann_api["token"]))
        assert refused.status_code in (401, 403)
        assert _chat(client, table, ann_seat) == 403
        assert _act(client, table, ann_seat) == 403
        assert (
            client.post(f"/api/tables/{table}/reclaim", headers=auth(ann_seat)).status_code == 403
        )
        with no_cookie(client):
            for method, path, body in (
                ("GET", "/api/bot/account", None),
                ("GET", "/api/bot/stream/event", None),
                ("GET", f"/api/bot/table/{own}/stream", None),
                ("POST", f"/api/bot/table/{by_creator}/join", {"seat": "p2"}),
                ("POST", f"/api/bot/table/{own}/move", {"action": "x", "version": 1}),
            ):
                answer = client.request(method, path, json=body, headers=auth(robo))
                assert answer.status_code == 403, (path, answer.text)
                assert answer.json()["error"]["code"] == "banned", (path, answer.text)

    everything_refused()
    remove = f"/api/tables/{waiting['id']}/seats/p2/remove"
    creator = {"creator_token": waiting["creator_token"]}
    assert client.post(remove, json=creator).status_code == 403  # the creator token too
    assert client.get(f"/api/tables/{table}/state", headers=auth(ann_seat)).status_code == 403
    # a creator cannot seat the banned bot account
    with no_cookie(client):
        again = client.post(
            "/api/tables",
            json={"game": two_player(), "seats": [{"kind": "account", "name": "robo"}, {}]},
        )
        assert again.status_code in (400, 403), again.text

    # Unbanned: every old token stays dead, every seat stays the bot's.
    for name in ("ann", "robo"):
        assert _admin(database_url, "unban-account", name).exit_code == 0
    time.sleep(0)  # nothing to wait for: the revocations are in the database already
    client.cookies.set("decklab_session", cookie)
    assert client.get("/api/me").status_code == 401
    client.cookies.clear()
    for token in (ann_api["token"], robo):
        assert client.get("/api/bot/account", headers=auth(token)).status_code == 401
    assert _chat(client, table, ann_seat) == 403
    assert _act(client, table, ann_seat) == 403
    assert client.post(remove, json=creator).status_code == 403
    for t in (table, by_creator, own):
        token_hash, zombie, _ = _seat_rows(database_url, t)[0]
        assert token_hash is None and zombie


def _report_table(client: TestClient) -> tuple[str, str]:
    """A table with two guests, p2 called with a direction override; the table and p1's
    seat token."""
    table = client.post("/api/tables", json={"game": two_player(), "players": 2}).json()["id"]
    a = _join(client, table, "p1", "a").json()
    b = _join(client, table, "p2", "b\u202ex").json()
    assert _chat(client, table, b["token"], "x\x1b[2Jy") in (200, 201)
    return table, a["token"]


HOSTILE = "\x1b]0;pwn\x07\x1b[2J rude\x9b31m"


def _report(client: TestClient, table: str, token: str) -> None:
    made = client.post(
        f"/api/tables/{table}/report", json={"seat": "p2", "reason": HOSTILE}, headers=auth(token)
    )
    assert made.status_code == 201, made.text


def _stored_reason(database_url: str, reason: str | None = None) -> str | None:
    """The report's reason as stored; first overwritten with ``reason`` if given (a row
    written before reasons were cleaned, or by another path)."""
    engine = make_engine(database_url)
    try:
        with engine.begin() as db:
            if reason is not None:
                db.execute(
                    ReportRow.__table__.update().values(reason=reason, nickname="\x1b[31mevil")  # type: ignore[attr-defined]
                )
            return db.scalar(select(ReportRow.reason))
    finally:
        engine.dispose()


def test_the_admin_prints_no_terminal_escape(client: TestClient, database_url: str) -> None:
    table, token = _report_table(client)
    _report(client, table, token)
    _stored_reason(database_url, HOSTILE)
    for options in ((), ("--json",)):
        shown = CliRunner().invoke(
            cli_app, ["admin", "reports", *options, "--database", database_url]
        )
        assert shown.exit_code == 0, shown.output
        assert all(ch not in shown.output for ch in "\x1b\x07\x9b\u202e"), repr(shown.output)
        assert "pwn" in shown.output
    text = CliRunner().invoke(cli_app, ["admin", "reports", "--database", database_url]).output
    assert "\\x1b]0;pwn\\x07\\x1b[2J" in text  # written out, readable, inert
    assert "'\\x1b[31mevil'" in text  # a name too
    assert "x[2Jy" in text  # the chat line was cleaned when it was said


def test_report_reasons_are_stored_as_plain_text(client: TestClient, database_url: str) -> None:
    table, token = _report_table(client)
    _report(client, table, token)
    assert _stored_reason(database_url) == "]0;pwn[2J rude31m"
    bare = client.post(
        f"/api/tables/{table}/report",
        json={"seat": "p2", "reason": "\x1b\x07"},
        headers=auth(token),
    )
    assert bare.status_code == 400  # nothing left of it: refused, nothing stored


def _signup(web: httpx.Client, name: str) -> dict[str, Any]:
    me: dict[str, Any] = web.post(
        "/api/account/signup", json={"username": name, "password": PASSWORD}
    ).json()
    return me


def _two_servers(
    pg_server: pgserver.PgServer, tmp_path: Path
) -> tuple[str, ForkedServer, ForkedServer]:
    url = pg_server.create_database(f"t_{uuid.uuid4().hex[:12]}")
    a, b = ForkedServer(url, tmp_path / "a"), ForkedServer(url, tmp_path / "b")
    a.start()
    b.start()
    return url, a, b


def _seated_pair(
    ann_web: httpx.Client, bob_web: httpx.Client, others: tuple[httpx.Client, ...]
) -> tuple[dict[str, Any], str, dict[str, str]]:
    """ann (through process a) and bob (through b) seated at one table, each having
    chatted through both processes; ann's page, the table and the seat tokens."""
    ann, bob = _signup(ann_web, "ann"), _signup(bob_web, "bob")
    table = ann_web.post(
        "/api/tables",
        json={"game": two_player(), "players": 2},
        headers={"x-csrf-token": ann["csrf"]},
    ).json()["id"]
    seats = {}
    for web, me, seat in ((ann_web, ann, "p1"), (bob_web, bob, "p2")):
        joined = web.post(
            f"/api/tables/{table}/join",
            json={"seat": seat, "nickname": seat},
            headers={"x-csrf-token": me["csrf"]},
        )
        assert joined.status_code == 200, joined.text
        seats[seat] = joined.json()["token"]
    for web in others:  # both processes hold the table and know both tokens
        assert _chat(web, table, seats["p1"], "hello") in (200, 201)
        assert _chat(web, table, seats["p2"], "from bob") in (200, 201)
    return ann, table, seats


def test_a_ban_holds_in_two_processes_within_a_second(
    pg_server: pgserver.PgServer, tmp_path: Path
) -> None:
    url, a, b = _two_servers(pg_server, tmp_path)
    try:
        with (
            httpx.Client(base_url=a.base, timeout=10) as ann_web,
            httpx.Client(base_url=b.base, timeout=10) as bob_web,
            httpx.Client(base_url=a.base, timeout=10) as on_a,
            httpx.Client(base_url=b.base, timeout=10) as on_b,
        ):
            ann, table, seats = _seated_pair(ann_web, bob_web, (on_a, on_b))
            ann_api = ann_web.post(
                "/api/account/tokens", json={"label": "t"}, headers={"x-csrf-token": ann["csrf"]}
            ).json()["token"]
            for web in (on_a, on_b):
                assert web.get("/api/bot/account", headers=auth(ann_api)).status_code == 200
            # The admin command's code path, run here with nothing but the database.
            assert _admin(url, "ban-account", "ann").exit_code == 0

            def refused_in_both() -> bool:
                return all(
                    _chat(web, table, seats["p1"]) == 403
                    and web.get("/api/bot/account", headers=auth(ann_api)).status_code == 403
                    for web in (on_a, on_b)
                )

            took = _within(1.0, refused_in_both)
            print(f"ban held in both processes in {took:.3f} s")
            assert ann_web.get("/api/me").status_code == 401
            _within(1.0, lambda: _seat_rows(url, table)[0][0] is None)
            for web in (on_a, on_b):
                assert _act(web, table, seats["p1"]) == 403
                assert _chat(web, table, seats["p2"], "bob still talks") in (200, 201)
    finally:
        a.stop()
        b.stop()


def test_a_mute_holds_in_two_processes_within_a_second(
    pg_server: pgserver.PgServer, tmp_path: Path
) -> None:
    _, a, b = _two_servers(pg_server, tmp_path)
    try:
        with (
            httpx.Client(base_url=a.base, timeout=10) as ann_web,
            httpx.Client(base_url=b.base, timeout=10) as bob_web,
            httpx.Client(base_url=a.base, timeout=10) as on_a,
            httpx.Client(base_url=b.base, timeout=10) as on_b,
        ):
            ann, table, seats = _seated_pair(ann_web, bob_web, (on_a, on_b))

            def bob_lines(web: httpx.Client) -> int:
                sync = web.get(f"/api/tables/{table}/state", headers=auth(seats["p1"])).json()
                return sum(line["text"] == "from bob" for line in sync["chat"])

            assert bob_lines(on_b) == 2
            muted = ann_web.post("/api/me/mutes/bob", headers={"x-csrf-token": ann["csrf"]})
            assert muted.status_code == 204, muted.text
            took = _within(1.0, lambda: bob_lines(on_b) == 0)  # made through a, seen in b
            print(f"mute seen by the other process in {took:.3f} s")
            assert bob_lines(on_a) == 0
    finally:
        a.stop()
        b.stop()
