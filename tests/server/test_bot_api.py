"""The bot API (docs/server.md, "Bot accounts"): personal API tokens, bot accounts, a bot
seat's stream (its seat's frames and nothing more), its moves, and an external bot
program playing a whole game at a real server's table."""

from __future__ import annotations

import contextlib
import random
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import text
from starlette.testclient import TestClient

from decklab.engine.registry import get_game
from decklab.server.service import TableService
from decklab.server.store.db import make_engine
from decklab.server.tokens import hash_token

from .accountdrive import page, signup
from .games import pick, solo, two_player
from .serverproc import ServerProcess
from .test_noleak import _other_deal
from .wsdrive import auth

ROOT = Path(__file__).resolve().parents[2]
REMOTE_BOT = ROOT / "examples" / "bots" / "remote_bot.py"


@contextlib.contextmanager
def no_cookie(client: TestClient) -> Iterator[TestClient]:
    """The client as an external program: no session cookie (put back afterwards)."""
    saved = list(client.cookies.jar)
    client.cookies.clear()
    try:
        yield client
    finally:
        for cookie in saved:
            client.cookies.jar.set_cookie(cookie)


def new_token(client: TestClient, me: dict[str, Any], label: str = "my bot") -> dict[str, Any]:
    answer = client.post("/api/account/tokens", json={"label": label}, headers=page(me))
    assert answer.status_code == 201, answer.text
    made: dict[str, Any] = answer.json()
    return made


def bot_account(client: TestClient, name: str) -> str:
    """A new bot account called ``name``; its API token (the client stays logged in as it)."""
    me = signup(client, name)
    token: str = new_token(client, me)["token"]
    with no_cookie(client):
        answer = client.post("/api/bot/account/upgrade", headers=auth(token))
    assert answer.status_code == 200, answer.text
    return token


def version_of(client: TestClient, table: str) -> int:
    version: int = client.get(f"/api/tables/{table}").json()["version"]
    return version


# ------------------------------------------------------------ tokens
def test_token_shown_once_hash_only_revoked_refused(client: TestClient, database_url: str) -> None:
    me = signup(client, "tokenowner")
    made = new_token(client, me)
    token = made["token"]
    assert token.startswith("dlb_") and len(token) > 40
    listed = client.get("/api/account/tokens").json()
    assert [t["id"] for t in listed] == [made["id"]]
    assert token not in str(listed) and hash_token(token) not in str(listed)
    engine = make_engine(database_url)
    try:
        with engine.connect() as db:
            rows = [tuple(r) for r in db.execute(text("SELECT * FROM api_tokens"))]
    finally:
        engine.dispose()
    assert len(rows) == 1 and hash_token(token) in rows[0]
    assert not any(token in str(value) for value in rows[0]), "the token itself is stored"
    with no_cookie(client):
        who = client.get("/api/bot/account", headers=auth(token))
        assert who.status_code == 200 and who.json() == {"username": "tokenowner", "bot": False}
        # Not a bot account yet: the bot routes refuse it.
        assert client.get("/api/bot/stream/event", headers=auth(token)).status_code == 403
    gone = client.delete(f"/api/account/tokens/{made['id']}", headers=page(me))
    assert gone.status_code == 204
    with no_cookie(client):
        refused = client.get("/api/bot/account", headers=auth(token))
    assert refused.status_code == 401 and refused.json()["error"]["code"] == "unauthorized"
    again = client.delete(f"/api/account/tokens/{made['id']}", headers=page(me))
    assert again.status_code == 404
    exported = client.get("/api/account/export").json()
    assert [t["label"] for t in exported["api_tokens"]] == ["my bot"]
    assert exported["api_tokens"][0]["revoked_at"] is not None
    assert token not in str(exported) and hash_token(token) not in str(exported)


def test_token_of_a_deleted_account_refused(client: TestClient, database_url: str) -> None:
    me = signup(client, "shortlived")
    token = new_token(client, me)["token"]
    deleted = client.post(
        "/api/account/delete",
        json={"confirm": "shortlived", "password": "correct horse battery staple"},
        headers=page(me),
    )
    assert deleted.status_code == 204, deleted.text
    engine = make_engine(database_url)
    try:
        with engine.connect() as db:
            assert db.execute(text("SELECT COUNT(*) FROM api_tokens")).scalar() == 0
    finally:
        engine.dispose()
    with no_cookie(client):
        assert client.get("/api/bot/account", headers=auth(token)).status_code == 401


