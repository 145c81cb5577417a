"""Quick play: be seated at a table of a game that is filling; bots fill it after a wait."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path, Request, Response
from pydantic import BaseModel, Field

from decklab.engine.state import seat_name as seat_label
from decklab.server.accounts.service import raise_bot_account
from decklab.server.api.deps import AddressDep, LimitsDep, ServiceDep, TokenDep
from decklab.server.api.device import device_of, ensure_device
from decklab.server.api.errors import responses
from decklab.server.api.models import Strict
from decklab.server.api.session import AccountsDep, MaybeCallerDep
from decklab.server.errors import ServiceError
from decklab.server.quickplay import QuickPlay, Terms, check_terms
from decklab.server.seating import Joiner
from decklab.server.table import clean_nickname

router = APIRouter(prefix="/api/quickplay", tags=["quick play"], responses=responses(403, 409))


def get_quickplay(request: Request) -> QuickPlay:
    quickplay: QuickPlay = request.app.state.quickplay
    return quickplay


QuickPlayDep = Annotated[QuickPlay, Depends(get_quickplay)]
TableId = Annotated[str, Path(max_length=32)]


class QuickPlayRequest(Strict):
    game: str = Field(min_length=1, max_length=64)
    min_players: int = Field(ge=-1000, le=1000)
    max_players: int = Field(ge=-1000, le=1000)
    wait_s: int = Field(ge=-100_000, le=100_000, description="seconds before bots fill it")
    level: str = Field(min_length=1, max_length=200, description="beginner, casual, …")
    nickname: str = Field(default="guest", min_length=1, max_length=32)
    rated: bool = False


class QuickPlaySeat(BaseModel):
    table: str
    seat: str
    token: str = Field(description="the seat token: keep it, it is shown only once")
    created: bool = Field(description="a new table was made (nobody was waiting)")


@router.post("", response_model=QuickPlaySeat)
async def quick_play(
    body: QuickPlayRequest,
    quickplay: QuickPlayDep,
    service: ServiceDep,
    limits: LimitsDep,
    address: AddressDep,
    accounts: AccountsDep,
    caller: MaybeCallerDep,
    request: Request,
    response: Response,
) -> QuickPlaySeat:
    """Take a seat at a public waiting quick-play table of the same terms (game, players
    range, bot level, rated), else at a new one with ``max_players`` open seats; at its
    deadline (``wait_s`` after it was made) bots of ``level`` take the empty seats and
    the game starts. The answer holds the seat token, as a join's does."""
    limits.join(address)
    terms = check_terms(
        Terms(body.game, body.min_players, body.max_players, body.wait_s, body.level, body.rated)
    )
    # the seating rules (a guest at a rated table, an account's name, blocks, bans) are
    # asked by quick play's matching (decklab.server.seating)
    if caller is None:
        name = clean_nickname(body.nickname)
        joiner = Joiner(nickname=name, device=device_of(request), address=address)

        async def seat(table_id: str, seat_text: str) -> tuple[int, str]:
            return await service.join(table_id, seat_text, name)

    else:
        account = caller.account
        if account.bot:
            raise_bot_account()
        joiner = Joiner(account.id, device=ensure_device(request, response), address=address)

        async def seat(table_id: str, seat_text: str) -> tuple[int, str]:
            table = await service.table(table_id)
            if any(s.account_id == account.id for s in table.seats):
                raise ServiceError("already_seated", "you already have a seat at this table", 409)
            token, salt = accounts.new_seat(account)
            return await service.join(
                table_id, seat_text, account.username, token=token, account=(account.id, salt)
            )

    if not request.app.state.create_limit.allow(address):
        raise ServiceError("rate_limited", "too many tables created from this address", 429)
    seated = await quickplay.play(terms, seat, joiner)
    return QuickPlaySeat(
        table=seated.table_id,
        seat=seat_label(seated.seat),
        token=seated.token,
        created=seated.created,
    )


@router.get("/{table_id}")
async def waiting(table_id: TableId, quickplay: QuickPlayDep) -> dict[str, Any]:
    """A quick-play table while it fills: who sits, the terms, the seconds left."""
    return await quickplay.waiting_view(table_id)


@router.post("/{table_id}/leave", status_code=204)
async def leave(table_id: TableId, quickplay: QuickPlayDep, token: TokenDep) -> Response:
    """Leave before the start: the seat is free again; a table left empty is discarded."""
    await quickplay.leave(table_id, token)
    return Response(status_code=204)
