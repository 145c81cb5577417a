"""A NUL character in any text of a request is refused with a clear 4xx and changes
nothing: PostgreSQL cannot store one, and before this a login with one was a 503."""

from __future__ import annotations

from starlette.testclient import TestClient

from .games import two_player
from .wsdrive import new_table


def test_a_nul_in_any_request_text_is_a_clear_refusal(client: TestClient) -> None:
    login = client.post("/api/account/login", json={"username": "a\x00b", "password": "x"})
    assert login.status_code in (401, 422), login.text
    assert "error" in login.json()
    signup = client.post("/api/account/signup", json={"username": "a\x00b", "password": "x" * 12})
    assert signup.status_code in (400, 422) and "error" in signup.json()
    table = new_table(client, game=two_player(), players=2)
    joined = client.post(
        f"/api/tables/{table['id']}/join", json={"seat": "p1", "nickname": "n\x00"}
    )
    assert joined.status_code == 422 and joined.json()["error"]["code"]
    seats = client.get(f"/api/tables/{table['id']}").json()["seats"]
    assert all(s["nickname"] is None for s in seats)  # nothing changed
