"""OpenSpiel games for every registered decklab game: ``python_decklab_<game>``.

Importing this module registers them with ``pyspiel``; load one with
``pyspiel.load_game("python_decklab_<game>", {"players": 3})``. Parameters:
``players`` (the game's default), ``seed`` (-1: fresh randomness; otherwise the
sequence of deals is reproducible) and ``options`` (decklab options as
``"key=value key=value"``).

Chance. decklab draws chance inside ``apply`` from the state's seeded source and
records it (K3): a deal has up to 52! outcomes and a reshuffle as many, so listing
them as explicit chance nodes is not feasible. The games are therefore
``SAMPLED_STOCHASTIC`` (the state samples its own chance outcomes, as OpenSpiel's
own sampled games do), or ``DETERMINISTIC`` where a game's hook says it has no chance.

Information. The observation string is the seat's ``view`` as JSON, the observation
tensor the game's documented encoding of it (docs/interop.md). The information-state
string adds the seat's own past actions to its view (a game's view already carries
the public record that matters for play: past rounds, turned cards, piles); the
information-state tensor is the view encoding. A public observation
(``PrivateInfoType.NONE``) is the spectator's view. ``resample_from_infostate``
is decklab's ``determinize``, so OpenSpiel's ISMCTSBot can play the sequential games.

Several seats to act at once (a simultaneous round) is a simultaneous node; the
games whose rounds are simultaneous have ``Dynamics.SIMULTANEOUS``.
"""

from __future__ import annotations

import json
import random
from typing import Any

import numpy as np
import pyspiel

from decklab.engine.info import parse_option_pairs
from decklab.engine.registry import game_names, get_game
from decklab.engine.state import ALL, GameState, Viewer, seat_name
from decklab.interop.table import Table, env_name, hooks_for

PREFIX = "python_decklab_"


def short_name(game: str) -> str:
    return PREFIX + env_name(game)


def _game_type(game: str) -> Any:
    cls = get_game(game)
    info = cls.info
    hooks = hooks_for(cls)
    T = pyspiel.GameType
    return T(
        short_name=short_name(game),
        long_name=f"decklab {info.title}",
        dynamics=T.Dynamics.SIMULTANEOUS if info.simultaneous else T.Dynamics.SEQUENTIAL,
        chance_mode=(
            T.ChanceMode.SAMPLED_STOCHASTIC if hooks.has_chance else T.ChanceMode.DETERMINISTIC
        ),
        information=(
            T.Information.IMPERFECT_INFORMATION
            if info.hidden_information
            else T.Information.PERFECT_INFORMATION
        ),
        utility=T.Utility.CONSTANT_SUM if info.min_players > 1 else T.Utility.GENERAL_SUM,
        reward_model=T.RewardModel.TERMINAL,
        max_num_players=info.max_players,
        min_num_players=info.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"players": info.default_players, "seed": -1, "options": ""},
    )


class DecklabSpielGame(pyspiel.Game):  # type: ignore[misc]
    """One decklab game at one player count, as OpenSpiel sees it."""

    def __init__(self, game: str, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        game_type = _game_type(game)
        players = int(params.get("players", get_game(game).info.default_players))
        options = parse_option_pairs(str(params.get("options", "")).split())
        self.table = Table(game, players, options)
        seed = int(params.get("seed", -1))
        self._deals = random.Random(None if seed < 0 else seed)
        self.samples = random.Random(None if seed < 0 else seed + 1)
        """Seeds for ``determinize`` (apart from the deals, so search does not shift them)."""
        multi = players > 1
        game_info = pyspiel.GameInfo(
            num_distinct_actions=self.table.num_actions,
            max_chance_outcomes=0,
            num_players=players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=1.0 if multi else None,
            max_game_length=self.table.hooks.max_game_length(players, self.table.options),
        )
        super().__init__(
            game_type,
            game_info,
            {"players": players, "seed": seed, "options": str(params.get("options", ""))},
        )

    def new_initial_state(self) -> DecklabSpielState:
        return DecklabSpielState(self, self.table.new_state(self._deals.getrandbits(63)))

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> DecklabObserver:
        if params:
            raise ValueError(f"decklab observers take no parameters, not {params}")
        return DecklabObserver(
            self.table, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False)
        )


