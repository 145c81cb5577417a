"""Item 11: writing records by hand — ``...`` completes a pile, Lonely Face's grid by
cell name, Notorious's deals by hands with each later game's lead-off written."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from decklab import cards
from decklab.engine import records
from decklab.engine.errors import RecordError, SetupError
from decklab.engine.registry import get_game
from decklab.engine.shorthand import DeckPiles, complete_tokens, expand_setup
from decklab.engine.state import ALL

RECORDS = Path(__file__).parent / "records"
SHORTHAND = sorted(RECORDS.glob("*_shorthand.json"))
CANONICAL = [cards.to_str(c) for c in cards.deck()]


def test_item11_rest_is_every_card_not_placed_in_canonical_order() -> None:
    deck = tuple(cards.deck())
    setup = {"a": "7H 2C", "b": ["KS", "..."], "c": {"x": "AS"}}
    out = expand_setup(setup, [DeckPiles(deck, ("a", "b", "c"))])
    placed = {"7H", "2C", "KS", "AS"}
    assert out["b"] == ["KS", *(c for c in CANONICAL if c not in placed)]
    assert setup["b"] == ["KS", "..."]  # the caller's setup is not changed
    assert complete_tokens(["QD", "…"], deck, "x")[1:] == [c for c in CANONICAL if c != "QD"]
    assert complete_tokens(["QD", "rest"], deck, "x") == complete_tokens(["QD", "..."], deck, "x")


def test_item11_rest_counts_copies_when_decks_are_shuffled_together() -> None:
    double = tuple(cards.deck() * 2)
    out = expand_setup({"deck": "AS AS KC ..."}, [DeckPiles(double, ("deck",))])
    tokens = out["deck"].split()
    assert len(tokens) == 104 and tokens.count("AS") == 2 and tokens.count("KC") == 2


@pytest.mark.parametrize(
    ("setup", "words"),
    [
        ({"a": "... 7H"}, "only end a pile"),
        ({"a": "7H ... ..."}, "only end a pile"),
        ({"a": "7H ...", "b": "..."}, "one pile only"),
    ],
)
def test_item11_rest_misuse_is_a_clear_error(setup: dict[str, str], words: str) -> None:
    with pytest.raises(SetupError, match=words):
        expand_setup(setup, [DeckPiles(tuple(cards.deck()), ("a", "b"))])


@pytest.mark.parametrize("path", SHORTHAND, ids=[p.stem for p in SHORTHAND])
def test_item11_hand_written_shorthand_records_replay_and_are_written_explicitly(
    path: Path,
) -> None:
    record = records.load(path)
    state, applied = records.replay(record)
    assert applied == len(record["actions"])
    state.check_invariants()
    written = records.make_record(state)
    text = json.dumps(written)
    assert "..." not in text and "…" not in text
    again, _ = records.replay(json.loads(text))
    assert again.view(ALL) == state.view(ALL) and again.history == state.history


def test_item11_a_two_turn_lonely_face_record_needs_no_52_card_turn_deck() -> None:
    record = records.load(RECORDS / "lonely-face_shorthand.json")
    assert len(record["setup"]["turn_deck"]) < 5 and record["setup"]["main_deck"] == ["..."]
    state, _ = records.replay(record)
    turn = records.make_record(state)["setup"]["turn_deck"]
    assert turn[:2] == ["7S", "2H"] and sorted(turn) == sorted(CANONICAL)


def test_item11_lonely_face_grid_by_cell_name_equals_the_flat_list() -> None:
    cls = get_game("lonely-face")
    dealt = cls.new(2, None, seed=4)
    setup = dealt.export_setup()
    by_name = dict(setup)
    by_name["grid"] = {f"{'abcd'[i % 4]}{i // 4 + 1}": c for i, c in enumerate(setup["grid"])}
    assert cls.from_setup(2, None, by_name).view(ALL) == dealt.view(ALL)
    upper = dict(by_name, grid={k.upper(): v for k, v in by_name["grid"].items()})
    assert cls.from_setup(2, None, upper).export_setup() == setup
    with pytest.raises(SetupError, match="not a cell"):
        cls.from_setup(2, None, dict(by_name, grid={**by_name["grid"], "e9": "7H"}))


def test_item11_lonely_face_reshuffle_line_may_end_with_rest() -> None:
    cls = get_game("lonely-face")
    parse = __import__("decklab.games.lonely_face.state", fromlist=["_parse_shuffle"])
    order = parse._parse_shuffle("KD QD ...")
    assert [cards.to_str(c) for c in order] == ["KD", "QD"] + [
        c for c in CANONICAL if c not in ("KD", "QD")
    ]
    assert cls.info.name == "lonely-face"


def test_item11_notorious_deal_by_hands_is_the_interleaved_deck() -> None:
    cls = get_game("notorious")
    options = {"hand_size": 2, "rounds": 2}
    for lead in ("p1", "p2", "p3"):
        hands = {"p1": "9S 3S", "p2": "5H 2H", "p3": "AD 4D"}
        state = cls.from_setup(3, options, {"lead_off": lead, "hands": hands, "pack": "..."})
        assert {s: " ".join(sorted(h.split())) for s, h in hands.items()} == {
            f"p{s + 1}": " ".join(sorted(cards.to_str(c) for c in state.hands[s])) for s in range(3)
        }
        explicit = cls.from_setup(3, options, state.export_setup())
        assert explicit.view(ALL) == state.view(ALL)


def test_item11_notorious_writes_each_later_games_lead_off_and_checks_it() -> None:
    record = records.load(RECORDS / "notorious_shorthand.json")
    state, _ = records.replay(record)
    lines = records.make_record(state)["actions"]
    shuffle = next(line for line in lines if line.startswith("chance shuffle"))
    assert shuffle.split()[2] == "lead=p1"  # the disqualified seat of game 1 (N8)
    wrong = dict(record, actions=[a.replace("lead=p1", "lead=p3") for a in record["actions"]])
    with pytest.raises(RecordError) as info:
        records.replay(wrong)
    assert info.value.index == 3 and "lead-off is p1" in info.value.reason


def test_item11_old_notorious_shuffle_lines_without_lead_off_still_replay() -> None:
    """Backward compatibility: records written before the lead-off was recorded."""
    record = records.load(RECORDS / "notorious_3p_tiebreak.json")
    assert not any("lead=" in line for line in record["actions"])
    state, _ = records.replay(record)
    assert state.result() == record["result"]


@pytest.mark.parametrize(
    ("setup", "words"),
    [
        (
            {"lead_off": "p1", "hands": {"p1": "9S", "p2": "5H"}, "pack": "..."},
            "no hand given for p3",
        ),
        (
            {"lead_off": "p1", "hands": {"p1": "9S 8S", "p2": "5H", "p3": "2C"}, "pack": "..."},
            "hand_size",
        ),
        (
            {"lead_off": "p1", "hands": {"p1": "9S", "p2": "9S", "p3": "2C"}, "pack": "..."},
            "too many 9S",
        ),
        (
            {"lead_off": "p1", "hands": {"p1": "ZZ", "p2": "5H", "p3": "2C"}, "pack": "..."},
            "not a card",
        ),
        ({"lead_off": "p1", "hands": ["9S"], "pack": "..."}, "seat → cards"),
        ({"lead_off": "p1", "hands": {"p1": "9S", "p2": "5H", "p3": "2C"}}, "cards, not 52"),
    ],
)
def test_item11_notorious_hand_deal_errors_are_clear(setup: dict[str, object], words: str) -> None:
    with pytest.raises(SetupError, match=words):
        get_game("notorious").from_setup(3, {"games": 1, "rounds": 1, "hand_size": 1}, setup)
