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
from typing import Any, Final

from decklab.bots.base import SEED, Agent, Param, parse_params
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

    @classmethod
    def from_params(cls, params: dict[str, Any]) -> SearchAgent:
        agent = cls(**cls.common_args(params))
        agent.root = params["root"]
        return agent

    def search(self, state: GameState, seat: int, rollout: RolloutPolicy) -> tuple[list[Tree], str]:
        tree = self.new_tree(rollout, seat)
        rng = self.rng
        if self.root == "halving" and not in_simultaneous_round(state):
            return [tree], self.halving(state, seat, tree)

        def step(_: int) -> None:
            tree.iterate(state.determinize(seat, rng))

        run_budget(self.budget, step)
        return [tree], "over freshly sampled deals"

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
                    shared[0] = state.determinize(seat, rng)
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


GUIDED: Final[dict[str, str]] = {
    "root": "halving",
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
moves, sequential halving at the root. ``expert`` plays it where a game has no
expert of its own."""

PARAMS: Final = (
    *SEARCH_PARAMS,
    Param(
        "root",
        str,
        "ucb",
        "how the root's moves share the budget: UCB, or sequential halving on shared deals",
        choices=("ucb", "halving"),
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
