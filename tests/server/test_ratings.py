"""Ratings through the real application, on SQLite and PostgreSQL: a rated table of
accounts and a bot updates their ratings as openskill would, once (a second try, a
restart, a second process change nothing; a crash before the rating is made good at
start); casual tables are unrated; rated tables seat accounts only; the leaderboard
lists people and bots in order; deleting an account deletes its rating rows; bad
requests get clear errors."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from openskill.models import PlackettLuce
from sqlalchemy import create_engine, delete, select
from starlette.testclient import TestClient

from decklab.engine.registry import get_game
from decklab.server.api.app import create_app
from decklab.server.bots import BotPool
from decklab.server.ratings.model import NEW, Skill, places, rate
from decklab.server.store.models import RatedTableRow, RatingHistoryRow, RatingRow
from decklab.server.store.ratings import RatingStore

from .accountdrive import PASSWORD, page
from .conftest import fast_settings
from .games import solo
from .ratedgames import acting, create, person, play_all, short_game, take, wait_rated
from .wsdrive import auth

BOT = "greedy"


# ------------------------------------------------------------------ the model alone
def test_places_come_from_the_generic_result_with_ties_and_forfeits() -> None:
    result = {"scores": {"p1": 3, "p2": 9, "p3": 9, "p4": 1}, "winners": ["p2", "p3"]}
    assert places(result, 4, lower_is_better=False) == [2, 1, 1, 3]
    assert places(result, 4, lower_is_better=True) == [3, 1, 1, 2]  # winners first anyway
    low = {"scores": {"p1": 3, "p2": 1, "p3": 5}, "winners": ["p2"]}
    assert places(low, 3, lower_is_better=True) == [2, 1, 3]
    assert places({**result, "forfeit": "p2", "winners": ["p3"]}, 4, False) == [2, 4, 1, 3]
    with pytest.raises(ValueError, match="no score for p3"):
        places({"scores": {"p1": 1, "p2": 2}, "winners": []}, 3, False)


def test_rate_is_openskill_plackett_luce() -> None:
    skills = [Skill(30.0, 4.0), NEW, Skill(20.0, 6.0), Skill(25.0, 2.0)]
    ranks = [2, 1, 1, 3]
    model = PlackettLuce()
    teams = [[model.create_rating([s.mu, s.sigma])] for s in skills]
    expected = model.rate(teams, ranks=[float(r) for r in ranks])
    got = rate(skills, ranks)
    for mine, theirs in zip(got, expected, strict=True):
        assert mine.mu == pytest.approx(theirs[0].mu)
        assert mine.sigma == pytest.approx(theirs[0].sigma)
    assert got[1].mu > NEW.mu and got[2].mu > 20.0  # tied first: both rise
    assert got[3].mu < 25.0  # last: falls
    with pytest.raises(ValueError):
        rate([NEW], [1])


# ------------------------------------------------------------------ through the server
@pytest.fixture
def app_client(database_url: str, bot_pool: BotPool) -> Any:
    app = create_app(fast_settings(database_url=database_url), pool=bot_pool, heavy_pool=bot_pool)
    with TestClient(app, base_url="http://testserver") as bare:
        yield app, bare


def _rated_game(app: Any, bare: TestClient, names: list[str], **more: Any) -> dict[str, Any]:
    """A game for three: two accounts and a bot, played to the end; the table's details."""
    game, options = short_game()
    people = [person(bare, name) for name in names]
    seats = [{"kind": "open"}, {"kind": "open"}, {"kind": "bot", "bot": BOT}]
    body = {"game": game, "players": 3, "options": options, "seats": seats, **more}
    table = create(bare, people[0], **body)
    tokens = [take(bare, who, table["id"], f"p{i + 1}") for i, who in enumerate(people)]
    play_all(bare, table["id"], tokens)
    details: dict[str, Any] = bare.get(f"/api/tables/{table['id']}").json()
    assert details["status"] == "finished"
    return details


def _expected(outcome: dict[str, Any], game: str) -> list[Skill]:
    """What openskill itself makes of the outcome, from fresh ratings."""
    ranks = places(outcome, 3, get_game(game).info.lower_is_better)
    model = PlackettLuce()
    after = model.rate([[model.rating()] for _ in range(3)], ranks=[float(r) for r in ranks])
    return [Skill(t[0].mu, t[0].sigma) for t in after]


