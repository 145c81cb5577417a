"""Beliefs inferred from what the other seats did (issue 20).

``state.determinize`` deals the hidden cards uniformly among the deals consistent with
the seat's view. But the others' moves say more than which deals are *possible*: a
player who could have made a pair with a card it held, and did not, probably does not
hold it. Here a sampled world is weighed by how likely the others' observed moves are
under an opponent model — the game's greedy ratings (``action_values``) through a
softmax of temperature ``tau`` — the product over their past decisions:

    w(world) = Π softmax(values(position) / tau)[observed action]

and worlds are drawn in proportion to that weight (sampling-importance-resampling:
uniform determinizations are the proposal, the weight turns them into the posterior
under the model).

The weight needs each past decision's position *as it was in that world*, which the
generic interface cannot rebuild; a game that can ships
``beliefs.past_decisions(state, world, seat)`` in its folder, yielding
``(position, actor, action)`` for every past move of another seat. A game without it,
or a state without a known deal, keeps uniform beliefs.

Cost: one replay of the game so far and one rating of each of the others' past
decisions per candidate world. So candidates are drawn once per decision (a pool of
``k``), weighed once, and each search iteration resamples one of them by weight; a game
may reshuffle what no weight depends on (``beliefs.redraw_unweighed``, e.g. the order
of the decks still to be drawn), so that the pool does not fix the future too.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable, Iterator
from typing import Final, cast

from decklab.bots.greedy import ValuesFn, game_values
from decklab.engine.gamecode import game_function
from decklab.engine.state import GameState

DecisionsFn = Callable[[GameState, GameState, int], Iterator[tuple[GameState, int, int]]]
"""``past_decisions(state, world, seat)``: the others' past ``(position, actor, action)``."""

RedrawFn = Callable[[GameState, int, random.Random], None]
"""``redraw_unweighed(world, seat, rng)``: reshuffle, in place, what no weight depends on."""

DEFAULT_TAU: Final = 1.0
"""The softmax temperature, in the units of the game's greedy ratings."""


def game_decisions(cls: type[GameState]) -> DecisionsFn | None:
    """The game's ``beliefs.past_decisions``, or None (then beliefs stay uniform)."""
    return cast(DecisionsFn | None, game_function(cls, "beliefs", "past_decisions"))


def log_likelihood(
    decisions: Iterable[tuple[GameState, int, int]], values_fn: ValuesFn, tau: float
) -> float:
    """log Π softmax(values / tau)[action] over ``decisions`` (−inf if an action was not
    even rated: the model says that world could not have produced it)."""
    total = 0.0
    rng = random.Random(0)  # the ratings' own stream: the weight is a function of the world
    for position, actor, action in decisions:
        values = values_fn(position, actor, rng)
        if len(values) < 2:
            continue  # a forced move says nothing
        mine = values.get(action)
        if mine is None:
            return -math.inf
        top = max(values.values())
        norm = sum(math.exp((v - top) / tau) for v in values.values())
        total += (mine - top) / tau - math.log(norm)
    return total


def game_redraw(cls: type[GameState]) -> RedrawFn | None:
    """The game's ``beliefs.redraw_unweighed``, or None (a drawn world is used as it is)."""
    return cast(RedrawFn | None, game_function(cls, "beliefs", "redraw_unweighed"))


class BeliefSampler:
    """``k`` uniform determinizations of ``state`` for ``seat``, weighed by the opponent
    model's likelihood of the others' moves; :meth:`draw` resamples one by weight."""

    def __init__(
        self,
        state: GameState,
        seat: int,
        k: int,
        rng: random.Random,
        tau: float = DEFAULT_TAU,
    ) -> None:
        self.worlds = [state.determinize(seat, rng) for _ in range(k)]
        self.log_weights = [-math.inf] * k
        self.rng = rng
        self.seat = seat
        self.redraw = game_redraw(type(state))
        decisions = game_decisions(type(state))
        values_fn = game_values(type(state))
        if decisions is None or values_fn is None or state.initial_setup is None:
            self.log_weights = [0.0] * k  # uniform: nothing to infer from
        else:
            for i, world in enumerate(self.worlds):
                self.log_weights[i] = log_likelihood(decisions(state, world, seat), values_fn, tau)
        top = max(self.log_weights)
        if top == -math.inf:  # no world explains the moves (a model that rates too few)
            self.weights = [1.0] * k
        else:
            self.weights = [math.exp(w - top) for w in self.log_weights]
        self.cumulative: list[float] = []
        acc = 0.0
        for w in self.weights:
            acc += w
            self.cumulative.append(acc)

    @property
    def effective(self) -> float:
        """The effective sample size (Σw)² / Σw²: 1 when one world takes all the weight."""
        total = sum(self.weights)
        return total * total / sum(w * w for w in self.weights)

    def index(self) -> int:
        """A world's index, drawn in proportion to its weight."""
        x = self.rng.random() * self.cumulative[-1]
        lo, hi = 0, len(self.cumulative) - 1
        while lo < hi:
            mid = (lo + hi) // 2
            if self.cumulative[mid] > x:
                hi = mid
            else:
                lo = mid + 1
        return lo

    def draw(self) -> GameState:
        """A fresh copy of a world drawn by weight (the search may change it), with what the
        weight does not depend on (future chance) drawn anew where the game says what."""
        world = self.worlds[self.index()].clone()
        if self.redraw is not None:
            self.redraw(world, self.seat, self.rng)
        return world


def world_source(
    state: GameState, seat: int, rng: random.Random, k: int, tau: float = DEFAULT_TAU
) -> Callable[[], GameState]:
    """Where a search gets its sampled worlds: uniform determinizations for ``k == 0``
    (the same calls on ``rng`` as before beliefs existed), else a :class:`BeliefSampler`."""
    if k <= 0:
        return lambda: state.determinize(seat, rng)
    return BeliefSampler(state, seat, k, rng, tau).draw
