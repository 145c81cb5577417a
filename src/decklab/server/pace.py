"""Turn-based tables: a deadline per move of hours or days instead of a running clock.

A table is *live* (a Fischer clock or none, and a bot for a seat away past the grace
period) or *turn-based*, as Board Game Arena's turn-based mode and Lichess's
correspondence games: each seat to act has until its deadline, however long it is
away, and only then does the table's declared policy apply — a bot plays that one
move, the seat is skipped where the rules have a way to skip, or the seat forfeits.
In a simultaneous round every seat still to choose has the same deadline, from the
round's start; the round waits until the last has chosen or the deadline passes.

Deadlines are wall-clock seconds (they outlive a restart of the server); the rules
here are handed ``now`` and keep no timer. The time control is stored in the table's
``clock`` column as ``{"mode": "turn", "move_ms", "on_deadline"}``, so that no
schema change is needed; :func:`split` tells it from a Fischer clock.
"""

from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass
from typing import Any

from decklab.engine.state import seat_name
from decklab.server.errors import ServiceError

DEADLINE_ACTIONS = ("bot", "skip", "forfeit")

MIN_MOVE_S = 60.0
MAX_MOVE_S = 30 * 24 * 3600.0


@dataclass
class TurnSpec:
    """A turn-based table: ``move_s`` seconds per move, then ``on_deadline``."""

    move_s: float
    on_deadline: str = "bot"

    def to_json(self) -> dict[str, Any]:
        """As the table stores it, or a refusal if out of range."""
        if not MIN_MOVE_S <= self.move_s <= MAX_MOVE_S:
            raise ServiceError("bad_request", "a turn-based table gives 1 minute to 30 days a move")
        if self.on_deadline not in DEADLINE_ACTIONS:
            raise ServiceError("bad_request", "on_deadline is 'bot', 'skip' or 'forfeit'")
        return {"mode": "turn", "move_ms": int(self.move_s * 1000), "on_deadline": self.on_deadline}

    @classmethod
    def from_json(cls, stored: dict[str, Any]) -> TurnSpec:
        return cls(stored["move_ms"] / 1000, stored["on_deadline"])


def split(stored: dict[str, Any] | None) -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
    """A table's stored time control as (Fischer clock, turn-based spec): one or neither."""
    if stored is not None and stored.get("mode") == "turn":
        return None, stored
    return stored, None


def epoch(moment: _dt.datetime) -> float:
    """A stored time as wall-clock seconds (SQLite hands back naive UTC times)."""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=_dt.UTC)
    return moment.timestamp()


def iso(seconds: float) -> str:
    return _dt.datetime.fromtimestamp(seconds, _dt.UTC).replace(microsecond=0).isoformat()


class Deadlines:
    """The deadline of each seat to act at one turn-based table (wall-clock seconds)."""

    def __init__(self, move_ms: int) -> None:
        self.move_s = move_ms / 1000
        self.due: dict[int, float] = {}

    def run(self, to_act: tuple[int, ...], waiting: set[int], now: float) -> float | None:
        """Give every seat in ``waiting`` (to act, a person's) a deadline from ``now`` if it
        has none, forget those of seats not to act; the earliest deadline, or None."""
        for seat in list(self.due):
            if seat not in to_act or seat not in waiting:
                del self.due[seat]
        for seat in waiting:
            self.due.setdefault(seat, now + self.move_s)
        return min(self.due.values(), default=None)

    def moved(self, seat: int) -> None:
        """``seat`` moved: its next turn has a deadline of its own."""
        self.due.pop(seat, None)

    def late(self, now: float) -> list[int]:
        return sorted(seat for seat, due in self.due.items() if due <= now)

    def public(self) -> dict[str, str]:
        return {seat_name(seat): iso(due) for seat, due in sorted(self.due.items())}
