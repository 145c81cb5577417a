"""``pimc``: Perfect Information Monte Carlo, i.e. determinized UCT.

Sample ``dets`` deals consistent with the seat's view, search each as if its
cards were face up, with an equal share of the budget, and add up the root
statistics. It is the classic strong baseline for card games (Ginsberg's GIB),
and its known flaws (strategy fusion, no value for information) are what
``ismcts`` is measured against.
"""

from __future__ import annotations

from typing import Any, Final

from decklab.bots.base import SEED, Agent, Param, parse_params
from decklab.bots.registry import register_agent
from decklab.bots.search import (
    SEARCH_PARAMS,
    RolloutPolicy,
    SearchAgent,
    Tree,
    run_budget,
)
from decklab.engine.state import GameState


class PimcAgent(SearchAgent):
    """One plain UCT tree per sampled deal; the root visit counts are summed."""

    name = "pimc"
    method = "PIMC"

    dets: int = 20
    """Sampled deals, one tree each (set by from_params; the rest is SearchAgent's).

    An attribute rather than an ``__init__`` that forwards ``**settings`` to
    SearchAgent's: compiled by mypyc, such forwarding passes the arguments wrongly.
    """

    @classmethod
    def from_params(cls, params: dict[str, Any]) -> PimcAgent:
        agent = cls(**cls.common_args(params))
        agent.dets = params["dets"]
        return agent

    def search(self, state: GameState, seat: int, rollout: RolloutPolicy) -> tuple[list[Tree], str]:
        deals = [state.determinize(seat, self.rng) for _ in range(self.dets)]
        trees = []
        for deal in deals:
            tree = self.new_tree(rollout, seat)

            def step(_: int, tree: Tree = tree, deal: GameState = deal) -> None:
                tree.iterate(deal.clone())

            run_budget(self.budget, step, share=1.0 / self.dets)
            trees.append(tree)
        return trees, f"of UCT on {self.dets} sampled deals, each searched as if face up"


PARAMS: Final = (
    *SEARCH_PARAMS,
    Param("dets", int, 20, "sampled deals (determinizations) per decision", minimum=1),
    SEED,
)


def _make(params: dict[str, str]) -> Agent:
    return PimcAgent.from_params(parse_params("pimc", params, PARAMS))


register_agent(
    "pimc",
    _make,
    "determinized UCT: plain UCT on each of several sampled deals, root counts summed",
    params=PARAMS,
)
