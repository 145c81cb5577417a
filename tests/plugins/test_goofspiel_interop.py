"""The plugin game in the RL interfaces, through the same adapters as the built-in games."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest

pytest.importorskip("pettingzoo", reason="PettingZoo is part of decklab[rl]")

from pettingzoo.test import api_test, parallel_api_test, seed_test


@pytest.mark.parametrize("players", [2, 3])
def test_goofspiel_pettingzoo_env_passes_api_test(plugins: Path, players: int) -> None:
    from decklab.interop import pettingzoo as dz

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # its naming and dict-observation advice
        api_test(dz.env("goofspiel", players), num_cycles=40)
        seed_test(lambda: dz.env("goofspiel", players), num_cycles=40)
        parallel_api_test(dz.parallel_env("goofspiel", players), num_cycles=60)
    assert "goofspiel_v0" in dz.env_names()


def test_the_variant_has_an_env_of_its_own(plugins: Path) -> None:
    from decklab.interop import pettingzoo as dz

    env = dz.env("corporation-shared-reward", 4)
    env.reset(seed=1)
    assert env.unwrapped.state.options["reward"] == "shared"
