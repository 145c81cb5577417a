"""The Cabin by the Sea: rulings C1–C7, the hand-written records, options, hidden information."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from decklab import cards
from decklab.engine import checks, records
from decklab.engine.errors import IllegalAction, OptionError, RecordError, SetupError
from decklab.engine.state import ALL
from decklab.games.cabin.state import CabinState

RECORDS = Path(__file__).parent / "records"

SORTED = {
    "cabin": "AS AH AD AC 8S 9S TS 8H 9H TH 8D 9D TD 8C 9C TC",
    "beach": "JS QS KS JH QH KH JD QD KD JC QC KC",
    "sea": "2S 3S 4S 5S 6S 7S 2H 3H 4H 5H 6H 7H 2D 3D 4D 5D 6D 7D 2C 3C 4C 5C 6C 7C",
}


def setup(sea: str = "", cabin: str = "", beach: str = "", rest: str = "sea") -> dict[str, str]:
    """A whole-deck setup: the given cards on top (first = top), every other card of the
    deck below them in pile ``rest``, in deck order."""
    piles = {"sea": sea.split(), "cabin": cabin.split(), "beach": beach.split()}
    used = {cards.parse(t) for p in piles.values() for t in p}
    piles[rest] += [cards.to_str(c) for c in cards.deck() if c not in used]
    return {k: " ".join(v) for k, v in piles.items()}


def game(options: dict[str, object] | None = None, **piles: str) -> CabinState:
    return CabinState.from_setup(1, options, setup(**piles))


def play(state: CabinState, *texts: str) -> CabinState:
    for text in texts:
        state.apply(0, state.parse_action(0, text))
        state.check_invariants()
    return state


def legal(state: CabinState) -> list[str]:
    return [state.action_to_string(0, a) for a in state.legal_actions(0)]


def reason(state: CabinState, text: str) -> str:
    with pytest.raises(IllegalAction) as err:
        state.parse_action(0, text)
    return err.value.reason


def view_tokens(obj: object) -> set[str]:
    return checks._card_tokens(obj)


# ---------------------------------------------------------------------- C1
def test_C1_standard_deal_piles() -> None:
    for seed in range(20):
        dealt = CabinState.new(1, seed=seed).initial_setup
        assert dealt is not None
        cabin = cards.parse_many(dealt["cabin"])
        beach = cards.parse_many(dealt["beach"])
        sea = cards.parse_many(dealt["sea"])
        assert len(cabin) == 16 and sum(cards.rank_of(c) == cards.ACE for c in cabin) == 4
        assert all(cards.rank_of(c) <= 10 for c in cabin)
        assert sorted(beach) == sorted(c for c in cards.deck() if cards.is_face(c))
        assert len(sea) == 24 and all(2 <= cards.rank_of(c) <= 10 for c in sea)
        assert sorted(cabin + beach + sea) == sorted(cards.deck())


def test_C1_deep_sea_and_squid_start_empty_beach_top_shows() -> None:
    state = CabinState.from_setup(1, None, SORTED)
    view = state.view(0)
    assert view["deep"] == [] and view["squid"] == [] and view["squid_points"] == 0
    assert view["beach"] == {"count": 12, "seen": ["JS"], "hidden": 11}
    assert view["cabin"] == 16 and view["sea"] == 23  # the first sea card is turned
    assert view["card"] == "2S" and view["phase"] == "sea"
    shown = view_tokens(view)
    assert "QS" not in shown and "AS" not in shown and "3S" not in shown


def test_C1_first_listed_card_is_the_top() -> None:
    state = game(sea="9D 8D", cabin="5C 6C", beach="QH KH")
    assert state.view(0)["card"] == "9D"
    assert state.view(0)["beach"]["seen"] == ["QH"]
    play(state, "anchor cabin")
    assert state.view(0)["card"] == "5C" and state.view(0)["card_from"] == "cabin"
    play(state, "build 5C new")
    assert state.view(0)["card"] == "8D"


def test_C1_deep_sea_is_face_up_and_fully_known() -> None:
    state = game(sea="9D 8D 7D", cabin="5C 6C")
    play(state, "anchor cabin", "build 5C new", "anchor cabin", "build 6C s1")
    assert state.view(0)["deep"] == ["8D", "9D"]  # top first
    assert state.view(None)["deep"] == ["8D", "9D"]


# ---------------------------------------------------------------------- C2
def test_C2_new_stacks_only_while_fewer_than_the_limit() -> None:
    state = game({"stacks": 2}, sea="2S 3H 4D 5S", cabin="AS", beach="KD")
    play(state, "build 2S new")
    assert "build 3H new" in legal(state)
    play(state, "build 3H new")
    assert legal(state) == ["anchor cabin", "anchor beach"]  # 4D fits nowhere
    assert "no new stack" in reason(state, "build 4D new")
    play(state, "anchor beach")  # the KD fits nowhere either: the squid has it
    assert state.view(0)["squid"] == ["KD"] and state.view(0)["card"] == "5S"


def test_C2_same_suit_and_higher_not_necessarily_consecutive() -> None:
    state = game(sea="5S 9S 7S 8H 3S")
    play(state, "build 5S new")
    assert "build 9S s1" in legal(state)  # a gap is fine
    play(state, "build 9S s1")
    assert legal(state)[0] == "build 7S new"  # lower: not on s1
    assert "not higher than s1's top card 9S" in reason(state, "build 7S s1")
    play(state, "build 7S new")
    assert "build 8H s1" not in legal(state) and "build 8H s2" not in legal(state)
    assert "a stack of spades" in reason(state, "build 8H s1")
    assert "no stack s5" in reason(state, "build 8H s5")


def test_C2_ranks_run_ten_jack_queen_king() -> None:
    state = game(sea="TH JH KH QH")
    play(state, "build TH new", "build JH s1", "build KH s1")
    assert "build QH s1" not in legal(state)


def test_C2_ace_low_starts_a_stack_that_takes_any_card_of_its_suit() -> None:
    state = game(sea="AC 2C", cabin="KC")
    play(state, "build AC new")
    assert "build 2C s1" in legal(state)
    play(state, "anchor cabin")
    assert legal(state) == ["build KC s1", "build KC new"]


def test_C2_ace_high_goes_on_any_card_of_its_suit_and_closes_the_stack() -> None:
    state = game(sea="KS AS QS")
    play(state, "build KS new")
    assert legal(state)[0] == "build AS s1"  # on a king, as the highest card
    play(state, "build AS s1")
    assert state.view(0)["stacks"] == {"s1": ["KS", "AS"]}
    assert "build QS s1" not in legal(state)
    assert "closed" in reason(state, "build QS s1")


def test_C2_an_ace_can_be_built_on_a_full_cabin() -> None:
    """With every stack started an ace still fits on any open stack of its suit."""
    state = game({"stacks": 1}, sea="4H 5C", cabin="AH")
    play(state, "build 4H new", "anchor cabin")
    assert legal(state) == ["build AH s1"]
    play(state, "build AH s1")
    assert state.view(0)["squid"] == []


def test_C2_seven_stacks_option() -> None:
    sea = "2S 2H 2D 2C 3S 3H 3D 3C"
    state = game({"stacks": 7}, sea=sea)
    play(state, "build 2S new", "build 2H new", "build 2D new", "build 2C new")
    play(state, "build 3S new", "build 3H new", "build 3D new")
    assert state.view(0)["stacks_allowed"] == 7 and len(state.view(0)["stacks"]) == 7
    assert "build 3C new" not in legal(state)
    assert "all 7 stacks exist" in reason(state, "build 3C new")
    assert "build 3C s4" in legal(state)
    rng = random.Random(7)
    for seed in range(10):
        s = CabinState.new(1, {"stacks": 7}, seed=seed)
        checks.random_playout(s, rng, check_every=0)
        assert len(s.stacks) <= 7


# ---------------------------------------------------------------------- C3
def test_C3_sea_card_is_turned_and_offers_build_or_anchor() -> None:
    state = CabinState.from_setup(1, None, SORTED)
    assert legal(state) == ["build 2S new", "anchor cabin", "anchor beach"]
    assert state.history == []  # turning the card is not a decision


def test_C3_anchor_sends_the_sea_card_to_the_deep_and_takes_the_pile_top() -> None:
    state = CabinState.from_setup(1, None, SORTED)
    play(state, "anchor cabin")
    view = state.view(0)
    assert view["deep"] == ["2S"] and view["card"] == "AS" and view["phase"] == "place"
    assert view["cabin"] == 15
    state = CabinState.from_setup(1, None, SORTED)
    play(state, "anchor beach")
    view = state.view(0)
    assert view["deep"] == ["2S"] and view["card"] == "JS" and view["card_from"] == "beach"
    assert view["beach"]["seen"] == ["QS"]  # the next beach card now lies on top


def test_C3_the_sea_card_may_be_anchored_even_when_it_could_be_built() -> None:
    state = game(sea="2S 3S", cabin="4S", beach="KS")
    play(state, "build 2S new")
    assert legal(state) == ["build 3S s1", "build 3S new", "anchor cabin", "anchor beach"]


def test_C3_a_taken_card_that_can_be_built_must_be_built() -> None:
    state = CabinState.from_setup(1, None, SORTED)
    play(state, "anchor cabin")
    assert legal(state) == ["build AS new"]
    for text in ("anchor beach", "take deep"):
        assert "must be" in reason(state, text)


def test_C3_a_taken_card_that_cannot_be_built_goes_to_the_squid() -> None:
    state = game({"stacks": 1}, sea="2H 3H 4H", cabin="5C 6H")
    play(state, "build 2H new", "anchor cabin")
    view = state.view(0)
    assert view["squid"] == ["5C"] and view["squid_points"] == 1
    assert view["card"] == "4H" and view["phase"] == "sea"  # straight on to the next sea card
    assert view["deep"] == ["3H"]


def test_C3_last_case_the_sea_card_sinks_by_itself() -> None:
    state = game({"stacks": 1}, sea="2S 3H 4S", cabin="", beach="")
    assert legal(state) == ["build 2S new"]  # nothing to take: build it
    play(state, "build 2S new")
    view = state.view(0)
    assert view["deep"] == ["3H"]  # 3H fits nowhere, cabin and beach are empty
    assert view["card"] == "4S" and legal(state) == ["build 4S s1"]
    assert len(state.history) == 1  # the sinking was no decision
    assert "sinks" in reason(state, "anchor")


def test_C3_last_case_with_beach_dump_is_a_choice() -> None:
    state = game({"stacks": 1, "beach_dump": True}, sea="2S 3H 4S", cabin="", beach="")
    play(state, "build 2S new")
    assert legal(state) == ["anchor", "dump"]
    play(state, "anchor")
    assert state.view(0)["deep"] == ["3H"]


def test_C3_last_case_never_arises_from_a_standard_deal() -> None:
    rng = random.Random(3)
    for seed in range(15):
        state = CabinState.new(1, {"beach_dump": True}, seed=seed)
        while not state.is_terminal():
            acts = legal(state)
            assert "anchor" not in acts
            state.apply(0, state.legal_actions(0)[rng.randrange(len(acts))])


# ---------------------------------------------------------------------- C4
def test_C4_after_the_sea_take_from_any_non_empty_pile() -> None:
    state = game(sea="5H", cabin="AS 9C", beach="KD", rest="beach")
    play(state, "anchor cabin", "build AS new")
    assert state.view(0)["phase"] == "take"
    assert legal(state) == ["take deep", "take beach", "take cabin"]
    play(state, "take deep")
    assert legal(state) == ["build 5H new"]  # must be built
    play(state, "build 5H new", "take cabin", "build 9C new")
    assert legal(state) == ["take beach"]  # deep and cabin empty: only the beach
    assert reason(state, "take cabin") == "the cabin pile is empty"
    assert "the sea is empty" in reason(state, "build KD new")


def test_C4_an_unbuildable_taken_card_goes_to_the_squid() -> None:
    state = game({"stacks": 1}, sea="2S", cabin="AH", beach="KD", rest="beach")
    play(state, "build 2S new", "take cabin")
    assert state.view(0)["squid"] == ["AH"] and state.view(0)["squid_points"] == 2
    assert state.view(0)["phase"] == "take"


# ---------------------------------------------------------------------- C5
def test_C5_two_points_for_aces_and_faces_one_for_number_cards() -> None:
    deck = [cards.to_str(c) for c in cards.deck()]
    rest = [c for c in deck if c not in ("2H", "AS", "7C", "KD")]
    state = CabinState.from_setup(
        1, {"stacks": 1}, {"sea": "2H", "cabin": "AS 7C", "beach": "KD " + " ".join(rest)}
    )
    play(state, "build 2H new", "take cabin", "take cabin", "take beach")
    assert state.view(0)["squid"] == ["KD", "7C", "AS"]
    assert state.scores() == [5.0]
    assert CabinState.info.lower_is_better and CabinState.info.score_unit == "squid points"


def test_C5_game_ends_when_every_pile_is_empty_and_only_a_perfect_game_wins() -> None:
    perfect, _ = records.replay(records.load(RECORDS / "cabin_perfect.json"))
    assert perfect.is_terminal() and perfect.scores() == [0.0] and perfect.winners() == [0]
    view = perfect.view(ALL)
    assert view["sea"] == view["cabin"] == view["beach"]["count"] == 0 and view["deep"] == []
    assert sum(len(s) for s in view["stacks"].values()) == 52
    lost, _ = records.replay(records.load(RECORDS / "cabin_complete.json"))
    assert lost.is_terminal() and lost.winners() == [] and lost.returns() == [0.0]
    unfinished, _ = records.replay(records.load(RECORDS / "cabin_perfect.json"), limit=10)
    assert not unfinished.is_terminal() and unfinished.winners() == []


# ---------------------------------------------------------------------- C6
def test_C6_dump_puts_the_sea_card_face_up_on_the_beach() -> None:
    state = CabinState.from_setup(1, {"beach_dump": True}, SORTED)
    assert legal(state)[-1] == "dump"
    play(state, "dump")
    view = state.view(0)
    assert view["beach"] == {"count": 13, "seen": ["2S", "JS"], "hidden": 11}
    assert view["card"] == "3S"
    play(state, "anchor beach")  # takes the dumped card back
    assert state.view(0)["card"] == "2S" and state.view(0)["beach"]["seen"] == ["JS"]


def test_C6_dump_needs_the_option_and_a_sea_card() -> None:
    state = CabinState.from_setup(1, None, SORTED)
    assert "dump" not in legal(state)
    assert "beach_dump" in reason(state, "dump")
    state = CabinState.from_setup(1, {"beach_dump": True}, SORTED)
    play(state, "anchor cabin")
    assert "dump" not in legal(state) and "must be" in reason(state, "dump")


# ---------------------------------------------------------------------- C7
def test_C7_a_deal_number_always_gives_the_same_deal() -> None:
    assert CabinState.new(1, seed=42).initial_setup == CabinState.new(1, seed=42).initial_setup
    deals = {str(CabinState.new(1, seed=n).initial_setup) for n in range(30)}
    assert len(deals) == 30


def test_C7_options_do_not_change_the_deal() -> None:
    plain = CabinState.new(1, seed=9).initial_setup
    for opts in ({"stacks": 7}, {"beach_dump": True}, {"stacks": 3, "beach_dump": True}):
        assert CabinState.new(1, opts, seed=9).initial_setup == plain


# ------------------------------------------------------------------ records
@pytest.mark.parametrize(
    ("name", "points", "squid"),
    [
        ("cabin_complete.json", 18.0, "KC QC JC KD QD JD TC 9C 8C TD 9D 8D"),
        ("cabin_beach_dump.json", 9.0, "KC QC JC TC 9C 8C"),
        ("cabin_perfect.json", 0.0, ""),
    ],
)
def test_records_replay_to_their_scores(name: str, points: float, squid: str) -> None:
    record = records.load(RECORDS / name)
    assert "seed" not in record
    state, applied = records.replay(record)
    assert applied == len(record["actions"])
    assert state.is_terminal() and state.scores() == [points]
    assert state.view(0)["squid"] == squid.split()
    assert state.result() == record["result"]
    checks.check_record_roundtrip(state)


def test_record_with_an_illegal_action() -> None:
    with pytest.raises(RecordError) as err:
        records.replay(records.load(RECORDS / "cabin_illegal.json"))
    assert err.value.index == 4
    assert err.value.action == "p1 build 5S s1"
    assert "closed" in err.value.reason


# ------------------------------------------------------ hidden information
def test_a_hidden_cabin_card_never_shows() -> None:
    state = CabinState.from_setup(1, None, SORTED)
    play(state, "anchor cabin", "build AS new")
    hidden = "AH"  # now the top of the cabin pile, face down
    for viewer in (0, None):
        assert hidden not in view_tokens(state.view(viewer))
        assert "AH" not in state.render(viewer).replace("A♥", "AH")
        copy = records.make_record(state, viewer=viewer, date="-")
        assert hidden not in view_tokens({"setup": copy["setup"], "actions": copy["actions"]})
        assert copy["setup"]["cabin"].split()[:2] == ["AS", "??"]
    for text in ("take cabin", "dump", "anchor", "build 3S s9", "take beach"):
        assert hidden not in reason(state, text)
    assert hidden in view_tokens(state.view(ALL))


def test_redacted_setup_shows_what_has_been_seen_so_far() -> None:
    state = CabinState.from_setup(1, {"beach_dump": True}, SORTED)
    play(state, "dump", "anchor beach", "build 2S new", "anchor beach", "build JS new")
    red = state.redact_setup(state.export_setup(), 0)
    assert red["sea"].split()[:5] == ["2S", "3S", "4S", "5S", "??"]
    assert red["beach"].split()[:3] == ["JS", "QS", "??"]
    assert set(red["cabin"].split()) == {"??"}
    assert state.redact_setup(state.export_setup(), ALL) == SORTED


def test_determinize_resamples_only_what_is_unseen() -> None:
    state = CabinState.new(1, {"beach_dump": True}, seed=5)
    rng = random.Random(0)
    for _ in range(12):
        state.apply(0, rng.choice(state.legal_actions(0)))
    mine = checks.canonical(state.view(0))
    cabins = set()
    for k in range(20):
        d = state.determinize(0, random.Random(k))
        assert checks.canonical(d.view(0)) == mine
        assert d.seed is None and d.initial_setup is None
        assert sum(cards.rank_of(c) == cards.ACE for c in d.cabin) == sum(
            cards.rank_of(c) == cards.ACE for c in state.cabin
        )
        hidden = len(state.beach) - state.beach_seen
        assert d.beach[hidden:] == state.beach[hidden:]  # what was seen stays in place
        assert all(cards.is_face(c) for c in d.beach[:hidden])
        assert all(2 <= cards.rank_of(c) <= 10 for c in d.sea)
        assert d.deep == state.deep and d.stacks == state.stacks and d.squid == state.squid
        cabins.add(tuple(d.cabin))
        d.check_invariants()
    assert len(cabins) > 10


# ----------------------------------------------------------- options, setup
@pytest.mark.parametrize(
    ("opts", "message"),
    [
        ({"stacks": 9}, "above the maximum 8"),
        ({"stacks": 0}, "below the minimum 1"),
        ({"stacks": "many"}, "whole number"),
        ({"beach_dump": "maybe"}, "yes/no"),
        ({"piles": 3}, "no option 'piles'"),
    ],
)
def test_bad_options(opts: dict[str, object], message: str) -> None:
    with pytest.raises(OptionError, match=message):
        CabinState.new(1, opts, seed=1)


def test_solo_only() -> None:
    with pytest.raises(OptionError, match="for 1 players"):
        CabinState.new(2, seed=1)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"deep": ""}, "unknown setup key"),
        ({"sea": None}, "must be a string"),
        ({"sea": SORTED["sea"] + " 2S"}, "2S appears twice"),
        ({"sea": SORTED["sea"].replace("7C", "ZC")}, "not a card"),
        ({"sea": SORTED["sea"].replace("7C", "7X")}, "not a card of a standard 52-card deck"),
        ({"sea": SORTED["sea"].replace(" 7C", "")}, "51 cards, not 52: it lacks 7C"),
    ],
)
def test_bad_setups(change: dict[str, object], message: str) -> None:
    bad = {**SORTED, **change}
    with pytest.raises(SetupError, match=message):
        CabinState.from_setup(1, None, bad)
    with pytest.raises(SetupError, match="lacks sea"):
        CabinState.from_setup(1, None, {"cabin": SORTED["cabin"], "beach": SORTED["beach"]})


def test_setup_accepts_lists_and_ten_spelt_out() -> None:
    listed = {k: v.replace("T", "10").split() for k, v in SORTED.items()}
    assert CabinState.from_setup(1, None, listed).export_setup() == SORTED


# -------------------------------------------------------------- notation
def test_action_words_are_not_cards_and_parse_back() -> None:
    for word in ("build", "new", "anchor", "cabin", "beach", "dump", "take", "deep", "s1", "s8"):
        assert not cards.is_card_text(word)
    state = game(sea="TH JH")
    play(state, "BUILD 10h NEW")
    assert state.parse_action(0, "build jh S1") == 0
    assert "the card to build now is JH, not QH" in reason(state, "build QH s1")


def test_render_and_describe() -> None:
    state = CabinState.from_setup(1, {"beach_dump": True}, SORTED)
    assert "Sea card: 2♠" in state.render(0)
    assert (
        state.describe_action(0, state.parse_action(0, "dump"))
        == "p1 puts the two of spades on the beach."
    )
    text = state.render(ALL)
    assert "3♠" in text and "Q♠" in text


def test_C5_utilities_rank_results_for_search() -> None:
    """A search bot needs to prefer fewer squid points even without a perfect game."""
    import random as _random

    from decklab.engine.checks import random_playout

    state = CabinState.new(1, seed=1)
    random_playout(state, _random.Random(1))
    (u,) = state.utilities()
    assert u == 1.0 - state.scores()[0] / 68
    assert 0.0 <= u <= 1.0
