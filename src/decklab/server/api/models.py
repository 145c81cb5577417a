"""Request and response bodies of the REST API (they make the OpenAPI document)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class OptionSpec(BaseModel):
    name: str
    help: str
    kind: str
    default: Any = None
    default_text: str
    minimum: int | None = None
    maximum: int | None = None
    choices: list[Any] | None = None
    nullable: bool


class GameSpec(BaseModel):
    name: str
    title: str
    version: int
    summary: str
    min_players: int
    max_players: int
    default_players: int
    solo: bool
    simultaneous: bool
    hidden_information: bool
    lower_is_better: bool
    score_unit: str
    options: list[OptionSpec]


class SeatRequest(Strict):
    """``open`` for a person to join, or ``bot`` with an agent spec (``greedy``, ``expert``…)."""

    kind: Literal["open", "bot"] = "open"
    bot: str | None = Field(default=None, max_length=200)


class ClockRequest(Strict):
    base_s: float = Field(ge=1, le=86400)
    increment_s: float = Field(default=0, ge=0, le=3600)
    on_timeout: Literal["bot", "forfeit"] = "bot"


class CreateTable(Strict):
    game: str = Field(max_length=64)
    players: int | None = Field(default=None, ge=1, le=64)
    options: dict[str, str | int | bool | None] = Field(default_factory=dict, max_length=32)
    seats: list[SeatRequest] = Field(default_factory=list, max_length=64)
    public: bool = True
    clock: ClockRequest | None = None
    deal: int | None = Field(
        default=None,
        ge=0,
        le=2**62 - 1,
        description="a game played alone: its deal number (refused at a table of several)",
    )
    rated: bool = Field(
        default=False,
        description="a rated table: only accounts may take its seats; its end updates ratings",
    )


class SeatPublic(BaseModel):
    seat: str
    kind: str
    nickname: str | None
    bot: str | None
    zombie: bool
    present: bool


class TableSummary(BaseModel):
    id: str
    game: str
    players: int
    options: dict[str, Any]
    status: str
    public: bool
    version: int
    actions: int
    clock: dict[str, Any] | None
    deal: int | None = Field(description="a game played alone: its public deal number")
    deal_commitment: str | None = Field(
        default=None, description="a table of several: SHA-256 (hex) of its deal secret"
    )
    deal_secret: str | None = Field(
        default=None,
        description="a table of several, once finished: the deal secret (hex), to verify it",
    )
    seats: list[SeatPublic]
    outcome: dict[str, Any] | None
    previous: str | None
    next: str | None
    rated: bool = False


class PublicSeat(BaseModel):
    seat: str
    kind: str
    nickname: str | None
    bot: str | None


class PublicTable(BaseModel):
    id: str
    game: str
    players: int
    status: str
    rated: bool = False
    open_seats: list[str]
    seats: list[PublicSeat]


class JoinRequest(Strict):
    seat: str = Field(max_length=8)
    nickname: str = Field(min_length=1, max_length=32)


class JoinResult(BaseModel):
    table: str
    seat: str
    token: str = Field(description="the seat token: keep it, it is shown only once")


class Intent(Strict):
    action: str = Field(min_length=1, max_length=200)
    version: int = Field(ge=0, le=2**31)
    client_id: str = Field(min_length=1, max_length=64)


class UndoRequest(Strict):
    version: int = Field(ge=0, le=2**31)


class Ack(BaseModel):
    version: int


class ChatRequest(Strict):
    text: str = Field(min_length=1, max_length=2000)


class ChatOut(BaseModel):
    id: int
    seat: str
    nickname: str
    text: str
    at: str


class HintOut(BaseModel):
    action: str
    reason: str
    version: int


class ErrorBody(BaseModel):
    code: str
    message: str


class ErrorOut(BaseModel):
    error: ErrorBody
