"""``ismcts``: Single-Observer Information Set MCTS (Cowling, Powley & Whitehouse 2012).

Each iteration samples a deal consistent with what the seat may know
(``state.determinize(seat, rng)``) and descends one shared tree, so the tree's
statistics are averages over the deals the seat cannot tell apart: it never
plans on a hidden card, unlike ``pimc`` which plans on each sampled deal as if
it were the truth. The tree itself is in :mod:`decklab.bots.search`.

At a root where the seat alone decides, ``root=halving`` spends the budget by
sequential halving (Karnin, Koren & Somekh 2013) instead of UCB: every
candidate move is played on the *same* sampled deals with the same random
stream (common random numbers), the worse half is dropped, and so on. At a
few dozen iterations UCB's estimates of close moves are mostly the luck of
the deal; measured on shared deals the luck cancels and what is left is the
difference the move makes.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from typing import Any, Final

from decklab.bots.base import SEED, Agent, Param, parse_params
from decklab.bots.beliefs import DEFAULT_TAU, world_source
from decklab.bots.registry import register_agent
from decklab.bots.search import (
    SEARCH_PARAMS,
    RolloutPolicy,
    SearchAgent,
    Tree,
    in_simultaneous_round,
    run_budget,
)
from decklab.engine.state import GameState


class IsmctsAgent(SearchAgent):
    """One tree over the seat's information set; a fresh determinization per iteration."""

    name = "ismcts"
    method = "ISMCTS"

    root: str = "ucb"
    """How the root's moves share the budget: ``ucb`` or ``halving`` (set by from_params).

    An attribute rather than an ``__init__`` that forwards ``*args, **kwargs`` to
    SearchAgent's: compiled by mypyc, such forwarding passes the arguments wrongly.
    """

    belief: int = 0
    """Candidate worlds weighed by the others' observed moves per decision (0: uniform
    determinizations, the behaviour before beliefs; ``bots/beliefs.py``)."""
    tau: float = DEFAULT_TAU
    """The softmax temperature of the opponent model for ``belief``."""
    draw_world: Callable[[], GameState] | None = None
    """This decision's source of sampled worlds (set by :meth:`search`)."""

    @classmethod
    def from_params(cls, params: dict[str, Any]) -> SearchAgent:
        agent = cls(**cls.common_args(params))
        agent.root = params["root"]
        agent.belief = params["belief"]
        agent.tau = params["tau"]
        return agent

    def search(self, state: GameState, seat: int, rollout: RolloutPolicy) -> tuple[list[Tree], str]:
        self.draw_world = world_source(state, seat, self.rng, self.belief, self.tau)
        try:
            return self._search(state, seat, rollout, self.draw_world)
        finally:
            self.draw_world = None  # a world source serves one decision only

    def _search(
        self,
        state: GameState,
        seat: int,
        rollout: RolloutPolicy,
        draw: Callable[[], GameState],
    ) -> tuple[list[Tree], str]:
        tree = self.new_tree(rollout, seat)
        if self.root == "halving" and not in_simultaneous_round(state):
            return [tree], self.halving(state, seat, tree)
        if self.root == "race" and not in_simultaneous_round(state):
            return [tree], self.race(state, seat, tree)

        def step(_: int) -> None:
            tree.iterate(draw())

        run_budget(self.budget, step)
        return [tree], "over freshly sampled deals"

    def _source(self, state: GameState, seat: int) -> Callable[[], GameState]:
        """This decision's world source (:meth:`search` sets it; a direct call makes one)."""
        if self.draw_world is None:
            self.draw_world = world_source(state, seat, self.rng, self.belief, self.tau)
        return self.draw_world

    def candidates(self, state: GameState, seat: int) -> list[int]:
        """The root moves to compare: the game's top ``topk`` where it ranks moves, else all.

        Ranked best first, so that a tie keeps the move the game's own player prefers.
        """
        legal = list(state.legal_actions(seat))
        if self._values_fn is None or not self.topk:
            if self._prior_fn is not None:
                first = self._prior_fn(state.determinize(seat, self.rng), seat, self.rng)
                legal.remove(first)
                legal.insert(0, first)
            return legal
        values = self._values_fn(state.determinize(seat, self.rng), seat, self.rng)
        return sorted(legal, key=lambda a: -values.get(a, -math.inf))[: self.topk]

    def halving(self, state: GameState, seat: int, tree: Tree) -> str:
        """Sequential halving over the root moves on shared deals; sets ``tree.chosen``.

        Each round gets an equal share of the budget but plays every remaining
        move at least once, so without ``topk`` a root with many moves spends
        more than the budget: pair it with ``topk`` (the report does).
        """
        rng = self.rng
        draw = self._source(state, seat)
        alive = self.candidates(state, seat)
        rounds = max(1, math.ceil(math.log2(len(alive))))
        kids = tree.root.kids
        for _ in range(rounds):
            if len(alive) == 1:
                break
            group = list(alive)
            shared: list[Any] = [None, 0]

            def step(i: int, group: list[int] = group, shared: list[Any] = shared) -> None:
                slot = i % len(group)
                if slot == 0:
                    shared[0] = draw()
                    shared[1] = rng.getrandbits(64)
                tree.rng = random.Random(shared[1])
                tree.iterate(shared[0].clone(), force=group[slot])

            run_budget(self.budget, step, share=1.0 / rounds, minimum=len(group))
            tree.rng = rng

            def mean(a: int) -> float:
                child = kids.get(seat, {}).get(a)
                return child.total / child.visits if child is not None and child.visits else -1.0

            ranked = sorted(alive, key=lambda a: -mean(a))  # stable: ties keep the prior order
            alive = ranked[: math.ceil(len(alive) / 2)]
        tree.chosen = alive[0]
        return "by sequential halving on shared sampled deals"

    def race(self, state: GameState, seat: int, tree: Tree) -> str:
        """Race the root moves on shared deals; drop one only when it is clearly worse.

        Sequential halving drops half the moves after a fixed share of the budget,
        however close they were (issue 20: at 48 iterations a move was gone after
        6 deals, and twice the expert played a move whose mean was below one it had
        dropped). Here every move still in the race is played on each new sampled
        deal, with the same random stream, and a move is dropped only when its
        paired difference from the leader is clearly negative
        (:func:`race_moves`). Clear decisions end early; close ones get every deal
        the budget allows, and the final choice compares moves on the same deals.
        Sets ``tree.chosen``.
        """
        rng = self.rng
        draw = self._source(state, seat)
        kids = tree.root.kids
        shared: list[Any] = [None]

        def play(deal: int, move: int) -> float:
            if shared[0] is None or shared[0][0] != deal:
                shared[0] = (deal, draw(), rng.getrandbits(64))
            child = kids.get(seat, {}).get(move)
            before = child.total if child is not None else 0.0
            tree.rng = random.Random(shared[0][2])
            tree.iterate(shared[0][1].clone(), force=move)
            tree.rng = rng
            return kids[seat][move].total - before

        budget = self.budget
        deadline = None if budget.seconds is None else time.perf_counter() + budget.seconds
        tree.chosen = race_moves(
            self.candidates(state, seat),
            play,
            budget.iters,
            (lambda: time.perf_counter() >= deadline) if deadline is not None else None,
        )
        return "by a race on shared sampled deals (a move dropped only when clearly worse)"


