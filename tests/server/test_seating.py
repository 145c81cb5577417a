"""One set of seating rules at every door (``decklab.server.seating``), on SQLite and
PostgreSQL: the bot API's join refuses a kept seat and a block as a person's join does;
quick play never seats the blocked with their blocker (either way); a creator cannot
seat a blocked or banned bot account; a deleted account's old seat token claims nothing,
so one account never holds two seats of a rated table, nor by two joins at once; and a
blocked person who logs out is refused by the device cookie or the address their account
took a seat from, while what cannot be known (a new device on a new address) is not.

The application runs behind a trusted proxy address, so that each request names its
client address in ``X-Forwarded-For`` (the device and address rules need two)."""

from __future__ import annotations

import asyncio
import datetime as _dt
import hashlib
from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import create_engine, func, select, text, update
from starlette.testclient import TestClient

from decklab.server.api.app import create_app
from decklab.server.bots import BotPool
from decklab.server.errors import ServiceError
from decklab.server.store.models import AccountRow, SeatRow, TableRow

from .accountdrive import PASSWORD, page
from .conftest import fast_settings, started_service
from .games import pick
from .ratedgames import Person, person, short_game
from .wsdrive import auth

PROXY = "127.0.0.9"
DEVICE_COOKIE = "decklab_device"
"""Named here, not imported, so that this file runs against code without the rules."""
QUICK_GAME = pick(lambda i: i.max_players >= 5 and i.min_players <= 4)


@pytest.fixture
def bare(database_url: str, bot_pool: BotPool) -> Iterator[TestClient]:
    settings = fast_settings(
        database_url=database_url,
        trusted_proxies=(PROXY,),
        joins_per_window=1000,
        tables_per_window=1000,
    )
    app = create_app(settings, pool=bot_pool, heavy_pool=bot_pool)
    with TestClient(app, base_url="http://testserver", client=(PROXY, 5000)) as client:
        yield client


def _as(
    client: TestClient,
    who: Person | None,
    method: str,
    path: str,
    *,
    device: str | None = None,
    address: str = "10.0.0.1",
    **kw: Any,
) -> Any:
    """One request as ``who`` (None: a guest) from ``address``, with the device cookie
    ``device`` if given; the cookie jar is empty before and after."""
    client.cookies.clear()
    headers = {"x-forwarded-for": address}
    if who is not None:
        client.cookies.set("decklab_session", who.cookie)
        headers |= page(who.me)
    if device is not None:
        client.cookies.set(DEVICE_COOKIE, device)
    try:
        return client.request(method, path, headers=headers | kw.pop("headers", {}), **kw)
    finally:
        client.cookies.clear()


def _ok(answer: Any, status: int = 200) -> dict[str, Any]:
    assert answer.status_code == status, answer.text
    got: dict[str, Any] = answer.json()
    return got


def _refused(answer: Any, status: int, code: str) -> None:
    assert answer.status_code == status, answer.text
    assert answer.json()["error"]["code"] == code, answer.text


def _table(client: TestClient, who: Person | None, players: int = 3, **body: Any) -> str:
    game, options = short_game()
    made = _as(
        client,
        who,
        "POST",
        "/api/tables",
        json={"game": game, "players": players, "options": options, **body},
    )
    return str(_ok(made, 201)["id"])


def _join(client: TestClient, who: Person | None, table: str, seat: str, **kw: Any) -> Any:
    body = {"seat": seat, "nickname": kw.pop("nickname", "x")}
    return _as(client, who, "POST", f"/api/tables/{table}/join", json=body, **kw)


def _kinds(client: TestClient, table: str) -> list[str]:
    return [s["kind"] for s in client.get(f"/api/tables/{table}").json()["seats"]]


def _block(client: TestClient, who: Person, username: str) -> None:
    assert _as(client, who, "POST", f"/api/me/blocks/{username}").status_code == 204


def _bot_account(client: TestClient, name: str) -> tuple[Person, str]:
    """A new bot account: its session (to block with) and its API token."""
    me = person(client, name)
    token = str(
        _ok(_as(client, me, "POST", "/api/account/tokens", json={"label": "b"}), 201)["token"]
    )
    client.cookies.clear()
    _ok(client.post("/api/bot/account/upgrade", headers=auth(token)))
    return me, token


