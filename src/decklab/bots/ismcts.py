"""``ismcts``: Single-Observer Information Set MCTS (Cowling, Powley & Whitehouse 2012).

Each iteration samples a deal consistent with what the seat may know
(``state.determinize(seat, rng)``) and descends one shared tree, so the tree's
statistics are averages over the deals the seat cannot tell apart: it never
plans on a hidden card, unlike ``pimc`` which plans on each sampled deal as if
it were the truth. The tree itself is in :mod:`decklab.bots.search`.
"""

from __future__ import annotations

from decklab.bots.base import SEED, Agent, parse_params, register_agent
from decklab.bots.search import SEARCH_PARAMS, RolloutPolicy, SearchAgent, Tree, run_budget
from decklab.engine.state import GameState


class IsmctsAgent(SearchAgent):
    """One tree over the seat's information set; a fresh determinization per iteration."""

    name = "ismcts"
    method = "ISMCTS"

    def search(self, state: GameState, seat: int, rollout: RolloutPolicy) -> tuple[list[Tree], str]:
        tree = self.new_tree(rollout)
        rng = self.rng

        def step(_: int) -> None:
            tree.iterate(state.determinize(seat, rng))

        run_budget(self.budget, step)
        return [tree], "over freshly sampled deals"


PARAMS = (*SEARCH_PARAMS, SEED)


def _make(params: dict[str, str]) -> Agent:
    return IsmctsAgent.from_params(parse_params("ismcts", params, PARAMS))


register_agent(
    "ismcts",
    _make,
    "information set MCTS: one tree over deals sampled from what the seat may know",
    params=PARAMS,
)
