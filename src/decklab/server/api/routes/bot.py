"""The bot API, in the style of Lichess's: personal API tokens, the bot upgrade, a bot
account's event stream, its seat's stream at a table, and its moves.

A program authenticates with ``Authorization: Bearer <API token>`` and sends no
cookie, so the CSRF guard (:mod:`decklab.server.api.session`) lets it through; a
request that does carry a session cookie still needs the CSRF header, whatever else it
carries. Tokens are made and revoked by a logged-in person (cookie and CSRF header).

Streams are NDJSON (``application/x-ndjson``): one JSON object a line, an empty line
as a keep-alive every ``heartbeat_s``. A table's stream carries the very ``sync``,
``event``, ``notice`` and ``presence`` frames a person's browser receives for that seat
(:mod:`decklab.server.hub`), so a bot learns nothing a person in its seat would not.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Annotated

from fastapi import APIRouter, Depends, Request, Response
from fastapi.responses import StreamingResponse
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from decklab.engine.state import seat_name
from decklab.server import frames
from decklab.server.accounts.bots import BotService
from decklab.server.api.bot_models import (
    BotAccount,
    BotJoin,
    BotJoined,
    BotMove,
    NewToken,
    TokenOut,
    TokenRequest,
)
from decklab.server.api.deps import AddressDep, LimitsDep
from decklab.server.api.errors import responses
from decklab.server.api.models import Ack
from decklab.server.api.session import CallerDep, MaybeCallerDep
from decklab.server.errors import ServiceError
from decklab.server.hub import Encoded
from decklab.server.limits import Limits
from decklab.server.service import LiveTable, TableService
from decklab.server.store.models import AccountRow
from decklab.server.tokens import hash_token

router = APIRouter(prefix="/api", tags=["bot API"], responses=responses(401, 403, 404, 409))

_api_token = HTTPBearer(
    auto_error=False,
    scheme_name="apiToken",
    description="a personal API token (/api/account/tokens)",
)
NDJSON = "application/x-ndjson"


def get_bots(request: Request) -> BotService:
    bots: BotService = request.app.state.bots
    return bots


BotsDep = Annotated[BotService, Depends(get_bots)]


class Bearer:
    """An API token's account, and the token's hash (the key of its rate limits)."""

    def __init__(self, account: AccountRow, token_hash: str) -> None:
        self.account = account
        self.token_hash = token_hash


async def token_account(
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_api_token)],
    bots: BotsDep,
    limits: LimitsDep,
    address: AddressDep,
) -> Bearer | None:
    """The account of the request's API token; a token that logs in nobody is refused.
    Every request with a token is counted against it (and its address)."""
    if credentials is None:
        return None
    token = credentials.credentials
    account = await bots.bearer(token)
    if account is None:
        limits.message(address, None)
        raise ServiceError("unauthorized", "this API token is unknown or revoked", 401)
    key = hash_token(token)
    limits.bot(address, key)
    return Bearer(account, key)


MaybeBearerDep = Annotated[Bearer | None, Depends(token_account)]


async def bot_account(bearer: MaybeBearerDep) -> Bearer:
    """A bot account's API token: what every ``/api/bot/...`` route but the upgrade needs."""
    if bearer is None:
        raise ServiceError("unauthorized", "send Authorization: Bearer <API token>", 401)
    if not bearer.account.bot:
        raise ServiceError(
            "not_bot", "upgrade this account first (POST /api/bot/account/upgrade)", 403
        )
    return bearer


BotDep = Annotated[Bearer, Depends(bot_account)]


# ------------------------------------------------------------ personal API tokens
@router.post("/account/tokens", response_model=NewToken, status_code=201)
async def create_token(
    body: TokenRequest, caller: CallerDep, bots: BotsDep, request: Request
) -> NewToken:
    """A new personal API token for the logged-in account: shown only this once."""
    most = request.app.state.settings.api_tokens_per_account
    row, token = await bots.create_token(caller.account, body.label, most)
    return NewToken(
        id=row.id,
        label=row.label,
        created_at=row.created_at.isoformat(),
        last_used_at=None,
        token=token,
    )


@router.get("/account/tokens", response_model=list[TokenOut])
async def list_tokens(caller: CallerDep, bots: BotsDep) -> list[TokenOut]:
    """The account's live tokens: label and dates, never the token."""
    return [TokenOut.model_validate(t) for t in await bots.tokens(caller.account)]


@router.delete("/account/tokens/{token_id}", status_code=204)
async def revoke_token(token_id: int, caller: CallerDep, bots: BotsDep) -> Response:
    """The token stops working at once."""
    await bots.revoke(caller.account, token_id)
    return Response(status_code=204)


# ------------------------------------------------------------ the bot account
@router.get("/bot/account", response_model=BotAccount)
async def whoami(bearer: MaybeBearerDep, caller: MaybeCallerDep) -> BotAccount:
    """The account of the API token (or of the session)."""
    account = bearer.account if bearer is not None else caller.account if caller else None
    if account is None:
        raise ServiceError("unauthorized", "send Authorization: Bearer <API token>", 401)
    return BotAccount(username=account.username, bot=account.bot)