def _bot_join(client: TestClient, token: str, table: str, seat: str) -> Any:
    client.cookies.clear()
    return client.post(f"/api/bot/table/{table}/join", json={"seat": seat}, headers=auth(token))


def _sql(database_url: str, statement: Any) -> list[Any]:
    engine = create_engine(database_url)
    try:
        with engine.begin() as db:
            result = db.execute(statement)
            return list(result) if result.returns_rows else []
    finally:
        engine.dispose()


def _count(database_url: str, model: type, *where: Any) -> int:
    return int(_sql(database_url, select(func.count()).select_from(model).where(*where))[0][0])


def _ban(database_url: str, username: str) -> None:
    """The account banned as ``decklab admin ban-account`` marks it (its ``banned_at``)."""
    _sql(
        database_url,
        update(AccountRow)
        .where(AccountRow.username_key == username)
        .values(banned_at=_dt.datetime.now(_dt.UTC)),
    )


# ------------------------------------------------------------ the bot API's join
def test_a_bot_api_join_refuses_a_kept_seat_and_a_block(bare: TestClient) -> None:
    ann, bob, cat = person(bare, "ann"), person(bare, "bob"), person(bare, "cat")
    botty, token = _bot_account(bare, "botty")
    table = _table(bare, ann)
    _ok(_join(bare, ann, table, "p1"))
    _ok(_as(bare, ann, "POST", "/api/me/friends", json={"username": "bob"}), 201)
    invite = {"seat": "p2", "username": "bob"}
    _ok(_as(bare, ann, "POST", f"/api/tables/{table}/invite", json=invite), 201)
    # the seat kept for bob is bob's: a bot account may not take it
    _refused(_bot_join(bare, token, table, "p2"), 409, "seat_kept")
    # the creator blocks the bot account: refused the open seat too
    _block(bare, ann, "botty")
    _refused(_bot_join(bare, token, table, "p3"), 403, "blocked")
    assert _kinds(bare, table) == ["human", "open", "open"]
    # the other way: the bot account blocks a table's creator, and is not seated there
    other = _table(bare, cat)
    _block(bare, botty, "cat")
    _refused(_bot_join(bare, token, other, "p1"), 403, "blocked")
    assert _kinds(bare, other) == ["open", "open", "open"]
    # unblocked, it takes the open seat, and bob his
    assert _as(bare, ann, "DELETE", "/api/me/blocks/botty").status_code == 204
    assert _ok(_bot_join(bare, token, table, "p3"))["seat"] == "p3"
    _ok(_join(bare, bob, table, "p2"))
    # a bot account holds one seat of a table
    assert _as(bare, botty, "DELETE", "/api/me/blocks/cat").status_code == 204
    _ok(_bot_join(bare, token, other, "p1"))
    _refused(_bot_join(bare, token, other, "p2"), 409, "already_seated")


# ------------------------------------------------------------ quick play
def test_quick_play_does_not_pair_the_blocked_with_the_blocker(bare: TestClient) -> None:
    ann, bob, cat = person(bare, "ann"), person(bare, "bob"), person(bare, "cat")
    _block(bare, ann, "bob")
    body = {"game": QUICK_GAME, "min_players": 4, "max_players": 5, "wait_s": 60, "level": "casual"}

    def play(who: Person | None, **kw: Any) -> dict[str, Any]:
        answer = _as(bare, who, "POST", "/api/quickplay", json=body | {"nickname": "g"}, **kw)
        got = _ok(answer)
        got["device"] = answer.cookies.get(DEVICE_COOKIE)
        return got

    first = play(ann)
    assert first["created"]
    blocked = play(bob)  # ann's table has four free seats, but ann blocks bob
    assert blocked["table"] != first["table"] and blocked["created"]
    assert play(cat)["table"] == first["table"]  # nobody blocks cat: matched as usual
    # the blocker is not seated with the one she blocks either: ann's next quick play
    # passes over her own table (she sits there) and bob's, and gets a new one
    again = play(ann)
    assert again["created"] and again["table"] not in (first["table"], blocked["table"])
    # bob logged out, with his device cookie: not at either of ann's tables
    assert blocked["device"]
    guest = play(None, device=blocked["device"], address="10.0.0.77")
    assert guest["table"] not in (first["table"], again["table"])


