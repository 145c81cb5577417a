"""Lonely Face: one test per ruling (L1–L11), a naive reference for the fast move
generator, hidden information, records, options and setups."""

from __future__ import annotations

import itertools
import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from decklab import cards
from decklab.engine import records
from decklab.engine.chance import Rng
from decklab.engine.checks import canonical, random_playout
from decklab.engine.errors import IllegalAction, OptionError, RecordError, SetupError
from decklab.engine.state import ALL, CHANCE
from decklab.games.lonely_face import tables
from decklab.games.lonely_face.state import CHOOSE, PLAY, LonelyFaceState

RECORDS = Path(__file__).parent / "records"
FULL_DECK = [cards.to_str(c) for c in cards.deck()]


# ---------------------------------------------------------------------- helpers
def _auto_piles(left: list[str]) -> list[str]:
    """Pair leftover cards (same suit, or spare faces together) into one score pile."""
    faces = [c for c in left if cards.is_face(cards.parse(c))]
    plain = [c for c in left if c not in faces]
    out: list[str] = []
    for suit in "SHDC":
        mine = [c for c in plain if c[1] == suit]
        if len(mine) % 2:
            spare = next((f for f in faces if f[1] == suit), None)
            assert spare is not None, f"cannot pair the leftover {suit} cards: adjust the test"
            faces.remove(spare)
            mine.append(spare)
        out += mine
    assert len(faces) % 2 == 0, "an odd face card is left: adjust the test"
    return out + faces


def make_setup(
    grid: str,
    hands: list[str],
    main: str | None = None,
    turn: str = "",
    first: int = 0,
    piles: list[str] | None = None,
) -> dict[str, Any]:
    """A complete setup from the interesting part of it.

    ``grid``: 16 tokens in reading order (``--`` empty); ``hands`` one string per seat;
    ``main``: the main deck (top first), None for every card left over; with ``""`` the
    leftovers go to p1's score pile unless ``piles`` is given. ``turn``: the top of the
    turn deck; the rest follows in deck order. ``first`` draws the ace in the start draw.
    """
    n = len(hands)
    used = grid.split() + " ".join(hands).split() + " ".join(piles or []).split()
    left = [c for c in FULL_DECK if c not in used and c not in (main or "").split()]
    if main is None:
        main_list, left = left, []
    else:
        main_list = main.split()
    pile_lists = [p.split() for p in piles] if piles is not None else [[] for _ in range(n)]
    if left:
        pile_lists[0] += _auto_piles(left)
    top: list[str] = []
    for card in turn.split():  # a repeated card stands for another of its suit
        if card in top:
            card = next(f"{r}{card[1]}" for r in "KQJT98765432A" if f"{r}{card[1]}" not in top)
        top.append(card)
    draws = {f"p{s + 1}": ("AS" if s == first else f"{s + 2}S") for s in range(n)}
    return {
        "grid": grid.split(),
        "hands": [h.split() for h in hands],
        "main_deck": main_list,
        "piles": pile_lists,
        "start_draws": [draws],
        "first_player": f"p{first + 1}",
        "turn_deck": top + [c for c in FULL_DECK if c not in top],
    }


def build(setup: dict[str, Any], **options: Any) -> LonelyFaceState:
    return LonelyFaceState.from_setup(len(setup["hands"]), options, setup)


def do(state: LonelyFaceState, text: str) -> None:
    seat = state.to_act()[0]
    state.apply(seat, state.parse_action(seat, text))


def legal(state: LonelyFaceState) -> set[str]:
    seat = state.to_act()[0]
    return {state.action_to_string(seat, a) for a in state.legal_actions(seat)}


def grid_of(state: LonelyFaceState) -> list[str]:
    return [cards.to_str(c) if c else "--" for c in state.grid]


# A full grid with no pair at all and no face card, for tests that place pairs by hand:
# rows alternate suits so that no two orthogonal neighbours share one.
#      a  b  c  d
# 1   2S 2H 3S 3H
# 2   4D 4C 5D 5C
# 3   6S 6H 7S 7H
# 4   8D 8C 9D 9C
QUIET = "2S 2H 3S 3H 4D 4C 5D 5C 6S 6H 7S 7H 8D 8C 9D 9C"


def with_cells(base: str, **cells: str) -> str:
    grid = base.split()
    for name, card in cells.items():
        grid[tables.CELL_OF[name]] = card
    return " ".join(grid)


# ---------------------------------------------------------------------- L1
def test_L1_the_turn_deck_is_a_second_full_deck() -> None:
    state = LonelyFaceState.new(3, seed=4)
    assert len(state.turn_deck) + len(state.turned) == 52
    assert sorted(state.turn_deck + state.turned) == sorted(tables.DECK)
    setup = state.export_setup()
    assert sorted(setup["turn_deck"]) == sorted(FULL_DECK)
    setup["turn_deck"] = setup["turn_deck"][:-1]
    with pytest.raises(SetupError, match="52 cards"):
        LonelyFaceState.from_setup(3, None, setup)


def test_L1_main_deck_has_52_cards_in_all() -> None:
    state = LonelyFaceState.new(4, seed=1)
    state.check_invariants()
    setup = state.export_setup()
    assert len(setup["grid"]) + sum(map(len, setup["hands"])) + len(setup["main_deck"]) == 52


def test_L1_the_suit_die_has_faces_hearts_hearts_spades_spades_clubs_diamonds() -> None:
    assert sorted(tables.DIE) == sorted(
        [cards.HEARTS] * 2 + [cards.SPADES] * 2 + [cards.CLUBS, cards.DIAMONDS]
    )
    rng = Rng(7)
    from decklab.games.lonely_face.state import _roll

    counts = Counter(_roll(rng) for _ in range(6000))
    assert 1800 < counts[cards.HEARTS] < 2200 and 1800 < counts[cards.SPADES] < 2200
    assert 850 < counts[cards.CLUBS] < 1150 and 850 < counts[cards.DIAMONDS] < 1150


def test_L1_with_the_die_every_turn_rolls_and_there_is_no_turn_deck() -> None:
    state = LonelyFaceState.new(2, {"suit_die": True}, seed=3)
    setup = state.export_setup()
    assert "turn_deck" not in setup and "start_draws" not in setup
    assert setup["first_roll"] in ("S", "H", "D", "C")
    assert "turn_card" not in state.view(0)
    random_playout(state, random.Random(3))
    rolls = [text for actor, text in state.history if actor == CHANCE and text.startswith("roll ")]
    assert len(rolls) == state.turns - 1  # the first turn's roll is in the setup
    again, _ = records.replay(records.make_record(state))
    assert again.history == state.history


