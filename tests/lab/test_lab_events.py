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
    }
    paid = corporation_events([(1, 1, 2, 3), (2, 2, 1, 3)], [4.0, 4.0, 3.0, 6.0], 4)
    assert paid["corporations_paid"] == 1 and paid["corporations_broken"] == 0
    assert paid["round_cap_reached"] == 0