def test_tokens_need_a_session_and_csrf(client: TestClient) -> None:
    """Tokens are made by a logged-in page only; a request with the session cookie needs the
    CSRF header even when it carries an API token too."""
    me = signup(client, "csrfcheck")
    token = new_token(client, me)["token"]
    bare = client.post("/api/account/tokens", json={"label": "x"})
    assert bare.status_code == 403 and bare.json()["error"]["code"] == "csrf"
    with_bearer = client.post("/api/bot/account/upgrade", headers=auth(token))
    assert with_bearer.status_code == 403 and with_bearer.json()["error"]["code"] == "csrf"
    with no_cookie(client):
        assert client.post("/api/account/tokens", json={"label": "x"}).status_code == 401
        assert client.get("/api/account/tokens").status_code == 401
    assert len(client.get("/api/account/tokens").json()) == 1


# ------------------------------------------------------------ bot accounts
def test_bot_accounts_seat_and_play_only_through_the_api(client: TestClient) -> None:
    game = two_player()
    # An account that has held a seat cannot become a bot.
    person = signup(client, "aperson")
    table = client.post(
        "/api/tables", json={"game": game, "players": 2}, headers=page(person)
    ).json()["id"]
    joined = client.post(
        f"/api/tables/{table}/join", json={"seat": "p1", "nickname": "x"}, headers=page(person)
    )
    assert joined.status_code == 200
    refused = client.post("/api/bot/account/upgrade", headers=page(person))
    assert refused.status_code == 409 and refused.json()["error"]["code"] == "has_played"
    client.post("/api/account/logout", headers=page(person))

    bot_token = bot_account(client, "robo")
    me = client.get("/api/me").json()
    # A bot account does not play as a person in the browser.
    other = client.post("/api/tables", json={"game": game, "players": 2}, headers=page(me)).json()[
        "id"
    ]
    as_person = client.post(
        f"/api/tables/{other}/join", json={"seat": "p1", "nickname": "x"}, headers=page(me)
    )
    assert as_person.status_code == 403 and as_person.json()["error"]["code"] == "bot_account"
    assert client.get(f"/api/tables/{other}").json()["seats"][0]["kind"] == "open"

    with no_cookie(client):
        # Only a bot account may be seated as an account; nothing is made otherwise.
        before = len(client.get("/api/tables").json())
        for name in ("aperson", "nobody"):
            bad = client.post(
                "/api/tables",
                json={"game": game, "seats": [{"kind": "account", "name": name}, {}]},
            )
            assert bad.status_code == 400, bad.text
        twice = [{"kind": "account", "name": "robo"}] * 2
        assert client.post("/api/tables", json={"game": game, "seats": twice}).status_code == 400
        assert len(client.get("/api/tables").json()) == before
        made = client.post(
            "/api/tables",
            json={"game": game, "seats": [{"kind": "account", "name": "ROBO"}, {"kind": "open"}]},
        )
        assert made.status_code == 201, made.text
        seat = made.json()["seats"][0]
        assert seat["nickname"] == "robo" and seat["bot_account"] is True
        assert seat["kind"] == "human"  # a seat with a token, presence and a clock
        listed = [t for t in client.get("/api/tables").json() if t["id"] == made.json()["id"]]
        assert listed[0]["seats"][0]["bot_account"] is True
        # The bot joins an open seat itself.
        joined_bot = client.post(
            f"/api/bot/table/{other}/join", json={"seat": "p2"}, headers=auth(bot_token)
        )
        assert joined_bot.status_code == 200 and joined_bot.json()["seat"] == "p2"
    # Its games list holds no seat token for a page.
    games = client.get("/api/me/games").json()
    assert {g["table"] for g in games["active"]} == {made.json()["id"], other}
    assert all(g["token"] is None for g in games["active"])


def _legal(client: TestClient, table: str, seat: int) -> list[str]:
    """The seat's legal actions as its stream's frames list them (read from the table the
    server holds: TestClient cannot follow an endless stream)."""
    held = client.app.state.service.tables[table]  # type: ignore[attr-defined]
    legal: list[str] = held.views().legal(seat) if seat in held.state.to_act() else []
    return legal


