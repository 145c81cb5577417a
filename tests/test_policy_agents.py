"""Your own policy as an agent: ``python:MODULE:FUNCTION`` specs and ``decklab.agents`` entry points.

The promise is that a policy enters the lab's own tools on the same deals as the
built-in bots, and that a mistake in naming or writing it is said in one line.
"""

from __future__ import annotations

import importlib.metadata
import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from decklab.bots import AgentSpecError, is_fair, make_agent, registry
from decklab.bots.python_policy import PolicyAgent
from decklab.bots.spec import parse_spec, split_players, with_seed
from decklab.cli import app
from decklab.engine.registry import get_game

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE_FILE = ROOT / "examples" / "policies" / "first_legal.py"
RANDOM_LEGAL = "python:decklab.bots.example_policy:random_legal"
CORPORATION = ["-g", "4", "-n", "4", "-o", "target=12", "--json", "--no-progress"]
runner = CliRunner()


def _arena(*args: str) -> Any:
    result = runner.invoke(app, ["arena", *args])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def test_spec_keeps_its_code_through_seeding_and_player_lists() -> None:
    """The lab seeds a spec per game: the module and function must survive, case kept."""
    spec = "python:My_Pkg.Mod:Policy,seed=3"
    assert parse_spec(spec) == ("python", {"target": "My_Pkg.Mod:Policy", "seed": "3"})
    assert with_seed(spec, 9) == "python:My_Pkg.Mod:Policy,seed=9"
    assert split_players("Python:x/y.py:f,seed=1,greedy") == ["python:x/y.py:f,seed=1", "greedy"]


def test_policy_plays_in_the_arena_on_the_same_deals_as_the_builtin_bots() -> None:
    """A policy drawing with its rng as ``random`` does plays exactly ``random``'s games."""
    mine = _arena("corporation", "-p", f"{RANDOM_LEGAL},greedy", *CORPORATION)
    builtin = _arena("corporation", "-p", "random,greedy", *CORPORATION)
    assert mine["agents"] == [RANDOM_LEGAL, "greedy"] and mine["games"] == 4
    for key in ("per_agent", "per_seat"):
        for got, expected in zip(mine[key], builtin[key], strict=True):
            assert {k: v for k, v in got.items() if k != "label"} == {
                k: v for k, v in expected.items() if k != "label"
            }


def test_policy_file_plays_in_the_arena_against_greedy() -> None:
    spec = f"python:{EXAMPLE_FILE}:policy"
    data = _arena("cabin", "-p", f"{spec},greedy", "--games", "4", "--json", "--no-progress")
    assert [a["label"] for a in data["per_agent"]] == [spec, "greedy"]
    assert all(a["games"] == 2 for a in data["per_agent"])


def test_illegal_return_names_the_spec_and_the_value(tmp_path: Path) -> None:
    bad = tmp_path / "bad_policy.py"
    bad.write_text("def policy(view, legal, seat, rng):\n    return 'fold everything'\n")
    spec = f"python:{bad}:policy"
    result = runner.invoke(app, ["arena", "cabin", "-p", spec, "--games", "2", "--no-progress"])
    assert result.exit_code == 2, result.output
    assert "fold everything" in result.output and "not a legal action" in result.output
    assert "bad_policy.py:policy" in result.output and "Traceback" not in result.output


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        ("python:no_such_module_here:policy", ["cannot import", "no_such_module_here"]),
        ("python:decklab.bots.example_policy:nope", ["has no 'nope'"]),
        ("python:missing_file.py:policy", ["no file", "missing_file.py"]),
        ("python:just_a_module", ["python:MODULE:FUNCTION"]),
        ("python", ["python:MODULE:FUNCTION"]),
        (f"{RANDOM_LEGAL},iters=3", ["no parameter 'iters'"]),
    ],
)
def test_unknown_code_is_a_one_line_error_exit_2(spec: str, words: list[str]) -> None:
    with pytest.raises(AgentSpecError) as err:
        make_agent(spec)
    assert all(w in str(err.value) for w in words), str(err.value)
    result = runner.invoke(app, ["arena", "cabin", "-p", spec, "--games", "2", "--no-progress"])
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output and len(result.output.strip().splitlines()) <= 3


def test_agent_class_is_built_and_says_its_own_fairness(tmp_path: Path) -> None:
    module = tmp_path / "peeker.py"
    module.write_text(
        "from decklab.bots.random_agent import RandomAgent\n"
        "class Peeker(RandomAgent):\n    fair = False\n"
        "def make():\n    return RandomAgent(seed=1)\n"
        "def not_an_agent():\n    return 42\n"
    )
    assert not is_fair(f"python:{module}:Peeker")
    assert is_fair(f"python:{module}:make") and is_fair(RANDOM_LEGAL)
    assert make_agent(f"python:{module}:Peeker,seed=4").name == "random"
    with pytest.raises(AgentSpecError, match="must return a decklab Agent"):
        make_agent(f"python:{module}:not_an_agent")


def test_policy_sees_only_its_seats_view(tmp_path: Path) -> None:
    seen: list[tuple[Any, ...]] = []

    def spy(view: dict[str, Any], legal: list[str], seat: str, rng: object) -> str:
        seen.append((view, legal, seat))
        return legal[-1]

    state = get_game("corporation").new(4, seed=5)
    seat = state.to_act()[0]
    agent = PolicyAgent(spy, "spy", seed=1)
    action = agent.choose(state, seat)
    view, legal, name = seen[0]
    assert view == state.view(seat) and name == f"p{seat + 1}"
    assert legal == [state.action_to_string(seat, a) for a in state.legal_actions(seat)]
    assert action == state.legal_actions(seat)[-1]


def test_entry_point_names_an_agent(monkeypatch: pytest.MonkeyPatch) -> None:
    point = importlib.metadata.EntryPoint(
        "my-bot", "decklab.bots.example_policy:first_legal", registry.ENTRY_POINT_GROUP
    )
    registry.agent_entries()  # every built-in registered first, into the dict kept after
    monkeypatch.setattr(registry, "_AGENTS", dict(registry._AGENTS))
    monkeypatch.setattr(registry, "_entry_points", lambda: {"my-bot": point})
    agent = make_agent("my-bot:seed=2")
    assert isinstance(agent, PolicyAgent) and is_fair("my-bot")
    assert "my-bot" in {e.name for e in registry.agent_entries()}
    data = _arena("cabin", "-p", "my-bot,greedy", "--games", "2", "--json", "--no-progress")
    assert data["agents"] == ["my-bot", "greedy"]
