"""The rating service: rates each finished rated table once, answers leaderboards and
players' histories. No transport: the routes call it.

The table service tells it of every end (:attr:`TableService.finish_listeners`), off
the move's path; at start it rates any finished rated table a crash left unrated. The
store's unique row per table makes a second try (a restart, another process) a no-op.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from decklab.engine.registry import get_game
from decklab.server.errors import ServiceError
from decklab.server.service import TableService
from decklab.server.store.ratings import BOT, Point, RatingStore, Standing, account_player

log = logging.getLogger("decklab.server.ratings")

LEADERBOARD_MAX = 200
HISTORY_MAX = 500


def _lower_is_better(game: str) -> bool:
    return bool(get_game(game).info.lower_is_better)


def check_game(game: str) -> str:
    """The game's registered name; 404 for an unknown one."""
    try:
        return str(get_game(game).info.name)
    except KeyError:
        raise ServiceError("not_found", f"no game {game!r}", 404) from None


def _standing(s: Standing, rank: int | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {
        "name": s.name,
        "bot": s.bot,
        "rating": round(s.rating, 2),
        "mu": round(s.mu, 3),
        "sigma": round(s.sigma, 3),
        "games": s.games,
    }
    if rank is not None:
        out["rank"] = rank
    return out


def _point(p: Point) -> dict[str, Any]:
    return {
        "game": p.game,
        "table": p.table_id,
        "place": p.rank,
        "rating": round(p.rating, 2),
        "mu": round(p.mu, 3),
        "sigma": round(p.sigma, 3),
        "at": p.at,
    }


class RatingService:
    def __init__(self, store: RatingStore, tables: TableService) -> None:
        self.store = store
        self.tables = tables
        tables.finish_listeners.append(self.table_finished)

    async def start(self) -> None:
        """Rate what a crash left unrated (finished rated tables without their row)."""
        for table_id in await asyncio.to_thread(self.store.unrated):
            await self.rate(table_id)

    async def table_finished(self, table_id: str) -> None:
        await self.rate(table_id)

    async def rate(self, table_id: str) -> bool:
        try:
            done = await asyncio.to_thread(self.store.rate_table, table_id, _lower_is_better)
        except Exception:  # a rating must never break a table's end; start() retries it
            log.exception("rating failed", extra={"table": table_id})
            return False
        if done:
            log.info("table settled", extra={"table": table_id})
        return done

    async def leaderboard(self, game: str, limit: int) -> dict[str, Any]:
        name = check_game(game)
        rows = await asyncio.to_thread(self.store.leaderboard, name, min(limit, LEADERBOARD_MAX))
        entries = [_standing(s, i + 1) for i, s in enumerate(rows)]
        # ``bots``: the bot levels, for a game's page (bot accounts are ``bot`` entries too)
        levels = [e for e in entries if e["name"].startswith(BOT)]
        return {"game": name, "entries": entries, "bots": levels}

    async def player(self, player: str, name: str, bot: bool = False) -> dict[str, Any]:
        """A player's ratings and history; ``bot``: the player is a bot account (a bot
        level's key says so itself)."""
        bot = bot or player.startswith(BOT)
        standings = await asyncio.to_thread(self.store.standings_of, player, bot)
        points = await asyncio.to_thread(self.store.history_of, player, HISTORY_MAX)
        return {
            "name": name,
            "bot": bot,
            "ratings": [{"game": g, **_standing(s)} for g, s in standings],
            "history": [_point(p) for p in points],
        }

    async def account(self, account_id: int, username: str, bot: bool = False) -> dict[str, Any]:
        """An account's profile; a bot account's is marked ``bot`` like a bot level's."""
        return await self.player(account_player(account_id), username, bot)
