"""One learner at a multiplayer table, as a single-agent Gymnasium environment.

:class:`SeatEnv` seats the learner at one seat of any game; every other seat is
played inside ``step`` until the learner must act again (or the game ends), so a
single-agent algorithm (PPO, MaskablePPO, DQN) trains on a multiplayer game. Each
other seat is played by either

* a **decklab agent spec** (``"greedy"``, ``"expert"``, ``"ismcts:iters=200"``): the
  fixed opponents of the lab, choosing from the seat's view as they do in ``arena``;
* a **policy callback** ``policy(observation, action_mask) -> action index``, given
  the seat's own encoded observation vector and int8 mask (what the learner gets):
  a frozen snapshot of the learner, or the learner itself (self-play).

:func:`self_play_env` is the PettingZoo SB3 action-masking tutorial's setting done
as a plain Gymnasium env: the learner plays every seat in turn (``seat="rotate"``:
episode k is played from seat k mod n) and the other seats by the callback, so one
policy learns the game from every seat. :func:`fixed_opponents_env` seats it against
decklab bots. Why not a wrapper over the PettingZoo env: the tutorial's wrapper
returns the reward of whichever agent is next, not the learner's; here the reward is
always the learner's (0 until the end, then its return: 1 for a win, 1/k for a win
shared by k seats), and the observation is always the learner's view.

Simultaneous rounds (Corporation): the other seats to act choose first, each from
its own view (which hides the others' choices until the round is revealed), then
the learner. An illegal learner action ends the episode with reward -1 and
``info["illegal_action"] = True``, as in :class:`~decklab.interop.gymnasium.DecklabGymEnv`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from decklab.bots import Agent, make_agent
from decklab.engine.state import GameState
from decklab.interop.table import Mask, Obs, Table

Policy = Callable[[Obs, Mask], int]
"""``policy(observation, action_mask) -> action index`` for one seat."""
Opponent = str | Policy
ILLEGAL_REWARD = -1.0


class SeatEnv(gymnasium.Env[Any, np.int64]):
    """A learner at one seat of a game; the other seats played by agents or callbacks."""

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 1}  # noqa: RUF012

    def __init__(
        self,
        game: str,
        opponents: Opponent | Sequence[Opponent],
        num_players: int | None = None,
        seat: int | str = "rotate",
        options: Mapping[str, Any] | None = None,
        mask_in_observation: bool = True,
        render_mode: str | None = None,
    ) -> None:
        """``opponents``: one for every other seat, or a list of ``num_players - 1``
        given in seat order after the learner's; ``seat``: the learner's seat, or
        ``"rotate"`` (episode k after the last seeded reset from seat k mod n) or
        ``"random"`` (from the reset's generator)."""
        self.table = Table(game, num_players, options)
        n = self.table.num_players
        if n < 2:
            raise ValueError(f"{game} at {n} player(s) has no other seat: use DecklabGymEnv")
        listed = (
            [opponents] * (n - 1)
            if isinstance(opponents, str) or callable(opponents)
            else list(opponents)
        )
        if len(listed) != n - 1:
            raise ValueError(f"{len(listed)} opponents for {n - 1} other seats")
        self.opponents: list[Agent | Policy] = [
            make_agent(o) if isinstance(o, str) else o for o in listed
        ]
        if isinstance(seat, int) and not 0 <= seat < n:
            raise ValueError(f"seat {seat} is not one of 0 … {n - 1}")
        if isinstance(seat, str) and seat not in ("rotate", "random"):
            raise ValueError(f"seat is a number, 'rotate' or 'random', not {seat!r}")
        self.seat_rule = seat
        self.render_mode = render_mode
        self.mask_in_observation = mask_in_observation
        full = self.table.observation_space()
        self.observation_space: spaces.Space[Any] = (
            full if mask_in_observation else full["observation"]
        )
        self.action_space = spaces.Discrete(self.table.num_actions)
        self.learner = seat if isinstance(seat, int) else 0
        self.state: GameState = self.table.new_state(0)
        self._episodes = 0
        self._legal: dict[int, int] = {}
        self._done = False

    def _opponent_of(self, seat: int) -> Agent | Policy:
        """Opponents are listed in seat order starting after the learner's seat."""
        n = self.table.num_players
        return self.opponents[(seat - self.learner - 1) % n]

    def _play_others(self) -> None:
        """Play the other seats until the learner is the only one to act, or the end."""
        while True:
            others = [s for s in self.state.to_act() if s != self.learner]
            if not others:
                return
            seat = others[0]
            who = self._opponent_of(seat)
            if isinstance(who, Agent):
                action = who.choose(self.state, seat)
            else:
                legal = self.table.legal(self.state, seat)
                index = int(who(self.table.observation(self.state, seat), self.table.mask(legal)))
                if index not in legal:
                    raise ValueError(f"the policy for seat {seat} chose illegal action #{index}")
                action = legal[index]
            self.state.apply(seat, action)

    def _observe(self) -> tuple[Any, dict[str, Any]]:
        self._legal = {} if self.state.is_terminal() else self.table.legal(self.state, self.learner)
        mask = self.table.mask(self._legal)
        vector = self.table.observation(self.state, self.learner)
        info: dict[str, Any] = {"action_mask": mask.copy(), "seat": self.learner}
        if not self.mask_in_observation:
            return vector, info
        return {"observation": vector, "action_mask": mask}, info

    def _finish(self, info: dict[str, Any]) -> tuple[float, dict[str, Any]]:
        self._done = True
        info.update(self.table.result_info(self.state))
        return self.table.returns(self.state)[self.learner], info

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The learner's legal actions now, as booleans (for MaskablePPO)."""
        return self.table.mask(self._legal).astype(bool)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        super().reset(seed=seed)
        n = self.table.num_players
        if seed is not None:
            self._episodes = 0  # so that reset(seed=s) fixes the episodes that follow
        if self.seat_rule == "rotate":
            self.learner = self._episodes % n
        elif self.seat_rule == "random":
            self.learner = int(self.np_random.integers(n))
        self._episodes += 1
        for who in self.opponents:
            if isinstance(who, Agent):
                who.reseed(int(self.np_random.integers(2**63 - 1)))
        for _ in range(100):  # a deal the others finish before the learner's turn: deal again
            self.state = self.table.new_state(int(self.np_random.integers(2**63 - 1)))
            self._play_others()
            if not self.state.is_terminal():
                break
        else:
            raise RuntimeError(
                f"100 games of {self.table.info.title} ended before seat {self.learner} had a move"
            )
        self._done = False
        obs, info = self._observe()
        return obs, info

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if self._done:
            raise RuntimeError("the episode is over: call reset()")
        index = int(action)
        if index not in self._legal:
            self._done = True
            obs, info = self._observe()
            why = self.state.illegal(self.learner, f"action #{index}").reason
            return obs, ILLEGAL_REWARD, True, False, {**info, "illegal_action": True, "why": why}
        self.state.apply(self.learner, self._legal[index])
        self._play_others()
        obs, info = self._observe()
        if self.state.is_terminal():
            reward, info = self._finish(info)
            return obs, reward, True, False, info
        return obs, 0.0, False, False, info

    def render(self) -> Any:
        """``"ansi"``: the table as the learner sees it."""
        if self.render_mode == "ansi":
            return self.state.render(self.learner)
        return None


def self_play_env(
    game: str, policy: Policy, num_players: int | None = None, **kwargs: Any
) -> SeatEnv:
    """The learner plays every seat in turn (``seat="rotate"``); the others are played by
    ``policy``: a frozen snapshot of the learner, or the learner's live prediction."""
    kwargs.setdefault("seat", "rotate")
    return SeatEnv(game, policy, num_players, **kwargs)


def fixed_opponents_env(
    game: str,
    opponents: str | Sequence[str] = "greedy",
    num_players: int | None = None,
    **kwargs: Any,
) -> SeatEnv:
    """The learner against decklab's bots, by agent spec (``"greedy"``, ``"expert"``, …)."""
    return SeatEnv(game, opponents, num_players, **kwargs)
