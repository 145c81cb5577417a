"""The hint a solo seat gets explains itself: the game's words, the runner-up and its
difference, beside the bot's own figures; and the levels are bot specs a table accepts."""

from __future__ import annotations

import json
import re

import pytest
from starlette.testclient import TestClient

from decklab.bots.levels import LEVELS

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