def test_a_bot_acts_only_for_its_seat_and_bad_input_changes_nothing(client: TestClient) -> None:
    game = two_player()
    bot_token = bot_account(client, "mover")
    client.post("/api/account/logout", headers=page(client.get("/api/me").json()))
    other_bot = bot_account(client, "otherbot")  # a bot with no seat at the table
    client.post("/api/account/logout", headers=page(client.get("/api/me").json()))
    person = signup(client, "plainone")
    plain = new_token(client, person)["token"]  # a person's token: not a bot account
    client.post("/api/account/logout", headers=page(person))
    seats = [{"kind": "account", "name": "mover"}, {"kind": "open"}]
    table = client.post("/api/tables", json={"game": game, "seats": seats}).json()["id"]
    elsewhere = client.post("/api/tables", json={"game": game, "players": 2}).json()["id"]
    guest = client.post(f"/api/tables/{table}/join", json={"seat": "p2", "nickname": "g"})
    guest_token = guest.json()["token"]
    client.post(f"/api/tables/{elsewhere}/join", json={"seat": "p1", "nickname": "h"})
    client.post(f"/api/tables/{elsewhere}/join", json={"seat": "p2", "nickname": "i"})

    def move(where: str, action: str, version: int, token: str = bot_token) -> httpx.Response:
        body = {"action": action, "version": version}
        return client.post(f"/api/bot/table/{where}/move", json=body, headers=auth(token))

    # Play on (the guest too) until both have had a turn, checking the refusals at each.
    checked: set[str] = set()
    for _ in range(200):
        version = version_of(client, table)
        mine = _legal(client, table, 0)
        theirs = _legal(client, table, 1)
        if theirs and not mine:
            # Not the bot's turn: its move for the guest's seat is refused.
            answer = move(table, theirs[0], version)
            assert answer.status_code in (403, 409, 422), answer.text
            assert version_of(client, table) == version
            checked.add("theirs")
            if "mine" in checked:
                break
            played = client.post(
                f"/api/tables/{table}/actions",
                json={"action": theirs[0], "version": version, "client_id": f"g{version}"},
                headers=auth(guest_token),
            )
            assert played.status_code == 200, played.text
            continue
        assert mine, "the bot's seat is to act"
        for bad, status in (
            (move(elsewhere, mine[0], version_of(client, elsewhere)), 403),
            (move(table, mine[0], version, plain), 403),
            (move(table, mine[0], version, other_bot), 403),
            (move(table, mine[0], version, "dlb_not-a-token"), 401),
            (move(table, "no such action at all", version), 422),
            (move(table, mine[0], version + 5), 409),
            (
                client.post(
                    f"/api/bot/table/{table}/move",
                    json={"action": mine[0]},
                    headers=auth(bot_token),
                ),
                422,
            ),
        ):
            assert bad.status_code == status, bad.text
            assert "error" in bad.json()
        assert version_of(client, table) == version
        assert version_of(client, elsewhere) == 1 + 2  # created, two joins: untouched
        done = move(table, mine[0], version)
        assert done.status_code == 200, done.text
        # The same move again (same version, so the same default client id) counts once.
        assert move(table, mine[0], version).json() == done.json()
        assert version_of(client, table) == done.json()["version"]
        checked.add("mine")
    assert checked == {"mine", "theirs"}
    # The guest's own seat token still plays the guest's seat.
    state = client.get(f"/api/tables/{table}/state", headers=auth(guest_token)).json()
    assert state["state"]["legal"]


# ------------------------------------------------------------ no leak
def _hidden_two_player() -> str:
    return pick(
        lambda i: (
            i.min_players <= 2 <= i.max_players
            and not i.simultaneous
            and i.hidden_information
            and bool(get_game(i.name).new(2, seed=1).initial_setup)
        )
    )


async def _first_frame(service: TableService, table_id: str, seat: int) -> str:
    from decklab.server.api.routes.bot import seat_lines

    table = await service.table(table_id)
    lines = seat_lines(service, table, seat, 5.0)
    try:
        line = await anext(lines)
    finally:
        await lines.aclose()
    return line.replace(table_id, "TABLE")


