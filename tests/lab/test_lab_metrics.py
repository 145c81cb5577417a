"""Every design metric against values computed by hand on small synthetic result sets."""

from __future__ import annotations

import math
import random

import pytest

from decklab.lab import metrics, stats
from decklab.lab.metrics import Rows


def three_games() -> Rows:
    """Two seats, agents a and b; a wins game 1, game 2 is shared, a wins game 3.

    game  lineup  scores    shares     length first
    1     a b     10, 5     1, 0       10     p1
    2     b a     3, 3      ½, ½       20     p2
    3     a b     8, 2      1, 0       30     p1
    """
    return Rows(
        players=2,
        agents=["a", "b"],
        lineup=[[0, 1], [1, 0], [0, 1]],
        scores=[[10.0, 5.0], [3.0, 3.0], [8.0, 2.0]],
        shares=[[1.0, 0.0], [0.5, 0.5], [1.0, 0.0]],
        length=[10, 20, 30],
        deal=[0, 0, 1],
        first_seat=[0, 1, 0],
        traces=[
            [[1.0, 0.0], [1.0, 2.0], [3.0, 2.0], [3.0, 3.0], [10.0, 5.0]],
            [[3.0, 3.0]],
            [[0.0, 2.0], [8.0, 2.0]],
        ],
        events=[{"formed": 2}, {"formed": 0}, {"formed": 1, "capped": 1}],
    )


def test_seat_win_rates_and_wilson() -> None:
    rates = metrics.seat_win_rates(three_games())
    assert [r["rate"] for r in rates] == pytest.approx([2.5 / 3, 0.5 / 3])
    assert (rates[0]["low"], rates[0]["high"]) == pytest.approx(stats.wilson(2.5, 3))


def test_balance_is_one_minus_the_largest_gap() -> None:
    assert metrics.balance(three_games()) == pytest.approx(1 - (2.5 / 3 - 0.5 / 3))


def test_chi_square_of_seat_advantage() -> None:
    # observed 2.5 and 0.5 wins, expected 1.5 each: χ² = 2 × 1² / 1.5 = 4/3, df 1.
    got = metrics.seat_chi_square(three_games())
    assert got["chi2"] == pytest.approx(4 / 3)
    assert got["df"] == 1
    assert got["p"] == pytest.approx(math.erfc(math.sqrt((4 / 3) / 2)))  # χ²₁ tail


@pytest.mark.parametrize(
    ("x", "df", "p"),
    [
        (3.841459, 1, 0.05),
        (5.991465, 2, 0.05),
        (11.3449, 3, 0.01),
        (0.5, 4, 0.973527),
        (30.0, 10, 0.000857),
    ],
)
def test_chi2_tail_matches_tables(x: float, df: int, p: float) -> None:
    assert metrics.chi2_sf(x, df) == pytest.approx(p, rel=2e-3)


def test_first_player_advantage() -> None:
    got = metrics.first_player_advantage(three_games())
    # the first mover won games 1 and 3, and half of game 2 (p2 moved first there)
    assert got["rate"] == pytest.approx(2.5 / 3)
    assert got["advantage"] == pytest.approx(2.5 / 3 - 0.5)


def test_shared_win_rate() -> None:
    assert metrics.shared_win_rate(three_games())["rate"] == pytest.approx(1 / 3)


def test_length_stats_and_histogram() -> None:
    got = metrics.length_stats(three_games(), bins=3)
    assert (got["mean"], got["sd"], got["min"], got["max"]) == pytest.approx((20, 10, 10, 30))
    half = stats.Z95 * 10 / math.sqrt(3)
    assert (got["low"], got["high"]) == pytest.approx((20 - half, 20 + half))
    assert sum(got["histogram"]["counts"]) == 3
    hist = metrics.histogram([1.0, 2.0, 2.0, 3.0, 7.0], bins=3)
    assert hist == {"edges": [1.0, 4.0, 7.0, 10.0], "counts": [4.0, 0.0, 1.0]}


