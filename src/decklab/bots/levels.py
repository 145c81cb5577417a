"""Levels a person can choose: ``beginner``, ``casual``, ``strong`` and ``expert``.

A person who has just learned the rules wants an opponent they can beat, and
one who knows the game wants one that is hard to beat; the agents' own specs
(``ismcts:iters=48,root=halving,...``) mean nothing to either. Each level is an
agent name that stands for one configuration of the agents that exist already,
so the terminal, the web lobby, the server and the arena name them alike:

- ``beginner``: the game's greedy player with noise. It often plays the move a
  greedy player would, otherwise one of the few best-rated moves, and never an
  *absurd* one (:func:`absurd_moves`): a move rated far below the best by the
  game's own ratings, or one the game itself calls absurd.
- ``casual``: the game's greedy player.
- ``strong``: the expert on a quarter of its budget (fewer search iterations,
  fewer sampled deals for a game's own expert).
- ``expert``: the expert (registered in :mod:`decklab.bots.expert`).

docs/strength.md ("Levels") measures each level against the next.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Final, cast

from decklab.bots.base import SEED, Agent, Hint, Param, make_rng, parse_params
from decklab.bots.expert import ExpertAgent
from decklab.bots.explain import explained
from decklab.bots.greedy import (
    GreedyAgent,
    best_first,
    game_greedy,
    game_values,
    one_ply_values,
)
from decklab.bots.registry import register_agent
from decklab.engine.gamecode import game_function
from decklab.engine.state import GameState

LEVELS: Final[dict[str, str]] = {
    "beginner": "greedy moves with noise, never an absurd one: for a person who just learned the rules",
    "casual": "the game's greedy player: sound moves, no look ahead",
    "strong": "the expert on a quarter of its budget",
    "expert": "the strongest fair player",
}
"""The levels, weakest first, with what each plays like (for menus and ``decklab bots``)."""

ABSURD_SHARE: Final = 0.5
"""A move is absurd when it is rated below the best by more than this share of the
gap between the best and the worst legal move. Ratings come in each game's own
units, so only a share of their spread is comparable from game to game."""

RatingsFn = Callable[[GameState, int, random.Random], dict[int, float]]
"""``ratings(state, seat, rng) -> {action: rating}`` in ``decklab.games.<package>.levels``:
a game's own ratings for the levels where its greedy player offers no ``action_values``
(or offers ones the levels should not use), higher is better, from the seat's view."""


def game_ratings(cls: type[GameState]) -> RatingsFn | None:
    """The game's ``levels.ratings``, or None."""
    return cast("RatingsFn | None", game_function(cls, "levels", "ratings"))


AbsurdFn = Callable[[GameState, int, int], bool]
"""``absurd(state, seat, action) -> bool`` in ``decklab.games.<package>.levels``: a game's
own word on moves no one who knows the rules would make (given a determinization)."""


def absurd_moves(values: dict[int, float], share: float = ABSURD_SHARE) -> set[int]:
    """The moves rated far below the best (``values``: higher is better)."""
    if not values:
        return set()
    best, worst = max(values.values()), min(values.values())
    floor = best - share * (best - worst)
    return {a for a, v in values.items() if v < floor}


def move_ratings(state: GameState, seat: int, rng: random.Random) -> dict[int, float]:
    """Each legal move's rating, higher is better, from what ``seat`` may know.

    The game's own ratings for the levels (``ratings`` in its ``levels`` module), else
    its ``action_values`` (its greedy player's ratings), on a sampled deal; else the
    generic one-ply lookahead. The greedy player's own move is lifted to the top, so
    that the greedy move is never called absurd.
    """
    sample = state.determinize(seat, rng)
    rate = game_ratings(type(state)) or game_values(type(state))
    if rate is not None:
        values = dict(rate(sample, seat, rng))
    else:
        values = one_ply_values(state, seat, rng, 4)
    legal = state.legal_actions(seat)
    values = {a: float(values.get(a, min(values.values(), default=0.0))) for a in legal}
    rule_based = game_greedy(type(state))
    if rule_based is not None:
        first = rule_based(sample, seat, rng)
        if first in values:
            values[first] = max(values.values())
    return values


