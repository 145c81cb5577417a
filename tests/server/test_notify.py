"""Notifications (issue 21, item 4): "your turn" at a turn-based table and "you were
invited", mailed through SMTP (caught by a local aiosmtpd sink) at most once per table
an hour per account, each kind switchable off, never a card in the mail; nothing without
an SMTP host. SQLite and PostgreSQL; the wall clock is injected, so an hour passes in a
line."""

from __future__ import annotations

import asyncio
import re
import secrets
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from typing import Any

import pytest
from sqlalchemy import create_engine, select
from starlette.testclient import TestClient

from decklab.server.accounts import seats
from decklab.server.api.app import create_app
from decklab.server.bots import BotPool
from decklab.server.notify.service import Notifier
from decklab.server.notify.store import OutboxStore
from decklab.server.pace import TurnSpec
from decklab.server.service import LiveTable, TableService
from decklab.server.store.accounts import AccountStore
from decklab.server.store.db import HEAD, make_engine, upgrade
from decklab.server.store.models import AccountRow, OutboxRow
from decklab.server.store.queries import Store
from decklab.server.table import SeatSpec

from .conftest import fast_settings
from .games import two_player
from .ratedgames import Person, acting, create, person, short_game, take
from .smtpsink import Sink, smtp_sink

pytestmark = pytest.mark.anyio

GAME = two_player()
HOUR = 3600.0
LINE = re.compile(r"^- Your turn at .+, table [\w-]+, seat p\d( \(until [\d\-T:+]+\))?$")


class Wall:
    def __init__(self) -> None:
        self.now = time.time()

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def sink() -> Iterator[Sink]:
    with smtp_sink() as caught:
        yield caught


@asynccontextmanager
async def _notifying(
    database_url: str, sink: Sink, wall: Wall, smtp: bool = True, **changes: object
) -> AsyncIterator[tuple[TableService, Notifier, AccountStore]]:
    upgrade(database_url)
    store = Store(make_engine(database_url))
    settings = fast_settings(
        database_url=database_url,
        smtp_host="127.0.0.1" if smtp else "",
        smtp_port=sink.port,
        smtp_from="tables@decklab.test",
        **changes,
    )
    svc = TableService(store, settings, None)
    svc.wall = wall
    await svc.start()
    notifier = Notifier(OutboxStore(store.engine), svc, settings)  # its mailer not started:
    try:  # the test calls send_due itself
        yield svc, notifier, AccountStore(store.engine)
    finally:
        await notifier.close()
        await svc.close()
        store.close()


def _account(accounts: AccountStore, name: str, email: str | None) -> AccountRow:
    row = AccountRow(
        username=name,
        username_key=name,
        password_hash=None,
        seat_key=seats.new_key(),
        webauthn_user_id=secrets.token_bytes(32),
        email=email,
    )
    return accounts.create(row)


async def _seat_accounts(
    service: TableService, people: list[AccountRow]
) -> tuple[LiveTable, list[str]]:
    table = await service.create_table(
        GAME, 2, [SeatSpec(), SeatSpec()], turn=TurnSpec(24 * HOUR, "bot")
    )
    tokens = []
    for i, who in enumerate(people):
        salt = secrets.token_hex(16)
        token = seats.seat_token(who.seat_key, salt)
        tokens.append(
            (
                await service.join(
                    table.id, f"p{i + 1}", who.username, token=token, account=(who.id, salt)
                )
            )[1]
        )
    return await service.table(table.id), tokens


async def _play_until(
    service: TableService, table: LiveTable, tokens: list[str], seat: int
) -> None:
    """Each seat to act plays its first legal action until ``seat`` is to act."""
    for _ in range(500):
        to_act = table.state.to_act()
        assert table.status == "playing", "the game ended before the test was done"
        if seat in to_act:
            return
        mover = to_act[0]
        text = table.views().legal(mover)[0]
        await service.act(table.id, tokens[mover], text, table.version, f"m{table.version}")
    raise AssertionError("that seat never came to act")


async def _mail_round(notifier: Notifier) -> int:
    await notifier.settle()
    return await notifier.send_due()


