"""``/metrics``: Prometheus's format, figures that move with play, and nothing secret in it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from prometheus_client.parser import text_string_to_metric_families
from starlette.testclient import TestClient

from decklab.server.api.app import create_app
from decklab.server.bots import BotPool

from .conftest import fast_settings
from .games import two_player
from .wsdrive import auth, hello, join, new_table

GAME = two_player()
Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


def scrape(client: TestClient) -> Samples:
    answer = client.get("/metrics")
    assert answer.status_code == 200, answer.text
    assert answer.headers["content-type"].startswith("text/plain")
    out: Samples = {}
    for family in text_string_to_metric_families(answer.text):
        for sample in family.samples:
            out[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return out


def play(client: TestClient, table_id: str, tokens: list[str], moves: int) -> list[str]:
    """``moves`` moves through REST, each by the seat to act; returns their texts."""
    played = []
    for n in range(moves):
        state = client.get(f"/api/tables/{table_id}/state", headers=auth(tokens[0])).json()
        if state["state"]["status"] != "playing":
            break
        seat = int(state["state"]["to_act"][0][1:]) - 1
        mine = client.get(f"/api/tables/{table_id}/state", headers=auth(tokens[seat])).json()
        action = mine["state"]["legal"][0]
        body = {"action": action, "version": mine["version"], "client_id": f"m{n}"}
        answer = client.post(
            f"/api/tables/{table_id}/actions", json=body, headers=auth(tokens[seat])
        )
        assert answer.status_code == 200, answer.text
        played.append(action)
    return played


@pytest.fixture
def sqlite_client(tmp_path: object, bot_pool: BotPool) -> Iterator[TestClient]:
    app = create_app(fast_settings(database_url=f"sqlite:///{tmp_path}/m.sqlite3"), pool=bot_pool)
    with TestClient(app, base_url="http://testserver") as client:
        yield client


def test_metrics_count_moves_latency_connections_errors_and_requests(
    sqlite_client: TestClient,
) -> None:
    client = sqlite_client
    table = new_table(client, game=GAME, players=2)
    tokens = [join(client, table["id"], f"p{i}", f"n{i}") for i in (1, 2)]
    before = scrape(client)
    with client.websocket_connect(f"/api/tables/{table['id']}/live") as ws:
        hello(ws, tokens[0])
        during = scrape(client)
        assert during[("decklab_connections", ())] >= 1
        assert during[("decklab_tables_playing", ())] >= 1
        assert during[("decklab_tables_in_memory", ())] >= 1
        played = play(client, table["id"], tokens, 3)
    assert len(played) == 3
    stale = {"action": played[0], "version": 0, "client_id": "late"}
    refused = client.post(f"/api/tables/{table['id']}/actions", json=stale, headers=auth(tokens[0]))
    assert refused.status_code == 409
    after = scrape(client)

    def grew(name: str, **labels: str) -> float:
        key = (name, tuple(sorted(labels.items())))
        return after.get(key, 0.0) - before.get(key, 0.0)

    assert grew("decklab_moves_total", game=GAME) == 3
    assert grew("decklab_move_latency_seconds_count") == 3
    assert grew("decklab_move_latency_seconds_sum") > 0
    assert grew("decklab_errors_total", code="stale") == 1
    assert (
        grew("decklab_http_requests_total", route="/api/tables/{table_id}/actions", status="200")
        == 3
    )
    assert ("decklab_bot_queue", ()) in after
    assert any(name == "decklab_process_info" for name, _ in after)


def test_metrics_hold_no_token_table_id_or_action(sqlite_client: TestClient) -> None:
    client = sqlite_client
    table = new_table(client, game=GAME, players=2)
    tokens = [join(client, table["id"], f"p{i}", f"n{i}") for i in (1, 2)]
    played = play(client, table["id"], tokens, 2)
    client.get("/api/tables/secret-looking-path-xyz", headers=auth(tokens[0]))
    text = client.get("/metrics").text
    for secret in [*tokens, table["id"], "secret-looking-path-xyz", *played]:
        assert secret not in text


def test_metrics_can_be_switched_off(tmp_path: object, bot_pool: BotPool) -> None:
    settings = fast_settings(database_url=f"sqlite:///{tmp_path}/off.sqlite3", metrics=False)
    with TestClient(create_app(settings, pool=bot_pool)) as client:
        answer = client.get("/metrics")
    assert answer.status_code == 404
    assert answer.json()["error"]["code"] == "not_found"
