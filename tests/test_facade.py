"""Façade: one test per ruling (F1–F11), the designer's example, records, options, hidden info."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from decklab import cards
from decklab.engine import records
from decklab.engine.checks import canonical, random_playout
from decklab.engine.errors import IllegalAction, OptionError, RecordError, SetupError
from decklab.engine.state import ALL, seat_index
from decklab.games.facade.scoring import (
    can_join,
    group_kind,
    group_score,
    groups_from_text,
    is_possible,
    tableau_score,
)
from decklab.games.facade.state import FacadeState

RECORDS = Path(__file__).parent / "records"


def make(top: str = "", players: int = 2, first: str = "p1", **options: Any) -> FacadeState:
    """A game whose draw pile starts with ``top`` (first = top), the rest in deck order."""
    head = cards.parse_many(top)
    suits = (
        [*cards.STANDARD_SUITS, cards.STARS] if options.get("fifth_suit") else cards.STANDARD_SUITS
    )
    rest = [c for c in cards.deck(suits, range(2, 11)) if c not in head]
    pile = [cards.to_str(c) for c in head + rest]
    return FacadeState.from_setup(players, options, {"draw_pile": pile, "first_bidder": first})


def play(state: FacadeState, *lines: str) -> None:
    """Apply record-style lines such as ``"p1 bid KH 2H"``."""
    for line in lines:
        actor, _, text = line.partition(" ")
        seat = seat_index(actor, state.num_players)
        state.apply(seat, state.parse_action(seat, text))


def legal_texts(state: FacadeState, seat: int) -> list[str]:
    return [state.action_to_string(seat, a) for a in state.legal_actions(seat)]


def bid_all_on(state: FacadeState, targets: dict[str, list[str]]) -> None:
    """Bidding turns for a whole phase: ``{"p1": ["KH 2H", …], "p2": [...]}`` in turn order."""
    n = state.num_players
    queues = {k: list(v) for k, v in targets.items()}
    while state.view(ALL)["step"] == "bidding":
        seat = state.to_act()[0]
        play(state, f"p{seat + 1} bid {queues[f'p{seat + 1}'].pop(0)}")
    assert all(not q for q in queues.values()), queues
    assert n == len(targets)


P2_FIRST_PHASE = {
    "p1": ["KH 2H", "QH 2H", "JH 9S", "AH 9D"],
    "p2": ["KC 2C", "QC 2C", "JC 9S", "AC 9D"],
}


# ---------------------------------------------------------------- F1
def test_F1_default_house_suits_by_seat_hearts_clubs_diamonds_spades() -> None:
    assert FacadeState.new(2, seed=1).options["house_suits"] == "HC"
    assert FacadeState.new(3, seed=1).options["house_suits"] == "HCD"
    state = FacadeState.new(4, seed=1)
    assert state.view(None)["house_suits"] == {"p1": "H", "p2": "C", "p3": "D", "p4": "S"}


def test_F1_house_suits_option_assigns_them_publicly() -> None:
    state = make("2H 2C 9S 9D", house_suits="sd")
    assert state.view(1)["house_suits"] == {"p1": "S", "p2": "D"}
    assert {t.split()[1] for t in legal_texts(state, 0)} == {"AS", "JS", "QS", "KS"}


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("H", "one house suit letter per seat"),
        ("HHC", "one house suit letter per seat"),
        ("HH", "never share"),
        ("HX", "stars cannot be one"),
        ("HZ", "not a house suit"),
    ],
)
def test_F1_bad_house_suits_raise_option_error(value: str, message: str) -> None:
    with pytest.raises(OptionError, match=message):
        FacadeState.new(2, {"house_suits": value}, seed=1)


# ---------------------------------------------------------------- F2
def test_F2_bid_hand_is_the_A_J_Q_K_of_the_house_suit() -> None:
    state = make("2H 2C 9S 9D")
    texts = legal_texts(state, 0)
    assert len(texts) == 4 * 4
    assert {t.split()[1] for t in texts} == {"AH", "JH", "QH", "KH"}
    assert state.view(0)["hand"] == ["AH", "JH", "QH", "KH"]
    play(state, "p1 bid KH 2H")
    assert {t.split()[1] for t in legal_texts(state, 1)} == {"AC", "JC", "QC", "KC"}


def test_F2_worth_A1_J2_Q4_K4_and_Q_K_are_different_cards_of_equal_worth() -> None:
    state = make("2H 2C 9S 9D")
    assert state.parse_action(0, "bid QH 2H") != state.parse_action(0, "bid KH 2H")
    # QH alone against KC alone ties (4 v 4); J+A (3) loses to Q (4); A alone beats nothing.
    bid_all_on(
        state,
        {"p1": ["QH 2H", "JH 2C", "AH 2C", "KH 9D"], "p2": ["KC 2H", "QC 2C", "JC 9D", "AC 9D"]},
    )
    view = state.view(ALL)
    taken = {t["card"]: t["by"] for t in view["last_reveal"]["taken"]}
    assert taken == {"2C": "p2", "9D": "p1"}  # 2H tied 4-4; 2C 3 v 4; 9D 4 v 3
    assert "2H" in view["supply"]


def test_F2_the_whole_hand_comes_back_every_phase() -> None:
    state = make("2H 2C 9S 9D")
    bid_all_on(state, P2_FIRST_PHASE)
    play(state, "p1 place 2H new", "p2 place 2C new")
    assert state.phase == 2
    assert state.view(0)["hand"] == ["AH", "JH", "QH", "KH"]
    assert state.view(0)["bid_cards_left"] == {"p1": 4, "p2": 4}


# ---------------------------------------------------------------- F3
def test_F3_36_cards_make_nine_phases_of_four() -> None:
    state = FacadeState.new(2, seed=5)
    assert len(state.initial_setup["draw_pile"]) == 36  # type: ignore[index]
    assert len(state.supply) == 4 and len(state.pile) == 32
    random_playout(state, random.Random(5))
    assert state.phase == 9
    assert state.view(None)["phases"] == 9


def test_F3_fifth_suit_adds_stars_45_cards_twelve_phases_last_with_one_card() -> None:
    state = FacadeState.new(4, {"fifth_suit": True}, seed=2)
    pile = state.initial_setup["draw_pile"]  # type: ignore[index]
    assert len(pile) == 45
    assert sorted(t for t in pile if t.endswith("X")) == sorted(f"{r}X" for r in "23456789T")
    rng = random.Random(2)
    sizes = []
    while not state.is_terminal():
        before = len(state.pile)
        seat = state.to_act()[0]
        phase = state.phase
        state.apply(seat, rng.choice(state.legal_actions(seat)))
        if state.phase != phase:
            sizes.append(before - len(state.pile))
    assert state.phase == 12
    assert sizes == [4] * 10 + [1]  # phases 2..12 (phase 1 dealt at the start)
    assert FacadeState.new(2, seed=1).view(None)["phases"] == 9


def test_F3_stars_are_never_a_house_suit_and_not_in_the_plain_pile() -> None:
    with pytest.raises(OptionError):
        FacadeState.new(2, {"house_suits": "XH", "fifth_suit": True})
    with pytest.raises(SetupError, match="7X is not a card of this game"):
        make("7X")


def test_F3_new_cards_join_the_leftovers_in_the_supply() -> None:
    state = make("2H 2C 9S 9D 3H 3C 5S 5D")
    bid_all_on(state, P2_FIRST_PHASE)
    play(state, "p1 place 2H new", "p2 place 2C new")
    assert state.view(None)["supply"] == ["9S", "9D", "3H", "3C", "5S", "5D"]


# ---------------------------------------------------------------- F4
def test_F4_bidding_goes_round_from_the_first_bidder_four_turns_each() -> None:
    state = make("2H 2C 9S 9D", players=3, first="p2")
    order = []
    rng = random.Random(0)
    while state.view(ALL)["step"] == "bidding" and state.phase == 1:
        seat = state.to_act()[0]
        order.append(seat)
        # every legal action is a bid: there is no pass
        assert all(t.startswith("bid ") for t in legal_texts(state, seat))
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    assert order == [1, 2, 0] * 4


def test_F4_first_bidder_is_fixed_for_the_whole_game() -> None:
    state = make("2H 2C 9S 9D 3H 3C 5S 5D", first="p2")
    assert state.to_act() == (1,)
    bid_all_on(state, P2_FIRST_PHASE)
    play(state, "p2 place 2C new", "p1 place 2H new")  # p2 places first too (F7)
    assert state.phase == 2 and state.to_act() == (1,)


def test_F4_random_first_bidder_is_drawn_at_the_deal_and_written_into_the_setup() -> None:
    firsts = {FacadeState.new(3, seed=s).initial_setup["first_bidder"] for s in range(30)}  # type: ignore[index]
    assert firsts == {"p1", "p2", "p3"}
    state = FacadeState.new(3, {"first_bidder": "p3"}, seed=4)
    assert state.initial_setup["first_bidder"] == "p3"  # type: ignore[index]
    assert state.to_act() == (2,)


def test_F4_first_bidder_option_checks_the_seat() -> None:
    with pytest.raises(OptionError, match="no such seat"):
        FacadeState.new(2, {"first_bidder": "p3"})
    with pytest.raises(OptionError, match="seat such as p1"):
        FacadeState.new(2, {"first_bidder": "east"})


def test_fifth_suit_option_is_yes_or_no_and_unknown_options_are_named() -> None:
    with pytest.raises(OptionError, match="fifth_suit is yes/no"):
        FacadeState.new(2, {"fifth_suit": "maybe"})
    with pytest.raises(OptionError, match="no option 'suits'"):
        FacadeState.new(2, {"suits": "HC"})
    assert FacadeState.new(4, {"fifth_suit": "yes"}, seed=1).options["fifth_suit"] is True


# ---------------------------------------------------------------- F5
def test_F5_bids_stack_and_their_values_are_hidden_but_their_places_are_not() -> None:
    state = make("2H 2C 9S 9D")
    play(state, "p1 bid KH 2H", "p2 bid QC 2H", "p1 bid AH 2H")
    other = state.view(1)
    assert other["bids"] == [
        {"by": "p1", "card": "??", "on": "2H"},
        {"by": "p2", "card": "QC", "on": "2H"},
        {"by": "p1", "card": "??", "on": "2H"},
    ]
    assert other["bid_cards_left"] == {"p1": 2, "p2": 3}
    assert "KH" not in canonical(other) and "AH" not in canonical(other)
    assert state.view(0)["bids"][0]["card"] == "KH"
    assert state.view(None)["bids"][1]["card"] == "??"


# ---------------------------------------------------------------- F6
def test_F6_single_highest_sum_takes_the_card() -> None:
    state = make("2H 2C 9S 9D")
    bid_all_on(
        state,
        {"p1": ["AH 2H", "JH 2H", "QH 9S", "KH 9D"], "p2": ["KC 2H", "QC 2C", "JC 9S", "AC 9S"]},
    )
    taken = {t["card"]: t["by"] for t in state.view(None)["last_reveal"]["taken"]}
    # 2H: 1+2=3 v 4 -> p2; 2C: p2 alone; 9S: 4 v 2+1 -> p1; 9D: p1 alone.
    assert taken == {"2H": "p2", "2C": "p2", "9S": "p1", "9D": "p1"}
    assert state.view(None)["supply"] == []
    assert state.view(None)["last_reveal"]["bids"][0] == {"by": "p1", "card": "AH", "on": "2H"}


def test_F6_a_tie_leaves_the_card_in_the_supply_for_the_next_phase() -> None:
    state = make("2H 2C 9S 9D 3H 3C 5S 5D")
    bid_all_on(state, P2_FIRST_PHASE)  # 9S: J v J, 9D: A v A
    assert state.view(None)["to_place"] == {"p1": ["2H"], "p2": ["2C"]}
    play(state, "p1 place 2H new", "p2 place 2C new")
    assert state.phase == 2
    assert state.view(None)["supply"][:2] == ["9S", "9D"]
    # and it can be won later
    bid_all_on(
        state,
        {"p1": ["KH 9S", "QH 3H", "JH 3H", "AH 5S"], "p2": ["KC 9D", "QC 3C", "JC 3C", "AC 5D"]},
    )
    assert state.won[0] == [cards.parse("9S"), cards.parse("3H"), cards.parse("5S")]


def test_F6_a_card_nobody_bid_on_stays_too() -> None:
    state = make("2H 2C 9S 9D")
    bid_all_on(
        state,
        {"p1": ["KH 2H", "QH 2H", "JH 2H", "AH 2H"], "p2": ["KC 2C", "QC 2C", "JC 2C", "AC 2C"]},
    )
    assert state.view(None)["supply"] == ["9S", "9D"]


# ---------------------------------------------------------------- F7
def test_F7_winners_place_in_seat_order_from_the_first_bidder_in_their_own_order() -> None:
    state = make("2H 2C 9S 9D", players=3, first="p3")
    bid_all_on(
        state,
        {
            "p3": ["KD 9D", "QD 9S", "JD 9S", "AD 9S"],
            "p1": ["KH 2H", "QH 2H", "JH 2H", "AH 2H"],
            "p2": ["KC 2C", "QC 2C", "JC 2C", "AC 2C"],
        },
    )
    assert state.to_act() == (2,)  # p3 first
    assert sorted(legal_texts(state, 2)) == ["place 9D new", "place 9S new"]
    play(state, "p3 place 9S new")  # p3 picks which card first
    assert legal_texts(state, 2) == ["place 9D new", "place 9D g1"]
    play(state, "p3 place 9D g1")
    assert state.to_act() == (0,)
    play(state, "p1 place 2H new")
    assert state.to_act() == (1,)
    play(state, "p2 place 2C new")
    assert state.view(None)["tableaux"]["p3"] == [["9S", "9D"]]
    assert state.phase == 2


def test_F7_placed_cards_never_move_and_groups_keep_their_numbers() -> None:
    state = make("2H 3H 4H 9D 5H 6H 7H 8H")
    bid_all_on(
        state,
        {"p1": ["KH 2H", "QH 3H", "JH 4H", "AH 9D"], "p2": ["KC 9D", "QC 9D", "JC 9D", "AC 9D"]},
    )
    play(state, "p1 place 2H new", "p1 place 4H new", "p1 place 3H g1", "p2 place 9D new")
    groups = state.view(None)["tableaux"]["p1"]
    assert groups == [["2H", "3H"], ["4H"]]
    assert all(t.split()[0] == "bid" for t in legal_texts(state, 0))


# ---------------------------------------------------------------- F8
def test_F8_a_one_card_group_meets_both_set_and_sequence() -> None:
    five_h = cards.parse("5H")
    assert can_join((five_h,), cards.parse("5S"))  # set to be
    assert can_join((five_h,), cards.parse("9H"))  # sequence to be (gaps allowed)
    assert not can_join((five_h,), cards.parse("6S"))


def test_F8_5H_then_5S_makes_a_set_group_and_6H_cannot_join() -> None:
    state = make("5H 5S 6H 2C 5D 3C 4C 2D")
    bid_all_on(
        state,
        {"p1": ["KH 5H", "QH 5S", "JH 6H", "AH 6H"], "p2": ["KC 2C", "QC 2C", "JC 2C", "AC 2C"]},
    )
    play(state, "p1 place 5H new", "p1 place 5S g1")
    assert legal_texts(state, 0) == ["place 6H new"]
    with pytest.raises(IllegalAction, match=r"6H cannot join g1 \(5H 5S\).*F8"):
        play(state, "p1 place 6H g1")
    assert group_kind(groups_from_text("5H 5S 5D")[0]) == "set"
    assert not can_join(groups_from_text("5H 5S")[0], cards.parse("6H"))
    assert can_join(groups_from_text("5H 5S")[0], cards.parse("5D"))


def test_F8_a_sequence_group_takes_its_suit_only_with_a_new_rank() -> None:
    group = groups_from_text("4H 6H")[0]
    assert is_possible(group)
    assert can_join(group, cards.parse("5H"))
    assert can_join(group, cards.parse("TH"))
    assert not can_join(group, cards.parse("4S"))
    assert not can_join(group, cards.parse("5C"))
    assert not is_possible(groups_from_text("4H 5S")[0])


# ---------------------------------------------------------------- F9
def test_F9_complete_groups_score_one_house_sequences_three_sets_one_whatever_suits() -> None:
    spades, clubs = cards.SPADES, cards.CLUBS
    assert group_score(groups_from_text("5H 5S 5C")[0], clubs) == 1
    assert group_score(groups_from_text("5H 5S 5C 5D")[0], clubs) == 1
    assert group_score(groups_from_text("5C 6C 7C")[0], spades) == 1
    assert (
        group_score(groups_from_text("7C 5C 6C")[0], clubs) == 3
    )  # order of placing is irrelevant
    assert group_score(groups_from_text("2X 3X 4X")[0], clubs) == 1  # stars are never a house suit


def test_F9_incomplete_groups_cost_their_size() -> None:
    clubs = cards.CLUBS
    assert group_score(groups_from_text("5C")[0], clubs) == -1
    assert group_score(groups_from_text("5C 6C")[0], clubs) == -2
    assert group_score(groups_from_text("5C 6C 8C")[0], clubs) == -3  # a gap
    assert group_score(groups_from_text("5C 6C 8C 9C")[0], clubs) == -4
    assert group_score(groups_from_text("9C TC 2C")[0], clubs) == -3  # no wrap-around


def test_F9_running_scores_follow_every_placement() -> None:
    state = make("2C 3C 4C 9D")
    bid_all_on(
        state,
        {"p1": ["KH 9D", "QH 9D", "JH 9D", "AH 9D"], "p2": ["KC 2C", "QC 3C", "JC 4C", "AC 4C"]},
    )
    play(state, "p1 place 9D new", "p2 place 2C new")
    assert state.scores() == [-1.0, -1.0]
    play(state, "p2 place 3C g1")
    assert state.scores()[1] == -2
    play(state, "p2 place 4C g1")
    assert state.scores()[1] == 3  # house sequence
    state.check_invariants()


# ---------------------------------------------------------------- F10
def test_F10_the_game_ends_after_the_last_placements_and_the_supply_is_discarded() -> None:
    state, applied = records.replay(records.load(RECORDS / "facade_2p_full.json"))
    assert state.is_terminal() and applied == 107
    view = state.view(None)
    assert view["supply"] == [] and view["discarded"] == ["6D"]
    assert state.legal_actions(0) == state.legal_actions(1) == []


def test_F10_equal_highest_totals_share_the_win() -> None:
    state = FacadeState.new(2, seed=0)
    random_playout(state, random.Random(0))
    state.points = [-3, -3]
    assert state.winners() == [0, 1]
    assert state.returns() == [0.5, 0.5]


# ---------------------------------------------------------------- F11
F11_GROUPS = "4H 5H 6H 7H | 5C 6C 7C | 5S | 9S 9H 9C | 2D 3D 4D | 7S 8S"


def test_F11_designer_example_scores_1_with_spades_as_house_suit() -> None:
    groups = groups_from_text(F11_GROUPS)
    assert [group_score(g, cards.SPADES) for g in groups] == [1, 1, -1, 1, 1, -2]
    assert tableau_score(groups, cards.SPADES) == 1


def test_F11_designer_example_scores_3_with_clubs_as_house_suit() -> None:
    groups = groups_from_text(F11_GROUPS)
    assert group_score(groups[1], cards.CLUBS) == 3
    assert tableau_score(groups, cards.CLUBS) == 3


def test_F11_hearts_or_diamonds_likewise_make_their_sequence_score_3() -> None:
    groups = groups_from_text(F11_GROUPS)
    assert group_score(groups[0], cards.HEARTS) == 3
    assert group_score(groups[4], cards.DIAMONDS) == 3
    assert tableau_score(groups, cards.HEARTS) == 3
    assert tableau_score(groups, cards.DIAMONDS) == 3


# ---------------------------------------------------------------- records
def test_full_record_replays_to_known_scores() -> None:
    state, _ = records.replay(records.load(RECORDS / "facade_2p_full.json"))
    assert state.result() == {
        "terminal": True,
        "scores": {"p1": -1.0, "p2": 0.0},
        "winners": ["p2"],
    }
    tableaux = state.view(None)["tableaux"]
    assert tableaux["p1"][0] == ["2H", "3H", "4H"]
    assert tableaux["p2"][4] == ["6C", "7C", "8C", "9C", "TC"]
    state.check_invariants()


def test_illegal_record_names_the_line_and_the_reason() -> None:
    with pytest.raises(RecordError) as err:
        records.replay(records.load(RECORDS / "facade_illegal.json"))
    assert err.value.index == 32
    assert "4H cannot join g2" in err.value.reason and "F8" in err.value.reason


def test_record_has_no_chance_lines_and_round_trips() -> None:
    state = FacadeState.new(3, seed=9)
    random_playout(state, random.Random(9), check_every=0)
    rec = records.make_record(state, date="-")
    assert not any(line.startswith("chance") for line in rec["actions"])
    again, _ = records.replay(rec)
    assert again.scores() == state.scores()


# ---------------------------------------------------------------- setup
@pytest.mark.parametrize(
    ("setup", "message"),
    [
        ({"draw_pile": [], "first_bidder": "p1", "extra": 1}, "unknown setup key"),
        ({"first_bidder": "p1"}, "needs draw_pile"),
        ({"draw_pile": ["2H"] * 36, "first_bidder": "p1"}, "appears twice"),
        ({"draw_pile": ["2H", "3H"], "first_bidder": "p1"}, "has 2 cards"),
        ({"draw_pile": ["ZZ"], "first_bidder": "p1"}, "not a card"),
        (
            {"draw_pile": "AH " + " ".join(["2H"] * 35), "first_bidder": "p1"},
            "AH is not a card of this",
        ),
        ({"draw_pile": None, "first_bidder": "p3"}, "list of cards"),
    ],
)
def test_bad_setups_raise_setup_error(setup: dict[str, Any], message: str) -> None:
    with pytest.raises(SetupError, match=message):
        FacadeState.from_setup(2, {}, setup)


def test_setup_first_bidder_checks() -> None:
    pile = make().initial_setup["draw_pile"]  # type: ignore[index]
    with pytest.raises(SetupError, match="needs first_bidder"):
        FacadeState.from_setup(2, {}, {"draw_pile": pile})
    with pytest.raises(SetupError, match="contradicts"):
        FacadeState.from_setup(2, {"first_bidder": "p2"}, {"draw_pile": pile, "first_bidder": "p1"})
    with pytest.raises(SetupError, match="no seat"):
        FacadeState.from_setup(2, {}, {"draw_pile": pile, "first_bidder": "p5"})
    state = FacadeState.from_setup(2, {"first_bidder": "p2"}, {"draw_pile": pile})
    assert state.export_setup()["first_bidder"] == "p2"


# ---------------------------------------------------------------- hidden information
def test_hidden_bid_card_is_absent_from_views_records_and_errors() -> None:
    state = make("2H 2C 9S 9D")
    play(state, "p1 bid KH 2H")
    # p2 may not learn that p1's card on 2H is the KH.
    assert "KH" not in canonical(state.view(1))
    assert "KH" not in state.render(1)
    copy = records.make_record(state, viewer=1, date="-")
    assert copy["actions"] == ["p1 bid ?? 2H"]
    assert copy["setup"]["draw_pile"][:4] == ["2H", "2C", "9S", "9D"]
    assert set(copy["setup"]["draw_pile"][4:]) == {"??"}
    for bad in ("bid KC 7S", "bid AD 2H", "place 2H new", "bid KC 2H 2H"):
        with pytest.raises(IllegalAction) as err:
            play(state, f"p2 {bad}")
        assert "KH" not in str(err.value)
    with pytest.raises(IllegalAction) as err:
        play(state, "p2 bid KH 2H")  # p2 names the card itself: the reason is about p2's own hand
    assert err.value.reason == "KH is not one of p2's bid cards (AC JC QC KC, F2)"
    # once the phase is revealed, the bid is public in everyone's copy
    play(state, "p2 bid KC 2C", "p1 bid QH 2H", "p2 bid QC 2C", "p1 bid JH 9S", "p2 bid JC 9S")
    play(state, "p1 bid AH 9D", "p2 bid AC 9D")
    assert records.make_record(state, viewer=1, date="-")["actions"][0] == "p1 bid KH 2H"


def test_determinize_resamples_other_seats_bid_cards_and_the_pile() -> None:
    state = make("2H 2C 9S 9D")
    play(state, "p1 bid KH 2H", "p2 bid AC 2C", "p1 bid QH 9S")
    rng = random.Random(1)
    seen_on_2h = set()
    piles = set()
    for _ in range(40):
        d = state.determinize(1, rng)
        assert d.view(1) == state.view(1)
        assert d.bids[1] == state.bids[1]  # p2's own bid is kept
        seen_on_2h.add(d.view(ALL)["bids"][0]["card"])
        piles.add(tuple(d.pile))
        d.check_invariants()
        random_playout(d, rng, check_every=0)
    assert seen_on_2h == {"AH", "JH", "QH", "KH"}
    assert len(piles) > 30


def test_determinized_history_matches_the_resampled_bids() -> None:
    state = make("2H 2C 9S 9D")
    play(state, "p1 bid KH 2H", "p2 bid AC 2C", "p1 bid QH 9S")
    d = state.determinize(1, random.Random(3))
    replay = make("2H 2C 9S 9D")
    for seat, action in d.history:
        replay.apply(seat, action)
    assert replay.bids == d.bids and replay.hands == d.hands


# ---------------------------------------------------------------- messages
def test_illegal_bids_and_placements_explain_themselves() -> None:
    state = make("2H 2C 9S 9D")
    play(state, "p1 bid KH 2H", "p2 bid KC 2C")
    with pytest.raises(IllegalAction, match="already placed"):
        play(state, "p1 bid KH 9S")
    with pytest.raises(IllegalAction, match="not in the supply"):
        play(state, "p1 bid QH 7S")
    with pytest.raises(IllegalAction, match="not one of p1's bid cards"):
        play(state, "p1 bid QC 9S")
    with pytest.raises(IllegalAction, match="bidding step"):
        play(state, "p1 place 2H new")
    with pytest.raises(IllegalAction, match="not p2's turn"):
        play(state, "p2 bid QC 9S")
    play(
        state,
        "p1 bid QH 2H",
        "p2 bid QC 2C",
        "p1 bid JH 9S",
        "p2 bid JC 9S",
        "p1 bid AH 9D",
        "p2 bid AC 9D",
    )
    with pytest.raises(IllegalAction, match="not one of p1's won cards"):
        play(state, "p1 place 9S new")
    with pytest.raises(IllegalAction, match="no group g1"):
        play(state, "p1 place 2H g1")
    with pytest.raises(IllegalAction, match="placing step"):
        play(state, "p1 bid KH 9S")


def test_action_text_is_case_insensitive_and_accepts_10() -> None:
    state = make("TH 2C 9S 9D")
    assert state.parse_action(0, "BID kh 10h") == state.parse_action(0, "bid KH TH")
    assert state.action_to_string(0, state.parse_action(0, "bid kh 10h")) == "bid KH TH"