def test_scores_and_winning_margin() -> None:
    got = metrics.score_stats(three_games())
    assert got["per_seat"][0]["mean"] == pytest.approx(7.0)
    assert got["per_seat"][0]["median"] == pytest.approx(8.0)
    assert got["per_seat"][1]["mean"] == pytest.approx(10 / 3)
    assert got["margin"]["mean"] == pytest.approx((5 + 0 + 6) / 3)
    assert metrics.winning_margin([4.0]) is None


def test_lower_is_better_turns_scores_round() -> None:
    rows = three_games()
    rows.lower_is_better = True
    # best is now the lower score: margins 5, 0, 6 again but the other way up
    assert metrics.score_stats(rows)["margin"]["mean"] == pytest.approx(11 / 3)
    assert metrics.winning_margin(rows.signed([2.0, 9.0, 4.0])) == pytest.approx(2.0)


def test_lead_change() -> None:
    # leaders: p1, p2, p1, (tie), p1 → changes p1→p2, p2→p1: 2 over 4 steps
    trace = [[1.0, 0.0], [1.0, 2.0], [3.0, 2.0], [3.0, 3.0], [10.0, 5.0]]
    assert metrics.lead_changes(trace) == pytest.approx(2 / 4)
    assert metrics.lead_changes([[1.0, 0.0], [0.0, 1.0], [2.0, 1.0]]) == pytest.approx(2 / 2)
    assert metrics.lead_changes([[1.0, 0.0]]) == 0.0


def test_drama() -> None:
    # the winner p1 trails at one point of three, by 1 with the leader on 2
    got = metrics.drama([[1.0, 0.0], [1.0, 2.0], [3.0, 2.0]], winner=0)
    assert got == pytest.approx({"behind": 1 / 3, "depth": 0.5})
    assert metrics.drama([[1.0, 0.0], [2.0, 0.0]], winner=0) == {"behind": 0.0, "depth": 0.0}


def test_decisiveness() -> None:
    # p1 leads for good from the fourth of five points: decided at 3/5
    trace = [[0.0, 1.0], [2.0, 1.0], [1.0, 3.0], [4.0, 3.0], [5.0, 3.0]]
    assert metrics.decided_at(trace, 0) == pytest.approx(3 / 5)
    assert metrics.decided_at([[1.0, 0.0], [2.0, 0.0]], 0) == 0.0


def test_trace_stats_use_sole_winners_only() -> None:
    got = metrics.trace_stats(three_games())
    assert got["lead_change"]["n"] == 3  # every game has a lead-change figure
    assert got["drama_behind"]["n"] == 2  # game 2 is shared: no drama figure
    # game 1: p1 behind at 1 of 5 points; game 3: at 1 of 2
    assert got["drama_behind"]["mean"] == pytest.approx((1 / 5 + 1 / 2) / 2)
    # game 1 decided at 2/5 (leads from the third point... tie at the fourth counts as leading)
    assert got["decided_at"]["mean"] == pytest.approx((2 / 5 + 1 / 2) / 2)
    assert got["decisiveness"]["mean"] == pytest.approx(1 - (2 / 5 + 1 / 2) / 2)


def test_event_stats() -> None:
    got = metrics.event_stats(three_games())
    assert got["formed"]["mean"] == pytest.approx(1.0)
    assert got["formed"]["rate"] == pytest.approx(2 / 3)
    assert got["capped"]["mean"] == pytest.approx(1 / 3)  # missing counts as 0


def test_agent_rates() -> None:
    got = {r["agent"]: r for r in metrics.agent_rates(three_games())}
    assert got["a"]["rate"] == pytest.approx(2.5 / 3)
    assert got["a"]["score"] == pytest.approx((10 + 3 + 8) / 3)
    assert got["b"]["rate"] == pytest.approx(0.5 / 3)


# ------------------------------------------------------------------ ratings
def test_plackett_luce_two_seats_is_bradley_terry() -> None:
    # a beats b 3 times out of 4: γa/γb = 3, so the gap is 400·log10(3) Elo
    choices = [((0, 1), [1.0, 0.0])] * 3 + [((0, 1), [0.0, 1.0])]
    elo = metrics.plackett_luce(choices, 2, prior=0)
    assert elo[0] - elo[1] == pytest.approx(400 * math.log10(3), abs=1e-6)
    assert sum(elo) == pytest.approx(0, abs=1e-9)


