"""The games' core choices for restricted play that look at the position, on hand-built tables.

Each predicate is asked about legal moves of a position whose answer the rules decide
(rule ids in the names); ``tests/lab/test_restricted.py`` runs them through the lab.
"""

from __future__ import annotations

from decklab.bots.registry import make_agent
from decklab.engine.state import GameState
from decklab.games.corporation.choices import defects, sticks
from decklab.games.corporation.state import CorporationState
from decklab.games.facade.choices import all_in_bid, high_bid
from decklab.games.lonely_face.choices import keeps_a_face_card, takes_a_pair
from decklab.lab.agents import RestrictedAgent, build_agent
from decklab.lab.choices import find_choice
from test_corporation import play_round
from test_facade import make, play
from test_lonely_face import QUIET, build, make_setup, with_cells


def _action(state: GameState, seat: int, text: str) -> int:
    return state.parse_action(seat, text)


# ----------------------------------------------------------------------- Façade
def test_F2_F5_a_high_bid_is_one_of_the_best_bid_cards_left_in_hand() -> None:
    state = make("2S 3S 4S 5S")  # p1 hearts, p2 clubs; p1 bids first
    high = {
        t: high_bid(state, 0, _action(state, 0, f"bid {t} 2S")) for t in ["AH", "JH", "QH", "KH"]
    }
    assert high == {"AH": False, "JH": False, "QH": True, "KH": True}  # Q and K are worth 4
    play(state, "p1 bid QH 2S", "p2 bid AC 3S", "p1 bid KH 3S", "p2 bid JC 3S")
    # A and J left: the J (2) is now the highest card in hand
    assert high_bid(state, 0, _action(state, 0, "bid JH 4S"))
    assert not high_bid(state, 0, _action(state, 0, "bid AH 4S"))


def test_F5_F6_an_all_in_bid_goes_where_the_bidder_already_bid() -> None:
    state = make("2S 3S 4S 5S")
    play(state, "p1 bid QH 2S", "p2 bid QC 3S")
    assert all_in_bid(state, 0, _action(state, 0, "bid KH 2S"))  # p1's own QH lies there
    assert not all_in_bid(state, 0, _action(state, 0, "bid KH 3S"))  # only p2's bid there
    assert not all_in_bid(state, 0, _action(state, 0, "bid KH 4S"))
    play(state, "p1 bid KH 3S")
    assert all_in_bid(state, 1, _action(state, 1, "bid KC 3S"))  # now both bid on 3S
    assert not all_in_bid(state, 1, _action(state, 1, "bid KC 2S"))


# ---------------------------------------------------------------- Lonely Face
#      a   b   c   d       turn suit: clubs; p1 holds TC 2D 3D
# 1   2S  2H  3S  3H
# 2   4H  KC  QD  5C
# 3   6S  JH  7S  7H
# 4   8D  8C  9D  9C
_GRID = with_cells(QUIET, a2="4H", b2="KC", c2="QD", b3="JH")


def test_L5_L7_taking_pairs_covers_takes_and_the_moves_that_make_a_new_pair() -> None:
    state = build(make_setup(_GRID, ["TC 2D 3D", "TH AH 5H"], turn="8C"))
    covered = {
        text: takes_a_pair(state, 0, _action(state, 0, text))
        for text in ("take b2 c2", "flip b2 c2", "swap TC c2", "swap TC a1", "swap TC b2")
    }
    assert covered == {
        "take b2 c2": True,  # L5: a pair on the grid (faces)
        "flip b2 c2": True,  # L7: KC lands next to 5C, a new club pair to take
        "swap TC c2": True,  # L7: TC lands next to 5C
        "swap TC a1": False,  # TC among 2H and 4H: no pair
        "swap TC b2": False,  # TC among 2H, 4H, QD, JH: no pair
    }
    before = state.view(0)
    takes_a_pair(state, 0, _action(state, 0, "flip b2 c2"))
    assert state.view(0) == before  # the predicate looks ahead on a copy


def test_L5_keeping_face_cards_is_a_swap_that_takes_a_face_card_off_the_grid() -> None:
    state = build(make_setup(_GRID, ["TC 2D 3D", "TH AH 5H"], turn="8C"))
    kept = {
        text: keeps_a_face_card(state, 0, _action(state, 0, text))
        for text in ("swap TC b2", "swap TC c2", "swap TC a1", "flip b2 c2", "take b2 c2")
    }
    assert kept == {
        "swap TC b2": True,  # KC into the hand
        "swap TC c2": True,  # QD into the hand
        "swap TC a1": False,  # 2S
        "flip b2 c2": False,
        "take b2 c2": False,
    }


# ---------------------------------------------------------------- Corporation
def test_P4_P5_sticking_is_playing_the_value_the_corporation_meets_on() -> None:
    state = CorporationState.new(4, seed=1)
    play_round(state, [3, 3, 1, 2])  # P4: p1 and p2 form a Corporation at 3
    assert not state.is_terminal()
    for v in state.legal_actions(0):
        assert sticks(state, 0, v) == (v == 4)  # the highest value they both hold
        assert defects(state, 0, v) == (v != 4)
    for seat in (2, 3):  # in no Corporation: neither sticks nor defects
        assert not any(
            sticks(state, seat, v) or defects(state, seat, v) for v in state.legal_actions(seat)
        )


def test_P5_a_corporation_at_the_top_value_meets_on_the_next_one_down() -> None:
    state = CorporationState.new(4, seed=1)
    play_round(state, [1, 4, 4, 2])  # p2 and p3 at 4, which they cannot play now (P2)
    assert [v for v in state.legal_actions(1) if sticks(state, 1, v)] == [3]
    assert [v for v in state.legal_actions(2) if sticks(state, 2, v)] == [3]


# -------------------------------------------------------------- the agent side
def test_an_agent_barred_from_a_choice_by_name_never_makes_it() -> None:
    agent = build_agent("greedy:never=Taking_Pairs")
    assert isinstance(agent, RestrictedAgent)
    state = build(make_setup(_GRID, ["TC 2D 3D", "TH AH 5H"], turn="8C"))
    assert make_agent("greedy").choose(state.clone(), 0) in {
        a for a in state.legal_actions(0) if takes_a_pair(state, 0, a)
    }  # unrestricted, greedy takes a pair here
    action = agent.choose(state, 0)
    assert not takes_a_pair(state, 0, action), state.action_to_string(0, action)
    assert find_choice(type(state), "taking pairs").when is takes_a_pair
