"""``decklab fairness``: it finds a seat effect that is there, and none that is not."""

from __future__ import annotations

import json
import math
from collections.abc import Iterator

import pytest
from typer.testing import CliRunner

from decklab.bots import registry
from decklab.bots.base import SEED, Agent, parse_params
from decklab.bots.greedy import GreedyAgent
from decklab.bots.random_agent import RandomAgent
from decklab.cli import app
from decklab.engine.state import GameState
from decklab.lab import stats
from decklab.lab.fairness import FairnessError, parse_sizes, run_fairness, table_sizes

PLANTED = "seatbiasedtest"


class SeatBiased(Agent):
    """Plays greedy at p1 and at random elsewhere: a seat effect planted in the agent."""

    name = PLANTED

    def __init__(self, seed: int | None = None) -> None:
        self.greedy = GreedyAgent(seed)
        self.random = RandomAgent(seed)

    def choose(self, state: GameState, seat: int) -> int:
        return (self.greedy if seat == 0 else self.random).choose(state, seat)

    def reseed(self, seed: int) -> None:
        self.greedy.reseed(seed)
        self.random.reseed(seed)


@pytest.fixture
def planted() -> Iterator[str]:
    registry.register_agent(
        PLANTED,
        lambda params: SeatBiased(parse_params(PLANTED, params, [SEED])["seed"]),
        "greedy at p1, random elsewhere (a test's planted seat effect)",
        params=[SEED],
    )
    yield PLANTED
    del registry._AGENTS[PLANTED]


def test_a_seat_effect_planted_in_the_agent_is_found(planted: str) -> None:
    report = run_fairness("corporation", planted, 200, seed=3, players=[4], progress=False)
    (table,) = report.tables
    assert table.games == 200
    assert table.p_value < 0.01 and table.seat_effect
    assert table.seats[0].win_rate > 0.4  # p1, the greedy seat, is the one that stands out
    assert all(r.win_rate < 0.25 for r in table.seats[1:])


def test_identical_fair_agents_show_no_seat_effect() -> None:
    report = run_fairness("corporation", "random", 400, seed=3, players=[4, 6], progress=False)
    assert [t.players for t in report.tables] == [4, 6]
    for table in report.tables:
        assert table.p_value > 0.01 and not table.seat_effect
        fair = 1.0 / table.players
        assert all(r.win_low <= fair <= r.win_high for r in table.seats)
        assert math.isclose(sum(r.wins for r in table.seats) + table.no_winner, table.games)


def test_seats_are_not_rotated_so_the_seat_effect_is_the_seats(planted: str) -> None:
    """Rotating seats would spread p1's greedy play over all seats and hide the effect."""
    report = run_fairness("corporation", planted, 8, seed=1, players=[4], progress=False)
    assert report.tables[0].games == 8  # one seating per deal, not four


def test_table_sizes_default_to_every_size_and_are_checked() -> None:
    assert table_sizes("corporation", None) == [4, 5, 6, 7, 8, 9, 10]
    assert table_sizes("facade", None) == [2, 3, 4]
    assert parse_sizes("2,4-5") == [2, 4, 5]
    with pytest.raises(FairnessError, match="played alone"):
        table_sizes("cabin", None)
    with pytest.raises(FairnessError, match="4–10 players"):
        table_sizes("corporation", [3])
    with pytest.raises(FairnessError, match="table sizes"):
        parse_sizes("four")


def test_equal_shares_chi2_counts_shared_wins_as_fractions() -> None:
    chi2, dof, p = stats.equal_shares_chi2([10.5, 9.5, 10.0])
    assert dof == 2 and chi2 == pytest.approx((0.25 + 0.25) / 10.0) and p > 0.9
    assert stats.equal_shares_chi2([0.0, 0.0]) == (0.0, 1, 1.0)
    assert stats.equal_shares_chi2([90, 30, 40, 40])[2] < 1e-6


@pytest.mark.parametrize("dof", range(1, 12))
def test_the_closed_chi2_survival_function_matches_known_values(dof: int) -> None:
    # 95% critical values of the χ² distribution (any table).
    critical = [3.841, 5.991, 7.815, 9.488, 11.070, 12.592, 14.067, 15.507, 16.919, 18.307, 19.675]
    assert stats.chi2_sf_closed(critical[dof - 1], dof) == pytest.approx(0.05, abs=2e-4)
    assert stats.chi2_sf_closed(0.0, dof) == 1.0
    scipy_stats = pytest.importorskip("scipy.stats")
    for x in (0.2, 1.0, 4.4, 17.0, 60.0):
        assert stats.chi2_sf_closed(x, dof) == pytest.approx(
            float(scipy_stats.chi2.sf(x, dof)), rel=1e-9, abs=1e-300
        )


def test_cli_fairness_json_and_table() -> None:
    runner = CliRunner()
    result = runner.invoke(
        app,
        ["fairness", "corporation", "-p", "random", "--players", "4,5", "-g", "20", "--json"],
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["agent"] == "random" and [t["players"] for t in data["tables"]] == [4, 5]
    first = data["tables"][0]
    assert first["games"] == 20 and len(first["seats"]) == 4
    assert {"chi2", "dof", "p_value", "seat_effect"} <= set(first)
    shown = runner.invoke(
        app,
        ["fairness", "corporation", "-p", "random", "--players", "4", "-g", "8", "--no-progress"],
    )
    assert shown.exit_code == 0, shown.output
    assert "p1" in shown.output and "χ²" in shown.output


def test_cli_fairness_refuses_a_solo_game_clearly() -> None:
    result = CliRunner().invoke(app, ["fairness", "cabin", "-p", "random", "-g", "2"])
    assert result.exit_code == 2 and "played alone" in result.output
