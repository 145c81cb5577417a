"""The ``greedy`` agent: each game's own rule-based player, or a generic one-ply lookahead.

A game may ship ``greedy_action(state, seat, rng) -> int`` in a module
``decklab.games.<package>.greedy``; the per-game knowledge lives there, in the
game's folder, and this module only finds it. It is always handed a
determinization for the seat, never the true state, so even a rule-based
player that reads the state's fields directly cannot see a hidden card.

A game without one gets a generic fallback: try each legal action on a sampled
deal and keep the one with the best immediate change in the seat's score.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import replace
from typing import Final, cast

from decklab.bots.base import (
    SEED,
    Agent,
    Hint,
    Param,
    make_rng,
    parse_params,
)
from decklab.bots.explain import explained
from decklab.bots.registry import register_agent
from decklab.engine.gamecode import game_function
from decklab.engine.state import GameState

GreedyFn = Callable[[GameState, int, random.Random], int]
"""``greedy_action(state, seat, rng) -> action``, a game's own rule-based player."""

ValuesFn = Callable[[GameState, int, random.Random], dict[int, float]]
"""``action_values(state, seat, rng) -> {action: value}``: the greedy player's ratings."""
EstimateFn = Callable[[GameState], list[float]]
"""``expected_scores(state) -> [score per seat]``: a game's guess of the final scores."""
GuidanceFn = Callable[[], dict[str, str]]
"""``search_guidance() -> {param: value}``: a game's own settings for the expert's search."""
TieOrderFn = Callable[[GameState, int, list[int]], list[int]]
"""``tie_order(state, seat, moves) -> moves``: the order in which equally rated moves are kept."""


def game_greedy(cls: type[GameState]) -> GreedyFn | None:
    """The game's own ``greedy_action``, or None if its folder has no ``greedy`` module."""
    return cast(GreedyFn | None, game_function(cls, "greedy", "greedy_action"))


def game_values(cls: type[GameState]) -> ValuesFn | None:
    """The game's own ``action_values(state, seat, rng)``: how its greedy player rates each move.

    Search uses the ranking to look at a few promising moves instead of all of them.
    """
    return cast(ValuesFn | None, game_function(cls, "greedy", "action_values"))


def game_tie_order(cls: type[GameState]) -> TieOrderFn | None:
    """The game's own ``tie_order(state, seat, moves)``, or None: see :func:`best_first`."""
    return cast(TieOrderFn | None, game_function(cls, "greedy", "tie_order"))


def best_first(
    state: GameState, seat: int, moves: list[int], rating: Callable[[int], float]
) -> list[int]:
    """``moves`` best rated first; equally rated ones in the game's ``tie_order`` where it
    has one, else in the order given (sorting is stable).

    Bots keep the first few of this list (search's ``topk``, the fast bot's candidates,
    the beginner's best three), so the order of ties decides which moves are looked
    at. Where moves name seats, the order given lists them by seat number, a rule that
    treats seats by their numbers; a player meant to treat every seat alike must not
    (Notorious's all-expert tables of three leaned to p3, 38.4% of 800 games; issue
    20, docs/strength.md). Such a game lists ties from the deciding seat's own point of
    view, the same rule for every seat.
    """
    tie = game_tie_order(type(state))
    order = moves if tie is None else tie(state, seat, moves)
    return sorted(order, key=lambda a: -rating(a))


def game_estimate(cls: type[GameState]) -> EstimateFn | None:
    """The game's own ``expected_scores(state)``: a guess of every seat's final score.

    Search judges a game it cut off by it; without one, by the scores so far.
    """
    return cast(EstimateFn | None, game_function(cls, "greedy", "expected_scores"))


def game_guidance(cls: type[GameState]) -> dict[str, str]:
    """The game's own ``search_guidance()``: search parameters that suit it, or none.

    The expert's search is one configuration for every game (``ismcts.GUIDED``); a
    game whose measurements favour another setting of a generic parameter (say
    progressive widening) names it in its ``greedy`` module, so that no game is named
    in the search. A new dict each call: the caller may change it.
    """
    fn = cast(GuidanceFn | None, game_function(cls, "greedy", "search_guidance"))
    return dict(fn()) if fn is not None else {}


