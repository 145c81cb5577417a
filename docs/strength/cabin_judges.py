"""The Cabin: judging the bound's close candidates by a fair player's play (issue 20).

The expert (``expert.action_values``) judges a move on a sampled deal by the
solver's bound *as if that deal were known* (strategy fusion): it credits a
move for what only a player who saw the order of the sea could save. A first
fair judge (:func:`fair_values`, below) played the bound's 3 best moves out with a
fair player on 8 sampled deals each and was worse: too few rollouts to separate
moves half a point apart. Here rollouts are spent only where the bound cannot
tell the candidates apart (within ``margin`` of its best), many of them, and
*paired*: every candidate is played out on the same sampled deals, with the
same random stream for the player that plays on, so that what differs between
candidates is the move and not the luck of the deal. The player that plays on
does not see the sampled deal: it deals the hidden cards out afresh from its
own view at every decision (the expert on ``inner`` samples). The move played
is the bound's best unless a candidate beats it by ``switch`` standard errors
of the paired difference: where the rollouts cannot tell, the bound decides.
Only the view is read, directly or through :meth:`CabinState.determinize`.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from typing import Final

from decklab.games.cabin.expert import SAMPLES, action_values, expert_action
from decklab.games.cabin.solver import Search, root_moves
from decklab.games.cabin.state import PLACE, CabinState

MARGIN: Final = 1.0
"""Candidates: the moves the bound rates within this many squid points of its best."""
WIDTH: Final = 3
"""At most this many candidates, the bound's best first."""
ROLLOUTS: Final = 16
"""Sampled deals each candidate is played out on."""
INNER: Final = 2
"""Sampled deals per decision of the player that plays on."""
SWITCH: Final = 1.0
"""Standard errors by which a candidate must beat the bound's best to be played instead."""


def candidates(
    state: CabinState, seat: int, rng: random.Random, margin: float = MARGIN, width: int = WIDTH
) -> list[int]:
    """The moves the bound rates within ``margin`` of its best, best first (ties in the
    legal order), at most ``width``."""
    bounds = action_values(state, seat, rng, SAMPLES)
    legal = state.legal_actions(seat)
    ranked = sorted(bounds, key=lambda a: (bounds[a], legal.index(a)))
    if not ranked:
        return legal[:1]
    best = bounds[ranked[0]]
    return [a for a in ranked if bounds[a] <= best + margin][:width]


def play_out(state: CabinState, seat: int, stream: random.Random, inner: int) -> float:
    """The squid points a fair player (the expert on ``inner`` samples, by the bound alone:
    the cheap one) loses from ``state``."""
    start = state.points
    while not state.is_terminal():
        moves = state.legal_actions(seat)
        move = moves[0] if len(moves) == 1 else expert_action(state, seat, stream, inner, 0)
        state.apply(seat, move)
    return state.points - start


def outcomes(
    state: CabinState,
    seat: int,
    rng: random.Random,
    moves: list[int],
    rollouts: int = ROLLOUTS,
    inner: int = INNER,
) -> dict[int, list[float]]:
    """Each move's squid points still to lose, one per sampled deal, the same deals and
    the same stream of the player that plays on for every move (paired)."""
    return paired(state, seat, rng, moves, rollouts, lambda t, s: play_out(t, seat, s, inner))


Finish = Callable[[CabinState, random.Random], float]
"""The squid points still lost from a trial after its move, given the player's stream."""


def paired(
    state: CabinState,
    seat: int,
    rng: random.Random,
    moves: list[int],
    deals: int,
    finish: Finish,
) -> dict[int, list[float]]:
    """Each move's squid points still to lose on ``deals`` sampled deals: the move's own
    loss plus ``finish``'s, every move on the same deals with the same random stream for
    the player that plays on (paired), so that what differs is the move, not the luck."""
    got: dict[int, list[float]] = {a: [] for a in moves}
    for _ in range(deals):
        deal = state.determinize(seat, rng)
        seed = rng.getrandbits(64)
        for action in moves:
            trial = deal.clone()
            before = trial.points
            trial.apply(seat, action)
            lost = trial.points - before
            got[action].append(lost + finish(trial, random.Random(seed)))
    return got


def bound(state: CabinState) -> int:
    """The solver's admissible bound on the squid points still to lose from ``state``, a
    sampled deal: what could be saved knowing its order (clairvoyant from here on)."""
    if state.is_terminal():
        return 0
    search = Search.from_state(state)
    placing = state.pending if state.phase == PLACE else -1
    moves = root_moves(search, search.root(state.keys, placing), placing, prune=False)
    return min(cost + (search.quick_bound(child) if child.rem else 0) for _c, cost, child in moves)