@router.post("/bot/account/upgrade", response_model=BotAccount)
async def upgrade(bearer: MaybeBearerDep, caller: MaybeCallerDep, bots: BotsDep) -> BotAccount:
    """The account becomes a bot account, for good; refused (409 ``has_played``) for an
    account that has ever held a seat. With the API token or the session."""
    account = bearer.account if bearer is not None else caller.account if caller else None
    if account is None:
        raise ServiceError("unauthorized", "send Authorization: Bearer <API token>", 401)
    await bots.upgrade(account)
    return BotAccount(username=account.username, bot=True)


# ------------------------------------------------------------ streams
async def _lines(
    source: AsyncIterator[str], limits: Limits, token_hash: str
) -> AsyncIterator[bytes]:
    """``source``'s lines; the token's stream slot is given back however it ends."""
    try:
        async for line in source:
            yield line.encode()
    finally:
        limits.bot_streams.release(token_hash)


def _stream(request: Request, bearer: Bearer, source: AsyncIterator[str]) -> StreamingResponse:
    limits: Limits = request.app.state.limits
    if not limits.bot_streams.acquire(bearer.token_hash):
        raise ServiceError("rate_limited", "too many streams open with this API token", 429)
    return StreamingResponse(
        _lines(source, limits, bearer.token_hash),
        media_type=NDJSON,
        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
    )


@router.get("/bot/stream/event", response_class=StreamingResponse)
async def event_stream(request: Request, bearer: BotDep, bots: BotsDep) -> StreamingResponse:
    """The bot account's events, NDJSON: first a ``seated`` for every seat it holds at a
    table not finished, then ``seated`` as tables seat it and ``gameFinish`` as they end."""
    beat = request.app.state.settings.heartbeat_s
    account = bearer.account

    async def events() -> AsyncIterator[str]:
        queue = bots.events.open(account.id)  # before the read: nothing falls in between
        try:
            for seated in await bots.held(account):
                yield frames.encode(seated) + "\n"
            while True:
                try:
                    event = await asyncio.wait_for(queue.get(), beat)
                except TimeoutError:
                    yield "\n"
                    continue
                if event is None:  # it fell behind: reopen
                    return
                yield frames.encode(event) + "\n"
        finally:
            bots.events.close(account.id, queue)

    return _stream(request, bearer, events())


@router.get("/bot/table/{table_id}/stream", response_class=StreamingResponse)
async def table_stream(
    table_id: str, request: Request, bearer: BotDep, bots: BotsDep
) -> StreamingResponse:
    """The bot's seat at the table, NDJSON: a ``sync`` frame (its seat's view, legal
    actions, version), then each frame a person in that seat would receive; the stream
    ends once the game is over."""
    table, seat, _ = await bots.seat_at(bearer.account, table_id)
    beat = request.app.state.settings.heartbeat_s
    return _stream(request, bearer, seat_lines(bots.tables, table, seat, beat))


async def seat_lines(
    service: TableService, table: LiveTable, seat: int, beat_s: float
) -> AsyncIterator[str]:
    """A seat's frames as NDJSON lines: exactly what a person's socket in that seat gets
    (the hub's frames for ``seat``), a keep-alive line when idle; they end once the game
    is over, or when the seat fell behind (the caller reopens and gets a ``sync``)."""
    key, listener = service.hub.subscribe(table, seat)
    try:
        await service.connected(table, seat)
        while True:
            try:
                item = await asyncio.wait_for(listener.queue.get(), beat_s)
            except TimeoutError:
                yield "\n"
                continue
            yield (item.text if isinstance(item, Encoded) else frames.encode(item)) + "\n"
            if listener.overflowed:
                return
            if table.finished and listener.queue.empty():
                return
    finally:
        service.hub.unsubscribe(table, key)
        with contextlib.suppress(Exception):
            service.disconnected(table, seat)


# ------------------------------------------------------------ playing
@router.post("/bot/table/{table_id}/join", response_model=BotJoined)
async def join(
    table_id: str, body: BotJoin, bearer: BotDep, bots: BotsDep, address: AddressDep
) -> BotJoined:
    """The bot account takes an open seat itself (no seat token is returned: the bot API
    acts for its seat); the seating rules are a person's join's."""
    seat = await bots.join(bearer.account, table_id, body.seat, address)
    return BotJoined(table=table_id, seat=seat_name(seat))


@router.post("/bot/table/{table_id}/move", response_model=Ack)
async def move(
    table_id: str,
    body: BotMove,
    bearer: BotDep,
    bots: BotsDep,
    limits: LimitsDep,
    address: AddressDep,
) -> Ack:
    """Play an action (its canonical text, as in the frames' ``legal``) for the bot's seat,
    against the version it was chosen at; the same client id again counts once."""
    table, seat, token = await bots.seat_at(bearer.account, table_id)
    limits.message(address, (table.id, seat))
    client_id = body.client_id or f"bot-v{body.version}"
    version = await bots.tables.act(table_id, token, body.action, body.version, client_id)
    return Ack(version=version)
