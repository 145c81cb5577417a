"""Helpers for the account tests: signing up, acting as a logged-in page, playing out."""

from __future__ import annotations

import time
from typing import Any

from starlette.testclient import TestClient

from .wsdrive import auth

PASSWORD = "correct horse battery staple"


def signup(client: TestClient, username: str, password: str = PASSWORD) -> dict[str, Any]:
    answer = client.post("/api/account/signup", json={"username": username, "password": password})
    assert answer.status_code == 201, answer.text
    me: dict[str, Any] = answer.json()
    return me


def login(client: TestClient, username: str, password: str = PASSWORD) -> dict[str, Any]:
    answer = client.post("/api/account/login", json={"username": username, "password": password})
    assert answer.status_code == 200, answer.text
    me: dict[str, Any] = answer.json()
    return me


def page(me: dict[str, Any], **more: str) -> dict[str, str]:
    """The headers this site's own page sends with a change: its CSRF token, its origin."""
    return {"x-csrf-token": me["csrf"], "origin": "http://testserver", **more}


def play_out(
    client: TestClient,
    table: str,
    token: str,
    me: dict[str, Any] | None = None,
    limit_s: float = 120,
) -> dict[str, Any]:
    """Play the token's seat (first legal action) until the game ends (bots move alone);
    ``me``: the client is logged in, and sends its page's CSRF header."""
    extra = page(me) if me is not None else {}
    deadline, i = time.monotonic() + limit_s, 0
    while time.monotonic() < deadline:
        i += 1
        sync: dict[str, Any] = client.get(f"/api/tables/{table}/state", headers=auth(token)).json()
        if sync["state"]["status"] == "finished":
            return sync
        if sync["state"]["legal"]:
            body = {
                "action": sync["state"]["legal"][0],
                "version": sync["version"],
                "client_id": f"m{i}",
            }
            client.post(f"/api/tables/{table}/actions", json=body, headers=auth(token) | extra)
        else:
            time.sleep(0.01)
    raise AssertionError("the game did not end in time")
