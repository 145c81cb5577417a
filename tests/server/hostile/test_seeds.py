"""Hostile tests: nothing a client gets before the end of a game of several players lets
it compute a hidden card or a chance outcome still to come (issue 19, item 1).

The attack is the one the issue found: take every number and every hex- or base64-looking
string out of every answer a spectator and another seat received, try each as the game's
seed (and as the key of the server's own derivation), and see whether the deal comes out.
"""

from __future__ import annotations

import base64
import binascii
import contextlib
import hashlib
import json
import random
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from typer.testing import CliRunner

from decklab import cli
from decklab.engine import records
from decklab.engine.errors import DecklabError
from decklab.engine.registry import game_names, get_game
from decklab.engine.state import ALL, CHANCE, GameState
from decklab.server import dealing
from decklab.server.bots import BotPool
from decklab.server.service import TableService
from decklab.server.store.db import make_engine, upgrade
from decklab.server.store.queries import Store
from decklab.server.table import SeatSpec

from ..conftest import fast_settings
from ..games import solo
from ..wsdrive import auth, hello, join, new_table, receive

pytestmark = pytest.mark.anyio
MASK = (1 << 64) - 1


def _deal_is_hidden(name: str) -> bool:
    """A game of several players whose deal hides something from a seat and depends on
    the seed: what a leaked seed would give away."""
    cls = get_game(name)
    if cls.info.max_players < 2:
        return False
    n = max(2, cls.info.min_players)
    a, b = cls.new(n, seed=1), cls.new(n, seed=2)
    return a.view(0) != a.view(ALL) and a.initial_setup != b.initial_setup


HIDDEN_DEALS = [g for g in game_names() if _deal_is_hidden(g)]


def _chancy() -> tuple[str, dict[str, Any]]:
    """A game of several players (and options) whose actions draw chance early on, found
    by playing: the game to show that chance after the deal is fresh too."""
    for name in game_names():
        cls = get_game(name)
        if cls.info.max_players < 2:
            continue
        tries: list[dict[str, Any]] = [{}]
        tries += [{o.name: True} for o in cls.info.options if o.kind is bool]
        for options in tries:
            state = cls.new(max(2, cls.info.min_players), options, seed=3)
            rng = random.Random(0)
            for _ in range(12):
                if state.is_terminal():
                    break
                seat = state.to_act()[0]
                state.apply(seat, rng.choice(state.legal_actions(seat)))
                if any(actor == CHANCE for actor, _ in state.history):
                    return name, options
    raise LookupError("no game draws chance after its deal")


# ------------------------------------------------------------------ the attacker
def _walk(value: Any) -> Iterator[Any]:
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _walk(k)
            yield from _walk(v)
    elif isinstance(value, list | tuple):
        for v in value:
            yield from _walk(v)
    else:
        yield value


def _candidates(answers: list[Any]) -> tuple[set[int], set[bytes]]:
    """Every seed and every key an attacker could read out of ``answers``."""
    seeds: set[int] = set()
    keys: set[bytes] = set()
    for leaf in _walk(answers):
        if isinstance(leaf, bool) or leaf is None:
            continue
        if isinstance(leaf, float) and leaf.is_integer():
            leaf = int(leaf)
        if isinstance(leaf, int):
            seeds.update({leaf, leaf & MASK})
            keys.add((leaf & ((1 << 128) - 1)).to_bytes(16, "big"))
            continue
        if not isinstance(leaf, str):
            continue
        for word in {leaf, *leaf.replace("/", " ").replace("=", " ").replace(",", " ").split()}:
            if word.isdigit() and len(word) < 60:
                seeds.update({int(word), int(word) & MASK})
            raw: list[bytes] = []
            if len(word) >= 8 and all(c in "0123456789abcdefABCDEF" for c in word):
                seeds.update({int(word, 16), int(word, 16) & MASK})
                if len(word) % 2 == 0:
                    raw.append(bytes.fromhex(word))
            if len(word) >= 8:
                for decode in (base64.urlsafe_b64decode, base64.b64decode):
                    with contextlib.suppress(binascii.Error, ValueError):
                        raw.append(decode(word + "=" * (-len(word) % 4)))
            for data in raw:
                if data:
                    seeds.update({int.from_bytes(data, "big") & MASK})
                    seeds.add(int.from_bytes(data, "little") & MASK)
                    if len(data) <= 64:
                        keys.add(data)
    return seeds, keys


