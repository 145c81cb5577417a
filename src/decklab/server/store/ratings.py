"""The queries of ratings: rating a finished table once, leaderboards, a player's history.

Rating a table is one transaction that first inserts the table's ``rated_tables`` row:
its primary key is what makes a table update the ratings at most once, whichever
process or restart tries again (the loser's insert fails and it changes nothing). The
row marks the table settled: rated, or found to rate nobody (aborted, no person at
it, a seat that is no rated player), so that no start tries it again.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from sqlalchemy import Engine, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from decklab.server.ratings.model import NEW, Skill, places, rate
from decklab.server.ratings.rules import rated_bot
from decklab.server.store.models import (
    AccountRow,
    RatedTableRow,
    RatingHistoryRow,
    RatingRow,
    SeatRow,
    TableRow,
    utcnow,
)

BOT = "bot:"
"""A bot level's player key is ``bot:<name>`` (its canonical name: :func:`.rated_bot`);
an account's is ``a:<id>``. Usernames hold no ``:``, so a name starting with ``bot:``
is always a bot level's."""


def account_player(account_id: int) -> str:
    return f"a:{account_id}"


def bot_player(spec: str) -> str:
    """The player key of the bot level ``spec`` names, under its one canonical name
    (``bot: RANDOM`` is ``bot:random``); a spec that is no rated level keeps its text
    (its rows, from before levels had one name, are no player now)."""
    return BOT + (rated_bot(spec) or spec)


@dataclass(frozen=True)
class Standing:
    """One row of a leaderboard: a player's rating at a game. ``bot``: a bot level or
    a bot account (a program, not a person)."""

    name: str
    bot: bool
    mu: float
    sigma: float
    games: int

    @property
    def rating(self) -> float:
        return Skill(self.mu, self.sigma).rating


@dataclass(frozen=True)
class Point:
    """A player's rating after one rated table."""

    game: str
    table_id: str
    rank: int
    mu: float
    sigma: float
    at: str

    @property
    def rating(self) -> float:
        return Skill(self.mu, self.sigma).rating


