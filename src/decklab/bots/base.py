"""The agent interface, hints, and the parameters agents declare.

An agent is built from a spec string (``ismcts:iters=2000,c=0.7``,
:mod:`decklab.bots.spec`) by the registry (:mod:`decklab.bots.registry`, which
imports this module and not the other way round) so that the command line, the
arena and the server name players the same way. Every agent declares its
parameters once (:class:`Param`); parsing, the error for a bad value and the
one-line help in ``decklab bots`` all come from that declaration.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Final

from mypy_extensions import mypyc_attr

from decklab.bots.spec import AgentSpecError
from decklab.engine.state import GameState


@dataclass(frozen=True)
class Hint:
    """What an agent would play and why, for a person at the table or a log.

    ``values`` are the numbers the agent compared, keyed by canonical action
    string (for search agents: the mean reward in [0, 1] of each root action);
    ``visits`` how often search tried each; ``policy`` the probabilities the
    action was drawn from when the agent plays a mixed strategy (simultaneous
    rounds), empty when it simply took the best.

    ``explanation`` says in the game's own words what the move keeps or builds and
    what the next best move would give instead (:mod:`decklab.bots.explain`, from
    the seat's view only); ``runner_up`` is that next best move's text and
    ``margin`` how much better the chosen one was rated, in ``unit`` (the game's
    score unit, or ``""`` for rewards in [0, 1]; positive: the chosen is better).
    """

    action: int
    text: str
    reason: str
    values: dict[str, float] = field(default_factory=dict)
    visits: dict[str, int] = field(default_factory=dict)
    policy: dict[str, float] = field(default_factory=dict)
    explanation: str = ""
    runner_up: str = ""
    margin: float | None = None
    unit: str = ""


@mypyc_attr(allow_interpreted_subclasses=True)  # agents may be written outside the compiled set
class Agent(ABC):
    """Chooses an action for a seat. Fair agents use only what the seat may know.

    A fair agent reads ``state.view(seat)``, ``state.legal_actions(seat)``,
    ``state.to_act()`` and samples from ``state.determinize(seat, rng)``; it
    never reads the true state's hidden parts. ``fair = False`` marks analysis
    tools (``cheat``) that must never be offered as an opponent by default.
    """

    name: str = "agent"
    fair: ClassVar[bool] = True

    @abstractmethod
    def choose(self, state: GameState, seat: int) -> int:
        """The action to take for ``seat`` (which must be to act in ``state``)."""

    def hint(self, state: GameState, seat: int) -> Hint:
        """The action this agent would take, with a reason. Agents refine the reason."""
        action = self.choose(state, seat)
        return Hint(action, state.action_to_string(seat, action), f"{self.name}'s choice")

    def reseed(self, seed: int) -> None:
        """Start again from where a fresh agent built with ``seed=seed`` starts.

        The lab builds an agent once per worker and reseeds it before each game
        instead of rebuilding it; that must give exactly the fresh agent's games
        (``tests/lab/test_lab_runner.py`` checks every agent). Agents seed every
        random source from their one seed, held as ``self.rng``; agents that hold
        other agents or sources override this.
        """
        rng = getattr(self, "rng", None)
        if isinstance(rng, random.Random):
            rng.seed(seed)


# ---------------------------------------------------------------- parameters
@dataclass(frozen=True)
class Param:
    """One agent parameter: its type, default, allowed range and help."""

    name: str
    kind: type
    default: Any
    help: str
    minimum: float | None = None
    maximum: float | None = None
    choices: tuple[str, ...] | None = None

    def parse(self, agent: str, raw: str) -> Any:
        try:
            if self.kind is int:
                value: Any = int(raw)
            elif self.kind is float:
                value = float(raw)
                if value != value or value in (float("inf"), float("-inf")):
                    raise ValueError
            else:
                value = raw.strip().lower()
        except ValueError:
            what = "a whole number" if self.kind is int else "a number"
            raise AgentSpecError(f"{agent}: {self.name} must be {what}, not {raw!r}") from None
        if self.minimum is not None and value < self.minimum:
            raise AgentSpecError(
                f"{agent}: {self.name} must be at least {self.minimum:g}, not {raw!r}"
            )
        if self.maximum is not None and value > self.maximum:
            raise AgentSpecError(
                f"{agent}: {self.name} must be at most {self.maximum:g}, not {raw!r}"
            )
        if self.choices is not None and value not in self.choices:
            raise AgentSpecError(
                f"{agent}: {self.name} is one of {', '.join(self.choices)}, not {raw!r}"
            )
        return value

    def describe(self) -> str:
        if self.choices:
            shape = "|".join(self.choices)
        else:
            shape = {int: "N", float: "X"}.get(self.kind, "TEXT")
        default = "" if self.default is None else f" (default {self.default})"
        return f"{self.name}={shape}{default}"


SEED: Final = Param("seed", int, None, "seed of the agent's own randomness (reproducible play)")


def parse_params(agent: str, params: Mapping[str, str], schema: Sequence[Param]) -> dict[str, Any]:
    """Check ``params`` against ``schema``: every key known, every value parsed; defaults filled."""
    known = {p.name: p for p in schema}
    unknown = [k for k in params if k not in known]
    if unknown:
        allowed = ", ".join(p.name for p in schema) or "no parameters"
        raise AgentSpecError(
            f"{agent} has no parameter {', '.join(map(repr, unknown))} (it takes {allowed})"
        )
    return {
        p.name: p.parse(agent, params[p.name]) if p.name in params else p.default for p in schema
    }


def make_rng(seed: int | None) -> random.Random:
    """The agent's own random source: seeded for reproducible games, else from the OS."""
    return random.Random(seed)


__all__ = [
    "SEED",
    "Agent",
    "Hint",
    "Param",
    "make_rng",
    "parse_params",
]
