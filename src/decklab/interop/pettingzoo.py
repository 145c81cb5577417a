"""PettingZoo AEC environments for every registered game (``<game>_v0``).

The conventions are those of PettingZoo's classic environments:

* the observation is a dict ``{"observation": float32 vector, "action_mask": int8}``;
  the vector is the game's documented encoding of ``view(seat)`` (docs/interop.md),
  the mask is all zeros for an agent that is not to act;
* one fixed ``Discrete`` action space per game, numbered by the game's hook;
* ``reset(seed=…)`` deals reproducibly; rewards come at the end (a win shared by k
  seats is worth 1/k; a solo game gives its normalised score) and ``infos`` then
  carry the game's own scores and winners; ``render()`` is the table as text;
* an illegal action: :func:`env` wraps the raw environment in PettingZoo's
  ``TerminateIllegalWrapper`` (the game ends, the offender gets -1, a warning is
  logged), as the classic environments do; the raw environment itself refuses it
  with decklab's ``IllegalAction`` and changes nothing.

Several seats to act at once (a simultaneous round): they act one after another in
seat order, each seeing only its own view, which hides the others' choices until the
round is revealed after the last of them. :func:`parallel_env` is the ``ParallelEnv``
for such games: every seat to act has its mask set and they all act in one ``step``.

Options of every environment: ``agent_names="pettingzoo"`` names the agents
``player_0 …`` (PettingZoo classic's convention) instead of decklab's seat names
``p1 …``; ``max_cycles`` truncates every agent after that many steps (``None``: a game
ends by its rules alone, which every decklab game does).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.utils import wrappers

from decklab.engine.registry import game_names, get_game
from decklab.engine.state import GameState, Viewer, seat_index
from decklab.interop.table import Table, env_name

ObsDict = dict[str, Any]
ILLEGAL_REWARD = -1.0


def agent_names(table: Table, style: str) -> list[str]:
    """The agents' names: ``"seat"`` (``p1 …``) or ``"pettingzoo"`` (``player_0 …``)."""
    if style == "seat":
        return list(table.agents)
    if style == "pettingzoo":
        return [f"player_{i}" for i in range(table.num_players)]
    raise ValueError(f"agent_names is 'seat' or 'pettingzoo', not {style!r}")


