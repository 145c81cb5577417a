"""The games' encoding hooks and the shared table: fixed sizes, one-to-one actions,
observations from the view alone, and no hidden card through any adapter."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import numpy as np
import pytest
from interop_cases import GAME_COUNTS, IDS, midgame_states

from decklab.engine.registry import get_game
from decklab.interop.table import MissingHook, Table, hooks_for


def test_core_does_not_import_the_rl_libraries() -> None:
    """decklab[rl] is optional: the core (engine, games, bots, lab, CLI) runs without it."""
    code = (
        "import sys, decklab.cli, decklab.engine.records, decklab.bots\n"
        "from decklab.engine.registry import game_names, get_game\n"
        "[get_game(g) for g in game_names()]\n"
        "bad = [m for m in ('pettingzoo', 'gymnasium', 'pyspiel', 'open_spiel') if m in sys.modules]\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    assert out.stdout.strip() == "", f"the core imported {out.stdout.strip()}"


@pytest.mark.parametrize(("game", "players"), GAME_COUNTS, ids=IDS)
def test_encoding_is_fixed_size_and_actions_one_to_one(game: str, players: int) -> None:
    table = Table(game, players)
    names = [name for name, _, _, _ in table.layout]
    assert len(names) == len(set(names)), "two blocks of the layout share a name"
    bound = table.hooks.max_game_length(players, table.options)
    for seed in range(2):
        state = table.new_state(seed)
        rng = random.Random(seed)
        steps = 0
        while True:
            for seat in range(players) if steps % 3 == 0 or state.is_terminal() else ():
                obs = table.observation(state, seat)
                assert obs.shape == (table.obs_size,) and np.isfinite(obs).all()
            if state.is_terminal():
                break
            seat = state.to_act()[0]
            legal = table.legal(state, seat)
            assert len(legal) == len(state.legal_actions(seat)), "two actions share an index"
            assert all(0 <= i < table.num_actions for i in legal)
            state.apply(seat, legal[rng.choice(sorted(legal))])
            steps += 1
        assert steps <= bound, f"a game took {steps} decisions, above max_game_length {bound}"


def test_a_game_without_an_encoding_hook_is_refused_clearly() -> None:
    from decklab.engine.state import GameState

    class Toy(GameState):  # a toy game defined outside any game folder
        info = get_game("cabin").info

    with pytest.raises(MissingHook, match=r"encoding\.py"):
        hooks_for(Toy)  # type: ignore[type-abstract]


@pytest.mark.parametrize(("game", "players"), GAME_COUNTS, ids=IDS)
def test_no_leak_through_the_adapters(game: str, players: int) -> None:
    """A seat's observation, mask and OpenSpiel strings and tensors are identical for two
    states that differ only in cards hidden from it (the second from ``determinize``)."""
    pyspiel = pytest.importorskip("pyspiel", reason="open-spiel is part of decklab[rl]")
    from decklab.interop import openspiel

    sgame = pyspiel.load_game(openspiel.short_name(game), {"players": players})
    table = sgame.table
    rng = random.Random(players)
    differed = False
    for state in midgame_states(game, players, count=4, seed=7 + players):
        for seat in range(players):
            other = state.determinize(seat, rng)
            if json.dumps(other.view(-2), sort_keys=True) != json.dumps(
                state.view(-2), sort_keys=True
            ):
                differed = True
            assert np.array_equal(table.observation(state, seat), table.observation(other, seat))
            assert table.legal(state, seat).keys() == table.legal(other, seat).keys()
            a = openspiel.DecklabSpielState(sgame, state)
            b = openspiel.DecklabSpielState(sgame, other)
            assert a.information_state_string(seat) == b.information_state_string(seat)
            assert a.observation_string(seat) == b.observation_string(seat)
            assert a.information_state_tensor(seat) == b.information_state_tensor(seat)
            assert a.observation_tensor(seat) == b.observation_tensor(seat)
    if get_game(game).info.hidden_information:
        assert differed, "no pair of states differed in a hidden card: the test proved nothing"
