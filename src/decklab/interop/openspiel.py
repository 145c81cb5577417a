"""OpenSpiel games for every registered decklab game: ``python_decklab_<game>``.

Importing this module registers them with ``pyspiel``; load one with
``pyspiel.load_game("python_decklab_<game>", {"players": 3})``. Parameters:
``players`` (the game's default), ``seed`` (-1: fresh randomness; otherwise the
samples drawn by ``resample_from_infostate`` are reproducible), ``options`` (decklab
options as ``"key=value key=value"``) and ``turn_based`` (a simultaneous round is
played one seat after another, each seeing only its own view, as the PettingZoo
environments do: then MCTSBot and ISMCTSBot can search it).

Chance is explicit (``EXPLICIT_STOCHASTIC``), as in OpenSpiel's poker games. Every
draw a decklab game makes is a uniform choice: ``below(n)``, or one step of a
Fisher–Yates shuffle, which of the cards not placed yet comes next. The adapter
gives the game a :class:`~decklab.engine.chance.ScriptedRng` and offers each such
choice as a chance node with equally likely outcomes, so the deal is dealt a card at
a time and so are mid-game draws, rolls and reshuffles, with no game listing its
outcomes. A state is (the chance outcomes of the event under way, the actions so
far); a clone holds no hidden future, so search samples chance instead of knowing
it, ``serialize`` is the action history, and chance-aware algorithms can run.
``DETERMINISTIC`` where a game's hook says it has no chance.

Information. The observation string is the seat's ``view`` as JSON, the observation
tensor the game's documented encoding of it (docs/interop.md). The information-state
string adds the seat's own past actions to its view (a game's view already carries
the public record that matters for play: past rounds, turned cards, piles); the
information-state tensor is the view encoding. A public observation
(``PrivateInfoType.NONE``) is the spectator's view. ``resample_from_infostate``
is decklab's ``determinize``, so OpenSpiel's ISMCTSBot can play every game
(Corporation with ``turn_based``). Perfect-information MCTS (``MCTSBot``) sees the
true state's hidden cards: OpenSpiel's known limit; use ISMCTS for honest play.

Several seats to act at once (a simultaneous round) is a simultaneous node; the
games whose rounds are simultaneous have ``Dynamics.SIMULTANEOUS`` unless
``turn_based`` is set.
"""

from __future__ import annotations

import json
import random
from typing import Any

import numpy as np
import pyspiel

from decklab import cards
from decklab.engine.chance import ChanceNeeded, ScriptedRng
from decklab.engine.info import parse_option_pairs
from decklab.engine.registry import game_names, get_game
from decklab.engine.state import ALL, GameState, Viewer, deal_with, seat_name
from decklab.interop.table import Table, env_name, hooks_for

PREFIX = "python_decklab_"


def short_name(game: str) -> str:
    return PREFIX + env_name(game)


