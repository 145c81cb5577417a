"""``decklab db backup`` / ``restore``: a live database copied and brought back whole."""

from __future__ import annotations

import hashlib
import uuid
from pathlib import Path

import pytest
from starlette.testclient import TestClient
from typer.testing import CliRunner

from decklab.cli import app as cli
from decklab.server.api.app import create_app
from decklab.server.backup import BackupError, backup, has_tables, restore
from decklab.server.bots import BotPool
from decklab.server.store.db import make_engine
from decklab.server.store.queries import Store

from .conftest import fast_settings
from .games import two_player
from .test_metrics import play
from .wsdrive import hello, join, new_table

GAME = two_player()


def fresh_database(request: pytest.FixtureRequest, database_url: str, tmp_path: Path) -> str:
    if database_url.startswith("sqlite"):
        return f"sqlite:///{tmp_path / f'{uuid.uuid4().hex[:8]}.sqlite3'}"
    server = request.getfixturevalue("pg_server")
    url: str = server.create_database(f"r_{uuid.uuid4().hex[:12]}")
    return url


def stored(url: str, table_id: str) -> tuple[object, ...]:
    """What the database holds of a table, as comparable values."""
    store = Store(make_engine(url))
    try:
        loaded = store.load(table_id)
    finally:
        store.close()
    assert loaded is not None
    t = loaded.table
    return (
        (t.game, t.status, t.version, t.seed, t.setup, t.outcome),
        [(s.seat, s.kind, s.nickname, s.token_hash) for s in loaded.seats],
        [(a.seq, a.actor, a.text, a.chance, a.version) for a in loaded.actions],
        [(c.seat, c.text) for c in loaded.chat],
    )


def digest(file: Path) -> str:
    return hashlib.sha256(file.read_bytes()).hexdigest()


def test_backup_while_serving_restores_finished_and_playing_tables(
    request: pytest.FixtureRequest, database_url: str, bot_pool: BotPool, tmp_path: Path
) -> None:
    file = tmp_path / "decklab.backup"
    app = create_app(fast_settings(database_url=database_url), pool=bot_pool)
    with TestClient(app) as client:
        done = new_table(client, game=GAME, players=2)
        done_tokens = [join(client, done["id"], f"p{i}", f"n{i}") for i in (1, 2)]
        play(client, done["id"], done_tokens, 10_000)
        going = new_table(client, game=GAME, players=2)
        tokens = [join(client, going["id"], f"p{i}", f"n{i}") for i in (1, 2)]
        play(client, going["id"], tokens, 3)
        client.post(
            f"/api/tables/{going['id']}/chat",
            json={"text": "good luck"},
            headers={"Authorization": f"Bearer {tokens[0]}"},
        )
        with client.websocket_connect(f"/api/tables/{going['id']}/live") as ws:
            hello(ws, tokens[0])
            backup(database_url, file)  # while the server runs and a seat is connected
        records = {
            t: client.get(f"/api/tables/{t}/record").json() for t in (done["id"], going["id"])
        }
    assert records[done["id"]]["result"] and "viewer" not in records[done["id"]]

    target = fresh_database(request, database_url, tmp_path)
    before = digest(file)
    restore(target, file)
    assert digest(file) == before, "a restore never writes to the backup"
    for table_id in records:
        assert stored(target, table_id) == stored(database_url, table_id)
    with TestClient(create_app(fast_settings(database_url=target), pool=bot_pool)) as client:
        for table_id, record in records.items():
            again = client.get(f"/api/tables/{table_id}/record").json()
            # the date of an unfinished game's record is when it was asked for
            assert {**again, "date": None} == {**record, "date": None}
        summary = client.get(f"/api/tables/{going['id']}").json()
        assert summary["status"] == "playing"


def test_restore_refuses_a_database_with_tables_unless_forced(
    database_url: str, bot_pool: BotPool, tmp_path: Path
) -> None:
    file = tmp_path / "b.backup"
    with TestClient(create_app(fast_settings(database_url=database_url), pool=bot_pool)) as client:
        first = new_table(client, game=GAME, players=2)
        backup(database_url, file)
        later = new_table(client, game=GAME, players=2)
    with pytest.raises(BackupError, match="--force"):
        restore(database_url, file)
    assert has_tables(database_url)
    assert stored(database_url, later["id"])  # nothing changed
    with pytest.raises(BackupError, match="never replaces"):
        backup(database_url, file)
    restore(database_url, file, force=True)
    assert stored(database_url, first["id"])
    store = Store(make_engine(database_url))
    try:
        assert store.load(later["id"]) is None  # the database is the backup's again
    finally:
        store.close()


def test_db_commands_back_up_and_restore(
    request: pytest.FixtureRequest, database_url: str, bot_pool: BotPool, tmp_path: Path
) -> None:
    with TestClient(create_app(fast_settings(database_url=database_url), pool=bot_pool)) as client:
        table = new_table(client, game=GAME, players=2)
    file = tmp_path / "cli.backup"
    runner = CliRunner()
    done = runner.invoke(cli, ["db", "backup", str(file), "--database", database_url])
    assert done.exit_code == 0, done.output
    refused = runner.invoke(cli, ["db", "restore", str(file), "--database", database_url])
    assert refused.exit_code == 1 and "--force" in refused.output
    target = fresh_database(request, database_url, tmp_path)
    done = runner.invoke(cli, ["db", "restore", str(file), "--database", target])
    assert done.exit_code == 0, done.output
    assert stored(target, table["id"]) == stored(database_url, table["id"])
