"""Your own policy as a decklab agent: ``python:module:function`` (or a ``decklab.agents`` entry point).

A trained policy is compared with the built-in bots by the lab's own tools
(``decklab arena``, ``simulate``, ``sweep``, ``tune``) on the same deals, rather
than by a hand-written loop. The spec stays a string: a worker process imports
the module for itself, so nothing but the spec travels.

The target is one of:

- a **policy function** ``policy(view, legal, seat, rng) -> str``: ``view`` is
  ``state.view(seat)`` (exactly what the seat may know, so the agent is fair by
  construction), ``legal`` the seat's legal actions as canonical strings,
  ``seat`` its name (``"p1"``), ``rng`` the agent's own seeded
  :class:`random.Random`. It returns one of ``legal``;
- an :class:`~decklab.bots.base.Agent` subclass, or a factory called with no
  arguments that returns an ``Agent``: it is built once and reseeded with
  ``seed=`` (its ``fair`` attribute says whether it may be an opponent).

``module`` is a dotted module name on ``sys.path``, or a path to a ``.py`` file
(relative to the working directory, which the lab's workers share).
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import inspect
import random
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

from decklab.bots.base import SEED, Agent, make_rng, parse_params
from decklab.bots.registry import register_agent
from decklab.bots.spec import CODE_AGENT, TARGET, AgentSpecError
from decklab.engine.errors import excerpt
from decklab.engine.state import GameState, seat_name

Policy = Callable[[dict[str, Any], list[str], str, random.Random], str]
"""``policy(view, legal, seat, rng) -> one of legal``."""


class PolicyAgent(Agent):
    """A policy function seated as an agent: it sees the seat's view and legal moves only."""

    def __init__(self, policy: Policy, label: str, seed: int | None = None) -> None:
        self.policy = policy
        self.name = label
        self.rng = make_rng(seed)

    def choose(self, state: GameState, seat: int) -> int:
        by_text = {state.action_to_string(seat, a): a for a in state.legal_actions(seat)}
        legal = list(by_text)
        chosen = self.policy(state.view(seat), legal, seat_name(seat), self.rng)
        if not isinstance(chosen, str) or chosen not in by_text:
            raise AgentSpecError(
                f"{self.name} returned {excerpt(repr(chosen), 60)}, which is not a legal "
                f"action for {seat_name(seat)} (legal: {excerpt(', '.join(legal), 120)})"
            )
        return by_text[chosen]


def _import(module: str, spec: str) -> ModuleType:
    """``module`` by dotted name, or from a ``.py`` file under a name derived from its path."""
    try:
        if module.endswith(".py"):
            path = Path(module).resolve()
            name = "decklab_policy_" + hashlib.sha1(str(path).encode()).hexdigest()[:12]
            if name in sys.modules:
                return sys.modules[name]
            if not path.is_file():
                raise AgentSpecError(f"{spec}: no file {module!r}")
            found = importlib.util.spec_from_file_location(name, path)
            if found is None or found.loader is None:
                raise AgentSpecError(f"{spec}: {module!r} cannot be imported")
            loaded = importlib.util.module_from_spec(found)
            sys.modules[name] = loaded
            try:
                found.loader.exec_module(loaded)
            except BaseException:
                del sys.modules[name]
                raise
            return loaded
        return importlib.import_module(module)
    except AgentSpecError:
        raise
    except Exception as exc:  # the user's module: any failure to import is said in one line
        raise AgentSpecError(
            f"{spec}: cannot import {module!r} ({type(exc).__name__}: {exc})"
        ) from None


def resolve(target: str, spec: str) -> object:
    """The object ``module:attribute`` names (the last ``:`` splits, so a Windows path works)."""
    module, sep, attribute = target.rpartition(":")
    if not sep or not module.strip() or not attribute.strip():
        raise AgentSpecError(
            f"{excerpt(spec)!r}: a python agent is python:MODULE:FUNCTION "
            "(e.g. python:my_policies:first_legal or python:path/to/file.py:policy)"
        )
    found: object = _import(module.strip(), spec)
    for part in attribute.strip().split("."):
        if not hasattr(found, part):
            raise AgentSpecError(f"{spec}: {module.strip()!r} has no {attribute.strip()!r}")
        found = getattr(found, part)
    if not callable(found):
        raise AgentSpecError(f"{spec}: {attribute.strip()!r} is not a function or class")
    return found


def _takes_no_arguments(target: Callable[..., object]) -> bool:
    try:
        signature = inspect.signature(target)
    except (TypeError, ValueError):
        return False
    return not any(
        p.default is p.empty
        and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)
        for p in signature.parameters.values()
    )


def agent_from(target: object, label: str, seed: int | None) -> Agent:
    """An agent from a resolved target: an ``Agent`` class or factory, else a policy function."""
    if (isinstance(target, type) and issubclass(target, Agent)) or (
        callable(target) and _takes_no_arguments(target)
    ):
        assert callable(target)
        agent = target()
        if not isinstance(agent, Agent):
            raise AgentSpecError(
                f"{label}: a factory with no arguments must return a decklab Agent, "
                f"not {type(agent).__name__}"
            )
        if seed is not None:
            agent.reseed(seed)
        return agent
    assert callable(target)
    return PolicyAgent(target, label, seed)


def build(params: dict[str, str]) -> Agent:
    """The ``python`` agent's factory (the registry's :data:`~decklab.bots.registry.AgentFactory`)."""
    rest = dict(params)
    target = rest.pop(TARGET, "")
    spec = f"{CODE_AGENT}:{target}"
    if not target:
        raise AgentSpecError(
            "python needs the code to play: python:MODULE:FUNCTION "
            "(e.g. python:my_policies:first_legal)"
        )
    seed = parse_params(spec, rest, (SEED,))["seed"]
    return agent_from(resolve(target, spec), spec, seed)


def fair(params: dict[str, str]) -> bool:
    """A policy function is fair (it gets the view only); an ``Agent`` says for itself."""
    return build(params).fair


def entry_point_factory(target: object, name: str) -> Callable[[dict[str, str]], Agent]:
    """The registry factory of an installed ``decklab.agents`` entry point's object."""

    def factory(params: dict[str, str]) -> Agent:
        seed = parse_params(name, params, (SEED,))["seed"]
        return agent_from(target, name, seed)

    return factory


register_agent(
    CODE_AGENT,
    build,
    "your own code: python:MODULE:FUNCTION, a policy(view, legal, seat, rng) -> action "
    "string, or an Agent class (docs/interop.md)",
    params=(SEED,),
    fair_of=fair,
)
