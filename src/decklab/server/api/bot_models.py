"""Request and response bodies of the bot API and of personal API tokens."""

from __future__ import annotations

from pydantic import BaseModel, Field

from decklab.server.api.models import Strict


class TokenRequest(Strict):
    label: str = Field(min_length=1, max_length=64, description="what the token is for")


class TokenOut(BaseModel):
    id: int
    label: str
    created_at: str
    last_used_at: str | None


class NewToken(TokenOut):
    token: str = Field(description="the API token: keep it, it is shown only this once")


class BotAccount(BaseModel):
    username: str
    bot: bool


class BotJoin(Strict):
    seat: str = Field(max_length=8)


class BotJoined(BaseModel):
    table: str
    seat: str


class BotMove(Strict):
    action: str = Field(min_length=1, max_length=200, description="the action's canonical text")
    version: int = Field(ge=0, le=2**31, description="the table's version it was chosen at")
    client_id: str | None = Field(
        default=None,
        min_length=1,
        max_length=64,
        description="makes a resent move count once (default: one per version)",
    )
