"""Accounts through the real application, on SQLite and PostgreSQL: signing up and in,
sessions in cookies, the CSRF guard, login limits, seats that follow the account to
another device, claiming a guest's seats, statistics by account, export and deletion
(rows checked), and passwords never in clear text, in the logs or the database."""

from __future__ import annotations

import logging
from typing import Any

import pytest
from sqlalchemy import MetaData, create_engine, select
from starlette.testclient import TestClient

from decklab.server.api.app import create_app
from decklab.server.bots import BotPool

from .accountdrive import PASSWORD, login, page, play_out, signup
from .conftest import fast_settings
from .games import solo, two_player
from .wsdrive import auth, join, new_table


def _rows(database_url: str) -> dict[str, list[dict[str, Any]]]:
    """Every row of every table of the database, by table."""
    engine = create_engine(database_url)
    try:
        meta = MetaData()
        meta.reflect(engine)
        with engine.connect() as conn:
            return {
                name: [dict(r._mapping) for r in conn.execute(select(table))]
                for name, table in meta.tables.items()
            }
    finally:
        engine.dispose()


def _create(client: TestClient, me: dict[str, Any] | None, **body: Any) -> dict[str, Any]:
    answer = client.post("/api/tables", json=body, headers=page(me) if me else {})
    assert answer.status_code == 201, answer.text
    got: dict[str, Any] = answer.json()
    return got


def _join(
    client: TestClient, me: dict[str, Any] | None, table: str, seat: str, nick: str = "x"
) -> str:
    answer = client.post(
        f"/api/tables/{table}/join",
        json={"seat": seat, "nickname": nick},
        headers=page(me) if me else {},
    )
    assert answer.status_code == 200, answer.text
    token: str = answer.json()["token"]
    return token


def test_sign_up_log_in_log_out_with_a_session_cookie(
    client: TestClient, database_url: str
) -> None:
    answer = client.post("/api/account/signup", json={"username": "Ann", "password": PASSWORD})
    assert answer.status_code == 201, answer.text
    cookie = answer.headers["set-cookie"]
    assert cookie.startswith("decklab_session=") and "HttpOnly" in cookie
    assert "SameSite=lax" in cookie and "Secure" not in cookie  # http: the tests' loopback
    assert client.get("/api/me").json()["username"] == "Ann"
    # the name is one name in any case; a bad password or an unknown name: the same refusal
    taken = client.post("/api/account/signup", json={"username": "ann", "password": PASSWORD})
    assert taken.status_code == 409 and taken.json()["error"]["code"] == "name_taken"
    short = client.post("/api/account/signup", json={"username": "bo", "password": "short"})
    assert short.status_code == 400
    wrong = client.post("/api/account/login", json={"username": "ann", "password": "nope nope"})
    nobody = client.post("/api/account/login", json={"username": "zed", "password": "nope nope"})
    assert wrong.status_code == nobody.status_code == 401
    assert wrong.json() == nobody.json()
    me = login(client, "ANN")
    assert client.post("/api/account/logout", headers=page(me)).status_code == 204
    assert client.get("/api/me").status_code == 401
    rows = _rows(database_url)["account_sessions"]
    assert len(rows) == 2 and all(r["revoked_at"] is not None for r in rows[1:])
    # the session token itself is nowhere: only its hash
    assert all(len(r["token_hash"]) == 64 for r in rows)


def test_cookie_is_secure_when_the_site_is_https(database_url: str, bot_pool: BotPool) -> None:
    settings = fast_settings(database_url=database_url, public_urls=("https://testserver",))
    app = create_app(settings, pool=bot_pool, heavy_pool=bot_pool)
    with TestClient(app, base_url="https://testserver") as client:
        answer = client.post("/api/account/signup", json={"username": "ann", "password": PASSWORD})
        assert answer.status_code == 201
        assert "Secure" in answer.headers["set-cookie"]