# ---------------------------------------------------------------------- L2
def test_L2_sixteen_grid_cards_and_three_hidden_cards_each() -> None:
    for n in (2, 3, 4):
        state = LonelyFaceState.new(n, seed=n)
        assert all(state.grid)
        assert [len(h) for h in state.hands] == [3] * n
        assert len(state.deck) == 52 - 16 - 3 * n
        view = state.view(0)
        assert view["hands"]["p1"] == [cards.to_str(c) for c in state.hands[0]]
        assert view["hands"]["p2"] == ["??"] * 3
        assert view["main_deck_left"] == 52 - 16 - 3 * n and "main_deck" not in view


def test_L2_a_hand_has_three_cards() -> None:
    setup = make_setup(QUIET, ["TS JS", "TH JH QH"])
    with pytest.raises(SetupError, match="every hand has 3"):
        build(setup)


# ---------------------------------------------------------------------- L3
def test_L3_highest_start_draw_goes_first_ace_high_suits_ignored() -> None:
    setup = make_setup(QUIET, ["TS JS QS", "TH JH QH"])
    setup["start_draws"] = [{"p1": "KH", "p2": "AC"}]
    setup["first_player"] = "p2"
    state = build(setup)
    assert state.to_act() == (1,)
    setup["first_player"] = "p1"
    with pytest.raises(SetupError, match="p2 drew the highest"):
        build(setup)


def test_L3_tied_players_draw_again() -> None:
    setup = make_setup(QUIET, ["TS JS QS", "TH JH QH", "TD JD QD"])
    setup["start_draws"] = [{"p1": "KH", "p2": "3C", "p3": "KS"}, {"p1": "4H", "p3": "5D"}]
    setup["first_player"] = "p3"
    assert build(setup).to_act() == (2,)
    bad = dict(setup, start_draws=[{"p1": "KH", "p2": "3C", "p3": "KS"}, {"p1": "4H", "p2": "5D"}])
    with pytest.raises(SetupError, match="tied for highest draw again"):
        build(bad)
    unresolved = dict(setup, start_draws=[{"p1": "KH", "p2": "3C", "p3": "KS"}])
    with pytest.raises(SetupError, match="end in a tie"):
        build(unresolved)
    extra = dict(setup, start_draws=[{"p1": "AH", "p2": "3C", "p3": "KS"}, {"p1": "4H"}])
    with pytest.raises(SetupError, match="no more rounds"):
        build(extra)
    again = dict(
        setup, start_draws=[{"p1": "KH", "p2": "3C", "p3": "KS"}, {"p1": "KH", "p3": "5D"}]
    )
    with pytest.raises(SetupError, match="already drawn"):
        build(again)


def test_L3_dealt_games_draw_consistently_and_reshuffle_the_turn_deck() -> None:
    seen_ties = False
    for seed in range(60):
        state = LonelyFaceState.new(4, seed=seed)
        setup = state.export_setup()
        draws = setup["start_draws"]
        seen_ties |= len(draws) > 1
        last = draws[-1]
        high = {s: tables.HIGH[cards.parse(c)] for s, c in last.items()}
        assert max(high, key=high.__getitem__) == setup["first_player"]
        assert sorted(setup["turn_deck"]) == sorted(FULL_DECK)  # the drawn cards went back
        assert state.to_act() == (int(setup["first_player"][1:]) - 1,)
    assert seen_ties


def test_L3_with_the_die_the_first_player_is_random_and_play_goes_clockwise() -> None:
    firsts = {LonelyFaceState.new(3, {"suit_die": True}, seed=s).to_act()[0] for s in range(30)}
    assert firsts == {0, 1, 2}
    state = LonelyFaceState.new(3, seed=5)
    order = []
    while len(order) < 7:
        seat = state.to_act()[0]
        if state.phase == PLAY:
            order.append(seat)
        state.apply(seat, state.legal_actions(seat)[0])
        if state.is_terminal():
            break
    assert all(b == (a + 1) % 3 for a, b in itertools.pairwise(order))


# ---------------------------------------------------------------------- L4
def finish_turn(state: LonelyFaceState) -> None:
    """Take the first new pair if the move made some (L7)."""
    if state.phase == CHOOSE:
        state.apply(state.cur, state.legal_actions(state.cur)[0])


def test_L4_the_turn_suit_is_the_top_turn_deck_card() -> None:
    state = build(make_setup(QUIET, ["TS JS QS", "TH JH QH"], turn="9C 4H KD"))
    assert state.view(0)["turn_card"] == "9C" and state.view(1)["turn_suit"] == "C"
    assert state.view(None)["turn_deck"] == {"left": 51, "turned": ["9C"]}
    do(state, "flip c2 d2")  # 5D next to 5C: clubs may flip
    finish_turn(state)
    assert state.view(0)["turn_card"] == "4H" and state.to_act() == (1,)
    assert state.view(0)["turn_deck"]["turned"] == ["9C", "4H"]


def test_L4_an_empty_turn_deck_is_reshuffled_as_a_recorded_chance_outcome() -> None:
    state = build(make_setup(QUIET, ["TS JS QS", "TH JH QH"], turn="9C 4H"), stall_rounds=1000)
    # White-box: pretend 50 more cards were turned, so 4H is the last one.
    rest = state.turn_deck[:-1]
    state.turned = state.turned + rest[::-1]
    state.turn_deck = state.turn_deck[-1:]
    state.check_invariants()
    do(state, "flip c2 d2")
    finish_turn(state)
    assert state.turn_card == cards.parse("4H") and not state.turn_deck  # the last card
    do(state, "flip a1 b1")  # p2, hearts
    finish_turn(state)
    shuffles = [text for actor, text in state.history if actor == CHANCE]
    assert len(shuffles) == 1 and shuffles[0].startswith("shuffle ")
    order = shuffles[0].split()[1:]
    assert sorted(order) == sorted(FULL_DECK)
    assert state.turn_card == cards.parse(order[0]) and len(state.turn_deck) == 51
    assert state.view(0)["turn_deck"]["turned"] == [order[0]]
    state.check_invariants()


