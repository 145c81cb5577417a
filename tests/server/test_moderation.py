"""Moderation through the real application, on SQLite and PostgreSQL: a creator removing a
person before the start (and not after), mutes filtering chat per viewer, blocks refusing
a seat and an invitation, reports keeping the chat as it was, ``decklab admin`` bans of
accounts and addresses, chat lines deleted by hand and by the retention, and bad input
changing nothing (rows checked)."""

from __future__ import annotations

import datetime as _dt
import json
from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import func, select
from starlette.testclient import TestClient
from typer.testing import CliRunner

from decklab.cli import app as cli_app
from decklab.server import retention
from decklab.server.api.app import create_app
from decklab.server.bots import BotPool
from decklab.server.config import Settings
from decklab.server.store.db import make_engine
from decklab.server.store.models import ChatRow, MuteRow, ReportRow, SeatRow
from decklab.server.store.queries import Store

from .accountdrive import PASSWORD
from .conftest import fast_settings
from .ratedgames import Person, acting, create, person, short_game, take
from .wsdrive import auth, hello, until

ADDRESS = "127.0.0.9"


@pytest.fixture
def bare(database_url: str, bot_pool: BotPool) -> Iterator[TestClient]:
    settings = fast_settings(database_url=database_url, ban_refresh_s=0.0, reports_per_window=5)
    app = create_app(settings, pool=bot_pool, heavy_pool=bot_pool)
    with TestClient(app, base_url="http://testserver", client=(ADDRESS, 5000)) as client:
        yield client


def _as(client: TestClient, who: Person | None, method: str, path: str, **kw: Any) -> Any:
    with acting(client, who) as headers:
        return client.request(method, path, headers=headers | kw.pop("headers", {}), **kw)


def _admin(database_url: str, *args: str) -> Any:
    """``decklab admin``; the positional arguments after ``--``, as a table id may begin
    with ``-`` (ids are URL-safe base64)."""
    command, *rest = args
    options = [a for a in rest if a.startswith("--")]
    values = [a for a in rest if not a.startswith("--")]
    return CliRunner().invoke(
        cli_app, ["admin", command, *options, "--database", database_url, "--", *values]
    )


def _count(database_url: str, model: type, *where: Any) -> int:
    engine = make_engine(database_url)
    try:
        with engine.connect() as db:
            return int(db.scalar(select(func.count()).select_from(model).where(*where)) or 0)
    finally:
        engine.dispose()


def _guest_table(client: TestClient, players: int = 3) -> dict[str, Any]:
    game, options = short_game()
    return create(client, None, game=game, players=players, options=options)


def _join(client: TestClient, table: str, seat: str, nickname: str) -> Any:
    return client.post(f"/api/tables/{table}/join", json={"seat": seat, "nickname": nickname})


def _chat(client: TestClient, table: str, token: str, text: str) -> None:
    said = client.post(f"/api/tables/{table}/chat", json={"text": text}, headers=auth(token))
    assert said.status_code in (200, 201), said.text


def _chat_seen(client: TestClient, table: str, token: str) -> list[str]:
    sync = client.get(f"/api/tables/{table}/state", headers=auth(token)).json()
    return [line["text"] for line in sync["chat"]]