async def _same_looking_tables(service: TableService, game: str, seed: int) -> tuple[str, str]:
    """Two tables whose deals differ only in cards hidden from p1 (None if none found)."""
    rng = random.Random(seed)
    made = []
    for _ in range(2):
        table = await service.create_table(game, 2, [])
        for seat in ("p1", "p2"):
            await service.join(table.id, seat, f"n{seat}")
        made.append(table)
    other = _other_deal(made[0].state, 0, rng)
    if other is None:
        pytest.skip(reason="no second deal that looks the same to p1 was found")
    made[1].state = other
    return made[0].id, made[1].id


@pytest.mark.anyio
async def test_seat_stream_tells_only_the_seats_view(service: TableService) -> None:
    """A bot seat's stream is byte-identical for two deals that differ only in cards hidden
    from it — and differs when the deals differ in what it sees."""
    game = _hidden_two_player()
    for seed in range(6):
        first, second = await _same_looking_tables(service, game, seed)
        one, two = await service.table(first), await service.table(second)
        assert one.state.initial_setup != two.state.initial_setup  # the deals do differ
        a = await _first_frame(service, first, 0)
        b = await _first_frame(service, second, 0)
        assert a == b, "the seat's stream tells a card hidden from it"
        assert '"legal":[' in a and '"view":' in a