def test_plackett_luce_counts_every_seat_of_a_repeated_agent() -> None:
    # a at a table with two seats of b wins half the games: γa/(γa+2γb) = ½ → γa = 2γb
    choices = [((0, 1, 1), [1.0, 0.0, 0.0])] * 2 + [((0, 1, 1), [0.0, 1.0, 0.0])] * 2
    elo = metrics.plackett_luce(choices, 2, prior=0)
    assert elo[0] - elo[1] == pytest.approx(400 * math.log10(2), abs=1e-6)


def test_plackett_luce_prior_keeps_an_unbeaten_agent_finite() -> None:
    elo = metrics.plackett_luce([((0, 1), [1.0, 0.0])] * 10, 2)
    assert math.isfinite(elo[0]) and elo[0] > 100


def test_full_order_stages_follow_the_scores() -> None:
    rows = Rows(
        players=3,
        agents=["a", "b", "c"],
        lineup=[[0, 1, 2]],
        scores=[[1.0, 5.0, 3.0]],
        shares=[[0.0, 1.0, 0.0]],
        length=[1],
    )
    assert metrics.choice_sets(rows, depth=1) == [((0, 1, 2), [0.0, 1.0, 0.0])]
    # then c ahead of a among the two left (tables listed best score first)
    assert metrics.choice_sets(rows, depth=None) == [
        ((0, 1, 2), [0.0, 1.0, 0.0]),
        ((2, 0), [1.0, 0.0]),
    ]


def corporation_like() -> Rows:
    """The issue's Corporation example: expert (E) wins 38% of 5-seat games against four
    greedy (G) seats, 15.5% each, but finishes last whenever it does not win."""
    rng = random.Random(4242)
    lineup, scores, shares, deal = [], [], [], []
    for g in range(500):
        seats = [1, 1, 1, 1, 1]
        e = g % 5
        seats[e] = 0
        sc = [float(rng.randint(20, 30)) for _ in range(5)]
        if rng.random() < 0.38:
            winner = e
        else:
            winner = rng.choice([s for s in range(5) if s != e])
        sc[winner] = 40.0
        if winner != e:
            sc[e] = 5.0  # last
        lineup.append(seats)
        scores.append(sc)
        shares.append([1.0 if s == winner else 0.0 for s in range(5)])
        deal.append(g // 5)
    return Rows(
        players=5,
        agents=["expert", "greedy"],
        lineup=lineup,
        scores=scores,
        shares=shares,
        length=[1] * 500,
        deal=deal,
    )


def test_ratings_agree_with_win_rates_where_pairwise_ratings_do_not() -> None:
    rows = corporation_like()
    rates = {r["agent"]: r["rate"] for r in metrics.agent_rates(rows)}
    assert rates["expert"] > 0.3 > 0.2 > rates["greedy"]
    # Bradley–Terry on the pairwise finishing order (the old arena rating) puts greedy first
    wins = [[0.0, 0.0], [0.0, 0.0]]
    for lineup, sc in zip(rows.lineup, rows.scores, strict=True):
        e = lineup.index(0)
        for s in range(5):
            if s != e:
                if sc[e] > sc[s]:
                    wins[0][1] += 1
                else:
                    wins[1][0] += 1
    bt = stats.bradley_terry(wins)
    assert bt[1] > bt[0]
    # Plackett–Luce on who wins puts expert first, clearly (intervals apart)
    pl = {r["agent"]: r for r in metrics.ratings(rows, samples=100)}
    assert pl["expert"]["elo"] > pl["greedy"]["elo"]
    assert pl["expert"]["low"] > pl["greedy"]["high"]
    # and the full finishing order brings the disagreement back, as the docs say
    full = metrics.ratings(rows, depth=None, samples=0)
    assert full[1]["elo"] > full[0]["elo"]


def test_summarize_is_json_ready() -> None:
    import json

    data = metrics.summarize(three_games(), bootstrap=0)
    text = json.dumps(data, allow_nan=False)
    assert "NaN" not in text and data["games"] == 3
    assert data["ratings"][0]["low"] is None  # no bootstrap asked
