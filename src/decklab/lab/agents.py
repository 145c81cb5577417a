"""Agents as the lab builds them: once per worker, reseeded per game, optionally restricted.

Two things the lab needs that the bots do not offer themselves:

- *Reuse.* Building an agent for every game (parsing its spec, setting up its
  search) is pure overhead in a million-game simulation. A worker keeps one
  agent per (spec, seat) and, before each game, reseeds every random source it
  holds with the seed that game's fresh agent would have been built with. A
  test checks, for every registered agent, that a reseeded agent plays exactly
  as a freshly built one.
- *Restricted play* (Jaffe et al. 2012): ``restrict=REGEX`` in any spec bars
  the agent from every legal action whose canonical string matches the
  regular expression (searched, case-insensitive), at the root and in its own
  look-ahead alike. When every legal action matches, all stay allowed, so a
  restricted agent can always move. The pattern may not contain a comma or
  ``=`` (they separate spec parameters); write ``\\x2c`` for a comma. Where a
  game's class cannot be subclassed (a compiled build), only the root decision
  is restricted, by the agent's own ratings of the allowed moves.
"""

from __future__ import annotations

import random
import re
from functools import cache
from typing import Any

from decklab.bots.base import Agent, AgentSpecError, format_spec, make_agent, parse_spec
from decklab.engine.state import GameState

RESTRICT = "restrict"


def split_restriction(spec: str) -> tuple[str, str | None]:
    """``"greedy:restrict=^bid k"`` → ``("greedy", "^bid k")``; the spec without it, and it."""
    name, params = parse_spec(spec)
    pattern = params.pop(RESTRICT, None)
    if pattern is not None:
        try:
            re.compile(pattern)
        except re.error as exc:
            raise AgentSpecError(
                f"{spec}: restrict={pattern!r} is not a regular expression ({exc})"
            ) from None
        if not pattern:
            raise AgentSpecError(f"{spec}: restrict= needs a pattern")
    return format_spec(name, params), pattern


def check_spec(spec: str) -> None:
    """Raise :class:`AgentSpecError` (clear message) unless the lab can build ``spec``."""
    build_agent(spec)


class RestrictedAgent(Agent):
    """``inner`` playing a game in which its seat may not take actions matching ``pattern``.

    The inner agent is handed a copy of the state whose class filters that seat's
    legal actions, so a searching agent's own simulations obey the restriction too
    (it plans as a player who never makes that kind of move).
    """

    def __init__(self, inner: Agent, pattern: str) -> None:
        self.inner = inner
        self.pattern = pattern
        self.name = f"{inner.name} (restricted)"
        self.fair = inner.fair  # type: ignore[misc]

    def choose(self, state: GameState, seat: int) -> int:
        try:
            restricted = _restricted_copy(state, seat, self.pattern)
        except TypeError:
            # A compiled (mypyc) game class may refuse interpreted subclasses: restrict
            # the root decision only, by the inner agent's own ratings of the moves.
            return self._choose_at_root(state, seat)
        return self.inner.choose(restricted, seat)

    def _choose_at_root(self, state: GameState, seat: int) -> int:
        legal = state.legal_actions(seat)
        regex = re.compile(self.pattern, re.IGNORECASE)
        allowed = [a for a in legal if not regex.search(state.action_to_string(seat, a))]
        if not allowed or len(allowed) == len(legal):
            return self.inner.choose(state, seat)
        hint = self.inner.hint(state, seat)
        if hint.action in allowed:
            return hint.action
        rated = [a for a in allowed if state.action_to_string(seat, a) in hint.values]
        if rated:
            return max(rated, key=lambda a: hint.values[state.action_to_string(seat, a)])
        return allowed[len(state.history) % len(allowed)]


def build_agent(spec: str) -> Agent:
    """The agent a lab spec names (a bot spec, plus the lab's ``restrict=``)."""
    base, pattern = split_restriction(spec)
    agent = make_agent(base)
    return agent if pattern is None else RestrictedAgent(agent, pattern)


# ---------------------------------------------------------------- restriction
@cache
def _restricted_class(cls: type[GameState], seat: int, pattern: str) -> type[GameState]:
    """A subclass of ``cls`` whose ``legal_actions(seat)`` leaves out matching actions."""
    regex = re.compile(pattern, re.IGNORECASE)

    def legal_actions(self: GameState, s: int) -> list[int]:
        legal = cls.legal_actions(self, s)
        if s != seat or len(legal) < 2:
            return legal
        allowed = [a for a in legal if not regex.search(cls.action_to_string(self, s, a))]
        return allowed or legal

    return type(f"Restricted{cls.__name__}", (cls,), {"legal_actions": legal_actions})


def _restricted_copy(state: GameState, seat: int, pattern: str) -> GameState:
    copy = state.clone()
    copy.__class__ = _restricted_class(type(state), seat, pattern)
    return copy


# --------------------------------------------------------------------- reseed
def reseed(agent: Agent, seed: int) -> bool:
    """Reseed every random source of ``agent`` (and of agents it holds) with ``seed``.

    Agents seed each of their sources from their one ``seed`` parameter, so this
    puts a reused agent in the state a fresh ``with_seed(spec, seed)`` agent
    would start in (``tests/lab/test_lab_runner.py`` checks it for every agent).
    Returns False when some part of the agent cannot be looked into (a compiled
    class without ``__dict__``): the caller must then build a fresh agent.
    """
    return _reseed(agent, seed, set())


def _reseed(obj: Any, seed: int, seen: set[int]) -> bool:
    if id(obj) in seen:
        return True
    seen.add(id(obj))
    if hasattr(obj, "__dict__"):
        values = list(vars(obj).values())
    elif hasattr(type(obj), "__slots__"):
        slots = [n for c in type(obj).__mro__ for n in getattr(c, "__slots__", ())]
        values = [getattr(obj, n) for n in slots if hasattr(obj, n)]
    else:
        return False  # e.g. a compiled class: nothing to look into
    ok = True
    for value in values:
        if isinstance(value, random.Random):
            value.seed(seed)
        elif isinstance(value, Agent) or _ours(value):
            ok = _reseed(value, seed, seen) and ok
    return ok


def _ours(value: Any) -> bool:
    """An object of decklab's own (a search helper) that may hold a random source."""
    return type(value).__module__.startswith("decklab.") and not isinstance(value, type)
