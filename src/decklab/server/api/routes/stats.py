"""Solo statistics per nickname."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Path, Query

from decklab.server.api.deps import AddressDep, ServiceDep
from decklab.server.api.errors import responses
from decklab.server.api.session import AccountsDep
from decklab.server.errors import ServiceError

router = APIRouter(prefix="/api", tags=["stats"], responses=responses(503))


@router.get("/stats/{nickname}")
async def stats(
    service: ServiceDep,
    address: AddressDep,
    accounts: AccountsDep,
    nickname: str = Path(max_length=32),
    game: str | None = Query(default=None, max_length=64),
) -> dict[str, Any]:
    """A nickname's games played alone: games, perfect games, average, best, streaks, deals.
    An account's username counts only the account's own games (a guest cannot add to it)."""
    from decklab.engine.registry import get_game

    if game is not None:
        try:
            game = get_game(game).info.name
        except KeyError as exc:
            raise ServiceError("not_found", str(exc.args[0]), 404) from None
    account = await accounts.is_account_name(nickname)
    games = await service.stats(
        nickname, game, address=address, account_id=None if account is None else account.id
    )
    return {"nickname": nickname, "account": account is not None, "games": games}