def test_the_creator_removes_a_person_before_the_start(bare: TestClient) -> None:
    table = _guest_table(bare)
    tid, creator = table["id"], table["creator_token"]
    assert creator and bare.get(f"/api/tables/{tid}").json().get("creator_token") is None
    first = _join(bare, tid, "p1", "ann").json()["token"]
    bob = _join(bare, tid, "p2", "bob").json()["token"]
    remove = f"/api/tables/{tid}/seats/p2/remove"
    # not the creator: a seat token, a wrong creator token, nothing; a bad seat
    for body in ({}, {"creator_token": "x" * 20}, {"creator_token": first}):
        refused = bare.post(remove, json=body, headers=auth(bob))
        assert refused.status_code == 403, refused.text
    bad = bare.post(f"/api/tables/{tid}/seats/p9/remove", json={"creator_token": creator})
    assert bad.status_code == 400
    assert bare.get(f"/api/tables/{tid}").json()["seats"][1]["nickname"] == "bob"
    with bare.websocket_connect(f"/api/tables/{tid}/live") as ws:
        hello(ws, bob)
        removed = bare.post(remove, json={"creator_token": creator})
        assert removed.status_code == 200, removed.text
        assert removed.json() == {"table": tid, "seat": "p2"}
        told = until(ws, lambda f: f.get("kind") == "remove")
        assert told["detail"] == {"seat": "p2"}
        assert told["state"]["seat"] is None  # bob's connection is a spectator's now
    seats = bare.get(f"/api/tables/{tid}").json()["seats"]
    assert seats[1]["kind"] == "open" and seats[1]["nickname"] is None
    assert (
        _count(bare.app.state.settings.database_url, SeatRow, SeatRow.token_hash.is_not(None)) == 1
    )  # type: ignore[attr-defined]
    # bob's token is refused; the seat is anyone's
    assert bare.get(f"/api/tables/{tid}/state", headers=auth(bob)).status_code == 403
    assert (
        bare.post(f"/api/tables/{tid}/chat", json={"text": "hi"}, headers=auth(bob)).status_code
        == 403
    )
    again = bare.post(remove, json={"creator_token": creator})
    assert again.status_code == 409 and again.json()["error"]["code"] == "not_seated"
    assert _join(bare, tid, "p2", "cat").status_code == 200
    assert _join(bare, tid, "p3", "dan").status_code == 200  # the game starts
    late = bare.post(f"/api/tables/{tid}/seats/p3/remove", json={"creator_token": creator})
    assert late.status_code == 409 and late.json()["error"]["code"] == "started"
    assert bare.get(f"/api/tables/{tid}").json()["seats"][2]["nickname"] == "dan"


def test_an_account_that_created_the_table_removes_without_the_token(bare: TestClient) -> None:
    game, options = short_game()
    ann, bob = person(bare, "ann"), person(bare, "bob")
    table = create(bare, ann, game=game, players=3, options=options)
    take(bare, bob, table["id"], "p2")
    path = f"/api/tables/{table['id']}/seats/p2/remove"
    assert _as(bare, bob, "POST", path).status_code == 403
    assert _as(bare, ann, "POST", path).status_code == 200
    assert bare.get(f"/api/tables/{table['id']}").json()["seats"][1]["kind"] == "open"


def test_a_muted_person_s_lines_are_hidden_from_the_muter_only(bare: TestClient) -> None:
    url = bare.app.state.settings.database_url  # type: ignore[attr-defined]
    game, options = short_game()
    ann, bob, cat = person(bare, "ann"), person(bare, "bob"), person(bare, "cat")
    tid = create(bare, None, game=game, players=3, options=options)["id"]
    tokens = [take(bare, who, tid, seat) for who, seat in ((ann, "p1"), (bob, "p2"), (cat, "p3"))]
    # bad input changes nothing: nobody, oneself, a forged (no CSRF) request, a guest
    assert _as(bare, ann, "POST", "/api/me/mutes/nobody").status_code == 404
    assert _as(bare, ann, "POST", "/api/me/mutes/ANN").status_code == 400
    bare.cookies.set("decklab_session", ann.cookie)
    assert bare.post("/api/me/mutes/bob").status_code == 403
    bare.cookies.clear()
    assert bare.post("/api/me/mutes/bob").status_code == 401
    assert _count(url, MuteRow) == 0
    assert _as(bare, ann, "POST", "/api/me/mutes/Bob").status_code == 204
    assert _as(bare, ann, "GET", "/api/me/mutes").json() == {
        "mutes": [{"username": "bob", "blocked": False}]
    }
    with bare.websocket_connect(f"/api/tables/{tid}/live") as ws:
        hello(ws, tokens[0])
        _chat(bare, tid, tokens[1], "from bob")
        _chat(bare, tid, tokens[2], "from cat")
        line = until(ws, lambda f: f.get("type") == "chat")
        assert line["text"] == "from cat"  # bob's line never came
    assert _chat_seen(bare, tid, tokens[0]) == ["from cat"]
    assert _chat_seen(bare, tid, tokens[2]) == ["from bob", "from cat"]
    assert _chat_seen(bare, tid, tokens[1]) == ["from bob", "from cat"]
    assert _as(bare, ann, "DELETE", "/api/me/mutes/bob").status_code == 204
    assert _chat_seen(bare, tid, tokens[0]) == ["from bob", "from cat"]


