"""Retention: chat and finished tables past their days are deleted, and nothing else."""

from __future__ import annotations

import datetime as _dt
import time

from sqlalchemy import select
from starlette.testclient import TestClient

from decklab.server import retention
from decklab.server.api.app import create_app
from decklab.server.bots import BotPool
from decklab.server.config import Settings
from decklab.server.store.db import make_engine, upgrade
from decklab.server.store.models import ActionRow, ChatRow, SeatRow, TableRow
from decklab.server.store.queries import Store

from .conftest import fast_settings

NOW = _dt.datetime.now(_dt.UTC)


def _table(
    store: Store, table_id: str, status: str, days_old: float, chat_days: list[float]
) -> None:
    """A table row (not a playable game: only what retention reads) aged by hand."""
    when = NOW - _dt.timedelta(days=days_old)
    with store.sessions.begin() as db:
        db.add(
            TableRow(
                id=table_id,
                game="g",
                game_version=1,
                num_players=2,
                options={},
                setup={},
                seed=1,
                version=3,
                status=status,
                public=True,
                created_at=when,
                updated_at=when,
            )
        )
        db.flush()
        db.add(SeatRow(table_id=table_id, seat=0, kind="open"))
        db.add(
            ActionRow(
                table_id=table_id, seq=1, actor=0, text="x", chance=[], version=2, created_at=when
            )
        )
        for n, days in enumerate(chat_days):
            db.add(
                ChatRow(
                    table_id=table_id,
                    seat=0,
                    nickname="ann",
                    text=f"line {n}",
                    created_at=NOW - _dt.timedelta(days=days),
                )
            )


def _ids(store: Store, model: type) -> list[object]:
    with store.sessions() as db:
        if model is ChatRow:
            return sorted(db.scalars(select(ChatRow.text)))
        return sorted(db.scalars(select(model.table_id if model is not TableRow else TableRow.id)))


def test_sweep_deletes_old_chat_and_old_finished_tables_only(database_url: str) -> None:
    upgrade(database_url)
    store = Store(make_engine(database_url))
    try:
        _table(store, "oldfinished", "finished", 100, [100])
        _table(store, "newfinished", "finished", 10, [40, 1])
        _table(store, "oldplaying", "playing", 100, [])
        settings = Settings(chat_retention_days=30, finished_retention_days=90)
        swept = retention.sweep(store, settings, NOW)
        assert swept.tables == 1
        assert _ids(store, TableRow) == ["newfinished", "oldplaying"]
        assert _ids(store, SeatRow) == ["newfinished", "oldplaying"]
        assert _ids(store, ActionRow) == ["newfinished", "oldplaying"]
        assert _ids(store, ChatRow) == ["line 1"]
        # 0 keeps everything
        assert retention.sweep(store, Settings(), NOW + _dt.timedelta(days=999)).tables == 0
        assert len(_ids(store, TableRow)) == 2
    finally:
        store.close()


def test_server_sweeps_on_start(database_url: str, bot_pool: BotPool) -> None:
    upgrade(database_url)
    store = Store(make_engine(database_url))
    try:
        _table(store, "ancient", "finished", 400, [400])
        settings = fast_settings(database_url=database_url, finished_retention_days=365)
        with TestClient(create_app(settings, pool=bot_pool)):
            deadline = time.monotonic() + 10
            while _ids(store, TableRow) and time.monotonic() < deadline:
                time.sleep(0.05)
        assert _ids(store, TableRow) == []
        assert _ids(store, ChatRow) == []
    finally:
        store.close()