def shallow(
    state: CabinState,
    seat: int,
    rng: random.Random,
    moves: list[int],
    samples: int,
    depth: int,
    inner: int = INNER,
) -> dict[int, list[float]]:
    """Each move's squid points still to lose on ``samples`` sampled deals when a fair player
    (the expert on ``inner`` samples) makes the next ``depth`` decisions and the solver's
    bound, clairvoyant, judges the rest; paired as :func:`outcomes` is."""

    def finish(trial: CabinState, stream: random.Random) -> float:
        after = trial.points
        made = 0
        while made < depth and not trial.is_terminal():
            legal = trial.legal_actions(seat)
            if len(legal) == 1:
                trial.apply(seat, legal[0])
                continue
            trial.apply(seat, expert_action(trial, seat, stream, inner, 0))
            made += 1
        return trial.points - after + bound(trial)

    return paired(state, seat, rng, moves, samples, finish)


def choose(got: dict[int, list[float]], order: list[int], switch: float = SWITCH) -> int:
    """The first move of ``order`` unless another beats it by ``switch`` standard errors of
    the paired difference (the one that beats it most in mean)."""
    first = order[0]
    best, best_mean = first, 0.0
    for action in order[1:]:
        diffs = [b - a for a, b in zip(got[first], got[action], strict=True)]
        n = len(diffs)
        mean = sum(diffs) / n
        var = sum((d - mean) ** 2 for d in diffs) / (n - 1) if n > 1 else 0.0
        se = math.sqrt(var / n)
        if mean < best_mean and mean < -switch * se:
            best, best_mean = action, mean
    return best


def rollout_action(
    state: CabinState,
    seat: int,
    rng: random.Random,
    margin: float = MARGIN,
    rollouts: int = ROLLOUTS,
    inner: int = INNER,
    switch: float = SWITCH,
) -> int:
    """The bound's best move, or a close candidate that fair play-outs show is better."""
    legal = state.legal_actions(seat)
    if len(legal) == 1:
        return legal[0]
    order = candidates(state, seat, rng, margin)
    if len(order) == 1:
        return order[0]
    return choose(outcomes(state, seat, rng, order, rollouts, inner), order, switch)


# The first fair judge: the bound's best few, each played out on a handful of deals.

FAIR_ROLLOUTS: Final = 8
"""Sampled deals per candidate in :func:`fair_values`."""
FAIR_INNER: Final = 4
"""Sampled deals per decision of the player that plays on in :func:`fair_values`."""
FAIR_WIDTH: Final = 3
"""Candidates :func:`fair_values` plays out: the best by the clairvoyant bound."""


def fair_values(
    state: CabinState,
    seat: int,
    rng: random.Random,
    samples: int = FAIR_ROLLOUTS,
    inner: int = FAIR_INNER,
    width: int = FAIR_WIDTH,
) -> dict[int, float]:
    """The best candidates' mean squid points still to lose when a fair player plays on.

    :func:`action_values` judges a move on a sampled deal by what could still be
    saved *knowing that deal*: it rates a move that only pays off if you know the
    order of the sea as if you did (strategy fusion), and the expert ended 6.2 squid
    points above the clairvoyant bound (issue 20). Here the ``width`` moves it rates
    best are each played on the same ``samples`` sampled deals and the game is
    played to its end by a player that does *not* see the sampled deal: the
    expert with ``inner`` samples per decision, which deals the hidden cards out
    afresh from its view every time. A move's value is then what a fair player
    really gets after it, on average over deals consistent with the view; the
    comparison is paired (same deals, same random stream for every move). Only
    the view is read, directly or through :meth:`CabinState.determinize`.
    """
    bounds = action_values(state, seat, rng)
    legal = state.legal_actions(seat)
    ranked = sorted(bounds, key=lambda a: (bounds[a], legal.index(a)))[:width]
    if len(ranked) <= 1:
        return {a: bounds[a] for a in ranked}

    def finish(trial: CabinState, stream: random.Random) -> float:
        after = trial.points
        while not trial.is_terminal():
            moves = trial.legal_actions(seat)
            move = moves[0] if len(moves) == 1 else expert_action(trial, seat, stream, inner)
            trial.apply(seat, move)
        return trial.points - after

    got = paired(state, seat, rng, ranked, samples, finish)
    return {a: sum(got[a]) / samples for a in ranked}


def fair_action(
    state: CabinState,
    seat: int,
    rng: random.Random,
    samples: int = FAIR_ROLLOUTS,
    inner: int = FAIR_INNER,
    width: int = FAIR_WIDTH,
) -> int:
    """The move with the fewest squid points expected from a fair player after it
    (:func:`fair_values`); ties in the legal order."""
    legal = state.legal_actions(seat)
    if len(legal) == 1:
        return legal[0]
    values = fair_values(state, seat, rng, samples, inner, width)
    if not values:
        return legal[0]
    return min(values, key=lambda a: (values[a], legal.index(a)))
