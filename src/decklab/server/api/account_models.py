"""Request and response bodies of the account routes (kept apart from the tables')."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from decklab.server.api.models import Strict


class Credentials(Strict):
    username: str = Field(min_length=1, max_length=32)
    password: str = Field(min_length=1, max_length=256)


class PasswordChange(Strict):
    current: str = Field(default="", max_length=256)
    new: str = Field(min_length=1, max_length=256)


class DeleteRequest(Strict):
    confirm: str = Field(max_length=32, description="the account's username, typed again")
    password: str | None = Field(default=None, max_length=256)


class Ceremony(Strict):
    ceremony: str = Field(min_length=1, max_length=64)
    credential: dict[str, Any] = Field(description="the browser's PublicKeyCredential as JSON")


class CeremonyOptions(BaseModel):
    ceremony: str
    options: dict[str, Any]


class Me(BaseModel):
    username: str
    csrf: str = Field(description="send it as X-CSRF-Token with every request that changes")
    has_password: bool
    passkeys: int


class Revoked(BaseModel):
    revoked: int


class PasskeyAdded(BaseModel):
    credential_id: str


class SeatClaim(Strict):
    table: str = Field(min_length=1, max_length=32)
    token: str = Field(min_length=1, max_length=100)


class ClaimRequest(Strict):
    seats: list[SeatClaim] = Field(max_length=200)


class ClaimedSeat(BaseModel):
    table: str
    seat: str
    token: str


class Claimed(BaseModel):
    claimed: list[ClaimedSeat]


class MyGames(BaseModel):
    active: list[dict[str, Any]]
    finished: list[dict[str, Any]]