RACE_Z: Final = 2.0
"""How many standard errors below the leader a move's paired mean difference must lie
to be dropped from a race: about a 2% chance of dropping a move that is as good."""
RACE_MIN_DEALS: Final = 6
"""Deals every move plays before any is dropped (a standard error needs a few)."""


def race_moves(
    moves: list[int],
    play: Callable[[int, int], float],
    iters: int | None,
    out_of_time: Callable[[], bool] | None = None,
    z: float = RACE_Z,
    min_deals: int = RACE_MIN_DEALS,
) -> int:
    """The move with the best mean reward on shared deals, raced within ``iters`` plays.

    ``play(deal, move)`` plays ``move`` on deal number ``deal`` and returns its reward;
    every move still in the race plays every deal, so any two of them are compared
    on the same deals (paired), which cancels the luck of the deal. After each deal
    (from ``min_deals`` on) a move is dropped when the leader's mean advantage over
    it exceeds ``z`` standard errors of the paired differences. The race ends when
    one move is left, the budget of plays is spent, or ``out_of_time()``. Ties keep
    the order of ``moves`` (the game's own preference first).
    """
    if len(moves) <= 1:
        return moves[0]
    alive = list(moves)
    rewards: dict[int, list[float]] = {m: [] for m in moves}
    limit = iters if iters is not None else 1 << 30
    used = 0
    deal = 0
    while len(alive) > 1 and used + len(alive) <= max(limit, len(alive)):
        for move in alive:
            rewards[move].append(play(deal, move))
        used += len(alive)
        deal += 1
        if deal >= min_deals:
            alive = _survivors(alive, rewards, deal, z)
        if out_of_time is not None and out_of_time():
            break
    return max(alive, key=lambda m: (math.fsum(rewards[m][-deal:]), -moves.index(m)))


