"""The hint a solo seat gets explains itself: the game's words, the runner-up and its
difference, beside the bot's own figures; and the levels are bot specs a table accepts."""

from __future__ import annotations

import json
import re

import pytest
from starlette.testclient import TestClient

from decklab.bots.levels import LEVELS
from decklab.server.api.app import create_app
from decklab.server.bots import BotPool

from .conftest import fast_settings
from .games import solo, two_player
from .wsdrive import auth, hello, join, new_table, until

URL = "/api/tables/{}/live"
CARD = re.compile(r"\b(?:10|[2-9TJQKA])[CDHS]\b")


def test_the_hint_carries_its_explanation_and_runner_up(client: TestClient) -> None:
    table = new_table(client, game=solo(), deal=4)
    token = join(client, table["id"], "p1", "solo player")
    sync = client.get(f"/api/tables/{table['id']}/state", headers=auth(token)).json()
    answer = client.get(f"/api/tables/{table['id']}/hint", headers=auth(token))
    assert answer.status_code == 200, answer.text
    got = answer.json()
    assert got["action"] in sync["state"]["legal"] and got["reason"]
    assert got["explanation"] and got["explanation"] != got["reason"]
    if got["runner_up"]:
        assert got["runner_up"] in sync["state"]["legal"]
        assert isinstance(got["margin"], float) and got["runner_up"] != got["action"]
    # only cards the seat may see: the explanation comes from the seat's view
    visible = json.dumps(sync["state"]["view"])
    assert all(card in visible for card in CARD.findall(got["explanation"]))
    with client.websocket_connect(URL.format(table["id"])) as ws:
        hello(ws, token)
        ws.send_json({"type": "hint", "client_id": "h1"})
        frame = until(ws, lambda f: f["type"] == "hint")
    assert {"explanation", "runner_up", "margin", "unit"} <= set(frame)
    assert frame["explanation"] == got["explanation"] or frame["explanation"]


@pytest.mark.parametrize("level", list(LEVELS))
def test_every_level_is_a_bot_a_table_accepts(client: TestClient, level: str) -> None:
    table = new_table(
        client,
        game=two_player(),
        players=2,
        seats=[{"kind": "open"}, {"kind": "bot", "bot": level}],
    )
    seats = client.get(f"/api/tables/{table['id']}").json()["seats"]
    assert any(s.get("bot") == level for s in seats), seats


@pytest.mark.parametrize("spec", ["ismcts:seed=3,iters=32", "pimc:seed=3,iters=32,dets=4"])
def test_a_plain_search_as_hint_agent_explains_its_hint_too(
    database_url: str, bot_pool: BotPool, spec: str
) -> None:
    """The server's hint agent is a setting (``hint_spec``): a plain search explains its hint
    as the expert does, so the frame (and the browser, which shows its fields) says why."""
    settings = fast_settings(database_url=database_url, hint_spec=spec)
    app = create_app(settings, pool=bot_pool, heavy_pool=bot_pool)
    with TestClient(app, base_url="http://testserver") as client:
        table = new_table(client, game=solo(), deal=4)
        token = join(client, table["id"], "p1", "solo player")
        sync = client.get(f"/api/tables/{table['id']}/state", headers=auth(token)).json()
        with client.websocket_connect(URL.format(table["id"])) as ws:
            hello(ws, token)
            ws.send_json({"type": "hint", "client_id": "h1"})
            frame = until(ws, lambda f: f["type"] == "hint")
    assert frame["reason"].startswith(spec.split(":")[0].upper())  # the search's own figures
    assert frame["explanation"] and frame["explanation"] != frame["reason"]
    assert frame["runner_up"] in sync["state"]["legal"] and frame["runner_up"] != frame["action"]
    assert isinstance(frame["margin"], float) and frame["unit"] == ""
    assert "sampled games than" in frame["explanation"] or "as good as" in frame["explanation"]