class DecklabSpielState(pyspiel.State):  # type: ignore[misc]
    """An OpenSpiel state around a decklab state (``.dstate``)."""

    def __init__(self, game: DecklabSpielGame, dstate: GameState) -> None:
        super().__init__(game)
        self.table = game.table
        self.dstate = dstate
        self._legal: dict[int, dict[int, int]] = {}

    def _legal_map(self, seat: int) -> dict[int, int]:
        found = self._legal.get(seat)
        if found is None:
            found = self._legal[seat] = self.table.legal(self.dstate, seat)
        return found

    def current_player(self) -> int:
        acting = self.dstate.to_act()
        if not acting:
            return int(pyspiel.PlayerId.TERMINAL)
        if len(acting) > 1:
            return int(pyspiel.PlayerId.SIMULTANEOUS)
        return acting[0]

    def _legal_actions(self, player: int) -> list[int]:
        return sorted(self._legal_map(player))

    def _apply(self, seat: int, index: int) -> None:
        legal = self._legal_map(seat)
        if index not in legal:
            raise self.dstate.illegal(seat, f"action #{index}")
        self.dstate.apply(seat, legal[index])

    def _apply_action(self, action: int) -> None:
        self._apply(self.dstate.to_act()[0], int(action))
        self._legal = {}

    def _apply_actions(self, actions: list[int]) -> None:
        acting = self.dstate.to_act()
        for seat in acting:  # every seat chose before any choice is applied
            self._legal_map(seat)
        for seat in acting:
            self._apply(seat, int(actions[seat]))
        self._legal = {}

    def _action_to_string(self, player: int, action: int) -> str:
        legal = self._legal_map(player) if player >= 0 else {}
        if action in legal:
            return f"{seat_name(player)} {self.dstate.action_to_string(player, legal[action])}"
        return f"{seat_name(player) if player >= 0 else 'chance'} #{action}"

    def is_terminal(self) -> bool:
        return self.dstate.is_terminal()

    def returns(self) -> list[float]:
        return self.table.returns(self.dstate)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> Any:
        """A state the seat cannot tell from this one: decklab's ``determinize``."""
        rng = random.Random(self.get_game().samples.getrandbits(63))
        return DecklabSpielState(self.get_game(), self.dstate.determinize(player_id, rng))

    def clone(self) -> Any:
        other = DecklabSpielState(self.get_game(), self.dstate.clone())
        return other

    def __str__(self) -> str:
        return self.dstate.render(ALL)


class DecklabObserver:
    """OpenSpiel's observer protocol (``tensor``, ``dict``, ``set_from``, ``string_from``)."""

    def __init__(self, table: Table, iig_obs_type: Any) -> None:
        self.table = table
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        private = iig_obs_type.private_info
        self.private = private
        if private == pyspiel.PrivateInfoType.SINGLE_PLAYER:
            self.tensor: Any = np.zeros(table.obs_size, np.float32)
            self.dict: dict[str, Any] = {"observation": self.tensor}
        else:
            self.tensor = None
            self.dict = {}

    def _viewer(self, player: int) -> Viewer:
        if self.private == pyspiel.PrivateInfoType.SINGLE_PLAYER:
            return player
        if self.private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            return ALL
        return None

    def set_from(self, state: DecklabSpielState, player: int) -> None:
        if self.tensor is not None:
            self.tensor[:] = self.table.observation(state.dstate, player)

    def string_from(self, state: DecklabSpielState, player: int) -> str:
        dstate = state.dstate
        viewer = self._viewer(player)
        text = json.dumps(dstate.view(viewer), sort_keys=True, separators=(",", ":"))
        if not self.perfect_recall or viewer is None or viewer == ALL:
            return text
        index = self.table.index_of
        mine = [str(index(a)) for actor, a in dstate.history if actor == player]
        return f"{seat_name(player)} mine:{' '.join(mine)} view:{text}"


def _register(game: str) -> None:
    def __init__(self: DecklabSpielGame, params: dict[str, Any] | None = None) -> None:
        DecklabSpielGame.__init__(self, game, params)

    # A class of its own per game, as OpenSpiel's Python games register theirs.
    cls = type(f"DecklabSpiel_{env_name(game)}", (DecklabSpielGame,), {"__init__": __init__})
    pyspiel.register_game(_game_type(game), cls)


def register_all() -> list[str]:
    """Register every game that has an encoding hook; returns the short names."""
    names = []
    registered = set(pyspiel.registered_names())
    for game in game_names():
        name = short_name(game)
        if name not in registered:
            _register(game)
        names.append(name)
    return names


GAME_NAMES = register_all()