def test_a_rated_table_rates_people_and_bot_once(
    app_client: Any, database_url: str, bot_pool: BotPool
) -> None:
    app, bare = app_client
    details = _rated_game(app, bare, ["ann", "bob"], rated=True)
    assert details["rated"] is True
    game = details["game"]
    board = wait_rated(bare, game, 3)
    by_name = {e["name"]: e for e in board["entries"]}
    assert set(by_name) == {"ann", "bob", f"bot:{BOT}"}
    assert by_name[f"bot:{BOT}"]["bot"] is True and not by_name["ann"]["bot"]
    assert [e["name"] for e in board["bots"]] == [f"bot:{BOT}"]
    expected = _expected(details["outcome"], game)
    for name, skill in zip(["ann", "bob", f"bot:{BOT}"], expected, strict=True):
        assert by_name[name]["mu"] == pytest.approx(skill.mu, abs=1e-3)
        assert by_name[name]["sigma"] == pytest.approx(skill.sigma, abs=1e-3)
        assert by_name[name]["games"] == 1
    ratings = [e["rating"] for e in board["entries"]]
    assert ratings == sorted(ratings, reverse=True)
    assert [e["rank"] for e in board["entries"]] == [1, 2, 3]
    # the game's page figure: the same bots
    assert bare.get(f"/api/ratings/{game}").json()["bots"] == board["bots"]
    # the profile: one rating and one point of history
    profile = bare.get("/api/players/ann").json()
    assert [r["game"] for r in profile["ratings"]] == [game]
    assert len(profile["history"]) == 1 and profile["history"][0]["table"] == details["id"]
    assert bare.get(f"/api/players/bot:{BOT}").json()["bot"] is True
    # a second rating of the same table, from this process or a second one: nothing
    assert app.state.ratings.store.rate_table(details["id"], lambda _g: False) is False
    other = RatingStore(create_engine(database_url))
    results: list[bool] = []
    racers = [
        threading.Thread(
            target=lambda: results.append(other.rate_table(details["id"], lambda _g: False))
        )
        for _ in range(2)
    ]
    for racer in racers:
        racer.start()
    for racer in racers:
        racer.join()
    assert results == [False, False]
    assert bare.get(f"/api/leaderboard/{game}").json() == board
    # a restart: nothing rated again
    again = create_app(fast_settings(database_url=database_url), pool=bot_pool, heavy_pool=bot_pool)
    with TestClient(again, base_url="http://testserver") as restarted:
        assert restarted.get(f"/api/leaderboard/{game}").json() == board


def test_a_crash_before_the_rating_is_made_good_at_start(
    app_client: Any, database_url: str, bot_pool: BotPool
) -> None:
    app, bare = app_client
    app.state.service.finish_listeners.clear()  # the end is committed, the rating never runs
    details = _rated_game(app, bare, ["cat", "dan"], rated=True)
    game = details["game"]
    assert bare.get(f"/api/leaderboard/{game}").json()["entries"] == []
    for _ in range(2):  # the first start rates it, the second does nothing more
        again = create_app(
            fast_settings(database_url=database_url), pool=bot_pool, heavy_pool=bot_pool
        )
        with TestClient(again, base_url="http://testserver") as restarted:
            board = restarted.get(f"/api/leaderboard/{game}").json()
            assert {e["name"]: e["games"] for e in board["entries"]} == {
                "cat": 1,
                "dan": 1,
                f"bot:{BOT}": 1,
            }


def test_a_casual_table_is_not_rated(app_client: Any) -> None:
    app, bare = app_client
    details = _rated_game(app, bare, ["eve", "fay"])
    assert details["rated"] is False
    assert bare.get(f"/api/leaderboard/{details['game']}").json()["entries"] == []
    assert bare.get("/api/players/eve").json() == {
        "name": "eve",
        "bot": False,
        "ratings": [],
        "history": [],
    }


def test_rated_tables_seat_accounts_only_each_once(app_client: Any) -> None:
    _app, bare = app_client
    game, options = short_game()
    gus = person(bare, "gus")
    table = create(bare, gus, game=game, players=3, options=options, rated=True)
    listed = {t["id"]: t for t in bare.get("/api/tables").json()}
    assert listed[table["id"]]["rated"] is True  # the lobby says so before one sits
    guest = bare.post(f"/api/tables/{table['id']}/join", json={"seat": "p1", "nickname": "zed"})
    assert guest.status_code == 403 and guest.json()["error"]["code"] == "account_needed"
    take(bare, gus, table["id"], "p1")
    with acting(bare, gus) as headers:
        twice = bare.post(
            f"/api/tables/{table['id']}/join", json={"seat": "p2", "nickname": "x"}, headers=headers
        )
    assert twice.status_code == 409 and twice.json()["error"]["code"] == "already_seated"
    alone = bare.post("/api/tables", json={"game": solo(), "players": 1, "rated": True})
    assert alone.status_code == 400 and "alone" in alone.json()["error"]["message"]
    bots = [{"kind": "bot", "bot": BOT}] * 3
    only_bots = bare.post(
        "/api/tables", json={"game": game, "players": 3, "seats": bots, "rated": True}
    )
    assert only_bots.status_code == 400 and "person" in only_bots.json()["error"]["message"]