def test_L4_a_bad_reshuffle_is_refused() -> None:
    from decklab.games.lonely_face.state import _parse_shuffle

    with pytest.raises(ValueError, match="all 52 cards"):
        _parse_shuffle(" ".join([*FULL_DECK[:51], "2S"]))
    with pytest.raises(ValueError, match="all 52 cards"):
        _parse_shuffle(" ".join(FULL_DECK[:51]))
    with pytest.raises(ValueError, match="not a card"):
        _parse_shuffle(" ".join([*FULL_DECK[:51], "ZZ"]))
    assert _parse_shuffle(" ".join(FULL_DECK)) == list(tables.DECK)


def test_L4_a_recorded_reshuffle_replays() -> None:
    state = LonelyFaceState.new(2, {"stall_rounds": 1000}, seed=12)
    rng = random.Random(12)
    while not any(a == CHANCE for a, _ in state.history) and not state.is_terminal():
        seat = state.to_act()[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
        if state.is_terminal():  # this game ended too soon: start another one
            state = LonelyFaceState.new(2, {"stall_rounds": 1000}, seed=rng.randrange(10**6))
    record = records.make_record(state)
    again, _ = records.replay(record)
    assert again.history == state.history
    index = next(i for i, line in enumerate(record["actions"]) if line.startswith("chance shuffle"))
    words = record["actions"][index].split()
    words[2], words[3] = words[3], words[3]  # a card twice, one missing
    record["actions"][index] = " ".join(words)
    with pytest.raises(RecordError, match="all 52 cards"):
        records.replay(record)


# ---------------------------------------------------------------------- L5
def test_L5a_flip_a_turn_suit_card_with_an_orthogonal_neighbour() -> None:
    state = build(make_setup(QUIET, ["TC JC QC", "TH JH QH"], turn="KS"))
    moves = legal(state)
    # spades at a1 (2S), c1 (3S), a3 (6S), c3 (7S): each with its neighbours
    assert "flip a1 b1" in moves and "flip a1 a2" in moves and "flip c1 d1" in moves
    assert "flip b2 c2" not in moves  # 4C and 5D: no spade
    assert "flip a1 b2" not in moves  # diagonal
    do(state, "flip a1 b1")
    assert grid_of(state)[:2] == ["2H", "2S"]


def test_L5b_swap_a_turn_suit_hand_card_with_any_grid_card() -> None:
    state = build(make_setup(QUIET, ["TC JS QC", "TH JH QH"], turn="KC"))
    moves = legal(state)
    assert {m for m in moves if m.startswith("swap")} == {
        f"swap {c} {cell}" for c in ("TC", "QC") for cell in tables.CELL_NAMES
    }
    do(state, "swap QC a1")
    assert state.hands[0] == [cards.parse("TC"), cards.parse("JS"), cards.parse("2S")]
    assert grid_of(state)[0] == "QC"
    assert len(state.hands[0]) == 3


def test_L5c_take_a_pair_with_a_turn_suit_card() -> None:
    grid = with_cells(QUIET, a1="KS", b1="QH")  # a face pair, spade and heart
    state = build(make_setup(grid, ["TC JC QC", "TD JD QD"], turn="4H"))
    assert "take a1 b1" in legal(state)
    state = build(make_setup(grid, ["TC JC QC", "TD JD QD"], turn="4D"))
    assert "take a1 b1" not in legal(state)  # neither card is a diamond
    with pytest.raises(IllegalAction, match="neither KS nor QH"):
        do(state, "take a1 b1")


def test_L5d_pass_only_when_nothing_else_is_possible() -> None:
    # No diamond on the grid, none in hand: nothing to flip, swap or take.
    grid = "2S 2H 3S 3H 4C 4S 5C 5S 6S 6H 7S 7H 8C 8S 9C 9S"
    state = build(make_setup(grid, ["TC JC QC", "TH JH QH"], turn="KD"))
    assert legal(state) == {"pass"}
    do(state, "pass")
    assert state.to_act() == (1,)
    state = build(make_setup(grid, ["TC JC QC", "TH JH QH"], turn="KC"))
    assert "pass" not in legal(state)
    with pytest.raises(IllegalAction, match="only when no flip, swap or take"):
        do(state, "pass")


def test_L5_nothing_is_flipped_or_swapped_with_an_empty_cell() -> None:
    grid = "2S -- 3S 3H " + "-- " * 11 + "9D"
    hands = ["4S JC QC", "TH JH QH"]
    state = build(make_setup(grid.strip(), hands, main="", turn="KS"))
    moves = legal(state)
    assert "flip a1 b1" not in moves and "flip a1 a2" not in moves
    assert "flip c1 d1" in moves
    assert "swap 4S b1" not in moves and "swap 4S a1" in moves
    with pytest.raises(IllegalAction, match="b1 is empty"):
        do(state, "swap 4S b1")
    with pytest.raises(IllegalAction, match="empty"):
        do(state, "flip a1 b1")


# ---------------------------------------------------------------------- L6
def test_L6_pairs_are_two_face_cards_or_two_of_a_suit() -> None:
    p = tables.is_pair
    assert p(cards.parse("JS"), cards.parse("KH"))  # faces, any suits (K2)
    assert p(cards.parse("2C"), cards.parse("9C"))
    assert p(cards.parse("JC"), cards.parse("9C"))  # one suit
    assert not p(cards.parse("AH"), cards.parse("KS"))
    assert not p(cards.parse("TH"), cards.parse("TS"))


def test_L6_only_orthogonal_neighbours_and_an_empty_cell_separates() -> None:
    grid = "KS -- QH -- " + "-- " * 4 + "-- -- JD -- " + "-- -- -- JC"
    state = build(make_setup(grid.strip(), ["TC 2C 3C", "TH 2H 3H"], main="", turn="4S"))
    assert not any(m.startswith("take") for m in legal(state))  # KS _ QH: not adjacent
    state = build(make_setup(grid.strip(), ["TC 2C 3C", "TH 2H 3H"], main="", turn="4D"))
    assert not any(m.startswith("take") for m in legal(state))  # JD and JC: diagonal


# ---------------------------------------------------------------------- L7
def test_L7_a_flip_making_two_new_pairs_takes_exactly_one_of_them() -> None:
    #      a   b   c   d
    # 1   2S  2H  3S  3H
    # 2   4H  KC  QD  5C      flip b2 c2 (clubs): QD to b2, KC to c2
    # 3   6S  JH  7S  7H      new: QD–JH (b2–b3, faces) and KC–5C (c2–d2, clubs)
    # 4   8D  8C  9D  9C      KC–QD stay side by side: not new
    grid = with_cells(QUIET, a2="4H", b2="KC", c2="QD", b3="JH")
    state = build(make_setup(grid, ["TS 2D 3D", "TH AH 5H"], turn="8C"))
    assert {"take b2 c2", "take b2 b3"} <= legal(state)  # pairs before the move
    do(state, "flip b2 c2")
    assert state.phase == CHOOSE and state.to_act() == (0,)
    assert legal(state) == {"take b2 b3", "take c2 d2"}
    assert state.view(1)["new_pairs"] == ["b2 b3", "c2 d2"]
    with pytest.raises(IllegalAction, match="take exactly one"):
        do(state, "take b2 c2")  # the flipped pair itself is not new
    do(state, "take b2 b3")
    assert state.piles[0][-2:] == [cards.parse("QD"), cards.parse("JH")]
    assert state.to_act() == (1,) and state.phase == PLAY
    assert grid_of(state)[6:8] == ["KC", "5C"]


def test_L7_exactly_one_new_pair_is_still_a_decision() -> None:
    grid = with_cells(QUIET, a2="4H", b2="KC", c2="QD")
    state = build(make_setup(grid, ["TS 2D 3D", "TH AH 5H"], turn="8C"))
    do(state, "flip b2 c2")  # KC next to 5C: the only new pair
    assert state.phase == CHOOSE and legal(state) == {"take c2 d2"}
    assert state.to_act() == (0,)
    do(state, "take c2 d2")
    assert records.action_lines(state)[-2:] == ["p1 flip b2 c2", "p1 take c2 d2"]


def test_L7_a_move_that_recreates_an_existing_pair_makes_no_new_pair() -> None:
    # KC–QD already side by side; flipping them keeps the same two cards together.
    grid = with_cells(QUIET, a2="4H", b2="KC", c2="QD", d2="5H")
    state = build(make_setup(grid, ["TS 2D 3D", "TH AH 5S"], turn="8C"))
    assert "take b2 c2" in legal(state)
    do(state, "flip b2 c2")
    assert state.phase == PLAY and state.to_act() == (1,)  # no choice: the turn is over
    assert grid_of(state)[5:7] == ["QD", "KC"]
    assert state.npairs[1] == 0 and not state.piles[1]


def test_L7_a_swap_making_a_new_pair() -> None:
    grid = with_cells(QUIET, b2="KC")
    state = build(make_setup(grid, ["QD 2D 3D", "TH AH 5H"], turn="8D"))
    do(state, "swap QD c2")  # QD next to KC (faces); 5D goes to the hand
    assert legal(state) == {"take b2 c2"}
    assert state.hands[0][0] == cards.parse("5D")
    assert state.view(1)["hands"]["p1"] == ["5D", "??", "??"]


def test_L7_pairs_that_were_already_there_are_not_new() -> None:
    # A pair already on the grid (TS–JS at a4 b4) is not among the new pairs of a move.
    grid = with_cells(QUIET, a4="TS", b4="JS", b2="KC")
    state = build(make_setup(grid, ["QD 2D 3D", "TH AH 5H"], turn="8D"))
    do(state, "swap QD c2")
    assert legal(state) == {"take b2 c2"}


# ---------------------------------------------------------------------- L8
def test_L8_taken_pairs_score_and_cells_refill_in_reading_order() -> None:
    grid = with_cells(QUIET, b1="KS", b2="QH")  # vertical face pair b1–b2
    state = build(make_setup(grid, ["TC 2C 3C", "TD 2D 3D"], main="JC 4H 5H 6D", turn="9S"))
    do(state, "take b1 b2")
    assert state.piles[0][-2:] == [cards.parse("KS"), cards.parse("QH")]
    assert grid_of(state)[1] == "JC" and grid_of(state)[5] == "4H"  # b1 first, then b2
    assert [cards.to_str(c) for c in reversed(state.deck)] == ["5H", "6D"]
    assert state.view(1)["piles"]["p1"][-2:] == ["KS", "QH"]


def test_L8_once_the_main_deck_is_empty_cells_stay_empty() -> None:
    # With three players the main deck can end on an odd card: the first cell gets it.
    grid = with_cells(QUIET, b1="KS", b2="QH")
    state = build(make_setup(grid, ["TC 2C 3C", "TD 2D 3D", "TH AH 5H"], main="JC", turn="9S"))
    do(state, "take b1 b2")
    assert grid_of(state)[1] == "JC" and grid_of(state)[5] == "--"
    assert state.view(0)["grid"][1][1] is None
    assert state.deck == []


def test_L8_empty_cells_need_an_empty_main_deck_in_a_setup() -> None:
    grid = with_cells(QUIET, b1="--")
    with pytest.raises(SetupError, match="refilled"):
        build(make_setup(grid, ["TC 2C 3C", "TD 2D 3D"]))


# ---------------------------------------------------------------------- L9
def _dry_setup(turn: str, **options: Any) -> LonelyFaceState:
    # Two lonely cards far apart, hands of clubs and diamonds without faces.
    grid = "2S -- -- -- " + "-- " * 8 + "-- -- -- 9H"
    return build(make_setup(grid, ["4C 5C 6C", "4D 5D 6D"], main="", turn=turn), **options)


def test_L9_a_full_round_where_nobody_can_remove_a_pair_ends_the_game() -> None:
    state = _dry_setup("KS KH")
    assert legal(state) == {"pass"}  # spades: 2S has no neighbour, no spade in hand
    do(state, "pass")
    assert state.view(0)["dry_turns"] == 1 and not state.is_terminal()
    do(state, "pass")  # hearts: 9H alone, p2 holds no heart
    assert state.is_terminal() and state.view(None)["phase"] == "over"


def test_L9_a_seat_that_could_remove_a_pair_breaks_the_round() -> None:
    # p2 holds 3S: on a spade turn a swap next to 2S (at b1) makes a spade pair.
    grid = "2S 7C -- -- " + "-- " * 4 + "8D -- -- -- " + "-- -- -- 9H"
    state = build(make_setup(grid, ["4C 5C 6C", "4D 5D 3S"], main="", turn="KH KS KH KH"))
    do(state, "pass")  # p1, hearts: dry
    assert state.streak == 1
    do(state, "swap 3S d4")  # p2 could have made a pair (swap 3S b1) but did not
    assert state.streak == 0 and not state.is_terminal()
    do(state, "pass")  # p1 hearts: p1 holds 9H now? no, p2 does: p1 is dry
    assert state.streak == 1
    do(state, "swap 9H d4")  # p2, hearts: the 3S at d4 back to hand; nothing pairs
    assert state.is_terminal()


def test_L9_a_possible_flip_that_makes_a_pair_is_not_dry() -> None:
    # 2S 7C 3C: hearts turn has nothing; on clubs, flipping 2S? no — flip b1 c1 (7C, 3C)
    grid = "2S 7C 3C 4S " + "-- " * 12
    state = build(make_setup(grid.strip(), ["4D 5D 6D", "7D 8D 9D"], main="", turn="KC KH KH"))
    # clubs: flip a1 b1? 7C is a club: 7C to a1, 2S to b1 next to 3C: no. flip c1 d1: 3C to
    # d1, 4S to c1 next to 7C: no... but 7C–3C is already a pair: a take is possible.
    assert "take b1 c1" in legal(state)
    do(state, "flip a1 b1")
    assert state.streak == 0


def test_L9_stall_rounds_ends_a_game_without_pairs_taken() -> None:
    # KS–QH can be taken on every spade or heart turn; nobody takes it.
    grid = "KS QH -- -- " + "-- " * 8 + "-- -- 4S 4H"
    setup = make_setup(grid, ["TC 2C 3C", "TD 2D 3D"], main="", turn="4S 4H 5S 5H 6S 6H")
    state = build(setup, stall_rounds=2)
    assert state.view(0)["stall_turns"] == 4
    for _ in range(3):
        do(state, "flip c4 d4")  # 4S–4H back and forth: no new pair
        assert not state.is_terminal() and state.streak == 0
    do(state, "flip c4 d4")
    assert state.is_terminal() and state.quiet == 4 and state.streak == 0
    longer = build(setup, stall_rounds=3)
    for _ in range(4):
        do(longer, "flip c4 d4")
    assert not longer.is_terminal()


def test_L9_a_taken_pair_resets_both_counts() -> None:
    state = _dry_setup("KS KH KS", stall_rounds=5)
    do(state, "pass")
    assert (state.streak, state.quiet) == (1, 1)
    assert state.view(0)["quiet_turns"] == 1


# ---------------------------------------------------------------------- L10
@pytest.mark.parametrize(
    ("a", "b", "points"),
    [
        ("KS", "QH", 3),
        ("JS", "QS", 3),
        ("JH", "5H", 1),
        ("2H", "9H", 1),
        ("2S", "9S", -1),
        ("JS", "9S", -1),
        ("2C", "9C", 0),
        ("2D", "KD", 0),
    ],
)
def test_L10_pair_points(a: str, b: str, points: int) -> None:
    assert tables.pair_points(cards.parse(a), cards.parse(b)) == points
    assert tables.SCORE[cards.parse(a) << 6 | cards.parse(b)] == points


def test_L10_scores_add_up_in_play() -> None:
    grid = with_cells(QUIET, a1="KS", b1="QH", a4="8H", b4="TH")
    state = build(make_setup(grid, ["TC 2C 3C", "TD 2D 3D"], turn="4S 4H"))
    before = list(state.points)
    do(state, "take a1 b1")
    do(state, "take a4 b4")
    assert state.points[0] - before[0] == 3 and state.points[1] - before[1] == 1
    state.check_invariants()


# ---------------------------------------------------------------------- L11
NO_DIAMONDS = "AS 2S 3S 4S 5S 6S 7S 8S 9S TS AH 2H 3H 4H 5H 6H"


def _endgame(piles: list[str], seed: int | None = None) -> LonelyFaceState:
    """Diamond turns on a grid without diamonds or faces, hands without diamonds:
    everyone passes, the round is dry, the game ends (L9) and L11 decides."""
    hands = ["2C 3C 4C", "5C 6C 7C", "8C 9C TC"][: len(piles)]
    setup = make_setup(NO_DIAMONDS, hands, turn="KD QD JD", piles=piles)
    state = LonelyFaceState.from_setup(len(piles), None, setup, seed=seed)
    for _ in piles:
        do(state, "pass")
    assert state.is_terminal()
    return state


def test_L11_most_points_wins() -> None:
    state = _endgame(["KS QS", "2D 3D 7H 8H"])
    assert state.points == [3, 1] and state.winners() == [0]
    assert state.result()["winners"] == ["p1"]


def test_L11_tied_on_points_most_pairs_wins() -> None:
    state = _endgame(["7H 8H", "9H TH 2D 3D"])
    assert state.points == [1, 1] and state.npairs == [1, 2]
    assert state.winners() == [1]
    assert not any(actor == CHANCE for actor, _ in state.history)


def test_L11_still_tied_a_coin_flip_is_recorded_and_replayed() -> None:
    state = _endgame(["7H 8H 2D 3D", "9H TH 4D 5D"], seed=1)
    assert state.points == [1, 1] and state.npairs == [2, 2]
    actor, text = state.history[-1]
    assert actor == CHANCE and text in ("coin p1", "coin p2")
    winner = int(text[-1]) - 1
    assert state.winners() == [winner] and state.view(None)["coin"] == f"p{winner + 1}"
    record = records.make_record(state)
    again, _ = records.replay(json.loads(records.dumps(record)))
    assert again.winners() == [winner]
    record["actions"][-1] = f"chance coin p{2 - winner}"
    again, _ = records.replay(record)
    assert again.winners() == [1 - winner]
    record["actions"][-1] = "chance coin p3"
    with pytest.raises(RecordError, match="no seat"):
        records.replay(record)
    record["actions"] = record["actions"][:-1]
    with pytest.raises(RecordError, match="coin"):
        records.replay(record)


def test_L11_a_three_way_tie_picks_one_seat_uniformly() -> None:
    winners = Counter(_endgame(["2D 3D", "4D 5D", "6D 7D"], seed=s).winners()[0] for s in range(60))
    assert set(winners) == {0, 1, 2} and min(winners.values()) > 8
    state = _endgame(["2D 3D", "4D 5D", "6D 7D"], seed=1)
    record = records.make_record(state)
    record["actions"][-1] = "chance coin p2"
    assert records.replay(record)[0].winners() == [1]


def test_L11_only_the_tied_seats_can_win_the_coin() -> None:
    state = _endgame(["7H 8H 2D 3D", "9H TH 4D 5D", "6D 7D"])
    record = records.make_record(state)
    assert record["actions"][-1] in ("chance coin p1", "chance coin p2")
    record["actions"][-1] = "chance coin p3"
    with pytest.raises(RecordError, match="not among the tied seats"):
        records.replay(record)


# ------------------------------------------------------- a naive reference (L5–L7, L9)
def _naive_pairs(grid: list[int]) -> set[frozenset[int]]:
    """L6 literally: every two orthogonal neighbours with cards that pair, as card sets."""
    out = set()
    for i in range(16):
        for j in (i + 1, i + 4):
            if (j == i + 1 and i % 4 == 3) or j >= 16:
                continue
            a, b = grid[i], grid[j]
            if a and b and ((a >> 4) == (b >> 4) or (cards.is_face(a) and cards.is_face(b))):
                out.add(frozenset((a, b)))
    return out


def _naive_legal(state: LonelyFaceState) -> set[str]:
    g, u = state.grid, state.suit
    out = set()
    for i in range(16):
        for j in (i + 1, i + 4):
            if (j == i + 1 and i % 4 == 3) or j >= 16 or not g[i] or not g[j]:
                continue
            if u in (g[i] >> 4, g[j] >> 4):
                cells = f"{tables.CELL_NAMES[i]} {tables.CELL_NAMES[j]}"
                out.add(f"flip {cells}")
                if frozenset((g[i], g[j])) in _naive_pairs(g):
                    out.add(f"take {cells}")
    for c in state.hands[state.cur]:
        if c >> 4 == u:
            out |= {f"swap {cards.to_str(c)} {tables.CELL_NAMES[i]}" for i in range(16) if g[i]}
    return out or {"pass"}


def _midgame(n: int, seed: int, die: bool = False) -> list[LonelyFaceState]:
    state = LonelyFaceState.new(n, {"suit_die": die, "stall_rounds": 3}, seed=seed)
    rng = random.Random(seed)
    out = []
    while not state.is_terminal():
        if state.phase == PLAY:
            out.append(state.clone())
        seat = state.to_act()[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    return out


def test_L5_L6_the_fast_legal_actions_match_a_naive_reading() -> None:
    checked = 0
    for n in (2, 3, 4):
        for seed in range(12):
            for state in _midgame(n, seed, die=seed % 3 == 0):
                assert set(map(str, legal(state))) == _naive_legal(state)
                assert len(state.legal_actions(state.cur)) == len(legal(state))
                checked += 1
    assert checked > 1000


def test_L7_L9_new_pairs_and_dry_turns_match_a_naive_reading() -> None:
    dry_seen = wet_seen = 0
    for n in (2, 3):
        for seed in range(10):
            for state in _midgame(n, 100 + seed):
                before = _naive_pairs(state.grid)
                can_remove = False
                for action in state.legal_actions(state.cur):
                    text = state.action_to_string(state.cur, action)
                    after = state.clone()
                    after.apply(state.cur, action)
                    if text.startswith("take"):
                        can_remove = True
                        continue
                    new = _naive_pairs(after.grid) - before
                    if after.phase == CHOOSE:
                        offered = set()
                        for a in after.legal_actions(state.cur):
                            x, y = tables.EDGES[a - tables.TAKE]
                            offered.add(frozenset((after.grid[x], after.grid[y])))
                        assert offered == new and new, text
                        can_remove = True
                    else:
                        assert not new, text
                dry = state.clone()._learn(state.cur, tables.PASS)
                assert dry == (not can_remove)
                dry_seen += dry
                wet_seen += not dry
    assert dry_seen > 20 and wet_seen > 200


def test_L7_new_pairs_are_offered_in_action_order_and_shared_lists_stay_intact() -> None:
    # A move that makes one new pair offers a shared one-item list, two or more a fresh
    # list in action order (the order the games' records and bots were made with).
    from decklab.games.lonely_face import state as lf

    seen: Counter[int] = Counter()
    for seed in range(8):
        for state in _midgame(2 + seed % 3, 200 + seed):
            for action in state.legal_actions(state.cur):
                if action >= tables.TAKE and action < tables.SWAP:
                    continue
                after = state.clone()
                after.apply(state.cur, action)
                if after.phase == CHOOSE:
                    offered = after.legal_actions(state.cur)
                    assert offered == sorted(set(offered)), offered
                    seen[min(len(offered), 3)] += 1
    assert seen[1] > 50 and seen[2] > 10
    alone = lf._TAKE_ALONE
    assert alone == [[tables.TAKE + e] for e in range(tables.NUM_EDGES)]
    assert lf._PASS_ALONE == [tables.PASS] and lf._EMPTY == []


# ---------------------------------------------------------------- hidden information
def test_hidden_hands_do_not_leak_into_views_records_or_messages() -> None:
    state = build(make_setup(QUIET, ["TS JS QS", "KH AH 5H"], turn="9C 4H"))
    secret = "KH"
    for viewer in (0, None):
        assert secret not in canonical(state.view(viewer))
        assert secret not in state.render(viewer)
    do(state, "flip c2 d2")
    finish_turn(state)
    for viewer in (0, None):
        copy = records.make_record(state, viewer=viewer, date="-")
        assert secret not in json.dumps(copy)
        assert copy["setup"]["hands"][1] == ["??", "??", "??"]
    assert secret in json.dumps(records.make_record(state, viewer=1, date="-"))
    # p1 probing: none of the messages names p2's cards
    for text in ("swap QS a1", "flip a1 d4", "take a1 b1", "pass", "swap 5H a1", "hello"):
        try:
            do(state, text)
        except IllegalAction as exc:
            assert secret not in str(exc)
    with pytest.raises(IllegalAction, match="not p1's turn") as info:
        state.apply(0, state.legal_actions(1)[0])
    assert secret not in str(info.value)


def test_hidden_a_swapped_in_card_is_known_to_everybody() -> None:
    grid = with_cells(QUIET, b2="KC")
    state = build(make_setup(grid, ["TH 2D 3D", "QD AH 5H"], turn="8H 8D"))
    do(state, "swap TH c3")  # 7S goes to p1's hand
    finish_turn(state)
    assert state.view(1)["hands"]["p1"] == ["7S", "??", "??"]
    assert state.view(None)["hands"]["p1"] == ["7S", "??", "??"]
    for k in range(20):
        sample = state.determinize(1, random.Random(k))
        assert cards.parse("7S") in sample.hands[0]
        assert canonical(sample.view(1)) == canonical(state.view(1))
    # the redacted setup shows p1's dealt TH: everybody saw it leave the hand
    copy = records.make_record(state, viewer=1, date="-")
    assert copy["setup"]["hands"][0] == ["TH", "??", "??"]


def test_hidden_determinize_respects_what_a_pass_revealed() -> None:
    # p2 passes on a club turn with cards on the grid: p2 holds no club.
    grid = "2S 2H 3S 3H 4D 4S 5D 5S 6S 6H 7S 7H 8D 8S 9D 9S"
    state = build(make_setup(grid, ["TH JH QH", "TD JD QD"], turn="KH KC"))
    do(state, "swap TH a1")
    finish_turn(state)
    assert legal(state) == {"pass"}
    do(state, "pass")
    assert state.forbid[1] & tables.SUIT_MASK[cards.CLUBS] == tables.SUIT_MASK[cards.CLUBS]
    for k in range(40):
        sample = state.determinize(0, random.Random(k))
        sample.check_invariants()
        assert not any(c >> 4 == cards.CLUBS for c in sample.hands[1])


def test_hidden_determinize_respects_a_hand_that_could_have_made_a_pair() -> None:
    # p2 holds 3S and could have made a spade pair by a swap (3S next to 2S); it flips
    # instead, and the table learns (the round is not dry) that p2 holds a spade.
    grid = "2S 7C -- -- " + "-- " * 4 + "8D -- JC -- " + "-- -- -- 9H"
    hands = ["4C 5C 6C", "4D 5D 3S", "7D TD 9D"]
    state = build(make_setup(grid, hands, main="", turn="KH KS KH KH"))
    do(state, "pass")
    do(state, "flip a1 b1")
    assert state.streak == 0 and state.musts[1] == [tables.SUIT_MASK[cards.SPADES]]
    seen = set()
    for k in range(40):
        sample = state.determinize(0, random.Random(k))
        sample.check_invariants()
        assert cards.parse("3S") in sample.hands[1]  # the only unseen spade
        seen.add(frozenset(sample.hands[1]))
    assert len(seen) > 3  # the other cards of p2 and p3 are resampled
    # p3 learns the same; p2 itself knows its hand
    assert all(
        cards.parse("3S") in state.determinize(2, random.Random(k)).hands[1] for k in range(10)
    )


def test_hidden_determinize_resamples_decks_and_hides_the_shuffle_line() -> None:
    state = build(make_setup(QUIET, ["TS JS QS", "TH JH QH"], turn="9C 4H"), stall_rounds=1000)
    rest = state.turn_deck[:-1]
    state.turned = state.turned + rest[::-1]
    state.turn_deck = state.turn_deck[-1:]
    do(state, "flip c2 d2")
    finish_turn(state)
    do(state, "flip a1 b1")
    finish_turn(state)
    shuffle_at = state._shuffle_at
    real = state.history[shuffle_at][1]
    samples = [state.determinize(0, random.Random(k)) for k in range(5)]
    assert any(s.history[shuffle_at][1] != real for s in samples)
    for s in samples:
        words = s.history[shuffle_at][1].split()
        assert words[1] == real.split()[1]  # the card turned from it is public
        assert words[2:] == [cards.to_str(c) for c in reversed(s.turn_deck)]
        assert s.initial_setup is None
    # and the redacted record shows only the turned card of that shuffle
    line = records.make_record(state, viewer=0, date="-")["actions"][shuffle_at]
    assert line.split()[2] == real.split()[1] and set(line.split()[3:]) == {"??"}


def test_hidden_the_redacted_setup_shows_drawn_and_turned_cards_only() -> None:
    state = LonelyFaceState.new(2, seed=9)
    rng = random.Random(9)
    for _ in range(12):
        seat = state.to_act()[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    assert state.initial_setup is not None
    copy = records.make_record(state, viewer=0, date="-")["setup"]
    drawn = len(state.initial_setup["main_deck"]) - len(state.deck)
    assert copy["main_deck"][:drawn] == state.initial_setup["main_deck"][:drawn]
    assert set(copy["main_deck"][drawn:]) <= {"??"}
    turned = len(state.turned)
    assert copy["turn_deck"][:turned] == state.initial_setup["turn_deck"][:turned]
    assert set(copy["turn_deck"][turned:]) == {"??"}
    assert (
        copy["grid"] == state.initial_setup["grid"]
        and copy["hands"][0] == state.initial_setup["hands"][0]
    )


# ------------------------------------------------------------------- action text
def test_action_text_cells_either_way_ten_and_case() -> None:
    grid = with_cells(QUIET, a1="TH", b1="KH")
    state = build(make_setup(grid, ["TC 2C 3C", "TD 2D 3D"], turn="4H"))
    take = state.parse_action(0, "take a1 b1")
    assert state.parse_action(0, "TAKE B1 A1") == take
    assert state.action_to_string(0, take) == "take a1 b1"
    swap_state = build(make_setup(QUIET, ["TC 2C 3C", "TD 2D 3D"], turn="4C"))
    swap = swap_state.parse_action(0, "swap 10c a1")
    assert swap_state.action_to_string(0, swap) == "swap TC a1"
    for word in ("flip", "swap", "take", "pass", *tables.CELL_NAMES):
        assert not cards.is_card_text(word), word
    with pytest.raises(IllegalAction, match="not orthogonal neighbours"):
        state.parse_action(0, "flip a1 c1")
    with pytest.raises(IllegalAction, match="cells are named"):
        state.parse_action(0, "flip a1 e1")
    with pytest.raises(IllegalAction, match="not in your hand"):
        swap_state.parse_action(0, "swap 4C a1")
    with pytest.raises(IllegalAction, match="write 'swap CARD CELL'"):
        swap_state.parse_action(0, "swap 3C a1x")
    other = build(make_setup(QUIET, ["TC 2C AH", "TD 2D 3D"], turn="4C"))
    with pytest.raises(IllegalAction, match="AH is not a ♣ clubs card"):
        other.parse_action(0, "swap AH a1")
    assert "takes the pair" in state.describe_action(0, take)
    assert "Lonely Face" in state.render(0)


# ------------------------------------------------------------------- options, setups
def test_options_are_validated() -> None:
    with pytest.raises(OptionError, match="stall_rounds=0 is below the minimum 1"):
        LonelyFaceState.new(2, {"stall_rounds": 0})
    with pytest.raises(OptionError, match="yes/no"):
        LonelyFaceState.new(2, {"suit_die": "maybe"})
    with pytest.raises(OptionError, match="no option"):
        LonelyFaceState.new(2, {"jokers": 1})
    with pytest.raises(OptionError, match="2–4 players"):
        LonelyFaceState.new(5)
    assert LonelyFaceState.new(2, {"stall_rounds": "3"}).stall == 6


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"jokers": []}, "unknown setup key"),
        ({"first_roll": "H"}, "unknown setup key"),
        ({"grid": QUIET.split()[:15]}, "16 cells"),
        ({"grid": ["ZZ", *QUIET.split()[1:]]}, "not a card"),
        ({"grid": ["2H", *QUIET.split()[1:]]}, "2H is both in"),
        ({"hands": [["TS", "JS", "QS"], ["TS", "JH", "QH"]]}, "TS is both in p1's hand"),
        ({"hands": [["TS", "JS", "QS"], ["TH", "JH", "QH"], []]}, "list of 2 hands"),
        ({"piles": [["2D", "3C"], []]}, "not a pair"),
        ({"piles": [["2D"], []]}, "even number"),
        ({"first_player": "p7"}, "no seat"),
        ({"main_deck": []}, "not the 52"),
    ],
)
def test_setup_errors_are_precise(change: dict[str, Any], message: str) -> None:
    setup = make_setup(QUIET, ["TS JS QS", "TH JH QH"])
    setup.update(change)
    with pytest.raises(SetupError, match=message):
        LonelyFaceState.from_setup(2, None, setup)


