"""The agent interface, hints, and the spec strings that name agents.

An agent is built from a spec string (``ismcts:iters=2000,c=0.7``) so that the
command line, the arena and the server name players the same way. Every agent
declares its parameters once (:class:`Param`); parsing, the error for a bad
value and the one-line help in ``decklab bots`` all come from that declaration.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Final

from mypy_extensions import mypyc_attr

from decklab.engine.errors import DecklabError
from decklab.engine.state import GameState


class AgentSpecError(DecklabError):
    """An agent spec that names no agent or gives it a bad parameter."""


@dataclass(frozen=True)
class Hint:
    """What an agent would play and why, for a person at the table or a log.

    ``values`` are the numbers the agent compared, keyed by canonical action
    string (for search agents: the mean reward in [0, 1] of each root action);
    ``visits`` how often search tried each; ``policy`` the probabilities the
    action was drawn from when the agent plays a mixed strategy (simultaneous
    rounds), empty when it simply took the best.
    """

    action: int
    text: str
    reason: str
    values: dict[str, float] = field(default_factory=dict)
    visits: dict[str, int] = field(default_factory=dict)
    policy: dict[str, float] = field(default_factory=dict)


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


# ------------------------------------------------------------------ registry
AgentFactory = Callable[[dict[str, str]], Agent]


@dataclass(frozen=True)
class AgentEntry:
    name: str
    factory: AgentFactory
    help: str
    fair: bool = True
    params: tuple[Param, ...] = ()

    def line(self) -> str:
        """The one-line help: what it is, then its parameters."""
        if not self.params:
            return self.help
        return f"{self.help} — " + ", ".join(p.describe() for p in self.params)


_AGENTS: Final[dict[str, AgentEntry]] = {}


def register_agent(
    name: str,
    factory: AgentFactory,
    help_text: str,
    *,
    fair: bool = True,
    params: Sequence[Param] = (),
) -> None:
    """Make ``name`` buildable by :func:`make_agent`. ``fair=False``: analysis only."""
    _AGENTS[name] = AgentEntry(name, factory, help_text, fair, tuple(params))


def _ensure_builtins() -> None:
    # Each module registers itself on import; imported here, not at the top,
    # because they import this module.
    import decklab.bots.cheat
    import decklab.bots.expert
    import decklab.bots.greedy
    import decklab.bots.ismcts
    import decklab.bots.pimc
    import decklab.bots.random_agent  # noqa: F401


def agent_entries() -> list[AgentEntry]:
    """Every registered agent, fair ones first, for listings."""
    _ensure_builtins()
    entries = list(_AGENTS.values())
    return [e for e in entries if e.fair] + [e for e in entries if not e.fair]


def agent_names(include_unfair: bool = True) -> dict[str, str]:
    """Name → one-line help with parameters. ``include_unfair=False`` leaves out ``cheat``."""
    return {e.name: e.line() for e in agent_entries() if include_unfair or e.fair}


def is_fair(spec: str) -> bool:
    """Whether the agent a spec names sees only what its seat may see."""
    _ensure_builtins()
    name, _ = parse_spec(spec)
    entry = _AGENTS.get(name)
    if entry is None:
        raise AgentSpecError(f"no agent named {name!r} (agents: {', '.join(_AGENTS)})")
    return entry.fair


def parse_spec(spec: str) -> tuple[str, dict[str, str]]:
    """``"ismcts:iters=2000,c=0.7"`` → ``("ismcts", {"iters": "2000", "c": "0.7"})``."""
    name, _, rest = spec.strip().partition(":")
    params: dict[str, str] = {}
    for part in filter(None, (p.strip() for p in rest.split(","))):
        key, sep, value = part.partition("=")
        if not sep or not key.strip():
            raise AgentSpecError(f"agent parameters are key=value, not {part!r} in {spec!r}")
        if key.strip().lower() in params:
            raise AgentSpecError(f"parameter {key.strip()!r} is given twice in {spec!r}")
        params[key.strip().lower()] = value.strip()
    if not name.strip():
        raise AgentSpecError(f"an agent spec starts with the agent's name, not {spec!r}")
    return name.strip().lower(), params


def format_spec(name: str, params: Mapping[str, str]) -> str:
    """The inverse of :func:`parse_spec`."""
    if not params:
        return name
    return name + ":" + ",".join(f"{k}={v}" for k, v in params.items())


def with_seed(spec: str, seed: int) -> str:
    """``spec`` with ``seed=`` set to ``seed`` (replacing any seed it had)."""
    name, params = parse_spec(spec)
    params["seed"] = str(seed)
    return format_spec(name, params)


def make_agent(spec: str) -> Agent:
    """Build an agent from its spec string, with a clear error for an unknown one."""
    _ensure_builtins()
    name, params = parse_spec(spec)
    if name not in _AGENTS:
        known = ", ".join(_AGENTS)
        raise AgentSpecError(f"no agent named {name!r} (agents: {known})")
    return _AGENTS[name].factory(params)
