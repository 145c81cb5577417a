"""``--access-log``: a JSON line per request, with no header value and no query string."""

from __future__ import annotations

import io
import json
import logging
from pathlib import Path

from starlette.testclient import TestClient

from decklab.server.api.app import create_app
from decklab.server.bots import BotPool
from decklab.server.logs import JsonFormatter

from .conftest import fast_settings


def _lines(tmp_path: Path, bot_pool: BotPool, access_log: bool) -> list[dict[str, object]]:
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.setFormatter(JsonFormatter())
    logger = logging.getLogger("decklab.access")
    logger.addHandler(handler)
    try:
        url = f"sqlite:///{tmp_path}/a.sqlite3"
        settings = fast_settings(database_url=url, access_log=access_log)
        with TestClient(create_app(settings, pool=bot_pool)) as client:
            answer = client.get(
                "/api/tables/nope?token=query-secret",
                headers={"Authorization": "Bearer header-secret-token"},
            )
            assert answer.status_code in (403, 404)
    finally:
        logger.removeHandler(handler)
    text = out.getvalue()
    assert "header-secret-token" not in text and "query-secret" not in text
    return [json.loads(line) for line in text.splitlines()]


def test_access_log_writes_a_json_line_per_request_without_secrets(
    tmp_path: Path, bot_pool: BotPool
) -> None:
    lines = _lines(tmp_path, bot_pool, access_log=True)
    line = next(x for x in lines if x.get("path") == "/api/tables/nope")
    assert line["method"] == "GET" and line["status"] in (403, 404)
    assert line["logger"] == "decklab.access" and isinstance(line["ms"], float)
    assert line["client"]


def test_access_log_is_off_by_default(tmp_path: Path, bot_pool: BotPool) -> None:
    assert _lines(tmp_path, bot_pool, access_log=False) == []
