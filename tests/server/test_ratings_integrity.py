"""Ratings that mean something, through the real application on SQLite and PostgreSQL:
a rated table of bots only is refused (and one whose seats all went to bot accounts
rates nobody); a bot level has one identity however its spec is spelt, and a spec with
parameters is no rated level; a bot account is marked as a bot on the leaderboard and
its profile; a bot account is never named at a rated table (nothing tells one's own
from another's); a seat that never came aborts its rated table — on its clock, at its
grace period's end, at a turn-based deadline — and nothing is rated."""

from __future__ import annotations

import asyncio
import datetime
import time
from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import JSON, DateTime, column, create_engine, func, select, table, update
from starlette.testclient import TestClient

from decklab.server.accounts.seats import seat_token
from decklab.server.api.app import create_app
from decklab.server.bots import BotPool
from decklab.server.pace import TurnSpec
from decklab.server.store.models import (
    AccountRow,
    RatedTableRow,
    RatingHistoryRow,
    RatingRow,
    SeatRow,
    TableRow,
)
from decklab.server.table import SeatSpec

from .conftest import fast_settings, started_service
from .ratedgames import Person, acting, create, person, play_all, short_game, take, wait_rated
from .wsdrive import auth

GAME, OPTIONS = short_game()


def _started(database_url: str, bot_pool: BotPool, **changes: object) -> Iterator[Any]:
    settings = fast_settings(database_url=database_url, **changes)
    app = create_app(settings, pool=bot_pool, heavy_pool=bot_pool)
    with TestClient(app, base_url="http://testserver") as bare:
        yield app, bare


@pytest.fixture
def app_client(database_url: str, bot_pool: BotPool) -> Iterator[Any]:
    yield from _started(database_url, bot_pool)


@pytest.fixture
def hasty_app_client(database_url: str, bot_pool: BotPool) -> Iterator[Any]:
    """A grace period of 0.3 s: a seat away goes to a bot (or aborts its rated table)
    almost at once."""
    yield from _started(database_url, bot_pool, grace_s=0.3)


def _count(database_url: str, model: Any, *where: Any) -> int:
    engine = create_engine(database_url)
    try:
        with engine.connect() as db:
            return int(db.scalar(select(func.count()).select_from(model).where(*where)) or 0)
    finally:
        engine.dispose()


def _bot_account(bare: TestClient, name: str) -> str:
    """A new bot account ``name``; its API token."""
    who = person(bare, name)
    with acting(bare, who) as headers:
        made = bare.post("/api/account/tokens", json={"label": "bot"}, headers=headers)
    assert made.status_code == 201, made.text
    token: str = made.json()["token"]
    upgraded = bare.post("/api/bot/account/upgrade", headers=auth(token))
    assert upgraded.status_code == 200, upgraded.text
    return token


def _bot_join(app: Any, bare: TestClient, token: str, table: str, seat: str) -> str:
    """The bot account takes ``seat`` itself; the seat's token, derived as the bot API
    derives it (the account's key and the seat's salt), to play it in the test."""
    joined = bare.post(f"/api/bot/table/{table}/join", json={"seat": seat}, headers=auth(token))
    assert joined.status_code == 200, joined.text
    with app.state.service.store.engine.connect() as db:
        key, salt = db.execute(
            select(AccountRow.seat_key, SeatRow.token_salt)
            .join(SeatRow, SeatRow.account_id == AccountRow.id)
            .where(SeatRow.table_id == table, SeatRow.seat == int(seat[1:]) - 1)
        ).one()
    return seat_token(key, salt)


def _refused(answer: Any, words: str) -> None:
    assert answer.status_code == 400, answer.text
    assert words in answer.json()["error"]["message"], answer.text


def _wait_finished(bare: TestClient, table: str, limit_s: float = 30) -> dict[str, Any]:
    deadline = time.monotonic() + limit_s
    while True:
        details: dict[str, Any] = bare.get(f"/api/tables/{table}").json()
        if details["status"] == "finished":
            return details
        assert time.monotonic() < deadline, f"the table did not end: {details}"
        time.sleep(0.02)


def _wait_settled(database_url: str, table: str, limit_s: float = 10) -> None:
    """Until the rating service has settled the table (rated it, or found it rates nobody)."""
    deadline = time.monotonic() + limit_s
    while not _count(database_url, RatedTableRow, RatedTableRow.table_id == table):
        assert time.monotonic() < deadline, "the table was never settled"
        time.sleep(0.02)


def _nothing_rated(database_url: str, bare: TestClient) -> None:
    assert _count(database_url, RatingRow) == 0
    assert _count(database_url, RatingHistoryRow) == 0
    assert bare.get(f"/api/leaderboard/{GAME}").json()["entries"] == []