async def test_your_turn_is_mailed_at_most_once_a_table_an_hour(
    database_url: str, sink: Sink
) -> None:
    wall = Wall()
    async with _notifying(database_url, sink, wall) as (service, notifier, accounts):
        ann = _account(accounts, "ann", "ann@example.test")
        bob = _account(accounts, "bob", "bob@example.test")
        table, tokens = await _seat_accounts(service, [ann, bob])
        await _mail_round(notifier)  # whoever was to act at the start was told
        sink.mails.clear()
        wall.now += 2 * HOUR
        first = table.state.to_act()[0]
        other = 1 - first
        address = ["ann@example.test", "bob@example.test"]
        # the first seat moves: now it is the other's turn -> exactly one mail, to them
        await _play_until(service, table, tokens, other)
        assert await _mail_round(notifier) == 1
        assert [rcpt for rcpt, _ in sink.mails] == [[address[other]]]
        mail = sink.mails[0][1]
        assert mail["From"] == "tables@decklab.test"
        assert f"table {table.id}" in mail["Subject"] and "Your turn" in mail["Subject"]
        body = mail.get_content()
        assert f"/table/{table.id}" in body
        news = [line for line in body.splitlines() if line.startswith("- ")]
        assert news and all(LINE.match(line) for line in news), body  # no card, only the turn
        # more turns within the hour: no second mail to them (it waits)
        wall.now += 600
        await _play_until(service, table, tokens, first)
        await _play_until(service, table, tokens, other)
        await _mail_round(notifier)
        assert len(sink.to(address[other])) == 1
        wall.now += HOUR - 601
        await _mail_round(notifier)
        assert len(sink.to(address[other])) == 1
        # the hour is over: the news that waited goes in the next mail
        wall.now += 2
        await _mail_round(notifier)
        assert len(sink.to(address[other])) == 2
        # switched off: no more mail of turns
        prefs = await notifier.set_prefs((ann, bob)[other].id, {"email_turn": False})
        assert prefs["email_turn"] is False and prefs["email_invite"] is True
        wall.now += 2 * HOUR
        await _play_until(service, table, tokens, first)
        await _play_until(service, table, tokens, other)
        wall.now += 2 * HOUR
        await _mail_round(notifier)
        assert len(sink.to(address[other])) == 2


async def test_a_kind_switched_off_before_the_mail_left_is_not_sent(
    database_url: str, sink: Sink
) -> None:
    wall = Wall()
    async with _notifying(database_url, sink, wall) as (service, notifier, accounts):
        ann = _account(accounts, "ann", "ann@example.test")
        bob = _account(accounts, "bob", "bob@example.test")
        table, tokens = await _seat_accounts(service, [ann, bob])
        await _mail_round(notifier)
        sink.mails.clear()
        first = table.state.to_act()[0]
        await _play_until(service, table, tokens, 1 - first)
        await notifier.settle()  # queued ...
        await notifier.set_prefs((ann, bob)[1 - first].id, {"email_turn": False})
        assert await notifier.send_due() == 0  # ... and dropped
        assert sink.mails == []


async def test_no_email_address_or_no_smtp_host_sends_nothing(
    database_url: str, sink: Sink
) -> None:
    wall = Wall()
    async with _notifying(database_url, sink, wall, smtp=False) as (service, notifier, accounts):
        ann = _account(accounts, "ann", "ann@example.test")
        bob = _account(accounts, "bob", "bob@example.test")
        table, tokens = await _seat_accounts(service, [ann, bob])
        for seat in (0, 1, 0):
            await _play_until(service, table, tokens, seat)
        assert await _mail_round(notifier) == 0 and sink.mails == []
        with OutboxStore(make_engine(database_url)).sessions() as db:
            assert db.scalars(select(OutboxRow)).all() == []
    async with _notifying(database_url, sink, wall) as (service, notifier, accounts):
        cat = _account(accounts, "cat", None)
        dan = _account(accounts, "dan", None)
        table, tokens = await _seat_accounts(service, [cat, dan])
        for seat in (0, 1, 0, 1):
            await _play_until(service, table, tokens, seat)
        assert await _mail_round(notifier) == 0 and sink.mails == []