# ------------------------------------------------------------ a creator's seating
def test_a_creator_cannot_seat_a_blocked_or_banned_bot_account(
    bare: TestClient, database_url: str
) -> None:
    ann = person(bare, "ann")
    _bot_account(bare, "botty")
    robo, _ = _bot_account(bare, "robo")
    _ziggy, ziggy_token = _bot_account(bare, "ziggy")
    _bot_account(bare, "okbot")
    _block(bare, ann, "botty")
    _block(bare, robo, "ann")
    _ban(database_url, "ziggy")

    def seats(name: str) -> list[dict[str, str]]:
        return [
            {"kind": "open"},
            {"kind": "account", "name": name},
            {"kind": "bot", "bot": "greedy"},
        ]

    game, options = short_game()
    made = {"game": game, "players": 3, "options": options}
    before = _count(database_url, TableRow)
    for name, status, code in (
        ("botty", 403, "blocked"),
        ("robo", 403, "blocked"),
        ("ziggy", 403, "banned"),
    ):
        refused = _as(bare, ann, "POST", "/api/tables", json=made | {"seats": seats(name)})
        _refused(refused, status, code)
        assert name in refused.json()["error"]["message"]
    assert _count(database_url, TableRow) == before  # nothing was created
    # a banned bot account does not seat itself either (refused: banned, or its token)
    table = _table(bare, ann)
    joined = _bot_join(bare, ziggy_token, table, "p1")
    assert joined.status_code in (401, 403), joined.text
    assert _kinds(bare, table) == ["open", "open", "open"]
    # a bot account in good standing is seated
    seated = _ok(_as(bare, ann, "POST", "/api/tables", json=made | {"seats": seats("okbot")}), 201)
    assert seated["seats"][1]["nickname"] == "okbot"


# ------------------------------------------------------------ deleted accounts, rated tables
def test_a_deleted_accounts_old_token_claims_nothing(bare: TestClient, database_url: str) -> None:
    ann, dora, eve = person(bare, "ann"), person(bare, "dora"), person(bare, "eve")
    seats = [{"kind": "open"}, {"kind": "open"}, {"kind": "bot", "bot": "greedy"}]
    table = _table(bare, ann, seats=seats, rated=True)
    dora_token = _ok(_join(bare, dora, table, "p1"))["token"]
    gone = _as(
        bare, dora, "POST", "/api/account/delete", json={"confirm": "dora", "password": PASSWORD}
    )
    assert gone.status_code == 204, gone.text
    _ok(_join(bare, eve, table, "p2"))
    # eve holds the token dora's browser kept: claiming it gives her nothing
    claim = {"seats": [{"table": table, "token": dora_token}]}
    assert _ok(_as(bare, eve, "POST", "/api/me/claim", json=claim))["claimed"] == []
    rows = _sql(
        database_url,
        select(SeatRow.seat, SeatRow.nickname, SeatRow.account_id)
        .where(SeatRow.table_id == table)
        .order_by(SeatRow.seat),
    )
    assert rows[0][1:] == ("deleted player", None)
    eve_id = _sql(database_url, select(AccountRow.id).where(AccountRow.username_key == "eve"))
    assert _count(database_url, SeatRow, SeatRow.account_id == eve_id[0][0]) == 1
    assert bare.get(f"/api/tables/{table}").json()["seats"][0]["nickname"] == "deleted player"
    # nor may a guest sit as "deleted player" (that name marks a deleted account's seat)
    casual = _table(bare, None)
    _refused(_join(bare, None, casual, "p1", nickname="Deleted  Player"), 409, "name_taken")
    assert _kinds(bare, casual) == ["open", "open", "open"]