class BeginnerAgent(Agent):
    """Greedy with noise: the greedy move most of the time, else one of the top few sound ones."""

    name = "beginner"

    def __init__(self, seed: int | None = None, noise: float = 0.5, top: int = 3) -> None:
        self.rng = make_rng(seed)
        self.noise = noise
        self.top = top

    def allowed(self, state: GameState, seat: int) -> tuple[dict[int, float], list[int]]:
        """The ratings, and the moves a beginner may play: best first, none absurd."""
        values = move_ratings(state, seat, self.rng)
        legal = state.legal_actions(seat)
        ranked = best_first(state, seat, legal, values.__getitem__)  # ties: the game's order
        bad = absurd_moves(values)
        own = cast("AbsurdFn | None", game_function(type(state), "levels", "absurd"))
        if own is not None:
            sample = state.determinize(seat, self.rng)
            bad |= {a for a in ranked[1:] if own(sample, seat, a)}
        return values, [a for a in ranked if a not in bad] or ranked[:1]

    def choose(self, state: GameState, seat: int) -> int:
        return self.hint(state, seat).action

    def hint(self, state: GameState, seat: int) -> Hint:
        legal = state.legal_actions(seat)
        if not legal:
            raise ValueError(f"p{seat + 1} has nothing to do now")
        if len(legal) == 1:
            return Hint(legal[0], state.action_to_string(seat, legal[0]), "the only legal action")
        values, fine = self.allowed(state, seat)
        if self.rng.random() < self.noise:
            action = self.rng.choice(fine[: self.top])
            how = f"one of its {min(self.top, len(fine))} best-rated moves, at random"
        else:
            action = fine[0]
            how = "the best-rated move"
        text = {a: state.action_to_string(seat, a) for a in legal}
        hint = Hint(
            action,
            text[action],
            f"beginner: {how} (never one rated far below the best)",
            values={text[a]: v for a, v in values.items()},
        )
        return explained(state, seat, hint, lower_is_better=False, unit="rating points")


_BEGINNER: Final = (
    SEED,
    Param(
        "noise",
        float,
        0.5,
        "how often it plays one of the top moves at random instead of the best",
        minimum=0.0,
        maximum=1.0,
    ),
    Param("top", int, 3, "how many of the best-rated moves the noise picks from", minimum=1),
)

STRONG_ITERS: Final = 48
"""The expert's search budget is 192 iterations a decision; strong has a quarter."""
STRONG_SAMPLES: Final = 6
"""Sampled deals a decision for a game's own expert (the Cabin's uses 24)."""


def _beginner(params: dict[str, str]) -> Agent:
    got = parse_params("beginner", params, _BEGINNER)
    return BeginnerAgent(got["seed"], got["noise"], got["top"])


def _casual(params: dict[str, str]) -> Agent:
    got = parse_params("casual", params, (SEED,))
    agent = GreedyAgent(got["seed"])
    agent.name = "casual"
    return agent


def _strong(params: dict[str, str]) -> Agent:
    got = parse_params("strong", params, (SEED,))
    agent = ExpertAgent(got["seed"], STRONG_ITERS, samples=STRONG_SAMPLES)
    agent.name = "strong"
    return agent


register_agent("beginner", _beginner, LEVELS["beginner"], params=_BEGINNER)
register_agent("casual", _casual, LEVELS["casual"] + " (= greedy)", params=(SEED,))
register_agent(
    "strong",
    _strong,
    LEVELS["strong"]
    + f" (search: {STRONG_ITERS} iterations; a game's own expert: {STRONG_SAMPLES} deals)",
    params=(SEED,),
)
