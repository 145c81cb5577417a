"""Games' event counters (``games/<game>/metrics.py``) against hand-worked matches."""

from __future__ import annotations

from decklab.games.notorious.metrics import count_events as notorious_counts
from decklab.games.notorious.metrics import events as notorious_events


def test_n6_n8_notorious_lead_off_and_disqualification_counters() -> None:
    # (lead, plays, gives, bonus, game scores, disqualified), as Notorious's ``past`` holds them.
    past: list[tuple[object, ...]] = [
        (0, (), (), (1, 0, 2), (20, 15, 10), (0,)),  # gains 1, 15, 12; best counted: p2
        (
            0,
            (),
            ((0, 5, 2, False),),
            (0, 3, 0),
            (12, 30, 12),
            (1,),
        ),  # leader p2 out; gains 12, 3, 12
    ]
    got = notorious_counts(past, 3, [2])
    assert got == {
        "tiebreak_games": 1,
        "disqualified_seats": 2,
        "games_with_several_disqualified": 0,
        "winner_disqualified_games": 0,
        "first_lead_off_won": 0,
        "lead_off_disqualified": 1,  # game 1 only
        "lead_off_top_gain": 1,  # game 2: 12, tied with p3
        "lead_off_points": 13,
        "points": 55,
        "leader_disqualified": 1,  # game 2: p2 led 15 to 12 to 1 and was disqualified
        "winner_best_counted_games": 1,  # game 2: p3 had 12, the best score left
    }


def test_n6_notorious_counters_on_a_played_match_are_consistent() -> None:
    from decklab.bots import make_agent
    from decklab.engine.registry import get_game

    state = get_game("notorious").new(4, seed=7)
    agents = [make_agent(f"greedy:seed={s}") for s in range(4)]
    while not state.is_terminal():
        seat = state.to_act()[0]
        state.apply(seat, agents[seat].choose(state, seat))
    got = notorious_events(state)
    games = state.options["games"]
    assert got["disqualified_seats"] >= games
    assert 0 <= got["lead_off_disqualified"] <= games
    assert 0 <= got["leader_disqualified"] <= games - 1
    assert got["points"] == sum(state.scores())
    assert 0 <= got["lead_off_points"] <= got["points"]


def test_p4_p5_corporation_counts_betrayed_and_crowded_corporations() -> None:
    from decklab.games.corporation.metrics import count_events as corporation_events

    rounds = [
        (1, 1, 2, 2),  # two Corporations form: {p1, p2}@1 and {p3, p4}@2
        (3, 4, 3, 3),  # p1/p2 split: betrayed; p3, p4 kept faith but p1 joined: crowded
        (4, 4, 1, 2),  # {p1, p3, p4}@3 betrayed; {p1, p2}@4 formed in the last round
    ]
    got = corporation_events(rounds, [5.0, 8.0, 1.0, 2.0], 32)
    assert got == {
        "rounds": 3,
        "corporations_formed": 4,
        "corporations_paid": 0,
        "corporations_broken": 3,
        "corporations_betrayed": 2,
        "corporations_crowded": 1,
        "round_cap_reached": 1,  # nobody reached 32
        "largest_payout": 0,  # no Corporation paid
        "payout_decided": 0,
    }
    paid = corporation_events([(1, 1, 2, 3), (2, 2, 1, 3)], [4.0, 4.0, 3.0, 6.0], 4)
    assert paid["corporations_paid"] == 1 and paid["corporations_broken"] == 0
    assert paid["round_cap_reached"] == 0


def test_p5_corporation_counts_a_payout_that_decides_the_game() -> None:
    from decklab.games.corporation.metrics import count_events as corporation_events

    # {p1, p2} form on 3 and play 3 again alone: 3 × 2 = 6 points each (P5); p3 and p4
    # score their lone values (1 + 5, 2 + 4). All four end on 6: without the payout p1 and
    # p2 would have 0, and the winners would be p3 and p4 only.
    rounds: list[tuple[int, ...]] = [(3, 3, 1, 2), (3, 3, 5, 4)]
    got = corporation_events(rounds, [6.0, 6.0, 6.0, 6.0], 50)
    assert got["corporations_paid"] == 1
    assert got["largest_payout"] == 6
    assert got["payout_decided"] == 1
    # The same rounds under value × (members − 1): the payout is 3, p1 and p2 end on 3 and
    # lose either way, so the payout decided nothing.
    shared = corporation_events(rounds, [3.0, 3.0, 6.0, 6.0], 50, lambda v, m: v * (m - 1))
    assert shared["largest_payout"] == 3
    assert shared["payout_decided"] == 0
    # A payout to players who lose anyway decides nothing: {p1, p2} earn 2 × 2 = 4 each,
    # p4 wins on 5 + 6 = 11 with or without it.
    lone = corporation_events([(2, 2, 1, 5), (2, 2, 4, 6)], [4.0, 4.0, 5.0, 11.0], 50)
    assert (lone["largest_payout"], lone["payout_decided"]) == (4, 0)
    # The payout is valued at the value played again (P5), not the one the Corporation
    # formed on: {p1, p2} form on 1 and both play 5 next, worth 5 × 2 = 10 each.
    again = corporation_events([(1, 1, 2, 3), (5, 5, 4, 6)], [10.0, 10.0, 6.0, 9.0], 50)
    assert (again["largest_payout"], again["payout_decided"]) == (10, 1)


def test_p5_corporation_payout_counters_agree_with_a_played_game() -> None:
    """On real games the hook's largest payout is one the scores could hold, and the
    counterfactual is a yes-or-no."""
    import random

    from decklab.engine.checks import random_playout
    from decklab.engine.registry import get_game
    from decklab.games.corporation.metrics import events

    cls = get_game("corporation")
    seen_paid = 0
    for seed in range(30):
        state = cls.new(num_players=4, seed=seed)
        random_playout(state, random.Random(seed), check_every=0)
        got = events(state)
        assert got["payout_decided"] in (0, 1)
        assert 0 <= got["largest_payout"] <= max(state.scores())
        assert (got["largest_payout"] > 0) == (got["corporations_paid"] > 0)
        seen_paid += got["corporations_paid"] > 0
    assert seen_paid > 0  # the check above was exercised
