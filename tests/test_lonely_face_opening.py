"""Lonely Face's option ``opening=no_pairs``: the opening grid (L2) dealt without a pair
(L6), the fix the findings page recommends for the first player's edge.

The pairs are checked here by a naive reading of L6 on the cards' text (suit letter,
J/Q/K), not by the game's own tables, so a fault in those would show."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from decklab import cards
from decklab.engine import records
from decklab.engine.checks import random_playout
from decklab.engine.errors import OptionError, SetupError
from decklab.engine.registry import get_game
from decklab.engine.state import ALL
from decklab.games.lonely_face.state import LonelyFaceState


def _naive_pairs(grid: list[str]) -> list[tuple[int, int]]:
    """Every orthogonal neighbour pair (L6): both J/Q/K, or both of one suit."""

    def pair(a: str, b: str) -> bool:
        return a[1] == b[1] or (a[0] in "JQK" and b[0] in "JQK")

    found = []
    for i, card in enumerate(grid):
        if card == "--":
            continue
        right = i + 1 if i % 4 < 3 else None
        below = i + 4 if i < 12 else None
        for j in (right, below):
            if j is not None and grid[j] != "--" and pair(card, grid[j]):
                found.append((i, j))
    return found


def _grid(state: LonelyFaceState) -> list[str]:
    return [cards.to_str(c) if c else "--" for c in state.grid]


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(0, 2**62), n=st.integers(2, 4), die=st.booleans())
def test_L2_L6_no_pairs_opening_grid_has_no_pair(seed: int, n: int, die: bool) -> None:
    state = LonelyFaceState.new(n, {"opening": "no_pairs", "suit_die": die}, seed=seed)
    grid = _grid(state)
    assert _naive_pairs(grid) == [], grid
    # still a whole deal (L1, L2): 16 grid cards, 3 a hand, every card once
    setup = state.export_setup()
    dealt = setup["grid"] + [c for h in setup["hands"] for c in h] + setup["main_deck"]
    assert len(setup["grid"]) == 16 and all(len(h) == 3 for h in setup["hands"])
    assert sorted(dealt) == sorted(cards.to_str(c) for c in cards.deck())


def test_L2_the_default_deal_keeps_its_pairs_and_is_unchanged_by_the_option_default() -> None:
    """The default opening is the rules' one: most random grids hold pairs, and
    ``opening=deal`` is the same deal as no option at all (golden playthroughs rely on it)."""
    with_pairs = 0
    for seed in range(40):
        plain = LonelyFaceState.new(3, seed=seed)
        named = LonelyFaceState.new(3, {"opening": "deal"}, seed=seed)
        assert plain.export_setup() == named.export_setup()
        with_pairs += bool(_naive_pairs(_grid(plain)))
    assert with_pairs >= 35


@pytest.mark.parametrize("die", [False, True])
def test_L3_no_pairs_changes_only_the_grid_hands_and_draw_pile(die: bool) -> None:
    """Same seed, same first player and turn deck (or first roll) with or without the
    option: a paired comparison of the two differs only in the cards dealt."""
    for seed in range(20):
        a = LonelyFaceState.new(4, {"suit_die": die}, seed=seed).export_setup()
        b = LonelyFaceState.new(4, {"suit_die": die, "opening": "no_pairs"}, seed=seed)
        b_setup = b.export_setup()
        for key in ("first_player", "start_draws", "turn_deck", "first_roll"):
            assert a.get(key) == b_setup.get(key), key


def test_L2_opening_is_validated_and_listed() -> None:
    with pytest.raises(OptionError, match=r"opening='pairless' is not one of deal, no_pairs"):
        LonelyFaceState.new(2, {"opening": "pairless"})
    with pytest.raises(OptionError, match="is text"):
        LonelyFaceState.new(2, {"opening": 3})
    option = get_game("lonely-face").info.option("opening")
    assert option.default == "deal" and option.choices == ("deal", "no_pairs")


def _setup_with_a_pair() -> dict[str, Any]:
    """A no-pair opening's setup with a1 and b1 swapped for a same-suit couple."""
    setup = LonelyFaceState.new(2, {"opening": "no_pairs"}, seed=5).export_setup()
    grid = setup["grid"]
    suit = grid[0][1]
    partner = next(c for c in setup["main_deck"] if c[1] == suit and c[0] not in "JQK" + grid[0][0])
    setup["main_deck"][setup["main_deck"].index(partner)] = grid[1]
    grid[1] = partner
    return setup


def test_L2_L6_a_setup_with_a_paired_opening_grid_is_refused_under_no_pairs() -> None:
    setup = _setup_with_a_pair()
    with pytest.raises(SetupError, match=r"opening=no_pairs .* has a1–b1"):
        LonelyFaceState.from_setup(2, {"opening": "no_pairs"}, setup)
    # the same setup is a fine opening under the rules' deal
    LonelyFaceState.from_setup(2, None, setup)


def test_L2_L8_a_position_with_score_piles_is_not_an_opening_and_is_not_checked() -> None:
    setup = _setup_with_a_pair()
    deck = setup["main_deck"]
    first = deck[-1]
    second = next(c for c in reversed(deck[:-1]) if c[1] == first[1])
    deck.remove(first)
    deck.remove(second)
    setup["piles"] = [[first, second], []]
    state = LonelyFaceState.from_setup(2, {"opening": "no_pairs"}, setup)
    assert _naive_pairs(_grid(state))  # the pair is still there: nothing was refused


def test_L2_no_pairs_records_replay_to_the_same_game() -> None:
    rng = random.Random(11)
    for seed in range(6):
        state = LonelyFaceState.new(2 + seed % 3, {"opening": "no_pairs"}, seed=seed)
        random_playout(state, rng)
        record = records.make_record(state)
        assert record["options"]["opening"] == "no_pairs"
        again, _ = records.replay(record)
        assert again.is_terminal() and again.result() == state.result()
        assert again.view(ALL) == state.view(ALL)
