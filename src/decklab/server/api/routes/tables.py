"""Tables: create, list, join, leave, act, undo, hint, chat, play again, record, replay."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Query, Request, Response

from decklab.engine.state import seat_name as seat_label
from decklab.server.accounts.service import Caller, raise_bot_account
from decklab.server.api.deps import AddressDep, LimitsDep, ServiceDep, TokenDep
from decklab.server.api.device import device_of, ensure_device
from decklab.server.api.errors import responses
from decklab.server.api.models import (
    Ack,
    ChatOut,
    ChatRequest,
    CreateTable,
    HintOut,
    Intent,
    JoinRequest,
    JoinResult,
    PublicTable,
    TableSummary,
    UndoRequest,
)
from decklab.server.api.options import check_option_types
from decklab.server.api.session import AccountsDep, MaybeCallerDep
from decklab.server.errors import ServiceError
from decklab.server.hub import sync_frame
from decklab.server.pace import TurnSpec
from decklab.server.seating import Joiner, Place, Seating
from decklab.server.service import TableService
from decklab.server.table import ClockSpec, SeatSpec

router = APIRouter(prefix="/api/tables", tags=["tables"], responses=responses(403, 409, 410, 503))


async def _seat_of(
    service: TableService, table_id: str, token: str | None
) -> tuple[str, int] | None:
    """The per-seat limits' key of the token's seat; None for no token or a bad one
    (the service refuses that itself, after the address's limit has counted it)."""
    if not token:
        return None
    try:
        table = await service.table(table_id)
        seat = await service.viewer_of(table, token)
    except ServiceError:
        return None
    return None if seat is None else (table.id, seat)


@router.post("", response_model=TableSummary, status_code=201)
async def create_table(
    body: CreateTable,
    service: ServiceDep,
    address: AddressDep,
    request: Request,
    caller: MaybeCallerDep,
) -> TableSummary:
    """A new table: each seat open for a person or a bot spec; public or unlisted; a clock."""
    if not request.app.state.create_limit.allow(address):
        raise ServiceError("rate_limited", "too many tables created from this address", 429)
    check_option_types(body.game, body.options)
    seats = []
    bot_accounts: list[int] = []
    for seat in body.seats:
        if seat.kind == "bot" and not seat.bot:
            raise ServiceError("bad_request", "a bot seat needs a bot spec (greedy, expert, …)")
        if seat.kind == "account":
            if not seat.name:
                raise ServiceError("bad_request", "an account seat needs a bot account's name")
            held, account_id = await request.app.state.bots.account_seat(seat.name)
            if account_id in bot_accounts:
                raise ServiceError("bad_request", "a bot account takes one seat of a table")
            bot_accounts.append(account_id)
            seats.append(SeatSpec(account=held))
            continue
        seats.append(SeatSpec(seat.bot if seat.kind == "bot" else None))
    await _check_bot_accounts(request, bot_accounts, body.rated, caller)
    clock = (
        ClockSpec(body.clock.base_s, body.clock.increment_s, body.clock.on_timeout)
        if body.clock
        else None
    )
    table = await service.create_table(
        body.game,
        body.players,
        seats,
        options=dict(body.options),
        public=body.public,
        clock=clock,
        turn=TurnSpec(body.turn.move_s, body.turn.on_deadline) if body.turn else None,
        deal=body.deal,
        rated=body.rated,
    )
    if bot_accounts:
        request.app.state.bots.announce_seats(table)
        service.expect_bot_accounts(table)
    creator_token = await request.app.state.moderation.created(table.id, caller)
    return TableSummary.model_validate(table.summary() | {"creator_token": creator_token})


async def _check_bot_accounts(
    request: Request, bot_accounts: list[int], rated: bool, caller: Caller | None
) -> None:
    """A creator's seating passes the seating rules too (a banned bot account, or one a
    block stands between with the creator or another seated account, is refused), before
    anything is created."""
    seating: Seating = request.app.state.accounts.seating
    creator = None if caller is None else caller.account.id
    for account_id in bot_accounts:
        others = frozenset(a for a in bot_accounts if a != account_id)
        place = Place(None, rated, creator, others)
        await seating.check_seat(Joiner(account_id), place, by_creator=True)


@router.get("", response_model=list[PublicTable])
async def list_tables(service: ServiceDep) -> list[PublicTable]:
    """Public tables not finished yet, newest first."""
    return [PublicTable.model_validate(t) for t in await service.public_tables()]


@router.get("/{table_id}", response_model=TableSummary)
async def table_details(table_id: str, service: ServiceDep) -> TableSummary:
    return TableSummary.model_validate((await service.table(table_id)).summary())


@router.post("/{table_id}/join", response_model=JoinResult)
async def join(
    table_id: str,
    body: JoinRequest,
    service: ServiceDep,
    limits: LimitsDep,
    address: AddressDep,
    accounts: AccountsDep,
    caller: MaybeCallerDep,
    request: Request,
    response: Response,
) -> JoinResult:
    """Take an open seat: the answer holds the seat token, shown only this once. Logged in,
    the seat is the account's, under its username, and follows it to its other devices; a
    guest may not take a nickname that is an account's username. Every seating rule
    (kept seats, blocks, bans, rated tables) is :mod:`decklab.server.seating`'s."""
    limits.join(address)
    seating = accounts.seating
    if caller is None:
        joiner = Joiner(nickname=body.nickname, device=device_of(request), address=address)
        seat, token = await service.join(
            table_id,
            body.seat,
            body.nickname,
            check=lambda table, seat: seating.check_at(joiner, table, seat),
        )
    else:
        account = caller.account
        if account.bot:
            raise_bot_account()
        joiner = Joiner(account.id, device=ensure_device(request, response), address=address)
        token, salt = accounts.new_seat(account)
        seat, token = await service.join(
            table_id,
            body.seat,
            account.username,
            token=token,
            account=(account.id, salt),
            check=lambda table, seat: seating.check_at(joiner, table, seat),
        )
    await seating.taken(table_id, seat, joiner)
    return JoinResult(table=table_id, seat=seat_label(seat), token=token)


@router.post("/{table_id}/leave", status_code=204)
async def leave(table_id: str, service: ServiceDep, token: TokenDep) -> Response:
    """Leave the seat: after the grace period a bot plays it until the token comes back."""
    await service.leave(table_id, token or "")
    return Response(status_code=204)


@router.post("/{table_id}/reclaim", response_model=Ack)
async def reclaim(table_id: str, service: ServiceDep, token: TokenDep) -> Ack:
    """Take the seat back from the bot that plays it ("take my seat back"); a seat no
    bot plays is left as it is. Answers the table's version."""
    return Ack(version=await service.reclaim(table_id, token))


@router.get("/{table_id}/state")
async def state(table_id: str, service: ServiceDep, token: TokenDep) -> dict[str, Any]:
    """The table as the token's seat (or a spectator) sees it now: the ``sync`` frame."""
    table = await service.table(table_id)
    return sync_frame(table, await service.viewer_of(table, token))


@router.post("/{table_id}/actions", response_model=Ack)
async def act(
    table_id: str,
    body: Intent,
    service: ServiceDep,
    token: TokenDep,
    limits: LimitsDep,
    address: AddressDep,
) -> Ack:
    """Play an action (its canonical text) against the version it was chosen at."""
    limits.message(address, await _seat_of(service, table_id, token))
    version = await service.act(table_id, token, body.action, body.version, body.client_id)
    return Ack(version=version)


@router.post("/{table_id}/undo", response_model=Ack)
async def undo(
    table_id: str,
    body: UndoRequest,
    service: ServiceDep,
    token: TokenDep,
    limits: LimitsDep,
    address: AddressDep,
) -> Ack:
    """Take back the last move (a game played alone only)."""
    limits.message(address, await _seat_of(service, table_id, token))
    return Ack(version=await service.undo(table_id, token, body.version))


@router.get("/{table_id}/hint", response_model=HintOut)
async def hint(
    table_id: str, service: ServiceDep, token: TokenDep, limits: LimitsDep, address: AddressDep
) -> HintOut:
    """What the expert would play now, and why (a game played alone only)."""
    seat = await _seat_of(service, table_id, token)
    limits.message(address, seat)
    limits.hint(address, seat)
    got = await service.hint(table_id, token, address=address)
    return HintOut(**{**got, "version": int(got["version"])})


@router.post("/{table_id}/chat", response_model=ChatOut)
async def chat(
    table_id: str,
    body: ChatRequest,
    service: ServiceDep,
    token: TokenDep,
    limits: LimitsDep,
    address: AddressDep,
) -> ChatOut:
    """Say something at the table (seated players only; plain text)."""
    limits.message(address, await _seat_of(service, table_id, token))
    message = await service.chat(table_id, token, body.text)
    return ChatOut(
        id=message.id,
        seat=seat_label(message.seat),
        nickname=message.nickname,
        text=message.text,
        at=message.at,
    )


@router.post("/{table_id}/again", response_model=TableSummary)
async def play_again(table_id: str, service: ServiceDep, token: TokenDep) -> TableSummary:
    """A new table with the same game and seats; people keep their tokens."""
    return TableSummary.model_validate((await service.play_again(table_id, token)).summary())


JSON_OBJECT: dict[int | str, dict[str, Any]] = {
    200: {"content": {"application/json": {"schema": {"type": "object"}}}}
}


@router.get("/{table_id}/record", response_class=Response, responses=JSON_OBJECT)
async def record(
    table_id: str, service: ServiceDep, token: TokenDep, address: AddressDep
) -> Response:
    """The full record once the game is over; during play the asker's redacted copy."""
    text = await service.record_text(table_id, token, address=address)
    return Response(text, media_type="application/json")


@router.get("/{table_id}/replay", response_class=Response, responses=JSON_OBJECT)
async def replay(
    table_id: str,
    service: ServiceDep,
    token: TokenDep,
    address: AddressDep,
    step: int = Query(ge=0, le=100000),
    seat: str | None = Query(default=None, max_length=16),
) -> Response:
    """The table after its first ``step`` actions as a seat (or ``spectator``) saw it."""
    text = await service.replay(table_id, token, step, seat, address=address)
    return Response(text, media_type="application/json")
