"""The ``expert`` agent: the strongest fair player each game offers.

A game may ship ``expert_action(state, seat, rng) -> int`` (and optionally
``action_values(state, seat, rng, samples, nodes) -> {action: value}`` for hints)
in ``decklab.games.<package>.expert`` — the Cabin's plays from its clairvoyant
solver run on deals sampled from what the player can see. Where a game has no
expert but a rule-based ``greedy`` player, ISMCTS guided by that player stands
in (the configuration of docs/strength.md at its ×4 budget, 192 iterations a
decision: clearly stronger than greedy in every game there, and about a tenth
of a second a move); a game's ``greedy`` module may add settings of that search
that suit it (``search_guidance()``, e.g. progressive widening). A game with
neither gets the generic greedy lookahead. Like ``greedy``, the game's function
is always handed a determinization, never the true state.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

from decklab.bots.base import SEED, Agent, Hint, Param, make_rng, parse_params
from decklab.bots.beliefs import DEFAULT_TAU
from decklab.bots.explain import explained
from decklab.bots.greedy import GreedyAgent, game_greedy, game_guidance
from decklab.bots.ismcts import GUIDED, IsmctsAgent
from decklab.bots.ismcts import PARAMS as ISMCTS_PARAMS
from decklab.bots.registry import register_agent
from decklab.bots.search import SearchAgent
from decklab.engine.gamecode import game_function
from decklab.engine.state import GameState


class ExpertAgent(Agent):
    """The game's own expert if it has one, else search guided by its greedy player."""

    name = "expert"

    def __init__(
        self,
        seed: int | None = None,
        iters: int = 192,
        seconds: float | None = None,
        samples: int | None = None,
        belief: int = 0,
        tau: float = DEFAULT_TAU,
    ) -> None:
        self.rng = make_rng(seed)
        self.samples = samples
        """Sampled deals a decision for a game's own expert (None: the game's default)."""
        self.fallback = GreedyAgent(seed)
        self.seed = seed
        self.budget = {"iters": str(iters)} | ({"time": str(seconds)} if seconds else {})
        if belief:  # the guided search's inferred beliefs (bots/beliefs.py); off by default
            self.budget |= {"belief": str(belief), "tau": str(tau)}
        self.search = self._searcher({})
        self.tuned: dict[type[GameState], SearchAgent] = {}
        """The search of a game with guidance of its own (``search_guidance``), by game."""

    def _searcher(self, guidance: dict[str, str]) -> SearchAgent:
        params = parse_params("ismcts", {**GUIDED, **guidance, **self.budget}, ISMCTS_PARAMS)
        return IsmctsAgent.from_params({**params, "seed": self.seed})

    def _search_for(self, cls: type[GameState]) -> SearchAgent:
        """The guided search for this game: ``GUIDED``, with the game's own settings if any."""
        guidance = game_guidance(cls)
        if not guidance:
            return self.search
        found = self.tuned.get(cls)
        if found is None:
            found = self.tuned[cls] = self._searcher(guidance)
        return found

    def reseed(self, seed: int) -> None:
        self.seed = seed
        self.rng.seed(seed)
        self.fallback.reseed(seed)
        self.search.reseed(seed)
        for search in self.tuned.values():
            search.reseed(seed)

    def choose(self, state: GameState, seat: int) -> int:
        own = game_function(type(state), "expert", "expert_action")
        if own is None and game_greedy(type(state)) is not None:
            return self._search_for(type(state)).choose(state, seat)  # no explanation needed
        return self.hint(state, seat).action

    def hint(self, state: GameState, seat: int) -> Hint:
        """The move, with its explanation: the runner-up from the values the search or
        the game's expert compared (search: mean rewards; an expert: the game's units)."""
        expert = game_function(type(state), "expert", "expert_action")
        if expert is None:
            if game_greedy(type(state)) is not None:
                return self._search_for(type(state)).hint(state, seat)  # explained by it
            return self.fallback.hint(state, seat)  # explained by greedy itself
        return explained(
            state, seat, self._own(expert, state, seat), lower_is_better=state.info.lower_is_better
        )

    def _own(self, expert: Callable[..., object], state: GameState, seat: int) -> Hint:
        """The game's own expert's move and values (in the game's units)."""
        legal = state.legal_actions(seat)
        if len(legal) == 1:
            return Hint(legal[0], state.action_to_string(seat, legal[0]), "the only legal action")
        sample = state.determinize(seat, self.rng)
        values_fn = game_function(type(state), "expert", "action_values")
        more = {} if self.samples is None else {"samples": self.samples}
        raw = cast(
            "dict[int, float]",
            values_fn(sample, seat, self.rng, **more) if values_fn is not None else {},
        )
        if raw:
            # The values are expected results in the game's units: pick the best
            # one in the game's direction, ties in legal order.
            sign = 1.0 if state.info.lower_is_better else -1.0
            action = min(raw, key=lambda a: (sign * raw[a], legal.index(a)))
        else:
            action = cast(int, expert(sample, seat, self.rng, **more))
        values = {state.action_to_string(seat, a): float(v) for a, v in raw.items()}
        reason = f"{state.info.title}'s expert: the best expected result on deals sampled from what you see"
        if raw:
            reason += f" ({raw[action]:.2f} {state.info.score_unit} expected)"
        return Hint(action, state.action_to_string(seat, action), reason, values=values)


_PARAMS = (
    SEED,
    Param(
        "iters",
        int,
        192,
        "iterations of the guided search per decision (games without an expert of their own)",
        minimum=1,
    ),
    Param(
        "time", float, None, "or seconds of it per decision, whichever ends first", minimum=0.001
    ),
    Param(
        "samples",
        int,
        None,
        "sampled deals per decision for a game's own expert (default: the game's)",
        minimum=1,
    ),
    Param(
        "belief",
        int,
        0,
        "the guided search's candidate worlds per decision weighed by the others' observed "
        "moves (0: uniform sampling, the default)",
        minimum=0,
    ),
    Param(
        "tau",
        float,
        DEFAULT_TAU,
        "softmax temperature of that opponent model (greedy ratings' units)",
        minimum=0.001,
    ),
)


def _make(params: dict[str, str]) -> Agent:
    got = parse_params("expert", params, _PARAMS)
    return ExpertAgent(
        got["seed"], got["iters"], got["time"], got["samples"], got["belief"], got["tau"]
    )


register_agent(
    "expert",
    _make,
    "the game's strongest fair player: the Cabin's sampled-deal solver, "
    "elsewhere ISMCTS guided by the game's greedy player",
    params=_PARAMS,
)