def _three(*seats: dict[str, Any], **more: Any) -> dict[str, Any]:
    return {"game": GAME, "players": 3, "options": OPTIONS, "seats": list(seats), **more}


OPEN = {"kind": "open"}


def _bot(spec: str) -> dict[str, str]:
    return {"kind": "bot", "bot": spec}


# ------------------------------------------------------------------ who may be rated
def test_a_bots_only_rated_table_is_refused(app_client: Any, database_url: str) -> None:
    app, bare = app_client
    one, two = _bot_account(bare, "robo1"), _bot_account(bare, "robo2")
    tables = _count(database_url, TableRow)
    accounts = [{"kind": "account", "name": "robo1"}, {"kind": "account", "name": "robo2"}]
    for seats, why in (
        ([*accounts, _bot("greedy")], "by name"),  # two bot accounts, a bot level: nobody
        ([accounts[0], _bot("greedy"), _bot("random")], "by name"),
        ([_bot("greedy")] * 3, "a seat for a person"),
    ):
        _refused(bare.post("/api/tables", json=_three(*seats, rated=True)), why)
    assert _count(database_url, TableRow) == tables  # nothing was made
    assert bare.post("/api/tables", json=_three(*accounts, _bot("greedy"))).status_code == 201
    # seats that all went to bot accounts after the start: the table rates nobody
    ann = person(bare, "ann")
    table = create(bare, ann, **_three(OPEN, OPEN, _bot("greedy"), rated=True))["id"]
    tokens = [_bot_join(app, bare, one, table, "p1"), _bot_join(app, bare, two, table, "p2")]
    play_all(bare, table, tokens)
    _wait_settled(database_url, table)
    _nothing_rated(database_url, bare)
    assert app.state.ratings.store.rate_table(table, lambda _g: False) is False  # once


def test_a_bot_account_is_marked_as_a_bot(app_client: Any, database_url: str) -> None:
    app, bare = app_client
    robo = _bot_account(bare, "robo")
    ann = person(bare, "ann")
    table = create(bare, ann, **_three(OPEN, OPEN, _bot("greedy"), rated=True))["id"]
    tokens = [take(bare, ann, table, "p1"), _bot_join(app, bare, robo, table, "p2")]
    assert bare.get(f"/api/tables/{table}").json()["seats"][1]["bot_account"] is True
    play_all(bare, table, tokens)
    board = wait_rated(bare, GAME, 3)
    marks = {e["name"]: e["bot"] for e in board["entries"]}
    assert marks == {"ann": False, "robo": True, "bot:greedy": True}
    assert [e["name"] for e in board["bots"]] == ["bot:greedy"]  # the levels, for a game's page
    profile = bare.get("/api/players/robo").json()
    assert profile["bot"] is True and all(r["bot"] for r in profile["ratings"])
    assert bare.get("/api/players/ann").json()["bot"] is False


def test_an_account_does_not_name_its_own_bot_account_at_a_rated_table(
    app_client: Any, database_url: str
) -> None:
    """The review's case: a main account seats its own bot account at a rated table.
    Nothing ties a bot account to whoever runs it, so no bot account is named there."""
    _app, bare = app_client
    _bot_account(bare, "annbot")
    ann = person(bare, "ann")
    mine = {"kind": "account", "name": "annbot"}
    tables = _count(database_url, TableRow)
    with acting(bare, ann) as headers:
        rated = bare.post(
            "/api/tables", json=_three(OPEN, mine, _bot("greedy"), rated=True), headers=headers
        )
        _refused(rated, "by name")
        assert _count(database_url, TableRow) == tables
        casual = bare.post("/api/tables", json=_three(OPEN, mine, _bot("greedy")), headers=headers)
    assert casual.status_code == 201, casual.text
    assert casual.json()["rated"] is False


# ------------------------------------------------------------------ bot levels
def test_a_bot_level_has_one_canonical_identity() -> None:
    from decklab.server.ratings.rules import rated_bot  # (here: the module is new)

    for spelling in ("random", "RANDOM", "Random ", " rAnDoM", "\trandom\n"):
        assert rated_bot(spelling) == "random"
    assert rated_bot(" Expert ") == "expert" and rated_bot("BEGINNER") == "beginner"
    for unrated in (
        "expert:iters=50",
        "greedy:seed=3",
        "no-such-bot",
        "python:os:system",
        "cheat",  # it sees hidden cards
        "",
        "human",
    ):
        assert rated_bot(unrated) is None, unrated


