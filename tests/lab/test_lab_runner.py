"""The shared runner: reused agents play as fresh ones, rows do not depend on the backend,
runs resume, folders are never mixed, Parquet files say what they hold, restricted agents."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from decklab.bots.registry import agent_entries
from decklab.bots.spec import AgentSpecError
from decklab.engine.errors import DecklabError
from decklab.engine.registry import get_game
from decklab.lab.agents import RestrictedAgent, build_agent, split_restriction
from decklab.lab.arena import DealJob, play_deal
from decklab.lab.runner import (
    BATCHES,
    Backend,
    RunFolder,
    derive_seed,
    make_plan,
    part_path,
    play_batch,
    read_table,
    run_batches,
)
from decklab.lab.simulate import simulate

QUICK = {"target": 12}
SMALL = {
    "ismcts": "ismcts:iters=6",
    "pimc": "pimc:iters=6,dets=2",
    "cheat": "cheat:iters=6",
    "expert": "expert:iters=6",
    "python": "python:decklab.bots.example_policy:random_legal",
}
"""Small budgets for the search agents, the code a ``python`` agent plays; every other
agent is used as named."""


def every_agent() -> list[str]:
    return [SMALL.get(e.name, e.name) for e in agent_entries()]


@pytest.mark.parametrize(
    ("game", "players", "options"),
    [("corporation", 4, QUICK), ("notorious", 3, {"games": 1, "rounds": 2, "hand_size": 2})],
)
def test_reused_agents_play_exactly_as_fresh_ones(
    game: str, players: int, options: dict[str, int]
) -> None:
    """Agents are built once per worker and reseeded: the games must be those of fresh agents."""
    specs = every_agent()
    assert {"random", "greedy", "ismcts", "pimc", "cheat", "expert"} <= {
        s.partition(":")[0] for s in specs
    }
    for spec in specs:
        plan = make_plan(game, [spec, "random"], 4, players=players, options=options, seed=3)
        batches = [play_batch(plan, b) for b in range(plan.batches)]
        got = [
            (d, tuple(lu), tuple(sc), n)
            for b in batches
            for d, lu, sc, n in zip(
                b.columns["deal"],
                b.columns["lineup"],
                b.columns["scores"],
                b.columns["length"],
                strict=True,
            )
        ]
        want = []
        for d in range(plan.deals):
            job = DealJob(
                plan.game, players, options, plan.agents, plan.lineups, d, derive_seed(3, d)
            )
            want += [(r.deal, r.lineup, r.scores, r.decisions) for r in play_deal(job)]
        assert got == want, spec


def _rows(out: Path) -> list[dict[str, object]]:
    rows: list[dict[str, object]] = read_table(out).to_pylist()
    return rows


ARGS = dict(players=4, options=QUICK, seed=11, batch_deals=2)


def test_same_seed_same_rows_with_one_and_two_workers(tmp_path: Path) -> None:
    specs = ["greedy", "random"]
    simulate("corporation", specs, 20, tmp_path / "one", **ARGS)  # type: ignore[arg-type]
    simulate(
        "corporation",
        specs,
        20,
        tmp_path / "two",
        backend=Backend(workers=2),
        **ARGS,  # type: ignore[arg-type]
    )
    one = _rows(tmp_path / "one")
    assert len(one) == 20 and one == _rows(tmp_path / "two")
    simulate("corporation", specs, 20, tmp_path / "other", **{**ARGS, "seed": 12})  # type: ignore[arg-type]
    assert _rows(tmp_path / "other") != one


def test_same_seed_same_rows_on_a_local_ray(tmp_path: Path, local_ray: object) -> None:
    specs = ["greedy", "random"]
    simulate("corporation", specs, 12, tmp_path / "local", **ARGS)  # type: ignore[arg-type]
    simulate(
        "corporation",
        specs,
        12,
        tmp_path / "ray",
        backend=Backend(ray="local"),
        **ARGS,  # type: ignore[arg-type]
    )
    assert _rows(tmp_path / "ray") == _rows(tmp_path / "local")


def test_an_interrupted_run_resumes_where_it_stopped(tmp_path: Path) -> None:
    specs = ["greedy", "random"]
    whole = tmp_path / "whole"
    simulate("corporation", specs, 24, whole, **ARGS)  # type: ignore[arg-type]
    cut = tmp_path / "cut"
    first = simulate("corporation", specs, 24, cut, stop_after=2, **ARGS)  # type: ignore[arg-type]
    assert first.games == 8 and len(_rows(cut)) == 8
    # a batch that wrote its part but died before logging it is played again
    plan = make_plan("corporation", specs, 24, **ARGS)  # type: ignore[arg-type]
    part_path(cut, 5).write_bytes(b"torn")
    again = simulate("corporation", specs, 24, cut, **ARGS)  # type: ignore[arg-type]
    assert again.resumed_batches == 2 and again.games == 24
    assert _rows(cut) == _rows(whole)
    assert RunFolder(cut, plan).is_complete()
    lines = (cut / BATCHES).read_text().splitlines()
    assert len(lines) == plan.batches  # nothing was played twice


def test_a_folder_holds_one_plan_and_is_never_mixed(tmp_path: Path) -> None:
    out = tmp_path / "run"
    simulate("corporation", ["random"], 8, out, **ARGS)  # type: ignore[arg-type]
    before = sorted(p.name for p in out.iterdir())
    with pytest.raises(DecklabError, match="holds a different run"):
        simulate("corporation", ["greedy"], 8, out, **ARGS)  # type: ignore[arg-type]
    assert sorted(p.name for p in out.iterdir()) == before
    foreign = tmp_path / "foreign"
    foreign.mkdir()
    (foreign / "notes.txt").write_text("mine")
    with pytest.raises(DecklabError, match="not empty"):
        simulate("corporation", ["random"], 8, foreign, **ARGS)  # type: ignore[arg-type]
    assert [p.name for p in foreign.iterdir()] == ["notes.txt"]


def test_parquet_rows_and_metadata(tmp_path: Path) -> None:
    import pyarrow.parquet as pq

    import decklab

    out = tmp_path / "run"
    simulate("corporation", ["greedy", "random"], 4, out, **ARGS)  # type: ignore[arg-type]
    meta = pq.read_schema(part_path(out, 0)).metadata
    assert meta[b"decklab_version"].decode() == decklab.__version__
    plan = json.loads(meta[b"decklab_plan"])
    assert plan["agents"] == ["greedy", "random"] and plan["seed"] == 11
    assert plan["resolved"]["target"] == 12
    row = _rows(out)[0]
    assert row["seats"] == ["greedy", "random", "greedy", "random"]
    assert json.loads(str(row["options"]))["target"] == 12
    trace = row["trace"]
    assert isinstance(trace, list) and trace[-1] == row["scores"]
    assert dict(row["events"])["rounds"] >= 1  # type: ignore[arg-type]
    assert row["winners"] and row["length"] > 0  # type: ignore[operator]


def test_batches_do_not_depend_on_the_backend_and_come_in_order() -> None:
    plan = make_plan("corporation", ["random"], 30, players=4, options=QUICK, batch_deals=3)
    indices = [b.index for b in run_batches(plan, [4, 1, 7], Backend(workers=2))]
    assert indices == [4, 1, 7]


def test_bad_requests_fail_clearly() -> None:
    with pytest.raises(DecklabError, match="no game"):
        make_plan("chess", ["random"], 2)
    with pytest.raises(DecklabError, match="no agent"):
        make_plan("corporation", ["nosuch"], 2)
    with pytest.raises(DecklabError, match="at least 1"):
        make_plan("corporation", ["random"], 0)
    with pytest.raises(DecklabError, match="workers"):
        list(run_batches(make_plan("corporation", ["random"], 2), [0], Backend(workers=0)))


# --------------------------------------------------------------- restriction
def test_restrict_parameter_is_split_and_checked() -> None:
    assert split_restriction("greedy:restrict=^play 4$,seed=3") == ("greedy:seed=3", "^play 4$")
    assert split_restriction("random") == ("random", None)
    with pytest.raises(AgentSpecError, match="regular expression"):
        build_agent("random:restrict=(")
    with pytest.raises(AgentSpecError, match="no parameter"):
        build_agent("random:bogus=1")
    assert isinstance(build_agent("random:restrict=4"), RestrictedAgent)


def test_a_restricted_agent_never_takes_a_barred_action_unless_it_must() -> None:
    cls = get_game("corporation")
    agent = build_agent("random:restrict=^play [34]$,seed=1")
    for seed in range(20):
        state = cls.new(4, QUICK, seed=seed)
        while state.to_act():
            seat = state.to_act()[0]
            legal = [state.action_to_string(seat, a) for a in state.legal_actions(seat)]
            action = agent.choose(state, seat) if seat == 0 else state.legal_actions(seat)[0]
            text = state.action_to_string(seat, action)
            if seat == 0 and any(t not in ("play 3", "play 4") for t in legal):
                assert text not in ("play 3", "play 4")
            state.apply(seat, action)
    # barred from everything: it still moves (all actions stay allowed)
    state = cls.new(4, QUICK, seed=0)
    everything = build_agent("random:restrict=.,seed=1")
    assert everything.choose(state, 0) in state.legal_actions(0)


def test_restricted_search_agent_plans_without_the_barred_moves() -> None:
    cls = get_game("corporation")
    agent = build_agent("ismcts:iters=20,seed=2,restrict=^play 1$")
    state = cls.new(4, QUICK, seed=5)
    assert state.action_to_string(0, agent.choose(state, 0)) != "play 1"
    assert type(state).__name__ == "CorporationState"  # the real state is untouched


def test_restriction_holds_for_search_and_random_agents() -> None:
    cls = get_game("corporation")
    for spec in (
        "random:restrict=^play [34]$,seed=4",
        "ismcts:iters=10,seed=4,restrict=^play [34]$",
    ):
        agent = build_agent(spec)
        for seed in range(6):
            state = cls.new(4, QUICK, seed=seed)
            assert state.action_to_string(0, agent.choose(state, 0)) in ("play 1", "play 2")