def _survivors(
    alive: list[int], rewards: dict[int, list[float]], deals: int, z: float
) -> list[int]:
    """The moves not clearly worse than the leader over the last ``deals`` deals (all shared)."""
    sums = {m: math.fsum(rewards[m][-deals:]) for m in alive}
    leader = max(alive, key=lambda m: (sums[m], -alive.index(m)))
    best = rewards[leader][-deals:]
    kept = []
    for move in alive:
        if move == leader:
            kept.append(move)
            continue
        diffs = [b - r for b, r in zip(best, rewards[move][-deals:], strict=True)]
        mean = math.fsum(diffs) / deals
        var = math.fsum((d - mean) ** 2 for d in diffs) / (deals - 1)
        if mean <= 0.0 or mean * mean * deals <= z * z * var:
            kept.append(move)
    return kept


GUIDED: Final[dict[str, str]] = {
    "root": "race",
    "rollout": "greedy",
    "depth": "8",
    "prior": "greedy",
    "model": "1",
    "topk": "4",
    "margin": "0.7",
    "purify": "0.5",
    "gamma": "0.3",
}
"""The guidance of the strength report (docs/strength.md): the game's greedy player
as rollout policy, prior and model of the other seats, its ranking for the top 4
moves, a race on shared deals at the root (it replaced the report's sequential
halving: as accurate or more on a synthetic root, and a quarter cheaper a decision
in Lonely Face, since clear decisions end early; docs/strength.md). ``expert``
plays it where a game has no expert of its own."""

PARAMS: Final = (
    *SEARCH_PARAMS,
    Param(
        "root",
        str,
        "ucb",
        "how the root's moves share the budget: UCB, sequential halving on shared deals, or a "
        "race on shared deals that drops a move only when it is clearly worse",
        choices=("ucb", "halving", "race"),
    ),
    Param(
        "belief",
        int,
        0,
        "candidate worlds per decision weighed by how likely the others' moves are under "
        "the game's greedy ratings (0: uniform sampling; needs the game's beliefs module)",
        minimum=0,
    ),
    Param(
        "tau",
        float,
        DEFAULT_TAU,
        "softmax temperature of that opponent model, in the greedy ratings' units",
        minimum=0.001,
    ),
    SEED,
)


def _make(params: dict[str, str]) -> Agent:
    return IsmctsAgent.from_params(parse_params("ismcts", params, PARAMS))


register_agent(
    "ismcts",
    _make,
    "information set MCTS: one tree over deals sampled from what the seat may know",
    params=PARAMS,
)