@pytest.mark.anyio
async def test_two_joins_of_one_account_at_once_take_one_seat_of_a_rated_table(
    database_url: str, bot_pool: BotPool
) -> None:
    """The rules are asked under the table's lock: of two joins of one account sent
    together, one is seated and the other refused."""
    from decklab.server.accounts import seats as seat_keys
    from decklab.server.seating import Joiner, Seating
    from decklab.server.store.accounts import AccountStore
    from decklab.server.store.seating import SeatingStore
    from decklab.server.table import SeatSpec

    async with started_service(database_url, bot_pool) as service:
        engine = service.store.engine
        account = AccountStore(engine).create(
            AccountRow(
                username="zed",
                username_key="zed",
                password_hash=None,
                seat_key=seat_keys.new_key(),
                webauthn_user_id=b"z" * 32,
            )
        )
        seating = Seating(SeatingStore(engine))
        game, options = short_game()
        specs = [SeatSpec(), SeatSpec(), SeatSpec("greedy")]
        table = await service.create_table(game, 3, specs, options=options, rated=True)
        joiner = Joiner(account.id)

        async def take(seat: str) -> tuple[int, str]:
            salt = seat_keys.new_salt()
            return await service.join(
                table.id,
                seat,
                "zed",
                token=seat_keys.seat_token(account.seat_key, salt),
                account=(account.id, salt),
                check=lambda live, index: seating.check_at(joiner, live, index),
            )

        got = await asyncio.gather(take("p1"), take("p2"), return_exceptions=True)
        refused = [g for g in got if isinstance(g, ServiceError)]
        assert len(refused) == 1 and refused[0].code == "already_seated", got
        seated = (await service.table(table.id)).seats
        assert sum(1 for s in seated if s.account_id == account.id) == 1


# ------------------------------------------------------------ logged out
def test_a_logged_out_blocked_person_is_refused_by_device_cookie_or_address(
    bare: TestClient, database_url: str
) -> None:
    ann, bob = person(bare, "ann"), person(bare, "bob")
    _block(bare, ann, "bob")
    # bob takes a seat at his own table from 10.0.0.2: the answer sets the device cookie
    own = _table(bare, bob)
    answer = _join(bare, bob, own, "p1", address="10.0.0.2")
    _ok(answer)
    cookie = next(
        (c for c in answer.headers.get_list("set-cookie") if c.startswith(DEVICE_COOKIE + "=")),
        None,
    )
    assert cookie is not None, "no device cookie was set"
    assert "httponly" in cookie.lower() and "samesite=lax" in cookie.lower(), cookie
    device = answer.cookies[DEVICE_COOKIE]
    # only its hash is kept (and the address's)
    kept = _sql(database_url, text("SELECT kind, digest FROM known_devices"))
    assert ("device", hashlib.sha256(device.encode()).hexdigest()) in [tuple(r) for r in kept]
    assert device not in repr(kept) and "10.0.0.2" not in repr(kept)
    exported = _ok(_as(bare, bob, "GET", "/api/account/export"))  # what, and when
    assert sorted(d["kind"] for d in exported["known_devices"]) == ["address", "device"]
    assert not any(digest in repr(exported) for _kind, digest in kept)
    table = _table(bare, ann)
    # logged out, the same device from a new address: refused at ann's table
    _refused(_join(bare, None, table, "p2", device=device, address="10.0.0.3"), 403, "blocked")
    # no cookie (cleared, another browser), the address bob's account used: refused
    _refused(_join(bare, None, table, "p2", address="10.0.0.2"), 403, "blocked")
    assert _kinds(bare, table) == ["open", "open", "open"]
    # a new device on a new address is a stranger: what cannot be known is not refused
    _ok(_join(bare, None, table, "p2", address="10.0.0.4"))
    # an address is forgotten after a week (it may be someone else's by then)
    _sql(
        database_url,
        text("UPDATE known_devices SET seen_at = :old WHERE kind = 'address'").bindparams(
            old=_dt.datetime.now(_dt.UTC) - _dt.timedelta(days=8)
        ),
    )
    _ok(_join(bare, None, table, "p3", address="10.0.0.2"))
    # the device cookie refuses only at the blocker's tables
    elsewhere = _table(bare, None)
    _ok(_join(bare, None, elsewhere, "p1", device=device, address="10.0.0.3"))
    # deleting the account deletes what was kept
    _as(bare, bob, "POST", "/api/account/delete", json={"confirm": "bob", "password": PASSWORD})
    assert _sql(database_url, text("SELECT count(*) FROM known_devices"))[0][0] == 0
