"""Lonely Face's ``expected_scores``: what search judges a cut-off game by (docs/strength.md).

A rollout cut off just before the seat to move takes a face pair and one cut off just
after it are the same position a move apart; judged by the points alone they differ by
3, and which one a rollout ends on depends only on how deep the tree went. The estimate
credits the seat to move with its best move, so the two agree.
"""

from __future__ import annotations

import random

from decklab.games.lonely_face.greedy import (
    ESTIMATE_WORTH,
    HAND_WORTH,
    action_values,
    expected_scores,
)
from decklab.games.lonely_face.state import LonelyFaceState
from test_lonely_face import QUIET, build, do, make_setup, with_cells

FACE_PAIR = with_cells(QUIET, a1="KS", b1="QH")
"""A grid with one pair, K♠ Q♥ on a1 b1: whoever turns a spade or a heart may take it."""


def _margin(state: LonelyFaceState) -> float:
    guess = expected_scores(state)
    return guess[0] - guess[1]


def test_a_face_pair_about_to_be_taken_counts_before_and_after_the_take() -> None:
    state = build(make_setup(FACE_PAIR, ["TD TC AD", "AC TH AH"], turn="AS 2D"))
    before = _margin(state)
    do(state, "take a1 b1")
    assert state.points == [3, 0]  # the points jump by a face pair ...
    after = _margin(state)
    assert abs(after - before) < 0.5  # ... the estimate does not
    assert after > 2.5


def test_the_move_now_due_is_credited_to_the_seat_to_move_only() -> None:
    mine = expected_scores(build(make_setup(FACE_PAIR, ["TD TC AD", "AC TH AH"], turn="AS")))
    theirs = expected_scores(
        build(make_setup(FACE_PAIR, ["TD TC AD", "AC TH AH"], turn="AS", first=1))
    )
    assert mine[0] > 3.0 > mine[1]
    assert theirs[1] > 3.0 > theirs[0]


def test_a_face_card_in_hand_is_worth_more_than_a_ten() -> None:
    plain = expected_scores(build(make_setup(QUIET, ["TD TC AD", "AC TH AS"])))
    face = expected_scores(build(make_setup(QUIET, ["TD TC AD", "AC TH KD"])))
    assert face[1] > plain[1]
    assert face[0] == plain[0]
    assert HAND_WORTH[0] == 0.0  # no card, no worth (the table is indexed by card code)


def test_the_estimates_hand_worth_is_its_own_greedys_ratings_keep_theirs() -> None:
    """``ESTIMATE_WORTH`` tunes search's judgement of a cut-off game; ``greedy`` (the
    opponent the expert is measured against) must play as before whatever it holds."""
    state = build(make_setup(QUIET, ["TD TC AD", "AC TH KD"]))
    seat = state.to_act()[0]
    ratings = action_values(state, seat, random.Random(0))
    before = expected_scores(state)
    saved = list(ESTIMATE_WORTH)
    try:
        for c, worth in enumerate(HAND_WORTH):
            ESTIMATE_WORTH[c] = 4 * worth
        after = expected_scores(state)
        assert action_values(state, seat, random.Random(0)) == ratings
    finally:
        ESTIMATE_WORTH[:] = saved
    assert ESTIMATE_WORTH == HAND_WORTH  # the default: greedy's own worth
    assert after[1] > before[1]  # K♦ in p2's hand now counts more


def test_a_finished_game_is_judged_by_its_scores() -> None:
    state = build(make_setup(FACE_PAIR, ["TD TC AD", "AC TH AH"], turn="AS"))
    while not state.is_terminal():
        seat = state.to_act()[0]
        state.apply(seat, state.legal_actions(seat)[0])
    assert expected_scores(state) == state.scores()


def test_the_expert_searches_lonely_face_with_the_games_own_guidance() -> None:
    """``search_guidance`` (progressive widening) reaches the expert's search, for this
    game only: the expert plays as the spelled-out search with widening does."""
    from decklab.bots import make_agent
    from decklab.bots.greedy import game_guidance
    from decklab.bots.ismcts import GUIDED
    from decklab.engine.registry import get_game

    assert game_guidance(LonelyFaceState) == {"widen": "0.5"}
    assert game_guidance(get_game("facade")) == {}
    spelled = ",".join(f"{k}={v}" for k, v in {**GUIDED, "widen": "0.5"}.items())
    state = LonelyFaceState.new(2, seed=11)
    rng = random.Random(3)
    plain = ",".join(f"{k}={v}" for k, v in GUIDED.items())
    compared = differs = 0
    while compared < 8 and not state.is_terminal():
        seat = state.to_act()[0]
        if len(state.legal_actions(seat)) > 1:
            expert = make_agent("expert:iters=48,seed=4").hint(state, seat)
            search = make_agent(f"ismcts:iters=48,{spelled},seed=4").hint(state, seat)
            assert (expert.action, expert.values) == (search.action, search.values)
            common = make_agent(f"ismcts:iters=48,{plain},seed=4").hint(state, seat)
            differs += common.values != search.values
            compared += 1
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    assert compared == 8
    assert differs  # the widening changes what the search finds: the check can fail


def test_a_reseeded_expert_plays_as_a_fresh_one_with_the_games_guidance() -> None:
    """The lab reuses agents and reseeds them: the game's own search must be reseeded too."""
    from decklab.bots import make_agent

    state = LonelyFaceState.new(2, seed=12)
    seat = state.to_act()[0]
    fresh = make_agent("expert:iters=48,seed=5").hint(state, seat)
    used = make_agent("expert:iters=48,seed=1")
    used.hint(state, seat)
    used.reseed(5)
    again = used.hint(state, seat)
    assert (again.action, again.values) == (fresh.action, fresh.values)