def _rebuilds(
    cls: type[GameState], n: int, options: dict[str, Any], truth: Any, answers: list[Any]
) -> list[str]:
    """The ways found to deal ``truth`` (the true setup) from what ``answers`` hold."""
    seeds, keys = _candidates(answers)
    seeds.update(dealing.deal_seed(k) for k in keys)
    return [str(v) for v in seeds if cls.new(n, options, seed=v).initial_setup == truth]


# ------------------------------------------------------------------ playing
def _get(client: TestClient, url: str, answers: list[Any], token: str | None = None) -> Any:
    got = client.get(url, headers=auth(token) if token else {})
    answers.append(dict(got.headers))
    body = got.json()
    answers.append(body)
    return body


def _everything(
    client: TestClient, table: str, tokens: dict[str, str], answers: list[Any]
) -> dict[str, Any]:
    """Every REST answer a spectator and the attacker (seat p1) can get now."""
    base = f"/api/tables/{table}"
    summary = _get(client, base, answers)
    _get(client, "/api/tables", answers)
    for token in (None, tokens["p1"]):
        _get(client, f"{base}/state", answers, token)
        _get(client, f"{base}/record", answers, token)
        _get(client, f"{base}/replay?step=999999", answers, token)  # an error answer
        _get(client, f"{base}/replay?step=0&seat=p2", answers, token)  # forbidden
        _get(client, f"{base}/hint", answers, token)  # refused: not a game alone
        for step in range(summary["actions"] + 1):
            _get(client, f"{base}/replay?step={step}", answers, token)
        answers.append(
            client.post(f"{base}/undo", json={"version": 0}, headers=auth(token or "x")).json()
        )
    _get(client, "/api/stats/p1", answers)
    answers.append(
        client.post(
            f"{base}/actions",
            json={"action": "nonsense", "version": summary["version"], "client_id": "x"},
            headers=auth(tokens["p1"]),
        ).json()
    )
    return summary


def _play_some(
    client: TestClient, table: str, tokens: dict[str, str], moves: int, rng: random.Random
) -> int:
    """Up to ``moves`` random moves by the people (bots play the other seats)."""
    made = 0
    deadline = time.monotonic() + 60
    while made < moves and time.monotonic() < deadline:
        progressed = False
        for seat, token in tokens.items():
            state = client.get(f"/api/tables/{table}/state", headers=auth(token)).json()["state"]
            if state["status"] == "finished":
                return made
            if seat in state["to_act"] and state["legal"]:
                got = client.post(
                    f"/api/tables/{table}/actions",
                    json={
                        "action": rng.choice(state["legal"]),
                        "version": state["version"],
                        "client_id": f"{seat}-{uuid.uuid4().hex[:16]}",  # new each move: a
                        # reused id would be answered with its first ack, not played
                    },
                    headers=auth(token),
                )
                if got.status_code == 200:
                    made += 1
                    progressed = True
        if not progressed:
            time.sleep(0.02)
    return made


def _frames(client: TestClient, table: str, token: str | None) -> list[Any]:
    """Every frame a live connection gets from the table's first version on."""
    got: list[Any] = []
    with client.websocket_connect(f"/api/tables/{table}/live") as ws:
        got.append(hello(ws, token, last=0))
        ws.send_json({"type": "ping"})
        for _ in range(500):
            frame = receive(ws)
            got.append(frame)
            if frame.get("type") == "pong":
                break
    return got


def _two_people(client: TestClient, game: str, **body: Any) -> tuple[str, dict[str, str], int]:
    info = get_game(game).info
    n = max(2, info.min_players)
    seats = [{"kind": "open"}] * 2 + [{"kind": "bot", "bot": "random"}] * (n - 2)
    table = new_table(client, game=game, players=n, seats=seats, **body)["id"]
    tokens = {"p1": join(client, table, "p1", "mallory"), "p2": join(client, table, "p2", "alice")}
    return table, tokens, n


