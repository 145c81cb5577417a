"""``cheat``: UCT on the true state, hidden cards and all. For analysis only.

It shows how much a game's hidden information is worth (cheat's edge over
``pimc``/``ismcts`` at the same budget) and gives an upper reference for
hints. It is marked unfair, listed apart, and never chosen as a default opponent.

It takes the same ``root`` option as ``ismcts`` (``SearchAgent.root_decision``):
with ``root=race`` it decides its root as the expert does, so ``cheat`` against
``expert`` measures what seeing the cards is worth and not a difference of root
method. Its shared "deals" are the true state each time; what the moves share is
each deal's random stream.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar, Final

from decklab.bots.base import SEED, Agent, parse_params
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


class CheatAgent(SearchAgent):
    """UCT (decoupled in simultaneous rounds) on the true state: it sees every card."""

    name = "cheat"
    method = "cheat (sees hidden cards)"
    fair: ClassVar[bool] = False
    root_deals = "the true state with shared random streams"

    @classmethod
    def from_params(cls, params: dict[str, Any]) -> SearchAgent:
        agent = cls(**cls.common_args(params))
        agent.root = params["root"]
        return agent

    def root_sample(self, state: GameState, seat: int) -> GameState:
        """The true state (a copy): cheat ranks its root moves seeing every card."""
        return state.clone()

    def root_worlds(self, state: GameState, seat: int) -> Callable[[], GameState]:
        """Every shared deal is (a copy of) the true state."""
        return state.clone

    def search(self, state: GameState, seat: int, rollout: RolloutPolicy) -> tuple[list[Tree], str]:
        tree = self.new_tree(rollout, seat)
        how = self.root_decision(state, seat, tree)
        if how is not None:
            return [tree], how

        def step(_: int) -> None:
            tree.iterate(state.clone())

        run_budget(self.budget, step)
        return [tree], "on the true state"


PARAMS: Final = (*SEARCH_PARAMS, ROOT_PARAM, SEED)


def _make(params: dict[str, str]) -> Agent:
    return CheatAgent.from_params(parse_params("cheat", params, PARAMS))


register_agent(
    "cheat",
    _make,
    "UCT on the true state, seeing hidden cards (analysis only, unfair)",
    fair=False,
    params=PARAMS,
)
