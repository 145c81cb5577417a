"""The worked example of docs/interop.md: a policy trained with Stable-Baselines3 on the
Cabin, shipped as NumPy weights, seated in the arena by a ``python:`` spec."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("numpy", reason="the example's network runs on NumPy (decklab[rl])")
pytest.importorskip("gymnasium", reason="its encoding is the Gymnasium env's (decklab[rl])")

from decklab.lab.arena import run_arena

ROOT = Path(__file__).resolve().parents[2]
SPEC = f"python:{ROOT / 'examples/policies/cabin_ppo/policy.py'}:agent"


def test_the_trained_cabin_policy_plays_legal_games_and_beats_random_on_the_same_deals() -> None:
    """Paired per deal: the same deals for the trained policy and for ``random``."""
    report = run_arena("cabin", [SPEC, "random"], 40, seed=11, progress=False)
    by_agent = {r.label: r for r in report.per_agent}
    trained, rand = by_agent[SPEC], by_agent["random"]
    assert trained.games == rand.games == 20
    # squid points: fewer is better; the interval of the policy lies below random's mean
    assert trained.score_high < rand.mean_score, (trained, rand)


def test_the_trained_policy_is_deterministic_and_sees_only_the_view() -> None:
    from decklab.bots.registry import make_agent
    from decklab.engine.registry import get_game

    cls = get_game("cabin")
    state = cls.new(1, {}, seed=5)
    agent = make_agent(SPEC)
    first = agent.choose(state, 0)
    assert first in state.legal_actions(0)
    # another deal that looks the same to the seat (determinized from its view) gets
    # the same choice: the network reads the view, never the hidden order
    import random

    twin = state.determinize(0, random.Random(1))
    assert twin.view(0) == state.view(0)
    assert make_agent(SPEC).choose(twin, 0) == first


def test_the_view_only_policy_plays_as_the_agent_does() -> None:
    """``policy(view, legal, seat, rng)`` is what a program at an online table gets
    (the bot API): from the view and the legal texts alone it makes the agent's moves."""
    import importlib.util
    import random

    from decklab.engine.registry import get_game

    found = importlib.util.spec_from_file_location("cabin_ppo_policy", SPEC.split(":")[1])
    assert found is not None and found.loader is not None
    module = importlib.util.module_from_spec(found)
    found.loader.exec_module(module)
    state = get_game("cabin").new(1, {}, seed=3)
    agent = module.agent()
    moves = 0
    while not state.is_terminal():
        legal = [state.action_to_string(0, a) for a in state.legal_actions(0)]
        chosen = agent.choose(state, 0)
        assert module.policy(state.view(0), legal, "p1", random.Random(0)) == (
            state.action_to_string(0, chosen)
        )
        state.apply(0, chosen)
        moves += 1
    assert moves > 30
