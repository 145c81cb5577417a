"""The rating model: a finished table's places from its generic result, and the
Weng–Lin (Plackett–Luce) update of the seats' ratings, by the ``openskill`` package.

Pure functions, no database: the tests compare them with openskill called directly.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce

from decklab.engine.state import seat_name

MODEL = PlackettLuce()
"""Plackett–Luce: the Weng–Lin model for any number of players with ranks and ties;
the package's defaults (mu 25, sigma 25/3, beta 25/6, tau 25/300)."""


@dataclass(frozen=True)
class Skill:
    mu: float
    sigma: float

    @property
    def rating(self) -> float:
        """The figure shown and sorted by: the conservative ``mu - 3 sigma`` (0 at first),
        so that a player rises by playing, not by one lucky game."""
        return self.mu - 3 * self.sigma


NEW = Skill(MODEL.mu, MODEL.sigma)


def places(outcome: Mapping[str, Any], num_players: int, lower_is_better: bool) -> list[int]:
    """Each seat's place (1 = first; equal places are ties) from a finished table's
    generic result: the winners share first place, the others follow by score (in the
    game's direction), equal scores tie, and a seat that forfeited is last alone."""
    scores = outcome.get("scores") or {}
    winners = set(outcome.get("winners") or [])
    forfeit = outcome.get("forfeit")
    keys: list[tuple[int, float]] = []
    for index in range(num_players):
        name = seat_name(index)
        if name not in scores:
            raise ValueError(f"the result has no score for {name}")
        score = float(scores[name])
        if name == forfeit:
            keys.append((2, 0.0))
        else:
            keys.append((0 if name in winners else 1, score if lower_is_better else -score))
    order = sorted(set(keys))
    return [order.index(key) + 1 for key in keys]


def rate(skills: Sequence[Skill], ranks: Sequence[int]) -> list[Skill]:
    """Each seat's skill after a game where seat ``i`` took place ``ranks[i]``."""
    if len(skills) != len(ranks) or len(skills) < 2:
        raise ValueError("a rated game needs two seats or more, each with a place")
    teams = [[MODEL.create_rating([s.mu, s.sigma])] for s in skills]
    after = MODEL.rate(teams, ranks=[float(r) for r in ranks])
    return [Skill(team[0].mu, team[0].sigma) for team in after]
