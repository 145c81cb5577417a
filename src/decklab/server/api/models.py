"""Request and response bodies of the REST API (they make the OpenAPI document)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator


def _has_nul(value: Any) -> bool:
    if isinstance(value, str):
        return "\x00" in value
    if isinstance(value, dict):
        return any(_has_nul(k) or _has_nul(v) for k, v in value.items())
    if isinstance(value, list | tuple):
        return any(_has_nul(v) for v in value)
    if isinstance(value, BaseModel):
        return any(_has_nul(v) for _, v in value)
    return False


class Strict(BaseModel):
    """A request body: no field it does not name, and no NUL character in any text.

    No text a person types holds a NUL, and PostgreSQL cannot store one: refused here
    (422), it never reaches the database as a 503."""

    model_config = ConfigDict(extra="forbid")

    @model_validator(mode="after")
    def _no_nul(self) -> Strict:
        if _has_nul(dict(self)):
            raise ValueError("text may not contain a NUL character")
        return self


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
    """``open`` for a person to join, ``bot`` with an agent spec (``greedy``, ``expert``…),
    or ``account`` with a bot account's ``name`` (its program plays through the bot API)."""

    kind: Literal["open", "bot", "account"] = "open"
    bot: str | None = Field(default=None, max_length=200)
    name: str | None = Field(default=None, max_length=32)


class ClockRequest(Strict):
    base_s: float = Field(ge=1, le=86400)
    increment_s: float = Field(default=0, ge=0, le=3600)
    on_timeout: Literal["bot", "forfeit"] = "bot"


class TurnRequest(Strict):
    """A turn-based table: ``move_s`` seconds (1 minute to 30 days) for each move, then
    ``on_deadline``: a bot plays the move, the seat is skipped (where the rules have a
    way to skip; else a bot plays), or the seat forfeits."""

    move_s: float = Field(ge=60, le=30 * 24 * 3600)
    on_deadline: Literal["bot", "skip", "forfeit"] = "bot"


class CreateTable(Strict):
    game: str = Field(max_length=64)
    players: int | None = Field(default=None, ge=1, le=64)
    options: dict[str, str | int | bool | None] = Field(default_factory=dict, max_length=32)
    seats: list[SeatRequest] = Field(default_factory=list, max_length=64)
    public: bool = True
    clock: ClockRequest | None = None
    turn: TurnRequest | None = None
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
    bot_account: bool = Field(
        default=False, description="held by a bot account, playing through the bot API"
    )
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
    turn: dict[str, Any] | None = Field(
        default=None, description="a turn-based table: move_ms, on_deadline, each deadline"
    )
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
    creator_token: str | None = Field(
        default=None,
        description="only in the answer that created the table: the creator's token "
        "(POST /api/tables/{id}/seats/{seat}/remove before the start)",
    )


class PublicSeat(BaseModel):
    seat: str
    kind: str
    nickname: str | None
    bot: str | None
    bot_account: bool = False


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
    """The expert's move; ``explanation`` in the game's words, ``reason`` its figures;
    ``runner_up`` the next best move and ``margin`` by how much (in ``unit``, or a
    share of sampled games won when ``unit`` is empty)."""

    action: str
    reason: str
    version: int
    explanation: str = ""
    runner_up: str = ""
    margin: float | None = None
    unit: str = ""


class ErrorBody(BaseModel):
    code: str
    message: str


class ErrorOut(BaseModel):
    error: ErrorBody