def test_bad_rating_requests_get_clear_errors(app_client: Any) -> None:
    _app, bare = app_client
    unknown = bare.get("/api/leaderboard/no-such-game")
    assert unknown.status_code == 404 and unknown.json()["error"]["code"] == "not_found"
    assert bare.get("/api/ratings/no-such-game").status_code == 404
    assert bare.get("/api/players/nobody-here").status_code == 404
    assert bare.get("/api/players/bot:never-rated").status_code == 404
    game, _ = short_game()
    bad_limit = bare.get(f"/api/leaderboard/{game}?limit=0")
    assert bad_limit.status_code == 422 and bad_limit.json()["error"]["code"] == "invalid"


def test_deleting_an_account_deletes_its_rating_rows(app_client: Any, database_url: str) -> None:
    app, bare = app_client
    details = _rated_game(app, bare, ["hal", "ivy"], rated=True)
    wait_rated(bare, details["game"], 3)
    me = bare.post("/api/account/login", json={"username": "hal", "password": PASSWORD}).json()
    gone = bare.post(
        "/api/account/delete", json={"confirm": "hal", "password": PASSWORD}, headers=page(me)
    )
    bare.cookies.clear()
    assert gone.status_code == 204, gone.text
    engine = create_engine(database_url)
    try:
        with engine.connect() as db:
            ratings = [r.player for r in db.execute(select(RatingRow.player))]
            history = [r.player for r in db.execute(select(RatingHistoryRow.player))]
            assert db.execute(select(RatedTableRow.table_id)).scalars().all() == [details["id"]]
            db.execute(delete(RatedTableRow))  # (the sweep must not rate it again: no seat)
            db.commit()
    finally:
        engine.dispose()
    assert len(ratings) == 2 and f"bot:{BOT}" in ratings and "a:1" not in ratings
    assert len(history) == 2 and "a:1" not in history
    names = [e["name"] for e in bare.get(f"/api/leaderboard/{details['game']}").json()["entries"]]
    assert "hal" not in names and "ivy" in names
    # a table with a deleted player's seat rates nobody (the row is made, nothing moves)
    assert app.state.ratings.store.rate_table(details["id"], lambda _g: False) is True
    assert bare.get(f"/api/leaderboard/{details['game']}").json()["entries"][0]["games"] == 1


def test_a_forfeit_on_time_is_rated_last(app_client: Any) -> None:
    """The end by a clock's forfeit (not a move) rates too, the forfeiting seat last
    (a seat that came: one that never did aborts the table, test_ratings_integrity.py)."""
    _app, bare = app_client
    game, options = short_game()
    people = [person(bare, name) for name in ("jon", "kim")]
    seats = [{"kind": "open"}, {"kind": "open"}, {"kind": "bot", "bot": BOT}]
    clock = {"base_s": 2, "increment_s": 0, "on_timeout": "forfeit"}
    body = {"game": game, "players": 3, "options": options, "seats": seats, "clock": clock}
    table = create(bare, people[0], rated=True, **body)
    tokens = [take(bare, who, table["id"], f"p{i + 1}") for i, who in enumerate(people)]
    for token in tokens:  # both look at the table (they came), then nobody moves
        assert bare.get(f"/api/tables/{table['id']}/state", headers=auth(token)).is_success
    board = wait_rated(bare, game, 3, limit_s=20)  # a person's time runs out
    outcome = bare.get(f"/api/tables/{table['id']}").json()["outcome"]
    forfeit = outcome["forfeit"]
    loser = {"p1": "jon", "p2": "kim"}[forfeit]
    history = bare.get(f"/api/players/{loser}").json()["history"]
    assert [p["place"] for p in history] == [max(places(outcome, 3, False))]
    assert board["entries"][-1]["name"] == loser  # last place: the lowest rating
