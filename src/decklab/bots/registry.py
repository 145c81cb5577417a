"""Agents by name: the spec strings that name them (:mod:`decklab.bots.spec`) built into agents.

One direction only: this module imports no agent, only their interface
(:mod:`decklab.bots.base`, which imports nothing of this). The built-in agents are
named in :data:`BUILTIN_AGENTS` by module path, and a module is imported the
first time an agent it holds is asked for; on import it calls
:func:`register_agent`. So listing agents or building ``random`` does not load
the search code, and no agent module is imported by the module it imports.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from decklab.bots.base import Agent, Param
from decklab.bots.spec import AgentSpecError, parse_spec
from decklab.engine.errors import excerpt

BUILTIN_AGENTS: dict[str, str] = {
    "random": "decklab.bots.random_agent",
    "greedy": "decklab.bots.greedy",
    "expert": "decklab.bots.expert",
    "ismcts": "decklab.bots.ismcts",
    "pimc": "decklab.bots.pimc",
    "cheat": "decklab.bots.cheat",
}
"""Agent name → the module that registers it when imported (in listing order)."""

NOT_AGENTS = {"human": "a person at the table (decklab play), not a bot"}
"""Names that people type as players but are not agents: a clearer error for them."""

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


_AGENTS: dict[str, AgentEntry] = {}


def register_agent(
    name: str,
    factory: AgentFactory,
    help_text: str,
    *,
    fair: bool = True,
    params: Sequence[Param] = (),
) -> None:
    """Make ``name`` buildable by :func:`make_agent`. ``fair=False``: analysis only."""
    _AGENTS[name.lower()] = AgentEntry(name.lower(), factory, help_text, fair, tuple(params))


def _load(name: str) -> AgentEntry | None:
    if name not in _AGENTS and name in BUILTIN_AGENTS:
        importlib.import_module(BUILTIN_AGENTS[name])
    return _AGENTS.get(name)


def _known() -> str:
    return ", ".join(dict.fromkeys([*BUILTIN_AGENTS, *_AGENTS]))


def _entry(name: str) -> AgentEntry:
    entry = _load(name)
    if entry is None:
        if name in NOT_AGENTS:
            raise AgentSpecError(f"{name!r} is {NOT_AGENTS[name]}; agents: {_known()}")
        raise AgentSpecError(f"no agent named {excerpt(name, 30)!r} (agents: {_known()})")
    return entry


def agent_entries() -> list[AgentEntry]:
    """Every registered agent, fair ones first, for listings."""
    for name in BUILTIN_AGENTS:
        _load(name)
    order = [*BUILTIN_AGENTS, *(n for n in _AGENTS if n not in BUILTIN_AGENTS)]
    entries = [_AGENTS[n] for n in order if n in _AGENTS]
    return [e for e in entries if e.fair] + [e for e in entries if not e.fair]


def agent_names(include_unfair: bool = True) -> dict[str, str]:
    """Name → one-line help with parameters. ``include_unfair=False`` leaves out ``cheat``."""
    return {e.name: e.line() for e in agent_entries() if include_unfair or e.fair}


def is_fair(spec: str) -> bool:
    """Whether the agent a spec names sees only what its seat may see."""
    name, _ = parse_spec(spec)
    return _entry(name).fair


def make_agent(spec: str) -> Agent:
    """Build an agent from its spec string, with a clear error for an unknown one."""
    name, params = parse_spec(spec)
    return _entry(name).factory(params)