class RatingStore:
    """Synchronous queries; the rating service runs them off the event loop."""

    def __init__(self, engine: Engine) -> None:
        self.sessions = sessionmaker(engine, expire_on_commit=False)

    def unrated(self) -> list[str]:
        """Finished rated tables whose result has not updated the ratings yet (a crash
        between the end and the rating), oldest first."""
        with self.sessions() as db:
            done = select(RatedTableRow.table_id)
            return list(
                db.scalars(
                    select(TableRow.id)
                    .where(
                        TableRow.rated.is_(True),
                        TableRow.status == "finished",
                        TableRow.id.not_in(done),
                    )
                    .order_by(TableRow.updated_at)
                )
            )

    def is_rated(self, table_id: str) -> bool:
        with self.sessions() as db:
            return db.get(RatedTableRow, table_id) is not None

    def rate_table(self, table_id: str, lower_is_better: Callable[[str], bool]) -> bool:
        """Update the ratings by a finished rated table's result, once. True if this call
        settled it (rated it, or found that it rates nobody: aborted, no person, a seat
        that is no rated player); False if it was done before, or the table is not one
        to rate (casual, not finished)."""
        for _ in range(3):
            try:
                with self.sessions.begin() as db:
                    return self._rate(db, table_id, lower_is_better)
            except IntegrityError:
                # Another process rated this table, or added a new player's row first.
                if self.is_rated(table_id):
                    return False
        raise RuntimeError(f"table {table_id} could not be rated")

    def _rate(self, db: Session, table_id: str, lower_is_better: Callable[[str], bool]) -> bool:
        table = db.get(TableRow, table_id)
        if table is None or not table.rated or table.status != "finished" or not table.outcome:
            return False
        # First the unique row: from here this transaction holds the write (SQLite), and
        # a second rater of this table fails on it (any database).
        db.add(RatedTableRow(table_id=table_id, game=table.game))
        db.flush()
        if table.outcome.get("aborted"):
            return True  # a seat never came (ratings/rules.py): settled, rating nobody
        seats = list(
            db.scalars(select(SeatRow).where(SeatRow.table_id == table_id).order_by(SeatRow.seat))
        )
        players = _players(db, seats)
        if players is None:
            return True  # settled: it rates nobody
        ranks = places(table.outcome, len(seats), lower_is_better(table.game))
        keys = sorted({p[0] for p in players})
        held = {
            row.player: row
            for row in db.scalars(
                select(RatingRow)
                .where(RatingRow.game == table.game, RatingRow.player.in_(keys))
                .with_for_update()
            )
        }
        before = [
            Skill(held[key].mu, held[key].sigma) if key in held else NEW for key, _, _ in players
        ]
        after = rate(before, ranks)
        now = utcnow()
        for key in keys:
            mine = [i for i, p in enumerate(players) if p[0] == key]
            old = before[mine[0]]
            # A bot level seated twice plays as copies of itself: it moves by their mean.
            mu = old.mu + sum(after[i].mu - old.mu for i in mine) / len(mine)
            sigma = sum(after[i].sigma for i in mine) / len(mine)
            _, account_id, spec = players[mine[0]]
            row = held.get(key)
            if row is None:
                row = RatingRow(
                    game=table.game, player=key, account_id=account_id, bot_spec=spec, games=0
                )
                db.add(row)
            row.mu, row.sigma, row.games, row.updated_at = mu, sigma, row.games + 1, now
            db.add(
                RatingHistoryRow(
                    game=table.game,
                    player=key,
                    account_id=account_id,
                    table_id=table_id,
                    rank=min(ranks[i] for i in mine),
                    mu=mu,
                    sigma=sigma,
                    at=now,
                )
            )
        return True

    # ------------------------------------------------------------ reading
    def leaderboard(self, game: str, limit: int) -> list[Standing]:
        """The game's players, people and bots, best rating first."""
        with self.sessions() as db:
            rows = db.execute(
                select(RatingRow, AccountRow.username, AccountRow.bot)
                .outerjoin(AccountRow, AccountRow.id == RatingRow.account_id)
                .where(RatingRow.game == game)
            ).all()
        found = [
            Standing(
                username if row.bot_spec is None else row.player,
                row.bot_spec is not None or bool(bot),
                row.mu,
                row.sigma,
                row.games,
            )
            for row, username, bot in rows
            if (row.bot_spec is None and username is not None) or _is_level(row)
        ]
        found.sort(key=lambda s: (-s.rating, s.name))
        return found[:limit]

    def standings_of(self, player: str, bot: bool = False) -> list[tuple[str, Standing]]:
        """The player's rating at each game; ``bot``: the player is a bot account."""
        with self.sessions() as db:
            rows = db.scalars(
                select(RatingRow).where(RatingRow.player == player).order_by(RatingRow.game)
            ).all()
        return [
            (r.game, Standing(player, bot or r.bot_spec is not None, r.mu, r.sigma, r.games))
            for r in rows
        ]

    def history_of(self, player: str, limit: int) -> list[Point]:
        """The player's points, oldest first (the newest ``limit``)."""
        with self.sessions() as db:
            rows: Sequence[RatingHistoryRow] = db.scalars(
                select(RatingHistoryRow)
                .where(RatingHistoryRow.player == player)
                .order_by(RatingHistoryRow.id.desc())
                .limit(limit)
            ).all()
        return [
            Point(r.game, r.table_id, r.rank, r.mu, r.sigma, r.at.isoformat())
            for r in reversed(rows)
        ]


def _is_level(row: RatingRow) -> bool:
    """A bot level's row under its one canonical name: rows keyed by another spelling
    or a spec with parameters (made before levels had one name) are no player now."""
    return row.bot_spec is not None and row.player == BOT + (rated_bot(row.bot_spec) or "")


def _players(
    db: Session, seats: Sequence[SeatRow]
) -> list[tuple[str, int | None, str | None]] | None:
    """Each seat's player (its key, account, bot level), or None when the table rates
    nobody: a seat that is no rated player (a deleted account's, a bot spec that names
    no rated level), or no person at all (every account a bot account)."""
    players: list[tuple[str, int | None, str | None]] = []
    accounts = [s.account_id for s in seats if s.kind == "human" and s.account_id is not None]
    bots = {
        int(a): bool(b)
        for a, b in db.execute(
            select(AccountRow.id, AccountRow.bot).where(AccountRow.id.in_(accounts))
        )
    }
    people = 0
    for seat in seats:
        if seat.kind == "bot" and seat.bot_spec:
            level = rated_bot(seat.bot_spec)
            if level is None:
                return None
            players.append((BOT + level, None, level))
        elif seat.kind == "human" and seat.account_id is not None and seat.account_id in bots:
            people += not (seat.bot_account or bots[seat.account_id])
            players.append((account_player(seat.account_id), seat.account_id, None))
        else:
            return None
    return players if people else None
