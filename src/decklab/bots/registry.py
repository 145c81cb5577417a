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
import importlib.metadata
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from decklab.bots.base import Agent, Param
from decklab.bots.spec import CODE_AGENT, AgentSpecError, parse_spec
from decklab.engine.errors import excerpt

BUILTIN_AGENTS: dict[str, str] = {
    "random": "decklab.bots.random_agent",
    "greedy": "decklab.bots.greedy",
    "expert": "decklab.bots.expert",
    "fast": "decklab.bots.fast",
    "ismcts": "decklab.bots.ismcts",
    "pimc": "decklab.bots.pimc",
    "cheat": "decklab.bots.cheat",
    "python": "decklab.bots.python_policy",
    "beginner": "decklab.bots.levels",
    "casual": "decklab.bots.levels",
    "strong": "decklab.bots.levels",
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
    fair_of: Callable[[dict[str, str]], bool] | None = None
    """Whether the agent a spec's parameters build is fair, where the name alone cannot say."""

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
    fair_of: Callable[[dict[str, str]], bool] | None = None,
) -> None:
    """Make ``name`` buildable by :func:`make_agent`. ``fair=False``: analysis only."""
    _AGENTS[name.lower()] = AgentEntry(
        name.lower(), factory, help_text, fair, tuple(params), fair_of
    )


ENTRY_POINT_GROUP = "decklab.agents"
"""Installed packages name agents here (``my-bot = my_package.module:policy``); the
object is what a ``python:`` spec may name (:mod:`decklab.bots.python_policy`)."""


def _entry_points() -> dict[str, importlib.metadata.EntryPoint]:
    found = importlib.metadata.entry_points(group=ENTRY_POINT_GROUP)
    return {ep.name.lower(): ep for ep in found if ep.name.lower() not in BUILTIN_AGENTS}


def _load_entry_point(point: importlib.metadata.EntryPoint) -> None:
    # by name, as the built-in agents are: this module imports no agent module
    policies = importlib.import_module(BUILTIN_AGENTS[CODE_AGENT])
    try:
        target = point.load()
    except Exception as exc:  # an installed package's import: said in one line
        raise AgentSpecError(
            f"agent {point.name!r} (entry point {point.value}) cannot be loaded "
            f"({type(exc).__name__}: {exc})"
        ) from None
    register_agent(
        point.name,
        policies.entry_point_factory(target, point.name.lower()),
        f"installed: {point.value}",
    )


def _load(name: str) -> AgentEntry | None:
    if name not in _AGENTS and name in BUILTIN_AGENTS:
        importlib.import_module(BUILTIN_AGENTS[name])
    if name not in _AGENTS:
        point = _entry_points().get(name)
        if point is not None:
            _load_entry_point(point)
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
    for name, point in _entry_points().items():
        if name not in _AGENTS:
            try:
                _load_entry_point(point)
            except AgentSpecError:
                continue  # a broken plugin does not hide the other agents
    order = [*BUILTIN_AGENTS, *(n for n in _AGENTS if n not in BUILTIN_AGENTS)]
    entries = [_AGENTS[n] for n in order if n in _AGENTS]
    return [e for e in entries if e.fair] + [e for e in entries if not e.fair]


def agent_names(include_unfair: bool = True) -> dict[str, str]:
    """Name → one-line help with parameters. ``include_unfair=False`` leaves out ``cheat``."""
    return {e.name: e.line() for e in agent_entries() if include_unfair or e.fair}


def is_fair(spec: str) -> bool:
    """Whether the agent a spec names sees only what its seat may see."""
    name, params = parse_spec(spec)
    entry = _entry(name)
    return entry.fair and (entry.fair_of is None or entry.fair_of(params))


def names_code(spec: str) -> bool:
    """Whether ``spec`` names Python code to import (``python:module:function``).

    The lab runs such specs on the user's own machine; a server must refuse them,
    or a client could make it import any module on its path."""
    return parse_spec(spec)[0] == CODE_AGENT


def make_agent(spec: str) -> Agent:
    """Build an agent from its spec string, with a clear error for an unknown one."""
    name, params = parse_spec(spec)
    return _entry(name).factory(params)