async def test_a_mail_queued_while_the_mailer_looks_goes_at_once(
    database_url: str, sink: Sink, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The lost wake-up: the mailer cleared its wake-up *after* looking for due mail, so
    a mail queued while it looked slept a whole poll period. Here one is queued exactly
    while the mailer looks (inside its first ``send_due``, after the outbox was read),
    and the poll period is ten minutes: the mail must still be sent within seconds."""
    wall = Wall()
    async with _notifying(database_url, sink, wall, mail_poll_s=600.0) as (_, notifier, accounts):
        bob = _account(accounts, "bob", "bob@example.test")
        real = notifier.send_due
        looks: list[int] = []

        async def looking() -> int:
            sent = await real()
            if not looks:  # the first look found nothing; a mail is queued before it ends
                notifier.invited(bob.id, "t-wake", "a game", "ann")
                await notifier.settle()  # in the outbox and the wake-up set: the look goes on
            looks.append(sent)
            return sent

        monkeypatch.setattr(notifier, "send_due", looking)
        notifier.start()
        limit = time.monotonic() + 10.0  # far below the poll period: decisive
        while len(looks) < 2 and time.monotonic() < limit:
            await asyncio.sleep(0.02)
        assert looks[:1] == [0], "the mail was there before the first look"
        assert looks[1:] == [1], f"the mail waited for the poll period (looks: {looks})"
        assert [rcpt for rcpt, _ in sink.mails] == [["bob@example.test"]]
        assert "ann invited you" in sink.mails[0][1]["Subject"]


# ------------------------------------------------------------ through the application


@pytest.fixture
def mailing(database_url: str, bot_pool: BotPool, sink: Sink) -> Iterator[TestClient]:
    settings = fast_settings(
        database_url=database_url, smtp_host="127.0.0.1", smtp_port=sink.port, mail_poll_s=0.2
    )
    app = create_app(settings, pool=bot_pool, heavy_pool=bot_pool)
    with TestClient(app, base_url="http://testserver") as client:
        yield client


def _as(client: TestClient, who: Person, method: str, path: str, **kw: Any) -> Any:
    with acting(client, who) as headers:
        return client.request(method, path, headers=headers, **kw)


def test_preferences_and_an_invitation_by_mail(
    mailing: TestClient, sink: Sink, database_url: str
) -> None:
    ann, bob = person(mailing, "ann"), person(mailing, "bob")
    path = "/api/account/notifications"
    assert mailing.get(path).status_code == 401
    got = _as(mailing, bob, "GET", path).json()
    assert got == {"email": None, "email_turn": True, "email_invite": True, "mail_enabled": True}
    bad = _as(mailing, bob, "PUT", path, json={"email": "bob at home"})
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "bad_request"
    assert _as(mailing, bob, "GET", path).json()["email"] is None  # unchanged
    header = _as(mailing, bob, "PUT", path, json={"email": "bob@x.test\r\nBcc: eve@x.test"})
    assert header.status_code == 400
    mailing.cookies.set("decklab_session", bob.cookie)
    no_csrf = mailing.put(path, json={"email": "b@x.test"})  # the cookie, no CSRF header
    mailing.cookies.clear()
    assert no_csrf.status_code == 403
    put = _as(mailing, bob, "PUT", path, json={"email": " bob@example.test "})
    assert put.status_code == 200 and put.json()["email"] == "bob@example.test"
    # an invitation mails the invitee
    game, options = short_game()
    table = create(mailing, ann, game=game, players=3, options=options)
    take(mailing, ann, table["id"], "p1")
    _as(mailing, ann, "POST", "/api/me/friends", json={"username": "bob"})
    invite = f"/api/tables/{table['id']}/invite"
    assert (
        _as(mailing, ann, "POST", invite, json={"seat": "p2", "username": "bob"}).status_code == 201
    )
    sink.wait(1)
    assert [rcpt for rcpt, _ in sink.mails] == [["bob@example.test"]]
    assert "ann invited you" in sink.mails[0][1]["Subject"]
    # switched off: the next invitation (another table) sends nothing
    off = _as(mailing, bob, "PUT", path, json={"email_invite": False})
    assert off.json()["email_invite"] is False and off.json()["email"] == "bob@example.test"
    other = create(mailing, ann, game=game, players=3, options=options)
    take(mailing, ann, other["id"], "p1")
    again = f"/api/tables/{other['id']}/invite"
    assert (
        _as(mailing, ann, "POST", again, json={"seat": "p2", "username": "bob"}).status_code == 201
    )
    time.sleep(1.0)  # five rounds of the mailer
    assert len(sink.mails) == 1
    # the export names the address; deleting the account deletes its outbox rows
    exported = _as(mailing, bob, "GET", "/api/account/export").json()
    assert exported["account"]["email"] == "bob@example.test"
    engine = create_engine(database_url)
    with engine.connect() as db:
        assert db.execute(select(OutboxRow.id)).all() != []
    gone = _as(
        mailing,
        bob,
        "POST",
        "/api/account/delete",
        json={"confirm": "bob", "password": "correct horse battery staple"},
    )
    assert gone.status_code in (200, 204), gone.text
    with engine.connect() as db:
        assert db.execute(select(OutboxRow.id)).all() == []
    engine.dispose()


def test_migration_0006_keeps_accounts_and_their_sessions(database_url: str) -> None:
    """From 0005 with an account and a session: the plain ADD COLUMNs keep every
    row (a batch on SQLite would copy and drop ``accounts``, cascading to the rest)."""
    from alembic import command
    from sqlalchemy import text

    from decklab.server.store.db import alembic_config, current_revision

    command.upgrade(alembic_config(database_url), "0005")
    engine = create_engine(database_url)
    with engine.begin() as db:
        db.execute(
            text(
                "INSERT INTO accounts (username, username_key, seat_key, webauthn_user_id,"
                " created_at, bot) VALUES ('ann', 'ann', :k, :w, :t, :f)"
            ),
            {"k": b"k" * 32, "w": b"w" * 32, "t": "2026-01-01 00:00:00", "f": False},
        )
        account = db.execute(text("SELECT id FROM accounts")).scalar()
        db.execute(
            text(
                "INSERT INTO account_sessions (account_id, token_hash, how, created_at, last_seen_at)"
                " VALUES (:a, 'h', 'password', :t, :t)"
            ),
            {"a": account, "t": "2026-01-01 00:00:00"},
        )
    command.upgrade(alembic_config(database_url), "head")
    assert current_revision(database_url) == HEAD  # 0006 and every migration after it
    with engine.connect() as db:
        row = db.execute(
            text("SELECT username, email, email_turn, email_invite FROM accounts")
        ).one()
        assert tuple(row) == ("ann", None, True, True)
        assert db.execute(text("SELECT count(*) FROM account_sessions")).scalar() == 1
    engine.dispose()
