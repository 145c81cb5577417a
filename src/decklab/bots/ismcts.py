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
difference the move makes. ``root=race`` drops a move only when it is clearly
worse. Both are :class:`~decklab.bots.search.SearchAgent`'s (``cheat`` has them
too); here the shared deals are sampled from what the seat may know.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from decklab.bots.base import SEED, Agent, Param, parse_params
from decklab.bots.beliefs import DEFAULT_TAU, world_source
from decklab.bots.registry import register_agent
from decklab.bots.search import (
    ROOT_PARAM,
    SEARCH_PARAMS,
    RolloutPolicy,
    SearchAgent,
    Tree,
    run_budget,
)
from decklab.engine.state import GameState


class IsmctsAgent(SearchAgent):
    """One tree over the seat's information set; a fresh determinization per iteration."""

    name = "ismcts"
    method = "ISMCTS"

    belief: int = 0
    """Candidate worlds weighed by the others' observed moves per decision (0: uniform
    determinizations, the behaviour before beliefs; ``bots/beliefs.py``; set by
    from_params, like ``root``).

    Attributes rather than an ``__init__`` that forwards ``*args, **kwargs`` to
    SearchAgent's: compiled by mypyc, such forwarding passes the arguments wrongly.
    """
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
        how = self.root_decision(state, seat, tree)
        if how is not None:
            return [tree], how

        def step(_: int) -> None:
            tree.iterate(draw())

        run_budget(self.budget, step)
        return [tree], "over freshly sampled deals"

    def root_worlds(self, state: GameState, seat: int) -> Callable[[], GameState]:
        """The deals the root's moves share (``root=halving``, ``race``): this decision's
        world source, weighed by ``belief`` (:meth:`search` sets it; a direct call makes one)."""
        if self.draw_world is None:
            self.draw_world = world_source(state, seat, self.rng, self.belief, self.tau)
        return self.draw_world


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
    ROOT_PARAM,
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
