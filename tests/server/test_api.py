"""The REST side through the real application: routes, tokens, records, replay, hygiene."""

from __future__ import annotations

import time

from starlette.testclient import TestClient

from decklab.engine import records
from decklab.engine.registry import game_names, get_game

from .games import solo, two_player
from .wsdrive import auth, join, new_table

GAME = two_player()


def test_games_list_every_game_with_its_options(client: TestClient) -> None:
    answer = client.get("/api/games")
    assert answer.status_code == 200
    got = {g["name"]: g for g in answer.json()}
    assert set(got) == set(game_names())
    for name, spec in got.items():
        info = get_game(name).info
        assert spec["min_players"] == info.min_players
        assert [o["name"] for o in spec["options"]] == [o.name for o in info.options]


def test_security_headers_on_every_response(client: TestClient) -> None:
    for answer in [
        client.get("/api/games"),
        client.get("/api/tables/nope"),
        client.post("/api/tables", json={"game": 5}),
        client.get("/openapi.json"),
    ]:
        csp = answer.headers["content-security-policy"]
        assert "frame-ancestors 'none'" in csp and "unsafe-inline" not in csp
        assert "script-src 'self'" in csp
        assert answer.headers["x-content-type-options"] == "nosniff"


def test_oversized_body_refused(client: TestClient) -> None:
    answer = client.post(
        "/api/tables",
        content=b"{" + b" " * 70000 + b"}",
        headers={"content-type": "application/json"},
    )
    assert answer.status_code == 413
    assert answer.json()["error"]["code"] == "too_large"


def test_create_join_play_record_replay(client: TestClient) -> None:
    table = new_table(client, game=GAME, players=2)
    assert table["status"] == "waiting" and table["deal"] is None  # a deal only alone
    assert len(table["deal_commitment"]) == 64 and table["deal_secret"] is None
    assert any(t["id"] == table["id"] for t in client.get("/api/tables").json())
    tokens = [join(client, table["id"], f"p{i}", f"n{i}") for i in (1, 2)]
    # a taken seat, a forged token, a spectator acting: refused, nothing changes
    assert (
        client.post(
            f"/api/tables/{table['id']}/join", json={"seat": "p1", "nickname": "x"}
        ).status_code
        == 409
    )
    sync = client.get(f"/api/tables/{table['id']}/state", headers=auth(tokens[0])).json()
    state = sync["state"]
    seat = int(state["to_act"][0][1:]) - 1
    body = {"action": "nonsense", "version": state["version"], "client_id": "a"}
    assert (
        client.post(
            f"/api/tables/{table['id']}/actions", json=body, headers=auth("x" * 43)
        ).status_code
        == 403
    )
    assert client.post(f"/api/tables/{table['id']}/actions", json=body).status_code == 403
    # play the game out through REST
    moves = 0
    while True:
        sync = client.get(f"/api/tables/{table['id']}/state", headers=auth(tokens[seat])).json()
        state = sync["state"]
        if state["status"] == "finished":
            break
        seat = int(state["to_act"][0][1:]) - 1
        sync = client.get(f"/api/tables/{table['id']}/state", headers=auth(tokens[seat])).json()
        legal = sync["state"]["legal"]
        assert legal
        body = {"action": legal[0], "version": sync["version"], "client_id": f"m{moves}"}
        answer = client.post(
            f"/api/tables/{table['id']}/actions", json=body, headers=auth(tokens[seat])
        )
        assert answer.status_code == 200, answer.text
        assert answer.json()["version"] == sync["version"] + 1
        moves += 1
        if moves == 3:
            # during play: the record is the asker's redacted copy
            mine = client.get(f"/api/tables/{table['id']}/record", headers=auth(tokens[0])).json()
            assert mine["viewer"] == "p1"
            spectator = client.get(f"/api/tables/{table['id']}/record").json()
            assert spectator["viewer"] == "spectator"
            assert (
                client.get(
                    f"/api/tables/{table['id']}/replay",
                    params={"step": 2, "seat": "p2"},
                    headers=auth(tokens[0]),
                ).status_code
                == 403
            )
    full = client.get(f"/api/tables/{table['id']}/record").json()
    assert "viewer" not in full
    state_after, applied = records.replay(full)
    assert applied == moves and state_after.is_terminal()
    replay = client.get(
        f"/api/tables/{table['id']}/replay", params={"step": 2, "seat": "p2"}
    ).json()
    assert replay["step"] == 2 and replay["viewer"] == "p2"
    before, _ = records.replay(full, limit=_line_of_action(full, 2))
    assert replay["view"] == before.view(1)
    assert (
        client.get(f"/api/tables/{table['id']}/replay", params={"step": 10**5}).status_code == 400
    )


