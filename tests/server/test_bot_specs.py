"""The server seats built-in bots only: a client never makes it import code it names."""

from __future__ import annotations

from pathlib import Path

from starlette.testclient import TestClient

from .games import two_player


def test_python_policy_spec_refused_with_400_and_never_imported(
    client: TestClient, tmp_path: Path
) -> None:
    """``python:`` specs play in the lab; at a server they would run any module a client names."""
    marker = tmp_path / "imported"
    module = tmp_path / "evil.py"
    module.write_text(
        f"open({str(marker)!r}, 'w').close()\n"
        "def policy(view, legal, seat, rng):\n    return legal[0]\n"
    )
    before = client.get("/api/tables").json()
    for spec in (f"python:{module}:policy", "python:os:system", "PYTHON:decklab.bots:make_agent"):
        answer = client.post(
            "/api/tables",
            json={
                "game": two_player(),
                "players": 2,
                "seats": [{"kind": "open"}, {"kind": "bot", "bot": spec}],
            },
        )
        assert answer.status_code == 400, answer.text
        error = answer.json()["error"]
        assert error["code"] == "bad_request"
        assert "python" in error["message"].lower() and "code" in error["message"]
    assert not marker.exists()
    assert client.get("/api/tables").json() == before