@pytest.mark.parametrize("game", HIDDEN_DEALS)
def test_nothing_seen_before_the_end_rebuilds_the_deal(client: TestClient, game: str) -> None:
    """A spectator and seat p1 collect every answer (REST bodies, headers, errors, replays
    at every step, live frames) while the game is on; no number or string in them deals
    the table's cards, as a seed or as the key of the server's derivation."""
    table, tokens, n = _two_people(client, game)
    answers: list[Any] = []
    rng = random.Random(game)
    for _ in range(3):
        _everything(client, table, tokens, answers)
        _play_some(client, table, tokens, 2, rng)
    summary = _everything(client, table, tokens, answers)
    for token in (None, tokens["p1"]):
        answers.extend(_frames(client, table, token))
    assert summary["status"] != "finished", "the game ended before the attack"
    assert summary["actions"] >= 4
    held = client.app.state.service.tables[table]  # type: ignore[attr-defined]
    truth = held.state.initial_setup
    cls = get_game(game)
    options = dict(held.state.options)
    assert not _rebuilds(cls, n, options, truth, answers), "the deal was rebuilt"
    assert summary["deal"] is None and summary["deal_secret"] is None
    # the attack bites: the seed, had it been shown, would have dealt the cards
    assert _rebuilds(cls, n, options, truth, [*answers, dealing.deal_seed(held.secret)])


def test_a_deal_chosen_for_several_players_is_refused(client: TestClient) -> None:
    game = HIDDEN_DEALS[0]
    before = client.get("/api/tables").json()
    got = client.post("/api/tables", json={"game": game, "players": 2, "deal": 11})
    assert got.status_code == 400
    error = got.json()["error"]
    assert error["code"] == "bad_request" and "alone" in error["message"]
    assert client.get("/api/tables").json() == before


def test_a_solo_deal_number_stays_public_and_deals_the_same(client: TestClient) -> None:
    game = solo()
    first = new_table(client, game=game, deal=42)
    again = new_table(client, game=game, deal=42)
    assert first["deal"] == again["deal"] == 42
    assert first["deal_commitment"] is None and first["deal_secret"] is None
    tables = client.app.state.service.tables  # type: ignore[attr-defined]
    setups = [tables[t["id"]].state.initial_setup for t in (first, again)]
    assert setups[0] == setups[1] == get_game(game).new(1, seed=42).initial_setup
    unnamed = new_table(client, game=game)
    assert isinstance(unnamed["deal"], int) and 0 <= unnamed["deal"] < 2**31


async def test_tables_of_several_deal_from_their_own_128_bit_secret(
    service: TableService, database_url: str
) -> None:
    game = HIDDEN_DEALS[0]
    a = await service.create_table(game, 2, [SeatSpec(), SeatSpec()])
    b = await service.create_table(game, 2, [SeatSpec(), SeatSpec()])
    assert a.secret is not None and b.secret is not None
    assert len(a.secret) == len(b.secret) == 16 and a.secret != b.secret
    assert a.seed is None
    cls = get_game(game)
    assert a.state.initial_setup == cls.new(2, seed=dealing.deal_seed(a.secret)).initial_setup
    loaded = service.store.load(a.id)
    assert loaded is not None and loaded.table.deal_secret == a.secret
    assert loaded.table.seed is None
    seeds = {dealing.action_seed(a.secret, k) for k in range(1, 200)}
    assert len(seeds) == 199 and dealing.deal_seed(a.secret) not in seeds
    summary = a.summary()
    assert summary["deal_commitment"] == hashlib.sha256(a.secret).hexdigest()
    assert summary["deal"] is None and summary["deal_secret"] is None


async def _play_to_chance(
    service: TableService, table_id: str, tokens: list[str], upto: int
) -> None:
    """Random moves by the people until action number ``upto`` is stored."""
    rng = random.Random(7)
    for _ in range(400):
        table = await service.table(table_id)
        if table.actions >= upto or table.finished:
            return
        seat = table.state.to_act()[0]
        text = table.state.action_to_string(seat, rng.choice(table.state.legal_actions(seat)))
        await service.act(table_id, tokens[seat], text, table.version, f"c{table.version}")


def _chance_of(record: dict[str, Any]) -> list[list[str]]:
    """Each action's chance lines."""
    out: list[list[str]] = []
    for line in record["actions"]:
        if line.startswith("chance "):
            out[-1].append(line)
        else:
            out.append([])
    return out