def _line_of_action(record: dict, k: int) -> int:
    """The number of record lines that hold the first ``k`` actions (chance lines included)."""
    count = 0
    for i, line in enumerate(record["actions"]):
        if not line.startswith("chance"):
            if count == k:
                return i
            count += 1
    return len(record["actions"])


def test_play_again_keeps_the_seats(client: TestClient) -> None:
    table = new_table(
        client, game=GAME, players=2, seats=[{"kind": "open"}, {"kind": "bot", "bot": "random"}]
    )
    token = join(client, table["id"], "p1")
    deadline, i = time.monotonic() + 120, 0  # the bot's turns take what they take
    while time.monotonic() < deadline:
        i += 1
        sync = client.get(f"/api/tables/{table['id']}/state", headers=auth(token)).json()
        if sync["state"]["status"] == "finished":
            break
        if sync["state"]["legal"]:
            body = {
                "action": sync["state"]["legal"][-1],
                "version": sync["version"],
                "client_id": f"m{i}",
            }
            client.post(f"/api/tables/{table['id']}/actions", json=body, headers=auth(token))
        else:
            time.sleep(0.01)
    assert sync["state"]["status"] == "finished"
    again = client.post(f"/api/tables/{table['id']}/again", headers=auth(token))
    assert again.status_code == 200, again.text
    new = again.json()
    assert new["previous"] == table["id"] and new["status"] == "playing"
    assert [s["kind"] for s in new["seats"]] == ["human", "bot"]
    # the same token holds the same seat at the new table
    sync = client.get(f"/api/tables/{new['id']}/state", headers=auth(token)).json()
    assert sync["state"]["seat"] == "p1"
    assert client.get(f"/api/tables/{table['id']}").json()["next"] == new["id"]


def test_solo_undo_hint_and_stats(client: TestClient) -> None:
    game = solo()
    table = new_table(client, game=game, deal=4)
    token = join(client, table["id"], "p1", "solo player")
    sync = client.get(f"/api/tables/{table['id']}/state", headers=auth(token)).json()
    assert sync["state"]["can_undo"] is False
    hint = client.get(f"/api/tables/{table['id']}/hint", headers=auth(token))
    assert hint.status_code == 200, hint.text
    assert hint.json()["action"] in sync["state"]["legal"] and hint.json()["reason"]
    first_view = sync["state"]["view"]
    body = {"action": hint.json()["action"], "version": sync["version"], "client_id": "h"}
    assert (
        client.post(
            f"/api/tables/{table['id']}/actions", json=body, headers=auth(token)
        ).status_code
        == 200
    )
    sync = client.get(f"/api/tables/{table['id']}/state", headers=auth(token)).json()
    assert sync["state"]["can_undo"] is True
    undone = client.post(
        f"/api/tables/{table['id']}/undo", json={"version": sync["version"]}, headers=auth(token)
    )
    assert undone.status_code == 200, undone.text
    sync = client.get(f"/api/tables/{table['id']}/state", headers=auth(token)).json()
    assert sync["state"]["view"] == first_view and sync["version"] == undone.json()["version"]
    assert client.get(f"/api/tables/{table['id']}").json()["actions"] == 0
    # play to the end: the statistics of the nickname count it
    for i in range(400):
        sync = client.get(f"/api/tables/{table['id']}/state", headers=auth(token)).json()
        if sync["state"]["status"] == "finished":
            break
        body = {
            "action": sync["state"]["legal"][0],
            "version": sync["version"],
            "client_id": f"m{i}",
        }
        client.post(f"/api/tables/{table['id']}/actions", json=body, headers=auth(token))
    assert (
        client.post(
            f"/api/tables/{table['id']}/undo",
            json={"version": sync["version"]},
            headers=auth(token),
        ).status_code
        == 409
    )
    stats = client.get("/api/stats/solo player").json()["games"][game]
    assert stats["games"] == 1 and stats["deals"][0]["deal"] == 4
    # a game with others has no undo and no hint
    multi = new_table(client, game=GAME, players=2)
    other = join(client, multi["id"], "p1")
    assert client.get(f"/api/tables/{multi['id']}/hint", headers=auth(other)).status_code == 409


def test_table_creation_rate_limited_per_address(client: TestClient) -> None:
    codes = [
        client.post("/api/tables", json={"game": GAME, "players": 2}).status_code for _ in range(32)
    ]
    assert codes.count(201) == 30 and codes[-1] == 429
