"""Ratings: a game's leaderboard (people and bots), a player's ratings and history."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path, Query, Request

from decklab.server.api.errors import responses
from decklab.server.api.session import AccountsDep
from decklab.server.errors import ServiceError
from decklab.server.ratings.service import RatingService
from decklab.server.store.ratings import BOT, bot_player

router = APIRouter(prefix="/api", tags=["ratings"], responses=responses(404, 503))


def get_ratings(request: Request) -> RatingService:
    ratings: RatingService = request.app.state.ratings
    return ratings


RatingsDep = Annotated[RatingService, Depends(get_ratings)]
GameParam = Annotated[str, Path(max_length=64)]


@router.get("/leaderboard/{game}")
async def leaderboard(
    game: GameParam, ratings: RatingsDep, limit: int = Query(default=100, ge=1, le=200)
) -> dict[str, Any]:
    """The game's rated players, people and bots (``bot: true``), best rating first."""
    return await ratings.leaderboard(game, limit)


@router.get("/ratings/{game}")
async def game_ratings(game: GameParam, ratings: RatingsDep) -> dict[str, Any]:
    """The game's ratings as its page shows them: the bot levels (``bots``) on the
    people's scale, and the top of the leaderboard."""
    return await ratings.leaderboard(game, 20)


@router.get("/players/{name}")
async def player(
    ratings: RatingsDep, accounts: AccountsDep, name: str = Path(max_length=220)
) -> dict[str, Any]:
    """An account's (or, as ``bot:<name>``, a bot level's) rating at each game and its
    rating after each rated table, oldest first; ``bot`` for a bot level or account."""
    if name.startswith(BOT):
        key = bot_player(name[len(BOT) :])  # `bot: RANDOM` is `bot:random`
        found = await ratings.player(key, key)
        if not found["ratings"]:
            raise ServiceError("not_found", f"no rated bot {name!r}", 404)
        return found
    account = await accounts.is_account_name(name)
    if account is None:
        raise ServiceError("not_found", f"no account {name!r}", 404)
    return await ratings.account(account.id, account.username, bool(account.bot))