def one_ply_values(
    state: GameState, seat: int, rng: random.Random, samples: int = 8
) -> dict[int, float]:
    """Each legal action's mean immediate change in ``seat``'s score, on sampled deals.

    In a simultaneous round the other seats still to choose in this round fill in so
    that the round resolves and the action takes effect, as the game's greedy player
    would choose (uniformly at random where the game has none). That is the model a
    determinization draws the choices *already made* from (Corporation), so a seat
    rates its moves against the same opponents whether it chooses first or last.
    With a uniform fill the first seat to choose rated its moves against random
    opponents and the last against greedy ones: all-beginner Corporation tables, whose
    ratings this was until Corporation gave the levels its own (its ``levels.py``),
    gave p1 20.9% of the wins at 8 players (fair 12.5%, χ² p = 1.7e-6; issue 20).
    Every action is tried against the same samples (common random numbers), so the
    comparison is not drowned in sampling noise.
    """
    legal = state.legal_actions(seat)
    sign = -1.0 if state.info.lower_is_better else 1.0
    model = game_greedy(type(state))
    others = [s for s in state.to_act() if s != seat]
    count = samples if others or state.info.hidden_information else 1
    totals = dict.fromkeys(legal, 0.0)
    for _ in range(count):
        det = state.determinize(seat, rng)
        before = det.scores()[seat]
        fill_seed = rng.getrandbits(64)
        for action in legal:
            trial = det.clone()
            trial.apply(seat, action)
            fill = random.Random(fill_seed)
            waiting = set(others)
            while waiting:
                nxt = next((s for s in trial.to_act() if s in waiting), None)
                if nxt is None:
                    break
                waiting.discard(nxt)
                if model is not None:
                    trial.apply(nxt, model(trial, nxt, fill))
                else:
                    trial.apply(nxt, fill.choice(trial.legal_actions(nxt)))
            totals[action] += sign * (trial.scores()[seat] - before)
    return {a: v / count for a, v in totals.items()}


class GreedyAgent(Agent):
    """The game's rule-based player if it has one, else the one-ply score lookahead."""

    name = "greedy"

    def __init__(self, seed: int | None = None, samples: int = 8, mode: str = "auto") -> None:
        self.rng = make_rng(seed)
        self.samples = samples
        self.mode = mode

    def choose(self, state: GameState, seat: int) -> int:
        return self._move(state, seat)[0]

    def _move(self, state: GameState, seat: int) -> tuple[int, GameState | None, dict[int, float]]:
        """The move; the deal the game's own player chose it on, or the lookahead's values."""
        legal = state.legal_actions(seat)
        if not legal:
            raise ValueError(f"p{seat + 1} has nothing to do now")
        if len(legal) == 1:
            return legal[0], None, {}
        rule_based = game_greedy(type(state)) if self.mode == "auto" else None
        if rule_based is not None:
            sample = state.determinize(seat, self.rng)
            return rule_based(sample, seat, self.rng), sample, {}
        values = one_ply_values(state, seat, self.rng, self.samples)
        best = max(values.values())
        return self.rng.choice([a for a in legal if values[a] == best]), None, values

    def hint(self, state: GameState, seat: int) -> Hint:
        """The move, explained (:mod:`decklab.bots.explain`) against the next best by the
        game's own ratings (``action_values``) or by the lookahead's change in score.

        The ratings are asked after the move is chosen and on a copy of the random
        source, so that a hint draws the move exactly as :meth:`choose` does and
        leaves the agent's later moves as they were."""
        action, sample, values = self._move(state, seat)
        text = state.action_to_string(seat, action)
        title = state.info.title
        if sample is None and not values:
            return Hint(action, text, "the only legal action")
        if sample is not None:
            # The game's ratings, on a copy of the agent's random source: a hint must
            # leave the moves the agent plays next as they were.
            rate = game_values(type(state))
            aside = random.Random()
            aside.setstate(self.rng.getstate())
            ratings = dict(rate(sample, seat, aside)) if rate is not None else {}
            if ratings:  # its own move stands first: the others are said against it
                ratings[action] = max(ratings.get(action, -math.inf), *ratings.values())
            rated = Hint(
                action,
                text,
                f"{title}'s own rule-based player chose it",
                values={state.action_to_string(seat, a): float(v) for a, v in ratings.items()},
            )
            said = explained(state, seat, rated, unit="rating points", lower_is_better=False)
            # The ratings explain the move but did not choose it: kept out of ``values``,
            # which other code reads as what the agent compared (the lab's restricted
            # agent falls back on them).
            return replace(said, values={})
        unit = state.info.score_unit
        why = "mode=lookahead" if self.mode == "lookahead" else f"{title} has no rule-based player"
        hint = Hint(
            action,
            text,
            f"{why}, so: one-ply lookahead on sampled deals, "
            f"best immediate change in {unit} ({values[action]:+.2f})",
            values={state.action_to_string(seat, a): v for a, v in values.items()},
        )
        return explained(state, seat, hint, lower_is_better=False)


_PARAMS: Final = (
    SEED,
    Param("samples", int, 8, "sampled deals per decision in the generic lookahead", minimum=1),
    Param(
        "mode",
        str,
        "auto",
        "auto: the game's own player if it has one; lookahead: always the generic one",
        choices=("auto", "lookahead"),
    ),
)


def _make(params: dict[str, str]) -> Agent:
    got = parse_params("greedy", params, _PARAMS)
    return GreedyAgent(got["seed"], got["samples"], got["mode"])


register_agent(
    "greedy",
    _make,
    "the game's own rule-based player; one-ply score lookahead where a game has none",
    params=_PARAMS,
)
