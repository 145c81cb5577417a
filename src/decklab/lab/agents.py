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
  regular expression (searched, case-insensitive) in the moves it makes (see
  :class:`RestrictedAgent`). When every legal action matches, all stay allowed, so a
  restricted agent can always move. The pattern may not contain a comma or
  ``=`` (they separate spec parameters); write ``\\x2c`` for a comma.
  ``never=NAME`` bars one of the game's declared core choices instead
  (:mod:`decklab.lab.choices`), which may look at the position, not only the
  text: the spec carries the choice's name, and the agent finds the predicate
  through the game of the state it is asked about, in whichever process it runs.
"""

from __future__ import annotations

import random
import re

from decklab.bots.base import Agent
from decklab.bots.registry import make_agent
from decklab.bots.spec import AgentSpecError, format_spec, parse_spec
from decklab.engine.state import GameState
from decklab.lab.choices import Choice, find_choice

RESTRICT = "restrict"
NEVER = "never"


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


def split_never(spec: str) -> tuple[str, str | None]:
    """``"greedy:never=high bids"`` → ``("greedy", "high bids")``: a declared choice barred."""
    name, params = parse_spec(spec)
    choice = params.pop(NEVER, None)
    if choice is not None and not choice:
        raise AgentSpecError(f"{spec}: never= needs the name of one of the game's choices")
    return format_spec(name, params), choice


def check_spec(spec: str) -> None:
    """Raise :class:`AgentSpecError` (clear message) unless the lab can build ``spec``."""
    build_agent(spec)


class RestrictedAgent(Agent):
    """``inner`` barred from the legal actions of its seat that match ``pattern`` or that
    are instances of the game's declared choice ``never``.

    The restriction applies to the moves the agent makes: it takes the inner
    agent's choice when that is allowed, else the allowed move the inner agent
    rates best, else (an agent that rates nothing, like ``random``) an allowed
    move drawn at random. Its look-ahead is the inner agent's own and may
    consider barred moves of its seat; a restriction inside the search would need
    the game class subclassed, which a compiled build does not allow, and both
    builds must play the same.
    """

    def __init__(
        self, inner: Agent, pattern: str = "", seed: int | None = None, never: str = ""
    ) -> None:
        self.inner = inner
        self.pattern = pattern
        self.regex = re.compile(pattern, re.IGNORECASE) if pattern else None
        self.never = never
        self._choices: dict[type[GameState], Choice] = {}
        self.rng = random.Random(seed)
        self.name = f"{inner.name} (restricted)"
        self.fair = inner.fair  # type: ignore[misc]

    def reseed(self, seed: int) -> None:
        self.inner.reseed(seed)
        self.rng.seed(seed)

    def _choice(self, state: GameState) -> Choice:
        cls = type(state)
        got = self._choices.get(cls)
        if got is None:
            got = self._choices[cls] = find_choice(cls, self.never)
        return got

    def barred(self, state: GameState, seat: int, action: int) -> bool:
        """Does the restriction cover this legal action of ``seat``?"""
        if self.regex is not None and self.regex.search(state.action_to_string(seat, action)):
            return True
        return bool(self.never) and self._choice(state).covers(state, seat, action)

    def choose(self, state: GameState, seat: int) -> int:
        legal = state.legal_actions(seat)
        allowed = [a for a in legal if not self.barred(state, seat, a)]
        if not allowed or len(allowed) == len(legal):
            return self.inner.choose(state, seat)
        hint = self.inner.hint(state, seat)
        if hint.action in allowed:
            return hint.action
        rated = [a for a in allowed if state.action_to_string(seat, a) in hint.values]
        if rated:
            return max(rated, key=lambda a: hint.values[state.action_to_string(seat, a)])
        pick: int = self.rng.choice(allowed)
        return pick


def build_agent(spec: str) -> Agent:
    """The agent a lab spec names (a bot spec, plus the lab's ``restrict=`` and ``never=``)."""
    base, pattern = split_restriction(spec)
    base, never = split_never(base)
    agent = make_agent(base)
    if pattern is None and never is None:
        return agent
    seed = parse_spec(base)[1].get("seed")
    return RestrictedAgent(
        agent,
        pattern or "",
        int(seed) if seed and seed.lstrip("-").isdigit() else None,
        never=never or "",
    )


# --------------------------------------------------------------------- reseed
def reseed(agent: Agent, seed: int) -> None:
    """Put a reused ``agent`` where a fresh ``with_seed(spec, seed)`` agent starts.

    Agents say how through :meth:`Agent.reseed` (an explicit method rather than a
    look into their attributes, which a compiled class does not expose);
    ``tests/lab/test_lab_runner.py`` checks, for every agent, that a reseeded
    agent plays exactly as a fresh one.
    """
    agent.reseed(seed)