def test_random_and_RANDOM_are_one_rated_player(app_client: Any, database_url: str) -> None:
    _app, bare = app_client
    ann, bob = person(bare, "ann"), person(bare, "bob")
    for spelling in ("random", " RANDOM"):
        made = create(bare, ann, **_three(OPEN, OPEN, _bot(spelling), rated=True))
        assert made["seats"][2]["bot"] == "random"  # stored under its one name
        tokens = [take(bare, ann, made["id"], "p1"), take(bare, bob, made["id"], "p2")]
        play_all(bare, made["id"], tokens)
        _wait_settled(database_url, made["id"])
    board = bare.get(f"/api/leaderboard/{GAME}").json()
    assert [(e["name"], e["games"]) for e in board["bots"]] == [("bot:random", 2)]
    assert {e["name"] for e in board["entries"]} == {"ann", "bob", "bot:random"}
    profile = bare.get("/api/players/bot: RANDOM").json()
    assert profile["name"] == "bot:random" and len(profile["history"]) == 2


def test_a_parameterised_spec_is_unrated(app_client: Any, database_url: str) -> None:
    app, bare = app_client
    ann = person(bare, "ann")
    tables = _count(database_url, TableRow)
    for spec in ("expert:iters=50", "greedy:seed=3", "no-such-bot"):
        answer = bare.post("/api/tables", json=_three(OPEN, OPEN, _bot(spec), rated=True))
        _refused(answer, "not a rated bot")
    assert _count(database_url, TableRow) == tables
    # casual, it plays
    casual = bare.post("/api/tables", json=_three(OPEN, OPEN, _bot("greedy:seed=3")))
    assert casual.status_code == 201, casual.text
    # a rated table holding such a seat all the same (made before the rule): rates nobody
    bob = person(bare, "bob")
    table = create(bare, ann, **_three(OPEN, OPEN, _bot("greedy"), rated=True))["id"]
    tokens = [take(bare, ann, table, "p1"), take(bare, bob, table, "p2")]
    app.state.service.finish_listeners.clear()  # rated below, by hand
    play_all(bare, table, tokens)
    _wait_finished(bare, table)
    engine = create_engine(database_url)
    try:
        with engine.begin() as db:
            db.execute(
                update(SeatRow)
                .where(SeatRow.table_id == table, SeatRow.seat == 2)
                .values(bot_spec="greedy:seed=3")
            )
    finally:
        engine.dispose()
    assert app.state.ratings.store.rate_table(table, lambda _g: False) is True  # settled
    _nothing_rated(database_url, bare)


# ------------------------------------------------------------------ a seat that never came
def _to_act(bare: TestClient, table: str, limit_s: float = 10) -> int:
    """The first person's seat (p1 or p2) to act (the bot of p3 moves alone)."""
    deadline = time.monotonic() + limit_s
    while True:
        to_act = bare.get(f"/api/tables/{table}/state").json()["state"]["to_act"]
        people = [int(s[1:]) - 1 for s in to_act if s in ("p1", "p2")]
        if people:
            return people[0]
        assert time.monotonic() < deadline, "no person came to act"
        time.sleep(0.02)


def test_a_never_connected_seat_that_forfeits_aborts_the_table(
    app_client: Any, database_url: str
) -> None:
    _app, bare = app_client
    ann, bob = person(bare, "ann"), person(bare, "bob")
    clock = {"base_s": 2, "increment_s": 0, "on_timeout": "forfeit"}
    body = _three(OPEN, OPEN, _bot("greedy"), rated=True, clock=clock)

    def start() -> tuple[str, list[Person], list[str]]:
        table = create(bare, ann, **body)["id"]
        return table, [ann, bob], [take(bare, ann, table, "p1"), take(bare, bob, table, "p2")]

    # the seat to act never came: its time runs out, and the table is aborted
    table, people, tokens = start()
    absent = _to_act(bare, table)
    present = 1 - absent
    assert bare.get(f"/api/tables/{table}/state", headers=auth(tokens[present])).is_success
    details = _wait_finished(bare, table)
    outcome = details["outcome"]
    assert outcome.get("aborted") is True, outcome
    assert outcome["absent"] == f"p{absent + 1}" and outcome["winners"] == []
    assert "never came" in outcome["reason"] and "forfeit" not in outcome
    _wait_settled(database_url, table)
    _nothing_rated(database_url, bare)
    with acting(bare, people[present]):
        games = bare.get("/api/me/games").json()
    shown = [g for g in games["finished"] if g["table"] == table]
    assert shown and shown[0]["outcome"]["aborted"] is True  # "aborted" on the account page

    # the same seat, once it came (it looked at the table), forfeits and is rated last
    table, people, tokens = start()
    late = _to_act(bare, table)
    for token in tokens:
        assert bare.get(f"/api/tables/{table}/state", headers=auth(token)).is_success
    outcome = _wait_finished(bare, table)["outcome"]
    assert "aborted" not in outcome and outcome["forfeit"] == f"p{late + 1}"
    board = wait_rated(bare, GAME, 3)
    assert {e["name"]: e["games"] for e in board["entries"]} == {
        "ann": 1,
        "bob": 1,
        "bot:greedy": 1,
    }


