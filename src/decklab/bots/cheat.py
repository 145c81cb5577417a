"""``cheat``: UCT on the true state, hidden cards and all. For analysis only.

It shows how much a game's hidden information is worth (cheat's edge over
``pimc``/``ismcts`` at the same budget) and gives an upper reference for
hints. It is marked unfair, listed apart, and never chosen as a default opponent.
"""

from __future__ import annotations

from typing import ClassVar, Final

from decklab.bots.base import SEED, Agent, parse_params
from decklab.bots.registry import register_agent
from decklab.bots.search import SEARCH_PARAMS, RolloutPolicy, SearchAgent, Tree, run_budget
from decklab.engine.state import GameState


class CheatAgent(SearchAgent):
    """UCT (decoupled in simultaneous rounds) on the true state: it sees every card."""

    name = "cheat"
    method = "cheat (sees hidden cards)"
    fair: ClassVar[bool] = False

    def search(self, state: GameState, seat: int, rollout: RolloutPolicy) -> tuple[list[Tree], str]:
        tree = self.new_tree(rollout, seat)

        def step(_: int) -> None:
            tree.iterate(state.clone())

        run_budget(self.budget, step)
        return [tree], "on the true state"


PARAMS: Final = (*SEARCH_PARAMS, SEED)


def _make(params: dict[str, str]) -> Agent:
    return CheatAgent.from_params(parse_params("cheat", params, PARAMS))


register_agent(
    "cheat",
    _make,
    "UCT on the true state, seeing hidden cards (analysis only, unfair)",
    fair=False,
    params=PARAMS,
)