def _game_type(game: str, turn_based: bool = False) -> Any:
    cls = get_game(game)
    info = cls.info
    hooks = hooks_for(cls)
    T = pyspiel.GameType
    return T(
        short_name=short_name(game),
        long_name=f"decklab {info.title}",
        dynamics=(
            T.Dynamics.SIMULTANEOUS
            if info.simultaneous and not turn_based
            else T.Dynamics.SEQUENTIAL
        ),
        chance_mode=(
            T.ChanceMode.EXPLICIT_STOCHASTIC if hooks.has_chance else T.ChanceMode.DETERMINISTIC
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
        parameter_specification={
            "players": info.default_players,
            "seed": -1,
            "options": "",
            "turn_based": False,
        },
    )


class DecklabSpielGame(pyspiel.Game):  # type: ignore[misc]
    """One decklab game at one player count, as OpenSpiel sees it."""

    def __init__(self, game: str, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        players = int(params.get("players", get_game(game).info.default_players))
        self.turn_based = bool(params.get("turn_based", False))
        game_type = _game_type(game, turn_based=self.turn_based)
        options = parse_option_pairs(str(params.get("options", "")).split())
        self.table = Table(game, players, options)
        seed = int(params.get("seed", -1))
        self.samples = random.Random(None if seed < 0 else seed)
        """Seeds for ``determinize`` (OpenSpiel samples chance itself)."""
        multi = players > 1
        decisions = self.table.hooks.max_game_length(players, self.table.options)
        self.max_outcomes = _max_chance_outcomes(self.table)
        game_info = pyspiel.GameInfo(
            num_distinct_actions=self.table.num_actions,
            max_chance_outcomes=self.max_outcomes if self.table.hooks.has_chance else 0,
            num_players=players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=1.0 if multi else None,
            max_game_length=decisions,
        )
        super().__init__(
            game_type,
            game_info,
            {
                "players": players,
                "seed": seed,
                "options": str(params.get("options", "")),
                "turn_based": self.turn_based,
            },
        )

    def new_initial_state(self) -> DecklabSpielState:
        """The table before the deal: chance nodes deal it a card at a time."""
        state = DecklabSpielState(self, None)
        state._event = ()
        state._attempt()
        return state

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> DecklabObserver:
        if params:
            raise ValueError(f"decklab observers take no parameters, not {params}")
        return DecklabObserver(
            self.table, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False)
        )


def _max_chance_outcomes(table: Table) -> int:
    """An upper bound on the outcomes of one chance node: the largest deck (a shuffle's
    first step), the seats, a die; a game's encoding may say ``MAX_CHANCE_OUTCOMES``."""
    sample = table.new_state(0)
    decks = [len(d.cards) for d in sample.setup_decks()]
    return max([*decks, table.num_players, 6, table.hooks.max_chance_outcomes])


Move = tuple[int, int]
"""(seat, engine action)."""


class DecklabSpielState(pyspiel.State):  # type: ignore[misc]
    """An OpenSpiel state around a decklab state (``.dstate``, None before the deal).

    At a chance node, ``_event`` holds the moves whose chance is being drawn (``()``
    for the deal) and ``_script`` the outcomes drawn so far; each outcome replays the
    event on a clone with one more outcome, until it needs no more.
    """

    def __init__(self, game: DecklabSpielGame, dstate: GameState | None) -> None:
        super().__init__(game)
        self.table = game.table
        self.turn_based = game.turn_based
        self.dstate = dstate
        self._legal: dict[int, dict[int, int]] = {}
        self._event: tuple[Move, ...] | None = None
        self._script: list[int] = []
        self._chance_n = 0
        self._chance_items: list[Any] | None = None

    # ------------------------------------------------------------------ chance
    def _attempt(self) -> None:
        """Carry out the pending event with the outcomes so far, or ask for one more."""
        event = self._event
        if event is None:
            return
        rng = ScriptedRng(list(self._script))
        try:
            if self.dstate is None:
                table = self.table
                done = deal_with(table.cls, table.num_players, table.given_options, rng)
            else:
                done = self.dstate.clone()
                done.rng = rng
                for seat, action in event:
                    done.apply(seat, action)
        except ChanceNeeded as need:
            if need.n > self.get_game().max_outcomes:
                raise AssertionError(
                    f"a chance node of {need.n} outcomes: raise MAX_CHANCE_OUTCOMES"
                ) from None
            self._chance_n = need.n
            self._chance_items = None if need.items is None else list(need.items[: need.n])
            return
        done.rng = ScriptedRng([])
        self.dstate = done
        self._event = None
        self._script = []
        self._legal = {}

    def _carry_out(self, moves: tuple[Move, ...]) -> None:
        assert self.dstate is not None
        self._event = moves
        self._script = []
        self._attempt()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The next draw's outcomes, equally likely: a card of those not placed yet, a
        die face, a seat..."""
        n = self._chance_n
        return [(j, 1.0 / n) for j in range(n)]

    # --------------------------------------------------------------- decisions
    def _legal_map(self, seat: int) -> dict[int, int]:
        found = self._legal.get(seat)
        if found is None:
            assert self.dstate is not None
            found = self._legal[seat] = self.table.legal(self.dstate, seat)
        return found

    def current_player(self) -> int:
        if self._event is not None:
            return int(pyspiel.PlayerId.CHANCE)
        assert self.dstate is not None
        acting = self.dstate.to_act()
        if not acting:
            return int(pyspiel.PlayerId.TERMINAL)
        if len(acting) > 1 and not self.turn_based:
            return int(pyspiel.PlayerId.SIMULTANEOUS)
        return acting[0]

    def _legal_actions(self, player: int) -> list[int]:
        if player < 0:
            return [j for j, _ in self.chance_outcomes()]
        return sorted(self._legal_map(player))

    def _move(self, seat: int, index: int) -> Move:
        legal = self._legal_map(seat)
        if index not in legal:
            assert self.dstate is not None
            raise self.dstate.illegal(seat, f"action #{index}")
        return seat, legal[index]

    def _apply_action(self, action: int) -> None:
        if self._event is not None:
            if not 0 <= int(action) < self._chance_n:
                raise ValueError(f"chance outcome {action} is not one of 0…{self._chance_n - 1}")
            self._script.append(int(action))
            self._attempt()
            return
        assert self.dstate is not None
        self._carry_out((self._move(self.dstate.to_act()[0], int(action)),))
        self._legal = {}

    def _apply_actions(self, actions: list[int]) -> None:
        assert self.dstate is not None
        # every seat chose before any choice is applied
        moves = tuple(self._move(seat, int(actions[seat])) for seat in self.dstate.to_act())
        self._carry_out(moves)
        self._legal = {}

    def _action_to_string(self, player: int, action: int) -> str:
        if player < 0:
            items = self._chance_items
            if items is not None and 0 <= action < len(items):
                item = items[action]
                shown = cards.to_str(item) if isinstance(item, int) and item >= 0 else item
                return f"chance {shown}"
            return f"chance {action} of {self._chance_n}"
        legal = self._legal_map(player)
        if action in legal:
            assert self.dstate is not None
            return f"{seat_name(player)} {self.dstate.action_to_string(player, legal[action])}"
        return f"{seat_name(player)} #{action}"

    def is_terminal(self) -> bool:
        return self._event is None and self.dstate is not None and self.dstate.is_terminal()

    def returns(self) -> list[float]:
        if self.dstate is None or self._event is not None:
            return [0.0] * self.table.num_players
        return self.table.returns(self.dstate)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> Any:
        """A state the seat cannot tell from this one: decklab's ``determinize`` (the
        hidden cards and choices resampled; chance still to come stays chance)."""
        game = self.get_game()
        if self.dstate is None:
            return game.new_initial_state()
        rng = random.Random(game.samples.getrandbits(63))
        sample = self.dstate.determinize(player_id, rng)
        sample.rng = ScriptedRng([])
        other = DecklabSpielState(game, sample)
        if self._event is not None:  # the event's draws so far are resampled too
            other._carry_out(self._event)
        return other

    def clone(self) -> Any:
        other = DecklabSpielState(
            self.get_game(), None if self.dstate is None else self.dstate.clone()
        )
        if other.dstate is not None:
            other.dstate.rng = ScriptedRng([])
        other._event = self._event
        other._script = self._script.copy()
        other._chance_n = self._chance_n
        other._chance_items = self._chance_items
        return other

    def __str__(self) -> str:
        if self.dstate is None:
            return f"(dealing: {len(self._script)} cards placed)"
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
            if state.dstate is None:  # not dealt yet: nothing to see
                self.tensor[:] = 0.0
            else:
                self.tensor[:] = self.table.observation(state.dstate, player)

    def string_from(self, state: DecklabSpielState, player: int) -> str:
        dstate = state.dstate
        if dstate is None:
            return f"{seat_name(player)} dealing" if player >= 0 else "dealing"
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


def ismcts_bot(game: Any, *args: Any, **kwargs: Any) -> Any:
    """OpenSpiel's ``ISMCTSBot`` with the ``restart_at`` and ``inform_action`` that
    ``evaluate_bots`` calls (OpenSpiel's bot leaves them to ``pyspiel.Bot``, which
    raises ``RestartAt(state) not implemented``). ISMCTS keeps nothing between moves
    (each step searches afresh from resampled states), so both do nothing. The
    arguments are ``ISMCTSBot``'s."""
    from open_spiel.python.algorithms import ismcts

    class RestartableISMCTSBot(ismcts.ISMCTSBot):  # type: ignore[misc]
        def restart_at(self, state: Any) -> None:
            """Nothing to forget: every step builds its own tree."""

        def inform_action(self, state: Any, player_id: int, action: int) -> None:
            """Nothing to track: the state passed to ``step`` says everything."""

    return RestartableISMCTSBot(game, *args, **kwargs)
