"""New passwords: the 10,000 most common, the username and the site's name are refused
with a message that says why (NIST SP 800-63B 5.1.1.2); long passphrases are welcome."""

from __future__ import annotations

import warnings

import pytest

from decklab.server.accounts.password_policy import common_passwords, refusal, site_names

from .accountdrive import PASSWORD, page, signup

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient


def test_the_list_holds_the_ten_thousand_most_common() -> None:
    common = common_passwords()
    assert len(common) == 10_000
    assert {"password", "12345678", "qwerty", "iloveyou", "baseball"} <= common


@pytest.mark.parametrize(
    ("password", "username", "why"),
    [
        ("password", "", "most common"),
        ("12345678", "", "most common"),
        ("PassWord", "", "most common"),
        ("annabelle1984", "AnnaBelle", "username"),
        ("ANNABELLE!!", "annabelle", "username"),
        ("decklab2026", "", "site's name"),
        ("cards.example", "", "site's name"),
        ("aaaaaaaaaaaa", "", "repeated"),
        ("short", "", "at least 8"),
    ],
)
def test_refused_passwords_say_why(password: str, username: str, why: str) -> None:
    got = refusal(password, username, site_names(("https://cards.example",)))
    assert got is not None and why in got


@pytest.mark.parametrize(
    "password", [PASSWORD, "correct horse battery staple", "7302948561029384", "annabelle rides"]
)
def test_good_passwords_pass(password: str) -> None:
    assert refusal(password, "annabelle") is None


def test_sign_up_and_password_change_refuse_a_common_password(client: TestClient) -> None:
    refused = client.post("/api/account/signup", json={"username": "ann", "password": "password"})
    assert refused.status_code == 400
    assert "most common" in refused.json()["error"]["message"]
    named = client.post("/api/account/signup", json={"username": "ann", "password": "Ann12345"})
    assert named.status_code == 400 and "username" in named.json()["error"]["message"]
    me = signup(client, "ann")
    change = {"current": PASSWORD, "new": "12345678"}
    answer = client.post("/api/account/password", json=change, headers=page(me))
    assert answer.status_code == 400 and "most common" in answer.json()["error"]["message"]
    # nothing changed: the old password still logs in
    client.cookies.clear()
    assert (
        client.post(
            "/api/account/login", json={"username": "ann", "password": PASSWORD}
        ).status_code
        == 200
    )
