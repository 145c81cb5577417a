"""The agent interface and the spec strings that name agents."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable

from decklab.engine.errors import DecklabError
from decklab.engine.state import GameState


class AgentSpecError(DecklabError):
    """An agent spec that names no agent or gives it a bad parameter."""


class Agent(ABC):
    """Chooses an action for a seat. Fair agents use only what the seat may know."""

    name: str = "agent"

    @abstractmethod
    def choose(self, state: GameState, seat: int) -> int:
        """The action to take for ``seat`` (which must be to act in ``state``)."""


AgentFactory = Callable[[dict[str, str]], Agent]
_AGENTS: dict[str, tuple[AgentFactory, str]] = {}


def register_agent(name: str, factory: AgentFactory, help_text: str) -> None:
    _AGENTS[name] = (factory, help_text)


def agent_names() -> dict[str, str]:
    _ensure_builtins()
    return {name: help_text for name, (_, help_text) in _AGENTS.items()}


def _ensure_builtins() -> None:
    import decklab.bots.random_agent  # noqa: F401  registers itself


def parse_spec(spec: str) -> tuple[str, dict[str, str]]:
    """``"ismcts:iters=2000,c=0.7"`` → ``("ismcts", {"iters": "2000", "c": "0.7"})``."""
    name, _, rest = spec.strip().partition(":")
    params: dict[str, str] = {}
    for part in filter(None, (p.strip() for p in rest.split(","))):
        key, sep, value = part.partition("=")
        if not sep:
            raise AgentSpecError(f"agent parameters are key=value, not {part!r} in {spec!r}")
        params[key.strip()] = value.strip()
    return name.lower(), params


def make_agent(spec: str) -> Agent:
    """Build an agent from its spec string, with a clear error for an unknown one."""
    _ensure_builtins()
    name, params = parse_spec(spec)
    if name not in _AGENTS:
        known = ", ".join(_AGENTS)
        raise AgentSpecError(f"no agent named {name!r} (agents: {known})")
    return _AGENTS[name][0](params)
