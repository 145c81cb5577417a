"""Friends through the real application, on SQLite and PostgreSQL: the list (add, list,
remove, clear errors, CSRF), inviting a friend to a seat that only they may then take
and that they see in their invitations, a rematch seating the same accounts, and an
account's deletion removing its friends and invitations (rows checked)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import create_engine, select
from starlette.testclient import TestClient

from decklab.server.api.app import create_app
from decklab.server.bots import BotPool
from decklab.server.store.models import FriendRow, InvitationRow

from .accountdrive import PASSWORD
from .conftest import fast_settings
from .ratedgames import Person, acting, create, person, play_all, short_game, take


@pytest.fixture
def bare(database_url: str, bot_pool: BotPool) -> Iterator[TestClient]:
    app = create_app(fast_settings(database_url=database_url), pool=bot_pool, heavy_pool=bot_pool)
    with TestClient(app, base_url="http://testserver") as client:
        yield client


def _as(client: TestClient, who: Person, method: str, path: str, **kw: Any) -> Any:
    with acting(client, who) as headers:
        return client.request(method, path, headers=headers, **kw)


def test_a_friends_list(bare: TestClient) -> None:
    ann, _bob = person(bare, "ann"), person(bare, "Bob")
    added = _as(bare, ann, "POST", "/api/me/friends", json={"username": "bob"})
    assert added.status_code == 201 and added.json() == {"username": "Bob"}
    again = _as(bare, ann, "POST", "/api/me/friends", json={"username": "BOB"})
    assert again.status_code == 201
    listed = _as(bare, ann, "GET", "/api/me/friends").json()["friends"]
    assert [f["username"] for f in listed] == ["Bob"]
    assert _as(bare, ann, "GET", "/api/account/export").json()["friends"] == ["Bob"]
    # one way: bob's list is empty
    assert _as(bare, _bob, "GET", "/api/me/friends").json() == {"friends": []}
    unknown = _as(bare, ann, "POST", "/api/me/friends", json={"username": "nobody"})
    assert unknown.status_code == 404 and unknown.json()["error"]["code"] == "not_found"
    me = _as(bare, ann, "POST", "/api/me/friends", json={"username": "ann"})
    assert me.status_code == 400 and "yourself" in me.json()["error"]["message"]
    # a cross-site request (no CSRF header) changes nothing; a guest has no list
    bare.cookies.set("decklab_session", ann.cookie)
    forged = bare.post("/api/me/friends", json={"username": "bob"})
    bare.cookies.clear()
    assert forged.status_code == 403 and forged.json()["error"]["code"] == "csrf"
    assert bare.get("/api/me/friends").status_code == 401
    assert _as(bare, ann, "DELETE", "/api/me/friends/bob").status_code == 204
    assert _as(bare, ann, "GET", "/api/me/friends").json() == {"friends": []}
    gone = _as(bare, ann, "DELETE", "/api/me/friends/bob")
    assert gone.status_code == 404


def test_invite_a_friend_to_a_seat(bare: TestClient) -> None:
    game, options = short_game()
    ann, bob, cat = person(bare, "ann"), person(bare, "bob"), person(bare, "cat")
    table = create(bare, ann, game=game, players=3, options=options)
    path = f"/api/tables/{table['id']}/invite"
    # only someone seated there, and only a friend
    seated_nowhere = _as(bare, ann, "POST", path, json={"seat": "p2", "username": "bob"})
    assert seated_nowhere.status_code == 403
    take(bare, ann, table["id"], "p1")
    not_friend = _as(bare, ann, "POST", path, json={"seat": "p2", "username": "bob"})
    assert not_friend.status_code == 403 and not_friend.json()["error"]["code"] == "not_friend"
    _as(bare, ann, "POST", "/api/me/friends", json={"username": "bob"})
    taken = _as(bare, ann, "POST", path, json={"seat": "p1", "username": "bob"})
    assert taken.status_code == 409
    bad_seat = _as(bare, ann, "POST", path, json={"seat": "p9", "username": "bob"})
    assert bad_seat.status_code == 400
    invited = _as(bare, ann, "POST", path, json={"seat": "p2", "username": "bob"})
    assert invited.status_code == 201, invited.text
    assert invited.json() == {"table": table["id"], "seat": "p2", "username": "bob"}
    mine = _as(bare, bob, "GET", "/api/me/invitations").json()["invitations"]
    assert [(i["table"], i["seat"], i["from"], i["game"]) for i in mine] == [
        (table["id"], "p2", "ann", game)
    ]
    assert _as(bare, cat, "GET", "/api/me/invitations").json() == {"invitations": []}
    # the seat is bob's: neither a guest nor cat may take it; p3 is anyone's
    join = f"/api/tables/{table['id']}/join"
    guest = bare.post(join, json={"seat": "p2", "nickname": "zed"})
    assert guest.status_code == 409 and guest.json()["error"]["code"] == "seat_kept"
    other = _as(bare, cat, "POST", join, json={"seat": "p2", "nickname": "x"})
    assert other.status_code == 409
    take(bare, bob, table["id"], "p2")
    assert _as(bare, bob, "GET", "/api/me/invitations").json() == {"invitations": []}


def test_a_rematch_seats_the_same_accounts(bare: TestClient) -> None:
    game, options = short_game()
    ann, bob, cat = person(bare, "ann"), person(bare, "bob"), person(bare, "cat")
    seats = [{"kind": "open"}, {"kind": "open"}, {"kind": "bot", "bot": "greedy"}]
    table = create(bare, ann, game=game, players=3, options=options, seats=seats, rated=True)
    tokens = [take(bare, ann, table["id"], "p1"), take(bare, bob, table["id"], "p2")]
    path = f"/api/tables/{table['id']}/rematch"
    early = _as(bare, ann, "POST", path)
    assert early.status_code == 409 and early.json()["error"]["code"] == "not_finished"
    play_all(bare, table["id"], tokens)
    stranger = _as(bare, cat, "POST", path)
    assert stranger.status_code == 403
    assert bare.post(path).status_code == 401
    new = _as(bare, ann, "POST", path)
    assert new.status_code == 201, new.text
    again = new.json()
    assert again["rated"] is True and again["previous"] == table["id"]
    assert again["status"] == "playing"  # every seat carried: it starts at once
    kinds = [(s["kind"], s["nickname"], s["bot"]) for s in again["seats"]]
    assert kinds == [("human", "ann", None), ("human", "bob", None), ("bot", None, "greedy")]
    assert _as(bare, bob, "POST", path).json()["id"] == again["id"]  # the same rematch
    mine = _as(bare, bob, "GET", "/api/me/games").json()["active"]
    assert again["id"] in [g["table"] for g in mine]


def test_deleting_an_account_removes_its_friends_and_invitations(
    bare: TestClient, database_url: str
) -> None:
    game, options = short_game()
    ann, bob = person(bare, "ann"), person(bare, "bob")
    _as(bare, ann, "POST", "/api/me/friends", json={"username": "bob"})
    _as(bare, bob, "POST", "/api/me/friends", json={"username": "ann"})
    table = create(bare, ann, game=game, players=3, options=options)
    take(bare, ann, table["id"], "p1")
    path = f"/api/tables/{table['id']}/invite"
    assert _as(bare, ann, "POST", path, json={"seat": "p2", "username": "bob"}).status_code == 201
    gone = _as(
        bare, bob, "POST", "/api/account/delete", json={"confirm": "bob", "password": PASSWORD}
    )
    assert gone.status_code == 204
    engine = create_engine(database_url)
    try:
        with engine.connect() as db:
            assert db.execute(select(FriendRow.account_id)).all() == []
            assert db.execute(select(InvitationRow.table_id)).all() == []
    finally:
        engine.dispose()