def test_a_cross_site_request_cannot_act_for_a_logged_in_person(
    client: TestClient, database_url: str
) -> None:
    me = signup(client, "ann")
    table = _create(client, me, game=two_player(), players=2)
    new = {"current": PASSWORD, "new": "another long password"}
    # a form on another site: the cookie goes along (were SameSite not there), no header
    forms = [
        client.post("/api/account/password", data=new),
        client.post("/api/account/password", json=new),
        client.post("/api/account/password", json=new, headers={"origin": "https://evil.example"}),
        client.post(
            "/api/account/password", json=new, headers=page(me, origin="https://evil.example")
        ),
        client.post(
            "/api/account/password", json=new, headers=page(me, **{"sec-fetch-site": "cross-site"})
        ),
        client.post("/api/account/password", json=new, headers={"x-csrf-token": "forged"}),
        client.post("/api/account/delete", json={"confirm": "ann", "password": PASSWORD}),
        client.post("/api/account/logout-everywhere"),
        client.post(f"/api/tables/{table['id']}/join", json={"seat": "p1", "nickname": "x"}),
        client.post("/api/tables", json={"game": two_player(), "players": 2}),
    ]
    assert [a.status_code for a in forms] == [403] * len(forms)
    assert all(a.json()["error"]["code"] == "csrf" for a in forms)
    # nothing changed: the password, the account, its session, the open seat
    assert client.get("/api/me").status_code == 200
    assert client.get(f"/api/tables/{table['id']}").json()["seats"][0]["kind"] == "open"
    client.cookies.clear()
    login(client, "ann")
    # another site cannot log a visitor into its own account either
    assert (
        client.post(
            "/api/account/login",
            json={"username": "ann", "password": PASSWORD},
            headers={"origin": "https://evil.example"},
        ).status_code
        == 403
    )
    # this site's page, with its token: done
    me = login(client, "ann")
    assert client.post("/api/account/password", json=new, headers=page(me)).status_code == 204


def test_login_is_rate_limited_per_account_from_an_address_and_per_address(
    database_url: str, bot_pool: BotPool
) -> None:
    settings = fast_settings(
        database_url=database_url, logins_per_account_window=3, logins_per_address_window=5
    )
    app = create_app(settings, pool=bot_pool, heavy_pool=bot_pool)
    with TestClient(app, base_url="http://testserver") as client:
        signup(client, "ann")
        signup(client, "bob")
        client.cookies.clear()
        for _ in range(3):
            bad = {"username": "ann", "password": "a wrong guess"}
            assert client.post("/api/account/login", json=bad).status_code == 401
        # the right password, from the guesser's address: its attempts at ann are spent
        refused = client.post("/api/account/login", json={"username": "Ann", "password": PASSWORD})
        assert refused.status_code == 429 and int(refused.headers["retry-after"]) >= 1
        assert refused.json()["error"]["code"] == "rate_limited"
        assert client.get("/api/me").status_code == 401
        # another account from the same address: until the address's five are spent (a
        # refused attempt spends nothing)
        login(client, "bob")
        login(client, "bob")
        refused = client.post("/api/account/login", json={"username": "bob", "password": PASSWORD})
        assert refused.status_code == 429
    # ann herself, from another address, is not locked out (tests/server/test_lockout.py)
    with TestClient(app, base_url="http://testserver", client=("10.0.0.9", 1)) as elsewhere:
        login(elsewhere, "ann")