class DecklabAEC(AECEnv[str, ObsDict, int]):  # type: ignore[misc]
    """One decklab game as an AEC environment; agents are the seat names ``p1 …``."""

    def __init__(
        self,
        game: str,
        num_players: int | None = None,
        options: Mapping[str, Any] | None = None,
        render_mode: str | None = None,
        render_seat: str | None = None,
        agent_names: str = "seat",
        max_cycles: int | None = None,
    ) -> None:
        super().__init__()
        self.table = Table(game, num_players, options)
        self.max_cycles = max_cycles
        self._steps = 0
        self.metadata: dict[str, Any] = {
            "render_modes": ["ansi", "human"],
            "name": self.table.name,
            "is_parallelizable": False,
        }
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode is 'ansi' or 'human', not {render_mode!r}")
        self.render_mode = render_mode
        n = self.table.num_players
        self._render_viewer: Viewer = None if render_seat is None else seat_index(render_seat, n)
        self.possible_agents = _names(self.table, agent_names)
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        obs_space = self.table.observation_space()
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {
            a: spaces.Discrete(self.table.num_actions) for a in self.possible_agents
        }
        self._deals = random.Random()
        self.state: GameState = self.table.new_state(self._deals.getrandbits(63))
        self._legal: dict[int, int] | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def __str__(self) -> str:
        return self.table.name

    # ------------------------------------------------------------------ cycle
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._deals = random.Random(seed)
        self.state = self.table.new_state(self._deals.getrandbits(63))
        self._legal = None
        self._steps = 0
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.state.to_act()[0]]

    def _current_legal(self) -> dict[int, int]:
        if self._legal is None:
            self._legal = self.table.legal(self.state, self._seat[self.agent_selection])
        return self._legal

    def observe(self, agent: str) -> ObsDict:
        seat = self._seat[agent]
        if agent == self.agent_selection and not self.state.is_terminal():
            mask = self.table.mask(self._current_legal())
        else:
            mask = self.table.mask({})
        return {"observation": self.table.observation(self.state, seat), "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = self._seat[agent]
        legal = self._current_legal()
        if action is None or int(action) not in legal:
            raise self.state.illegal(seat, f"action #{action}")
        self._cumulative_rewards[agent] = 0.0
        self.state.apply(seat, legal[int(action)])
        self._legal = None
        if self.state.is_terminal():
            returns = self.table.returns(self.state)
            info = self.table.result_info(self.state)
            for a in self.agents:
                self.rewards[a] = returns[self._seat[a]]
                self.terminations[a] = True
                self.infos[a] = dict(info)
        else:
            self.agent_selection = self.possible_agents[self.state.to_act()[0]]
            self._steps += 1
            if self.max_cycles is not None and self._steps >= self.max_cycles:
                for a in self.agents:
                    self.truncations[a] = True
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        text = self.state.render(self._render_viewer)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release: the game is plain Python state."""


_names = agent_names


class DecklabParallel(ParallelEnv[str, ObsDict, int]):  # type: ignore[misc]
    """One decklab game as a ``ParallelEnv``: every seat to act now acts in one ``step``.

    In a simultaneous round (Corporation) every acting seat's mask is set and their
    actions are applied together, each chosen from its own view; in a sequential
    stretch only the seat to act has a mask, and the others' actions are ignored
    (PettingZoo's test sends them a masked sample, which is 0). An illegal action
    ends the game: the offender gets -1, the others 0, ``infos`` say
    ``illegal_action`` (the classic environments' rule).
    """

    def __init__(
        self,
        game: str,
        num_players: int | None = None,
        options: Mapping[str, Any] | None = None,
        render_mode: str | None = None,
        agent_names: str = "seat",
        max_cycles: int | None = None,
    ) -> None:
        self.table = Table(game, num_players, options)
        self.metadata: dict[str, Any] = {
            "render_modes": ["ansi", "human"],
            "name": self.table.name,
            "is_parallelizable": True,
        }
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode is 'ansi' or 'human', not {render_mode!r}")
        self.render_mode = render_mode
        self.max_cycles = max_cycles
        self.possible_agents = _names(self.table, agent_names)
        self.agents: list[str] = []
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        obs_space = self.table.observation_space()
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {
            a: spaces.Discrete(self.table.num_actions) for a in self.possible_agents
        }
        self._deals = random.Random()
        self.state: GameState = self.table.new_state(self._deals.getrandbits(63))
        self._legal: dict[int, dict[int, int]] = {}
        self._steps = 0

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def _observe_all(self) -> dict[str, ObsDict]:
        over = self.state.is_terminal()
        acting = () if over else self.state.to_act()
        self._legal = {seat: self.table.legal(self.state, seat) for seat in acting}
        return {
            a: {
                "observation": self.table.observation(self.state, self._seat[a]),
                "action_mask": self.table.mask(self._legal.get(self._seat[a], {})),
            }
            for a in self.possible_agents
        }

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, ObsDict], dict[str, dict[str, Any]]]:
        if seed is not None:
            self._deals = random.Random(seed)
        self.state = self.table.new_state(self._deals.getrandbits(63))
        self._steps = 0
        self.agents = list(self.possible_agents)
        return self._observe_all(), {a: {} for a in self.agents}

    def step(
        self, actions: Mapping[str, Any]
    ) -> tuple[
        dict[str, ObsDict],
        dict[str, float],
        dict[str, bool],
        dict[str, bool],
        dict[str, dict[str, Any]],
    ]:
        if not self.agents:
            raise RuntimeError("the game is over: call reset()")
        agents = list(self.agents)
        rewards = dict.fromkeys(agents, 0.0)
        infos: dict[str, dict[str, Any]] = {a: {} for a in agents}
        moves = []
        offender = None
        for seat, legal in sorted(self._legal.items()):  # all chosen before any is applied
            agent = self.possible_agents[seat]
            action = actions.get(agent)
            if action is None or int(action) not in legal:
                offender = agent
                why = self.state.illegal(seat, f"action #{action}").reason
                break
            moves.append((seat, legal[int(action)]))
        if offender is not None:
            rewards[offender] = ILLEGAL_REWARD
            infos = {a: {"illegal_action": True, "offender": offender} for a in agents}
            infos[offender]["why"] = why
            done = True
        else:
            for seat, action in moves:
                self.state.apply(seat, action)
            done = self.state.is_terminal()
            if done:
                returns = self.table.returns(self.state)
                info = self.table.result_info(self.state)
                rewards = {a: returns[self._seat[a]] for a in agents}
                infos = {a: dict(info) for a in agents}
        self._steps += 1
        truncated = not done and self.max_cycles is not None and self._steps >= self.max_cycles
        observations = self._observe_all()
        terminations = dict.fromkeys(agents, done)
        truncations = dict.fromkeys(agents, truncated)
        if done or truncated:
            self.agents = []
        if self.render_mode == "human":
            self.render()
        return observations, rewards, terminations, truncations, infos

    def render(self) -> str | None:
        text = self.state.render(None)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release: the game is plain Python state."""


def parallel_env(
    game: str,
    num_players: int | None = None,
    options: Mapping[str, Any] | None = None,
    **kwargs: Any,
) -> DecklabParallel:
    """The game as a ``ParallelEnv`` (every acting seat acts at once; see
    :class:`DecklabParallel`). Any game works; it is made for the simultaneous ones."""
    return DecklabParallel(game, num_players, options, **kwargs)


def raw_env(
    game: str,
    num_players: int | None = None,
    options: Mapping[str, Any] | None = None,
    **kwargs: Any,
) -> DecklabAEC:
    """The bare environment: an illegal action raises ``IllegalAction``."""
    return DecklabAEC(game, num_players, options, **kwargs)


def env(
    game: str,
    num_players: int | None = None,
    options: Mapping[str, Any] | None = None,
    **kwargs: Any,
) -> AECEnv[str, ObsDict, int]:
    """The environment as PettingZoo's classic ones come: illegal moves end the game
    with -1 for the offender, actions are checked against the space, order is enforced."""
    wrapped: Any = raw_env(game, num_players, options, **kwargs)
    wrapped = wrappers.TerminateIllegalWrapper(wrapped, illegal_reward=-1)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    wrapped = wrappers.OrderEnforcingWrapper(wrapped)
    return wrapped


def env_names() -> dict[str, str]:
    """Versioned environment name → registry name, for every game with an encoding hook."""
    out = {}
    for game in game_names():
        table = Table(get_game(game))
        out[table.name] = game
    return out


def make(name: str, **kwargs: Any) -> AECEnv[str, ObsDict, int]:
    """The environment by its versioned name (``<game>_v0``) or its game name."""
    names = env_names()
    if name in names:
        return env(names[name], **kwargs)
    known = {env_name(g): g for g in names.values()}
    if env_name(name) in known:
        return env(known[env_name(name)], **kwargs)
    raise KeyError(f"no environment {name!r} (environments: {', '.join(names)})")