async def test_chance_after_the_deal_is_fresh_and_survives_a_restart(
    database_url: str, bot_pool: BotPool
) -> None:
    """Each action's chance comes from the secret and the action's number, not from the
    generator that dealt (whose outputs a player may have seen): so it is not the
    continuation of the state's generator. After a restart the secret comes back from
    the database and chance goes on the same way."""
    game, options = _chancy()
    n = max(2, get_game(game).info.min_players)
    upgrade(database_url)

    async def started() -> TableService:
        svc = TableService(Store(make_engine(database_url)), fast_settings(), bot_pool)
        await svc.start()
        return svc

    first = await started()
    table = await first.create_table(game, n, [SeatSpec() for _ in range(n)], options=options)
    tokens = [(await first.join(table.id, f"p{i + 1}", f"n{i}"))[1] for i in range(n)]
    secret = table.secret
    assert secret is not None
    await _play_to_chance(first, table.id, tokens, 6)
    await first.close()
    first.store.close()
    second = await started()
    try:
        again = await second.table(table.id)
        assert again.secret == secret and again.actions == 6
        await _play_to_chance(second, table.id, tokens, 12)
        # (random moves may end the game by then: the secret shows exactly when it is over)
        assert again.summary()["deal_secret"] == (secret.hex() if again.finished else None)
        record = records.make_record(again.state)
        chances = _chance_of(record)
        assert any(chances), "no action drew chance"
        # every action's chance is what its own derivation draws (checked by replaying)
        assert dealing.verify_record(record, secret.hex()) == again.actions
        # and not what the generator that dealt would have drawn next (the old way)
        replayed = get_game(game).new(n, options, seed=dealing.deal_seed(secret))
        drawn: list[list[str]] = []
        for line in record["actions"]:
            actor, _, text = line.partition(" ")
            if actor == "chance":
                continue
            seat = int(actor[1:]) - 1
            start = len(replayed.history)
            try:
                replayed.apply(seat, replayed.parse_action(seat, text))
            except DecklabError:  # the played game went elsewhere: its chance was other
                drawn.append(["diverged"])
                break
            drawn.append([f"chance {a}" for _, a in replayed.history[start + 1 :]])
        assert drawn != chances[: len(drawn)]
        # a record whose chance was changed does not verify
        k = next(i for i, line in enumerate(record["actions"]) if line.startswith("chance"))
        forged = json.loads(json.dumps(record))
        forged["actions"][k] = records.make_record(replayed)["actions"][k]
        if forged["actions"][k] != record["actions"][k]:
            with pytest.raises(dealing.DealMismatch):
                dealing.verify_record(forged, secret.hex())
    finally:
        await second.close()
        second.store.close()


def test_a_finished_game_reveals_its_secret_which_verifies_the_record(
    client: TestClient, tmp_path: Path
) -> None:
    game = HIDDEN_DEALS[0]
    n = max(2, get_game(game).info.min_players)
    made = new_table(client, game=game, players=n, seats=[{"kind": "bot", "bot": "random"}] * n)
    commitment = made["deal_commitment"]
    deadline = time.monotonic() + 120
    summary = made
    while summary["status"] != "finished" and time.monotonic() < deadline:
        time.sleep(0.05)
        summary = client.get(f"/api/tables/{made['id']}").json()
    assert summary["status"] == "finished"
    secret = summary["deal_secret"]
    assert hashlib.sha256(bytes.fromhex(secret)).hexdigest() == commitment
    record = client.get(f"/api/tables/{made['id']}/record").json()
    assert dealing.verify_record(record, secret, commitment) == summary["actions"]
    tampered = json.loads(json.dumps(record))
    tampered["setup"] = records.make_record(get_game(game).new(n, seed=5))["setup"]
    with pytest.raises(dealing.DealMismatch):
        dealing.verify_record(tampered, secret)
    with pytest.raises(dealing.DealMismatch):
        dealing.verify_record(record, dealing.new_secret().hex())
    with pytest.raises(dealing.DealMismatch):
        dealing.verify_record(record, secret, "0" * 64)
    cut = json.loads(json.dumps(record))
    cut["actions"] = cut["actions"][:-1]
    with pytest.raises(dealing.DealMismatch):
        dealing.verify_record(cut, secret)
    # the same from the command line
    good, bad = tmp_path / "good.json", tmp_path / "bad.json"
    records.save(good, record)
    records.save(bad, tampered)
    runner = CliRunner()
    ok = runner.invoke(cli.app, ["verify-deal", str(good), secret, "--commitment", commitment])
    assert ok.exit_code == 0 and "verified" in ok.output, ok.output
    refused = runner.invoke(cli.app, ["verify-deal", str(bad), secret])
    assert refused.exit_code == 1 and "not verified" in refused.output
