"""Games and variants found through the ``decklab.games`` entry points."""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
from pathlib import Path

import pytest

from decklab.engine import registry
from decklab.engine.errors import OptionError
from decklab.engine.registry import PluginError, game_names, get_game
from decklab.engine.state import ALL
from decklab.games.catalog import GAMES
from decklab.games.corporation.state import CorporationState


def test_installed_plugins_are_listed_beside_the_built_in_games(plugins: Path) -> None:
    names = game_names()
    assert set(GAMES) <= set(names)
    assert {"goofspiel", "corporation-shared-reward"} <= set(names)
    assert get_game("goofspiel").info.title == "Goofspiel"
    assert get_game("Corporation_Shared_Reward") is get_game("corporation-shared-reward")


def test_a_variant_is_the_base_game_with_its_own_info_and_overrides_nothing(
    plugins: Path,
) -> None:
    cls = get_game("corporation-shared-reward")
    assert issubclass(cls, CorporationState) and cls is not CorporationState
    # no method of the game is replaced: the rule change is the preset option only
    assert set(vars(cls)) <= {"info", "variant_of", "__module__", "__doc__", "__dict__",
                              "__weakref__"}  # fmt: skip
    info = cls.info
    assert info.name == "corporation-shared-reward"
    assert info.title == "Corporation (shared reward)"
    assert info.option("reward").default == "shared"
    assert CorporationState.info.option("reward").default == "standard"
    state = cls.new(6, seed=1)
    assert state.options["reward"] == "shared" and state.view(0)["game"] == info.name
    # a table may still choose the rules' formula
    assert cls.new(6, {"reward": "standard"}, seed=1).options["reward"] == "standard"


def _hand_worked(reward: str) -> list[float]:
    """Round 1: p1 and p2 form a Corporation of 4s; round 2 they both play 3, nobody else."""
    state = CorporationState.new(4, {"reward": reward}, seed=0)
    for seat, value in enumerate([4, 4, 3, 1]):
        state.apply(seat, value)
    assert state.corporations == [(4, (0, 1))]
    for seat, value in enumerate([3, 3, 2, 4]):
        state.apply(seat, value)
    state.check_invariants()  # the recount reads the same formula
    return state.scores()


def test_the_reward_formula_comes_from_the_plugin(plugins: Path) -> None:
    # round 1: lone 3 (p3), lone 1 (p4); round 2: reward for p1, p2; lone 2 (p3), lone 4 (p4)
    assert _hand_worked("standard") == [6, 6, 5, 5]  # 3 × 2 members (P5)
    assert _hand_worked("shared") == [3, 3, 5, 5]  # 3 × (2 − 1)


def test_an_unknown_reward_formula_is_a_clear_option_error(plugins: Path) -> None:
    with pytest.raises(OptionError, match=r"no reward formula 'nope' \(known: standard, shared"):
        CorporationState.new(4, {"reward": "nope"})


def test_greedy_values_a_corporation_by_the_plugins_reward(plugins: Path) -> None:
    """The table model (greedy, and the expert's determinizations) reads the same hook:
    somewhere in a game it must choose otherwise under the other formula."""
    from decklab.games.corporation.state import greedy_choices

    differ = 0
    for seed in range(30):
        state = CorporationState.new(5, {"reward": "standard"}, seed=seed)
        rng_state = __import__("random").Random(seed)
        while not state.is_terminal() and not differ:
            shared = state.clone()
            shared.reward = get_game("corporation-shared-reward").new(5).reward
            for seat in range(5):
                if greedy_choices(state, seat) != greedy_choices(shared, seat):
                    differ += 1
            for seat in state.to_act():
                state.apply(seat, rng_state.choice(state.legal_actions(seat)))
        if differ:
            break
    assert differ


def test_a_variant_state_pickles_by_name(plugins: Path) -> None:
    cls = get_game("corporation-shared-reward")
    state = cls.new(6, seed=3)
    for seat, value in enumerate([6, 6, 5, 4, 3, 2]):
        state.apply(seat, value)
    again = pickle.loads(pickle.dumps(state))
    assert type(again) is cls
    assert again.view(ALL) == state.view(ALL) and again.reward(6, 3) == 12


def _run(code: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120
    )


def test_a_broken_plugin_is_one_line_and_hides_no_game(plugins: Path, tmp_path: Path) -> None:
    """A distribution whose entry points name a missing module and a clash with a built-in."""
    dist = tmp_path / "broken_plugin-0.1.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: broken-plugin\nVersion: 0.1\n")
    (dist / "entry_points.txt").write_text(
        "[decklab.games]\nbroken = no_such_module.state:State\n"
        "facade = decklab_goofspiel.state:GoofspielState\n"
    )
    env = {**os.environ, "PYTHONPATH": f"{tmp_path}{os.pathsep}{os.environ['PYTHONPATH']}"}
    code = (
        "from decklab.engine.registry import game_names, get_game, PluginError\n"
        "print(','.join(game_names()))\n"
        "print(get_game('facade').__name__)\n"
        "try:\n    get_game('broken')\nexcept PluginError as e:\n    print('ERR', e)\n"
    )
    done = _run(code, env)
    assert done.returncode == 0, done.stderr
    names, facade, err = done.stdout.splitlines()
    assert set(GAMES) | {"goofspiel", "corporation-shared-reward"} == set(names.split(","))
    assert facade == "FacadeState"  # the built-in wins the clash
    assert err.startswith("ERR plugin game 'broken' (no_such_module.state:State) failed to load")
    lines = [line for line in done.stderr.splitlines() if line.startswith("decklab: ")]
    assert len(lines) == 2, lines  # the clash and the broken one, one line each
    assert any("'facade'" in line and "ignored" in line for line in lines)
    # the command line lists the games all the same
    cli = subprocess.run(
        [sys.executable, "-m", "decklab.cli", "games"], env=env, capture_output=True, text=True,
        timeout=120,
    )  # fmt: skip
    assert cli.returncode == 0 and "goofspiel" in cli.stdout and "facade" in cli.stdout


def test_rescan_forgets_uninstalled_plugins(plugins: Path) -> None:
    assert "goofspiel" in game_names()
    sys.path.remove(str(plugins))
    try:
        registry.rescan_plugins()
        assert "goofspiel" not in game_names()
        with pytest.raises(KeyError, match="no game named 'goofspiel'"):
            get_game("goofspiel")
    finally:
        sys.path.insert(0, str(plugins))
        registry.rescan_plugins()
    assert "goofspiel" in game_names()
    assert not isinstance(PluginError("x"), KeyError)


def test_a_plugin_game_state_pickles_with_all_its_fields(plugins: Path) -> None:
    """The server hands a bot's worker process a pickled state. On the compiled build the
    engine's own pickling of an interpreted subclass kept only the base's fields."""
    cls = get_game("goofspiel")
    state = cls.new(3, seed=2)
    state.apply(0, 5)
    again = pickle.loads(pickle.dumps(state))
    assert type(again) is cls
    assert again.view(ALL) == state.view(ALL) and again.history == state.history
    assert again.legal_actions(1) == state.legal_actions(1)
    again.apply(1, 4)
    assert state.to_act() == (1, 2) and again.to_act() == (2,)
