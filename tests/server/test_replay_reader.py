"""A finished table shows every seat's side to everyone ("What everyone held", replays):
the layout must say "you" only of the person asking, never of the seat shown."""

from __future__ import annotations

import time

import pytest
from starlette.testclient import TestClient

from decklab.engine.registry import game_names, get_game

from .wsdrive import auth, join, new_table

# games whose layout speaks to its reader ("(you)", "Your hand"), at their smallest table
GAMES = [g for g in game_names() if get_game(g).info.max_players > 1]


def _play_out(client: TestClient, table: str, token: str) -> None:
    deadline, i = time.monotonic() + 180, 0
    while time.monotonic() < deadline:
        i += 1
        sync = client.get(f"/api/tables/{table}/state", headers=auth(token)).json()
        if sync["state"]["status"] == "finished":
            return
        if sync["state"]["legal"]:
            body = {
                "action": sync["state"]["legal"][0],
                "version": sync["version"],
                "client_id": f"m{i}",
            }
            client.post(f"/api/tables/{table}/actions", json=body, headers=auth(token))
        else:
            time.sleep(0.01)
    raise AssertionError("the game did not end")


def _titles(layout: dict) -> list[tuple[str | None, str]]:
    """(owner, title) of every row and zone of a layout."""
    out = []
    for row in layout["rows"]:
        out.append((row.get("owner"), row.get("title") or ""))
        out.extend((zone.get("owner"), zone.get("title") or "") for zone in row["zones"])
    return out


def _spoken_to(layout: dict) -> set[str | None]:
    """The owners of the rows and zones whose titles say "you"."""
    return {
        owner for owner, title in _titles(layout) if "(you)" in title or title.startswith("Your ")
    }


@pytest.mark.parametrize("game", GAMES)
def test_a_seat_shown_to_someone_else_is_not_called_you(client: TestClient, game: str) -> None:
    info = get_game(game).info
    n = info.min_players
    seats = [{"kind": "open"}] + [{"kind": "bot", "bot": "greedy"}] * (n - 1)
    table = new_table(client, game=game, players=n, seats=seats, options=_short(game))
    token = join(client, table["id"], "p1")
    _play_out(client, table["id"], token)
    last = client.get(f"/api/tables/{table['id']}").json()["actions"]

    def layout(seat: str, asker: str | None) -> dict:
        answer = client.get(
            f"/api/tables/{table['id']}/replay",
            params={"step": last, "seat": seat},
            headers=auth(asker) if asker else {},
        )
        assert answer.status_code == 200, answer.text
        got: dict = answer.json()["layout"]
        return got

    assert _spoken_to(layout("p1", token)) == {"p1"}  # the asker's own side speaks to them
    assert _spoken_to(layout("p2", token)) <= {"p1"}  # p2's side: "you" is p1 or nobody
    assert _spoken_to(layout("p1", None)) == set()  # a stranger is nobody at the table
    assert not any(t.startswith("Your ") for _, t in _titles(layout("p2", token)))


def _short(game: str) -> dict:
    """The shortest game the options allow, so that bots finish it quickly."""
    info = get_game(game).info
    options: dict = {}
    for option in info.options:
        if option.name in {"rounds", "games", "stall_rounds", "max_rounds"}:
            low = getattr(option, "minimum", None)
            if isinstance(low, int):
                options[option.name] = low
    return options