def test_a_block_refuses_a_seat_and_an_invitation(bare: TestClient) -> None:
    game, options = short_game()
    ann, bob, cat = person(bare, "ann"), person(bare, "bob"), person(bare, "cat")
    assert _as(bare, ann, "POST", "/api/me/blocks/bob").status_code == 204
    tid = create(bare, ann, game=game, players=3, options=options)["id"]
    join = f"/api/tables/{tid}/join"
    refused = _as(bare, bob, "POST", join, json={"seat": "p2", "nickname": "x"})
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "blocked"
    assert bare.get(f"/api/tables/{tid}").json()["seats"][1]["kind"] == "open"
    take(bare, cat, tid, "p3")
    # bob may not invite ann either
    other = create(bare, bob, game=game, players=3, options=options)["id"]
    take(bare, bob, other, "p1")
    _as(bare, bob, "POST", "/api/me/friends", json={"username": "ann"})
    invite = _as(
        bare, bob, "POST", f"/api/tables/{other}/invite", json={"seat": "p2", "username": "ann"}
    )
    assert invite.status_code == 403 and invite.json()["error"]["code"] == "blocked"
    # unblocked (still muted): bob may join
    assert _as(bare, ann, "DELETE", "/api/me/blocks/bob").status_code == 204
    assert _as(bare, ann, "GET", "/api/me/mutes").json()["mutes"] == [
        {"username": "bob", "blocked": False}
    ]
    assert _as(bare, bob, "POST", join, json={"seat": "p2", "nickname": "x"}).status_code == 200


def test_a_report_keeps_the_chat_as_it_was(bare: TestClient) -> None:
    url = bare.app.state.settings.database_url  # type: ignore[attr-defined]
    tid = _guest_table(bare)["id"]
    ann = _join(bare, tid, "p1", "ann").json()["token"]
    bob = _join(bare, tid, "p2", "bob").json()["token"]
    _chat(bare, tid, bob, "something rude")
    _chat(bare, tid, ann, "please stop")
    path = f"/api/tables/{tid}/report"
    # bad input: nobody known, an empty reason, an open seat, a foreign token
    assert bare.post(path, json={"seat": "p2", "reason": "rude"}).status_code == 401
    assert (
        bare.post(path, json={"seat": "p2", "reason": "  "}, headers=auth(ann)).status_code == 400
    )
    assert bare.post(path, json={"seat": "p3", "reason": "x"}, headers=auth(ann)).status_code == 400
    assert _count(url, ReportRow) == 0
    made = bare.post(path, json={"seat": "p2", "reason": "rude"}, headers=auth(ann))
    assert made.status_code == 201, made.text
    assert _count(url, ReportRow) == 1
    # the lines are deleted by hand: the report still holds them
    done = _admin(url, "delete-chat", tid)
    assert done.exit_code == 0 and "2 chat line(s) deleted" in done.output
    assert _count(url, ChatRow, ChatRow.table_id == tid) == 0
    listed = _admin(url, "reports", "--open", "--json")
    assert listed.exit_code == 0, listed.output
    report = json.loads(listed.output.splitlines()[0])
    assert report["seat"] == 2 and report["nickname"] == "bob"
    assert report["reporter"] == "seat:p1 ann" and report["reason"] == "rude"
    assert [line["text"] for line in report["chat"]] == ["something rude", "please stop"]
    assert _admin(url, "resolve-report", str(report["id"])).exit_code == 0
    assert _admin(url, "resolve-report", "999").exit_code == 1
    assert _admin(url, "reports", "--open").output.strip() == ""
    # rate-limited per address (5 per window here; refused attempts count too)
    codes = [
        bare.post(path, json={"seat": "p2", "reason": "again"}, headers=auth(ann)).status_code
        for _ in range(2)
    ]
    assert codes == [201, 429] and _count(url, ReportRow) == 2