def test_setup_with_the_die() -> None:
    setup = make_setup(QUIET, ["TS JS QS", "TH JH QH"])
    for key in ("start_draws", "turn_deck"):
        del setup[key]
    setup["first_player"] = "p2"
    with pytest.raises(SetupError, match="lacks first_roll"):
        LonelyFaceState.from_setup(2, {"suit_die": True}, setup)
    setup["first_roll"] = "X"
    with pytest.raises(SetupError, match="first_roll"):
        LonelyFaceState.from_setup(2, {"suit_die": True}, setup)
    setup["first_roll"] = "c"
    state = LonelyFaceState.from_setup(2, {"suit_die": True}, setup)
    assert state.to_act() == (1,) and state.view(1)["turn_suit"] == "C"
    assert state.export_setup()["first_roll"] == "C"


def test_setup_round_trip() -> None:
    for n in (2, 3, 4):
        state = LonelyFaceState.new(n, seed=n)
        again = LonelyFaceState.from_setup(n, None, state.export_setup())
        assert canonical(again.view(ALL)) == canonical(state.view(ALL))


# ------------------------------------------------------------------- records
@pytest.mark.parametrize(
    ("name", "scores", "winners"),
    [
        ("lonely-face_complete.json", {"p1": 8, "p2": 3}, ["p1"]),
        ("lonely-face_die.json", {"p1": 8, "p2": 3}, ["p1"]),
        ("lonely-face_coin.json", {"p1": 1, "p2": 1}, ["p2"]),
    ],
)
def test_records_replay_to_their_scores(
    name: str, scores: dict[str, int], winners: list[str]
) -> None:
    record = records.load(RECORDS / name)
    state, _ = records.replay(record)
    assert state.is_terminal()
    assert state.result()["scores"] == {k: float(v) for k, v in scores.items()}
    assert state.result()["winners"] == winners
    assert record["result"]["winners"] == winners
    assert records.make_record(state)["actions"] == record["actions"]