@pytest.mark.anyio
async def test_the_stream_differential_bites(
    service: TableService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With the whole deal put into each frame, the comparison above catches it."""
    from decklab.server import hub

    real = hub.table_part

    def leaky(table: Any, viewer: Any) -> dict[str, Any]:
        return {**real(table, viewer), "leak": str(table.state.initial_setup)}

    monkeypatch.setattr(hub, "table_part", leaky)
    game = _hidden_two_player()
    caught = 0
    for seed in range(6):
        first, second = await _same_looking_tables(service, game, seed)
        caught += await _first_frame(service, first, 0) != await _first_frame(service, second, 0)
    assert caught >= 1


# ------------------------------------------------------------ an external bot program
def _new_bot_account(base: str, name: str) -> str:
    """Sign up ``name`` on a running server, make it an API token, upgrade it to a bot."""
    with httpx.Client(base_url=base, timeout=30) as web:
        me = web.post(
            "/api/account/signup",
            json={"username": name, "password": "correct horse battery staple"},
        ).json()
        token: str = web.post(
            "/api/account/tokens", json={"label": name}, headers={"x-csrf-token": me["csrf"]}
        ).json()["token"]
    with httpx.Client(base_url=base, timeout=30) as api:
        assert api.post("/api/bot/account/upgrade", headers=auth(token)).status_code == 200
    return token


def test_external_bot_process_plays_a_whole_game(database_url: str, tmp_path: Path) -> None:
    """``examples/bots/remote_bot.py``, a separate process with only an API token, plays
    its seat of a two-player table against a server-side greedy bot to the end."""
    game = two_player()
    server = ServerProcess(database_url, tmp_path)
    bot: subprocess.Popen[str] | None = None
    try:
        server.start()
        token = _new_bot_account(server.base, "remotebot")
        with httpx.Client(base_url=server.base, timeout=30) as api:
            bot = subprocess.Popen(
                [
                    sys.executable,
                    str(REMOTE_BOT),
                    "--server",
                    server.base,
                    "--token",
                    token,
                    "--games",
                    "1",
                    "--seed",
                    "7",
                ],
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                text=True,
            )
            seats = [{"kind": "account", "name": "remotebot"}, {"kind": "bot", "bot": "greedy"}]
            made = api.post("/api/tables", json={"game": game, "seats": seats})
            assert made.status_code == 201, made.text
            table = made.json()["id"]
            try:
                out, _ = bot.communicate(timeout=180)
            except subprocess.TimeoutExpired:
                bot.kill()
                out, _ = bot.communicate()
                raise AssertionError(f"the bot did not finish its game:\n{out[-3000:]}") from None
            assert bot.returncode == 0, out
            assert f"seated at {table} as p1" in out and f"{table} finished" in out, out
            summary = api.get(f"/api/tables/{table}").json()
            assert summary["status"] == "finished"
            assert summary["seats"][0]["bot_account"] is True
            assert summary["seats"][0]["zombie"] is False  # the program played, no stand-in
            record = api.get(f"/api/tables/{table}/record").json()
            assert record["players"]["p1"] == "remotebot", record.get("players")
            assert summary["actions"] > 2
    finally:
        if bot is not None and bot.poll() is None:
            bot.kill()
        server.stop()


def test_the_trained_cabin_policy_plays_an_online_table(database_url: str, tmp_path: Path) -> None:
    """The worked example of docs/interop.md at a server table: the Cabin policy trained
    with SB3 (NumPy weights, ``policy(view, legal, seat, rng)``) plays a whole game
    through the bot API from another process, seeing only its seat's frames."""
    server = ServerProcess(database_url, tmp_path)
    bot: subprocess.Popen[str] | None = None
    policy = ROOT / "examples" / "policies" / "cabin_ppo" / "policy.py"
    try:
        server.start()
        token = _new_bot_account(server.base, "cabinppo")
        with httpx.Client(base_url=server.base, timeout=30) as api:
            command = [sys.executable, str(REMOTE_BOT), "--server", server.base, "--token", token]
            command += ["--policy", f"{policy}:policy", "--games", "1", "--seed", "1"]
            bot = subprocess.Popen(
                command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
            )
            game = solo()
            seats = [{"kind": "account", "name": "cabinppo"}]
            made = api.post("/api/tables", json={"game": game, "seats": seats})
            assert made.status_code == 201, made.text
            table = made.json()["id"]
            try:
                out, _ = bot.communicate(timeout=180)
            except subprocess.TimeoutExpired:
                bot.kill()
                out, _ = bot.communicate()
                raise AssertionError(
                    f"the policy did not finish its game:\n{out[-3000:]}"
                ) from None
            assert bot.returncode == 0, out
            summary = api.get(f"/api/tables/{table}").json()
            assert summary["status"] == "finished" and summary["seats"][0]["zombie"] is False
            record = api.get(f"/api/tables/{table}/record").json()
            assert record["players"]["p1"] == "cabinppo"
            assert summary["actions"] > 30  # a whole patience, every move the network's
    finally:
        if bot is not None and bot.poll() is None:
            bot.kill()
        server.stop()


# ------------------------------------------------------------ limits
def test_limits_per_api_token(database_url: str, bot_pool: Any) -> None:
    """Requests per token, and streams open per token, are limited (429 in the one error
    shape); another token of another account keeps its own budget."""
    from decklab.server.api.app import create_app

    from .conftest import fast_settings

    settings = fast_settings(
        database_url=database_url, bot_requests_per_window=3, bot_streams_per_token=0
    )
    app = create_app(settings, pool=bot_pool, heavy_pool=bot_pool)
    with TestClient(app, base_url="http://testserver") as client:
        first = bot_account(client, "limited")  # the upgrade spent one
        client.post("/api/account/logout", headers=page(client.get("/api/me").json()))
        second = bot_account(client, "fresh")
        client.post("/api/account/logout", headers=page(client.get("/api/me").json()))
        assert client.get("/api/bot/account", headers=auth(first)).status_code == 200
        assert client.get("/api/bot/account", headers=auth(first)).status_code == 200
        limited = client.get("/api/bot/account", headers=auth(first))
        assert limited.status_code == 429, limited.text
        assert limited.json()["error"]["code"] == "rate_limited"
        assert "Retry-After" in limited.headers
        assert client.get("/api/bot/account", headers=auth(second)).status_code == 200
        stream = client.get("/api/bot/stream/event", headers=auth(second))
        assert stream.status_code == 429 and stream.json()["error"]["code"] == "rate_limited"


def test_a_table_never_waits_for_a_bot_program_that_does_not_come(
    hasty_client: TestClient,
) -> None:
    """A bot account seated at a table whose program never connects: after the grace
    period the stand-in bot plays its seat, and the game ends."""
    client = hasty_client
    bot_account(client, "absent")
    client.post("/api/account/logout", headers=page(client.get("/api/me").json()))
    seats = [{"kind": "account", "name": "absent"}, {"kind": "bot", "bot": "greedy"}]
    table = client.post("/api/tables", json={"game": two_player(), "seats": seats}).json()["id"]
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        summary = client.get(f"/api/tables/{table}").json()
        if summary["status"] == "finished":
            break
        time.sleep(0.05)
    assert summary["status"] == "finished", summary
    assert summary["seats"][0]["zombie"] and summary["seats"][0]["nickname"] == "absent"