def test_a_never_connected_seat_aborts_the_table_when_its_grace_ends(
    hasty_app_client: Any, database_url: str
) -> None:
    """No clock: the grace period of a seat that never came ends (a bot account whose
    program never opens its stream: the review's case) — a bot would play it; at a
    rated table the table is aborted instead."""
    _app, bare = hasty_app_client
    robo = _bot_account(bare, "robo")
    ann = person(bare, "ann")
    table = create(bare, ann, **_three(OPEN, OPEN, _bot("greedy"), rated=True))["id"]
    ann_token = take(bare, ann, table, "p1")
    assert bare.get(f"/api/tables/{table}/state", headers=auth(ann_token)).is_success
    joined = bare.post(f"/api/bot/table/{table}/join", json={"seat": "p2"}, headers=auth(robo))
    assert joined.status_code == 200, joined.text  # the game starts; its program never comes
    outcome = _wait_finished(bare, table)["outcome"]
    assert outcome.get("aborted") is True and outcome["absent"] == "p2", outcome
    _wait_settled(database_url, table)
    _nothing_rated(database_url, bare)


@pytest.mark.anyio
async def test_a_never_connected_seat_aborts_at_its_turn_based_deadline(
    database_url: str, bot_pool: BotPool
) -> None:
    """A turn-based rated table: the deadline of a seat that never came aborts the table
    whatever the table's policy; one that came gets the policy (a bot plays the move)."""

    class Wall:
        now = time.time()

        def __call__(self) -> float:
            return self.now

    wall = Wall()
    async with started_service(database_url, bot_pool, wall) as service:
        specs = [SeatSpec(), SeatSpec(), SeatSpec("greedy")]
        turn = TurnSpec(3600.0, "bot")
        for came in (False, True):
            made = await service.create_table(
                GAME, 3, specs, options=OPTIONS, turn=turn, rated=True
            )
            tokens = [(await service.join(made.id, f"p{i + 1}", f"n{i + 1}"))[1] for i in (0, 1)]
            table = await service.table(made.id)
            while not any(s in (0, 1) for s in table.state.to_act()):
                await asyncio.sleep(0.01)  # the bot's turn: it moves alone
            late = next(s for s in table.state.to_act() if s in (0, 1))
            if came:
                await service.viewer_of(table, tokens[late])
            actions = table.actions
            wall.now += 2 * 3600
            await service.run_deadlines()
            if came:
                assert table.status == "playing" and table.actions > actions
            else:
                assert table.status == "finished" and table.outcome is not None
                assert table.outcome.get("aborted") is True
                assert table.outcome["absent"] == f"p{late + 1}"
                assert table.actions == actions  # no move was played for it


def test_the_upgrade_counts_the_seats_of_rated_games_under_way_as_arrived(
    database_url: str,
) -> None:
    """Migration 0011: a rated game under way is not aborted by the upgrade (whether its
    seats came is not known); any other seat starts as not arrived."""
    from alembic import command

    from decklab.server.store.db import alembic_config, current_revision, make_engine

    command.upgrade(alembic_config(database_url), "0010")
    # the tables as 0010 has them (the models hold the new column)
    tables = table(
        "game_tables",
        *(column(c) for c in ("id", "game", "game_version", "num_players", "version")),
        *(column(c) for c in ("status", "public", "rated")),
        column("options", JSON),
        column("setup", JSON),
        column("created_at", DateTime(timezone=True)),
        column("updated_at", DateTime(timezone=True)),
    )
    seats = table("seats", *(column(c) for c in ("table_id", "seat", "kind", "zombie")))
    now = datetime.datetime.now(datetime.UTC)
    engine = make_engine(database_url)
    try:
        with engine.begin() as db:
            for name, rated, status in (
                ("under-way", True, "playing"),
                ("waiting", True, "waiting"),
                ("over", True, "finished"),
                ("casual", False, "playing"),
            ):
                db.execute(
                    tables.insert().values(
                        id=name,
                        game=GAME,
                        game_version=1,
                        num_players=2,
                        options={},
                        setup={},
                        version=1,
                        status=status,
                        public=True,
                        rated=rated,
                        created_at=now,
                        updated_at=now,
                    )
                )
                for seat in (0, 1):
                    db.execute(
                        seats.insert().values(
                            table_id=name,
                            seat=seat,
                            kind="human",
                            zombie=False,
                        )
                    )
        command.upgrade(alembic_config(database_url), "head")
        assert current_revision(database_url) == "0011"
        with engine.connect() as db:
            got = dict(
                db.execute(select(SeatRow.table_id, SeatRow.arrived).where(SeatRow.seat == 0)).all()
            )
    finally:
        engine.dispose()
    assert got == {"under-way": True, "waiting": True, "over": False, "casual": False}