def test_record_with_an_illegal_action_names_it() -> None:
    record = records.load(RECORDS / "lonely-face_illegal.json")
    with pytest.raises(RecordError) as info:
        records.replay(record)
    assert info.value.index == len(record["actions"]) - 1
    assert "turn suit" in info.value.reason


def test_the_complete_record_step_by_step() -> None:
    """The complete record's game part: +3 (KH QS), 0 (JD 2D), −1 (2S 3S) for p1."""
    record = records.load(RECORDS / "lonely-face_complete.json")
    state = records.new_state_for(record)
    start = list(state.points)
    state, _ = records.replay(record, limit=4)
    assert state.points[0] - start[0] == 3 and state.piles[0][-2:] == [
        cards.parse("JD"),
        cards.parse("2D"),
    ]
    state, _ = records.replay(record)
    assert [p - s for p, s in zip(state.points, start, strict=True)] == [2, 0]
    assert state.streak == 2 and state.turns == 7


def test_hidden_determinize_fallback_depends_only_on_public_facts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # When random tries fail, a complete search decides: it keeps what the table learnt,
    # varies with the rng, and (unlike keeping the real cards) reads nothing hidden.
    from decklab.games.lonely_face import state as module

    grid = "2S 2H 3S 3H 4D 4S 5D 5S 6S 6H 7S 7H 8D 8S 9D 9S"
    state = build(make_setup(grid, ["TH JH QH", "TD JD QD", "KC AC 2C"], turn="KH KC KS"))
    do(state, "swap TH a1")
    finish_turn(state)
    do(state, "pass")  # p2 holds no club
    monkeypatch.setattr(module, "_sample_hands", lambda *args: None)
    seen = set()
    for k in range(10):
        sample = state.determinize(0, random.Random(k))
        sample.check_invariants()
        assert not any(c >> 4 == cards.CLUBS for c in sample.hands[1])
        assert canonical(sample.view(0)) == canonical(state.view(0))
        seen.add(frozenset(sample.hands[1]))
        again = sample.determinize(0, random.Random(k))  # other hidden cards, same view
        assert canonical(again.view(ALL)) == canonical(sample.view(ALL))
        assert again.history == sample.history
    assert len(seen) > 1


def test_hidden_fallback_search_solves_competing_constraints() -> None:
    from decklab.games.lonely_face.state import _construct_hands

    diamonds = cards.parse_many("2D 3D")
    clubs = cards.parse_many("2C 3C 4C 5C")
    pool = sorted(diamonds + clubs)
    forbid = [0, 0, 0]
    diamond = tables.SUIT_MASK[cards.DIAMONDS]
    musts = [[], [diamond], [diamond]]  # p2 and p3 each hold a diamond
    for k in range(20):
        got = _construct_hands(pool, [1, 2], {1: 3, 2: 3}, forbid, musts, random.Random(k))
        assert sorted(got[1] + got[2]) == pool
        assert all(sum(c in diamonds for c in got[s]) == 1 for s in (1, 2))
    # p2 may hold no club: it must get every diamond, p3 the clubs
    pool = sorted(cards.parse_many("2D 3D 4D 2C 3C 4C"))
    forbid = [0, tables.SUIT_MASK[cards.CLUBS], 0]
    for k in range(5):
        got = _construct_hands(pool, [2, 1], {1: 3, 2: 3}, forbid, [[], [], []], random.Random(k))
        assert all(c >> 4 == cards.DIAMONDS for c in got[1])