def test_delete_one_chat_line(bare: TestClient) -> None:
    url = bare.app.state.settings.database_url  # type: ignore[attr-defined]
    tid = _guest_table(bare)["id"]
    ann = _join(bare, tid, "p1", "ann").json()["token"]
    _chat(bare, tid, ann, "keep")
    _chat(bare, tid, ann, "drop")
    engine = make_engine(url)
    with engine.connect() as db:
        dropped = db.scalar(select(ChatRow.id).where(ChatRow.text == "drop"))
    engine.dispose()
    assert _admin(url, "delete-chat", tid, str(dropped)).exit_code == 0
    assert _count(url, ChatRow) == 1 and _count(url, ChatRow, ChatRow.text == "keep") == 1


def test_a_banned_account_cannot_log_in_and_its_cookie_is_refused(bare: TestClient) -> None:
    url = bare.app.state.settings.database_url  # type: ignore[attr-defined]
    ann = person(bare, "ann")
    assert _as(bare, ann, "GET", "/api/me").status_code == 200
    assert _admin(url, "ban-account", "nobody").exit_code == 1
    assert _admin(url, "ban-account", "ANN").exit_code == 0
    assert _as(bare, ann, "GET", "/api/me").status_code == 401
    login = {"username": "ann", "password": PASSWORD}
    refused = bare.post("/api/account/login", json=login)
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "banned"
    assert bare.cookies.get("decklab_session") is None
    assert _admin(url, "unban-account", "ann").exit_code == 0
    assert bare.post("/api/account/login", json=login).status_code == 200
    bare.cookies.clear()
    assert _as(bare, ann, "GET", "/api/me").status_code == 401  # old sessions stay revoked


def test_a_banned_address_gets_403(bare: TestClient) -> None:
    url = bare.app.state.settings.database_url  # type: ignore[attr-defined]
    assert bare.get("/api/tables").status_code == 200
    assert _admin(url, "ban-address", "not-an-address").exit_code == 2
    assert bare.get("/api/tables").status_code == 200
    assert _admin(url, "ban-address", "127.0.0.8").exit_code == 0  # someone else
    assert bare.get("/api/tables").status_code == 200
    assert _admin(url, "ban-address", ADDRESS).exit_code == 0
    refused = bare.get("/api/tables")
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "banned"
    assert bare.post("/api/tables", json={"game": "x"}).status_code == 403
    assert _admin(url, "unban-address", ADDRESS).exit_code == 0
    assert bare.get("/api/tables").status_code == 200


def test_chat_past_the_default_retention_is_swept(bare: TestClient) -> None:
    url = bare.app.state.settings.database_url  # type: ignore[attr-defined]
    assert Settings().chat_retention_days == 90
    tid = _guest_table(bare)["id"]
    ann = _join(bare, tid, "p1", "ann").json()["token"]
    _chat(bare, tid, ann, "old")
    _chat(bare, tid, ann, "new")
    store = Store(make_engine(url))
    try:
        with store.sessions.begin() as db:
            old = db.scalars(select(ChatRow).where(ChatRow.text == "old")).one()
            old.created_at = _dt.datetime.now(_dt.UTC) - _dt.timedelta(days=91)
        swept = retention.sweep(store, Settings())
        assert swept.chat_lines == 1
        assert _count(url, ChatRow) == 1 and _count(url, ChatRow, ChatRow.text == "new") == 1
    finally:
        store.close()
