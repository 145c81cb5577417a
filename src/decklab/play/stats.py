"""Solo statistics, PySolFC-style: every finished solo game in a local SQLite file.

A patience player wants to know how they are doing: how many games, how many
perfect, the average and best score, the current and longest run of perfect
games, and how each numbered deal went. One row per finished game is all it
takes; everything else is computed when asked. Nothing here names a game: a
solo game (one seat) is recorded whatever it is, and a solo game is *won*
only when it is perfect (the Cabin: 0 squid points), which is what its
``winners()`` already says.
"""

from __future__ import annotations

import datetime as _dt
import json
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from decklab.engine.errors import DecklabError
from decklab.engine.registry import get_game
from decklab.engine.state import GameState
from decklab.play.storage import data_dir

FILE_NAME = "stats.sqlite3"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS results (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    game TEXT NOT NULL,
    deal INTEGER,
    options TEXT NOT NULL,
    score REAL NOT NULL,
    perfect INTEGER NOT NULL,
    finished TEXT NOT NULL
)
"""


def stats_path() -> Path:
    """The statistics file in the user's data directory (``DECKLAB_HOME`` moves it)."""
    return data_dir() / FILE_NAME


class StatsError(DecklabError):
    """The statistics file cannot be read or written. The file is left as it is."""

    def __init__(self, path: Path, reason: str) -> None:
        self.path = path
        super().__init__(
            f"the statistics file {path} cannot be used ({reason}). It is left as it is: "
            f"move it aside (decklab stats --move-aside, or mv it yourself) and a new one "
            "is started."
        )


@contextmanager
def _connect(path: Path | None) -> Iterator[sqlite3.Connection]:
    target = path or stats_path()
    try:
        db = sqlite3.connect(target)
    except sqlite3.Error as exc:
        raise StatsError(target, str(exc)) from None
    try:
        try:
            db.execute(_SCHEMA)
            db.execute("SELECT game, deal, options, score, perfect, finished FROM results LIMIT 1")
        except sqlite3.Error as exc:
            raise StatsError(target, str(exc)) from None
        yield db
        db.commit()
    finally:
        db.close()


def move_aside(path: Path | None = None) -> Path | None:
    """Rename an unusable statistics file to ``stats.sqlite3.bad-<time>``; returns the new
    name, or None if there was no file. Nothing is deleted."""
    target = path or stats_path()
    if not target.exists():
        return None
    stamp = _dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    moved = target.with_name(f"{target.name}.bad-{stamp}")
    target.rename(moved)
    return moved


def best_on_deal(game: str, deal: int, *, path: Path | None = None) -> float | None:
    """The best stored result of ``game`` on ``deal`` in the game's own sense, or None."""
    lower = get_game(game).info.lower_is_better
    with _connect(path) as db:
        row = db.execute(
            f"SELECT {'MIN' if lower else 'MAX'}(score) FROM results WHERE game = ? AND deal = ?",
            (game, deal),
        ).fetchone()
    return None if row is None or row[0] is None else float(row[0])


def record_result(
    game: str,
    deal: int | None,
    score: float,
    perfect: bool,
    options: dict[str, Any] | None = None,
    *,
    path: Path | None = None,
    finished: str | None = None,
) -> None:
    """Store one finished game."""
    when = finished or _dt.datetime.now(_dt.UTC).replace(microsecond=0).isoformat()
    with _connect(path) as db:
        db.execute(
            "INSERT INTO results (game, deal, options, score, perfect, finished) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            (game, deal, json.dumps(options or {}, sort_keys=True), score, int(perfect), when),
        )


def record_game(state: GameState, deal: int | None, *, path: Path | None = None) -> bool:
    """Store a finished solo game; games with several seats are not kept. True if stored."""
    if state.num_players != 1 or not state.is_terminal():
        return False
    record_result(
        state.info.name,
        deal,
        state.scores()[0],
        bool(state.winners()),
        dict(state.options),
        path=path,
    )
    return True


@dataclass
class DealStats:
    deal: int | None
    games: int
    perfect: int
    best: float
    average: float


@dataclass
class Summary:
    """What a player wants to see about one solo game."""

    game: str
    games: int = 0
    perfect: int = 0
    average: float | None = None
    best: float | None = None
    current_streak: int = 0
    longest_streak: int = 0
    deals: list[DealStats] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def summary(game: str, *, path: Path | None = None) -> Summary:
    """The statistics of ``game`` from every stored result, oldest first.

    "Best" follows the game's own sense (lowest for the Cabin's squid points);
    a streak is a run of perfect games in the order they were finished.
    """
    lower = get_game(game).info.lower_is_better
    with _connect(path) as db:
        rows = db.execute(
            "SELECT deal, score, perfect FROM results WHERE game = ? ORDER BY finished, id",
            (game,),
        ).fetchall()
    out = Summary(game)
    if not rows:
        return out
    scores = [float(r[1]) for r in rows]
    out.games = len(rows)
    out.perfect = sum(1 for r in rows if r[2])
    out.average = sum(scores) / len(scores)
    out.best = min(scores) if lower else max(scores)
    run = 0
    for _, _, perfect in rows:
        run = run + 1 if perfect else 0
        out.longest_streak = max(out.longest_streak, run)
    out.current_streak = run
    by_deal: dict[int | None, list[tuple[float, int]]] = {}
    for deal, score, perfect in rows:
        by_deal.setdefault(deal, []).append((float(score), int(perfect)))
    for deal in sorted(by_deal, key=lambda d: (d is None, d or 0)):
        played = by_deal[deal]
        values = [s for s, _ in played]
        out.deals.append(
            DealStats(
                deal,
                len(played),
                sum(p for _, p in played),
                min(values) if lower else max(values),
                sum(values) / len(values),
            )
        )
    return out


def solo_games() -> list[str]:
    """The games that are played alone, whose results are kept."""
    from decklab.engine.registry import game_names

    return [name for name in game_names() if get_game(name).info.max_players == 1]