def test_passwords_are_never_logged_nor_stored_in_clear(
    client: TestClient, database_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    secrets = ["first Secret-pass 1", "second Secret-pass 2", "wrong Secret-guess 3"]
    caplog.set_level(logging.DEBUG)
    me = signup(client, "ann", secrets[0])
    client.post("/api/account/login", json={"username": "ann", "password": secrets[2]})
    client.post("/api/account/login", json={"username": "ann", "password": 12345})
    me = login(client, "ann", secrets[0])
    change = {"current": secrets[0], "new": secrets[1]}
    assert client.post("/api/account/password", json=change, headers=page(me)).status_code == 204
    bad = {"current": secrets[2], "new": secrets[2]}
    assert client.post("/api/account/password", json=bad, headers=page(me)).status_code == 401
    login(client, "ann", secrets[1])
    logged = caplog.text + "".join(repr(r.__dict__) for r in caplog.records)
    assert "account created" in logged  # the capture works
    dump = repr(_rows(database_url))
    for secret in secrets:
        assert secret not in logged and secret not in dump
        assert secret.encode().hex() not in dump
    (account,) = _rows(database_url)["accounts"]
    assert account["password_hash"].startswith("$argon2id$")


def test_seats_follow_the_account_to_another_device(client: TestClient) -> None:
    me = signup(client, "ann")
    table = _create(client, me, game=two_player(), players=2)
    mine = _join(client, me, table["id"], "p1", "whatever")
    seats = client.get(f"/api/tables/{table['id']}").json()["seats"]
    assert seats[0]["nickname"] == "ann"  # a logged-in seat goes by the account's name
    # a guest may not go by an account's name, in any case
    client.cookies.clear()
    taken = client.post(f"/api/tables/{table['id']}/join", json={"seat": "p2", "nickname": "ANN"})
    assert taken.status_code == 409 and taken.json()["error"]["code"] == "name_taken"
    join(client, table["id"], "p2", "guest")
    # another device: nothing kept but the password
    client.cookies.clear()
    me2 = login(client, "ann")
    games = client.get("/api/me/games").json()
    (entry,) = games["active"]
    assert entry["table"] == table["id"] and entry["seat"] == "p1" and entry["token"] == mine
    state = client.get(f"/api/tables/{table['id']}/state", headers=auth(entry["token"])).json()
    assert state["state"]["seat"] == "p1"
    assert entry["your_turn"] == ("p1" in state["state"]["to_act"])
    if entry["your_turn"]:
        body = {
            "action": state["state"]["legal"][0],
            "version": state["version"],
            "client_id": "d2",
        }
        acted = client.post(
            f"/api/tables/{table['id']}/actions",
            json=body,
            headers=auth(entry["token"]) | page(me2),
        )
        assert acted.status_code == 200, acted.text
    # logged out: no games, and the token is not handed out
    client.post("/api/account/logout", headers=page(me2))
    assert client.get("/api/me/games").status_code == 401


def test_a_guests_games_are_claimed_into_a_new_account(client: TestClient) -> None:
    alone = new_table(client, game=solo(), players=1)
    guest_solo = join(client, alone["id"], "p1", "zed")
    play_out(client, alone["id"], guest_solo)
    duo = new_table(client, game=two_player(), players=2)
    guest_duo = join(client, duo["id"], "p1", "zed")
    assert client.get("/api/stats/zed").json()["games"]
    me = signup(client, "zoe")
    assert client.get("/api/stats/zoe").json()["games"] == {}
    claims = {
        "seats": [
            {"table": alone["id"], "token": guest_solo},
            {"table": duo["id"], "token": guest_duo},
            {"table": duo["id"], "token": "not a token of anyone"},
        ]
    }
    assert client.post("/api/me/claim", json=claims).status_code == 403  # no CSRF token
    got = client.post("/api/me/claim", json=claims, headers=page(me)).json()["claimed"]
    assert {(c["table"], c["seat"]) for c in got} == {(alone["id"], "p1"), (duo["id"], "p1")}
    new_duo = next(c["token"] for c in got if c["table"] == duo["id"])
    # the guest's token stops working, the account's works, and the seat has its name
    assert client.get(f"/api/tables/{duo['id']}/state", headers=auth(guest_duo)).status_code == 403
    assert client.get(f"/api/tables/{duo['id']}/state", headers=auth(new_duo)).status_code == 200
    assert client.get(f"/api/tables/{duo['id']}").json()["seats"][0]["nickname"] == "zoe"
    # claimed twice: nothing more
    assert client.post("/api/me/claim", json=claims, headers=page(me)).json()["claimed"] == []
    games = client.get("/api/me/games").json()
    assert [g["table"] for g in games["active"]] == [duo["id"]]
    assert [g["table"] for g in games["finished"]] == [alone["id"]]
    stats = client.get("/api/stats/zoe").json()
    assert stats["account"] is True and sum(g["games"] for g in stats["games"].values()) == 1


def test_an_account_names_statistics_count_only_its_own_games(client: TestClient) -> None:
    alone = new_table(client, game=solo(), players=1)
    play_out(client, alone["id"], join(client, alone["id"], "p1", "bob"))
    assert client.get("/api/stats/bob").json()["games"]  # a guest's games under "bob"
    me = signup(client, "Bob")
    # the name is the account's now: the guest's games are not its
    assert client.get("/api/stats/bob").json()["games"] == {}
    table = _create(client, me, game=solo(), players=1)
    play_out(client, table["id"], _join(client, me, table["id"], "p1"), me)
    stats = client.get("/api/stats/BOB").json()["games"]
    assert sum(g["games"] for g in stats.values()) == 1


def test_a_deleted_account_is_gone_and_its_cookie_refused(
    client: TestClient, database_url: str
) -> None:
    me = signup(client, "dora")
    cookie = client.cookies.get("decklab_session")
    finished = _create(client, me, game=solo(), players=1)
    played = _join(client, me, finished["id"], "p1")
    chat = client.post(
        f"/api/tables/{finished['id']}/chat",
        json={"text": "dora was here"},
        headers=auth(played) | page(me),
    )
    assert chat.status_code == 200, chat.text
    play_out(client, finished["id"], played, me)
    active = _create(client, me, game=two_player(), players=2)
    _join(client, me, active["id"], "p1")
    export = client.get("/api/account/export")
    assert export.status_code == 200 and "attachment" in export.headers["content-disposition"]
    data = export.json()
    assert data["account"]["username"] == "dora" and len(data["seats"]) == 2
    assert data["chat"][0]["text"] == "dora was here" and len(data["solo_results"]) == 1
    assert "password_hash" not in repr(data) and "seat_key" not in repr(data)
    # a wrong confirmation deletes nothing
    bad = client.post(
        "/api/account/delete", json={"confirm": "dora", "password": "wrong one!"}, headers=page(me)
    )
    assert bad.status_code == 401
    gone = client.post(
        "/api/account/delete", json={"confirm": "dora", "password": PASSWORD}, headers=page(me)
    )
    assert gone.status_code == 204
    # the old cookie logs in nobody
    client.cookies.set("decklab_session", cookie or "", domain="testserver.local")
    assert client.get("/api/me").status_code == 401
    assert client.get("/api/me/games").status_code == 401
    # the rows: no account, session, passkey, result or chat line left; the seats stay
    rows = _rows(database_url)
    for name in ("accounts", "account_sessions", "passkeys", "webauthn_challenges", "solo_results"):
        assert rows[name] == [], name
    assert [c for c in rows["chat"] if c["table_id"] == finished["id"]] == []
    seats = {r["table_id"]: r for r in rows["seats"] if r["seat"] == 0}
    for table in (finished["id"], active["id"]):
        assert seats[table]["nickname"] == "deleted player"
        assert seats[table]["account_id"] is None and seats[table]["token_salt"] is None
    assert "dora" not in repr(rows)
    # the finished game is whole
    assert client.get(f"/api/tables/{finished['id']}").json()["status"] == "finished"
    record = client.get(f"/api/tables/{finished['id']}/record").json()
    assert record["actions"]
    # the name is free again
    signup(client, "dora")


def test_log_out_everywhere_and_a_password_change_end_other_sessions(client: TestClient) -> None:
    me = signup(client, "eve")
    first = client.cookies.get("decklab_session")
    client.cookies.clear()
    me2 = login(client, "eve")
    second = client.cookies.get("decklab_session")
    change = {"current": PASSWORD, "new": "a brand new password"}
    assert client.post("/api/account/password", json=change, headers=page(me2)).status_code == 204
    assert client.get("/api/me").status_code == 200  # this session stays
    client.cookies.set("decklab_session", first or "", domain="testserver.local")
    assert client.get("/api/me").status_code == 401  # the other one ended
    client.cookies.set("decklab_session", second or "", domain="testserver.local")
    revoked = client.post("/api/account/logout-everywhere", headers=page(me2))
    assert revoked.status_code == 200 and revoked.json()["revoked"] == 1
    assert client.get("/api/me").status_code == 401
    del me


def test_play_again_keeps_the_accounts_seat(client: TestClient) -> None:
    me = signup(client, "pat")
    table = _create(
        client,
        me,
        game=two_player(),
        players=2,
        seats=[{"kind": "open"}, {"kind": "bot", "bot": "random"}],
    )
    token = _join(client, me, table["id"], "p1")
    play_out(client, table["id"], token, me)
    again = client.post(f"/api/tables/{table['id']}/again", headers=auth(token) | page(me))
    assert again.status_code == 200, again.text
    games = client.get("/api/me/games").json()
    (new,) = games["active"]
    assert new["table"] == again.json()["id"] and new["token"] == token
    assert [g["table"] for g in games["finished"]] == [table["id"]]
