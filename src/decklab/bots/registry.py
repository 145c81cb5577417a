"""Agents by name, and the spec strings that name them (``ismcts:iters=2000,c=0.7``).

One direction only: this module imports no agent. The built-in agents are
named in :data:`BUILTIN_AGENTS` by module path, and a module is imported the
first time an agent it holds is asked for; on import it calls
:func:`register_agent`. So listing agents or building ``random`` does not load
the search code, and no agent module is imported by the module it imports.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from decklab.engine.errors import DecklabError, excerpt

if TYPE_CHECKING:
    from decklab.bots.base import Agent, Param


class AgentSpecError(DecklabError):
    """An agent spec that names no agent or gives it a bad parameter."""


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

AgentFactory = Callable[[dict[str, str]], "Agent"]


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


def parse_spec(spec: str) -> tuple[str, dict[str, str]]:
    """``"ismcts:iters=2000,c=0.7"`` → ``("ismcts", {"iters": "2000", "c": "0.7"})``.

    Names and parameter keys are case-insensitive (``ISMCTS:Iters=5``)."""
    name, _, rest = spec.strip().partition(":")
    params: dict[str, str] = {}
    for part in filter(None, (p.strip() for p in rest.split(","))):
        key, sep, value = part.partition("=")
        if not sep or not key.strip():
            raise AgentSpecError(
                f"agent parameters are key=value, not {excerpt(part, 30)!r} in {excerpt(spec)!r}"
            )
        if key.strip().lower() in params:
            raise AgentSpecError(f"parameter {key.strip()!r} is given twice in {excerpt(spec)!r}")
        params[key.strip().lower()] = value.strip()
    if not name.strip():
        if not spec.strip():
            raise AgentSpecError("an empty player in the list (a stray comma?)")
        raise AgentSpecError(f"an agent spec starts with the agent's name, not {excerpt(spec)!r}")
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
    name, params = parse_spec(spec)
    return _entry(name).factory(params)


def split_players(text: str) -> list[str]:
    """``--players`` text into specs, one per seat, names lower-cased.

    ``ismcts:iters=500,c=0.7,random`` is two specs: a part with ``=`` and no
    ``:`` continues the spec before it. An empty entry (``human,``) is an error
    naming the stray comma rather than a confusing "no agent named ''".
    """
    specs: list[str] = []
    for index, part in enumerate(p.strip() for p in text.split(",")):
        if not part:
            raise AgentSpecError(
                f"--players {excerpt(text)!r} has an empty entry at position {index + 1} "
                "(a stray comma?)"
            )
        if specs and "=" in part and ":" not in part:
            specs[-1] += "," + part
        else:
            name, sep, rest = part.partition(":")
            specs.append(name.strip().lower() + sep + rest)
    return specs
