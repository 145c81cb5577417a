"""The generic engine: options, chance, records and their errors (K3)."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from decklab.engine import Rng, records
from decklab.engine.errors import OptionError, RecordError
from decklab.engine.info import parse_option_pairs
from decklab.engine.state import normalize_action_text, seat_index
from decklab.games.corporation.state import CorporationState


def test_K3_rng_is_deterministic_and_cheap_to_copy() -> None:
    a, b = Rng(42), Rng(42)
    assert [a.next64() for _ in range(5)] == [b.next64() for _ in range(5)]
    c = a.copy()
    assert a.below(1000) == c.below(1000)
    assert Rng(1).next64() != Rng(2).next64()


def test_K3_rng_shuffle_is_a_uniform_permutation() -> None:
    rng = Rng(7)
    counts: Counter[int] = Counter()
    for _ in range(6000):
        items = [0, 1, 2]
        rng.shuffle(items)
        counts[items.index(0)] += 1
        assert sorted(items) == [0, 1, 2]
    assert all(1800 < counts[i] < 2200 for i in range(3))


@given(st.integers(min_value=1, max_value=10**6), st.integers(min_value=0))
def test_rng_below_stays_in_range(n: int, seed: int) -> None:
    assert 0 <= Rng(seed).below(n) < n


def test_option_parsing_and_errors() -> None:
    info = CorporationState.info
    opts = info.resolve_options(5, {"target": "60", "top_value": 7})
    assert opts == {"target": 60, "max_rounds": 200, "top_value": 7, "reward": "standard"}
    with pytest.raises(OptionError, match="whole number"):
        info.resolve_options(5, {"target": "lots"})
    with pytest.raises(OptionError, match="below the minimum"):
        info.resolve_options(5, {"max_rounds": 0})
    with pytest.raises(OptionError, match="no option 'colour'"):
        info.resolve_options(5, {"colour": "red"})
    assert parse_option_pairs(["a=1", "b = x"]) == {"a": "1", "b": "x"}
    with pytest.raises(OptionError, match="key=value"):
        parse_option_pairs(["novalue"])


def test_seat_names_and_action_normalisation() -> None:
    assert seat_index("P3", 4) == 2
    with pytest.raises(ValueError, match="no seat"):
        seat_index("p5", 4)
    assert normalize_action_text("BID kh 10d") == "bid KH TD"
    assert normalize_action_text("Flip B2 c2") == "flip b2 c2"


def _p9() -> dict:
    return {
        "game": "corporation",
        "options": {"top_value": 10, "target": 50},
        "seats": ["p1", "p2", "p3", "p4", "p5"],
        "setup": {},
        "actions": ["p1 play 3", "p2 play 10", "p3 play 3", "p4 play 10", "p5 play 3"],
    }


@pytest.mark.parametrize(
    ("change", "index", "reason"),
    [
        ({"game": "chess"}, None, "no game named 'chess'"),
        ({"game": None}, None, "no 'game'"),
        ({"seats": ["p1", "p2"]}, None, "4–10 players"),
        ({"seats": ["a", "b", "c", "d"]}, None, "'seats' must list"),
        ({"options": {"target": "x"}}, None, "whole number"),
        ({"version": 99}, None, "version 99"),
        ({"format": "pgn"}, None, "unsupported format"),
        ({"setup": None}, None, "'setup' or a 'seed'"),
        ({"setup": {"x": 1}}, None, "nothing to set up"),
        ({"seets": []}, None, "unknown field"),
        ({"actions": "p1 play 3"}, None, "list of"),
        ({"actions": ["p1 play 3", 7]}, 1, "'ACTOR TEXT'"),
        ({"actions": ["p1"]}, 0, "'ACTOR TEXT'"),
        ({"actions": ["p9 play 3"]}, 0, "unknown actor"),
        ({"actions": ["p1 play 3", "p1 play 2"]}, 1, "already chosen"),
        ({"actions": ["p1 play 11"]}, 0, "1 to 10"),
        ({"actions": ["p1 dance"]}, 0, "play V"),
        ({"actions": ["chance coin p1"]}, 0, "must follow"),
        ({"actions": ["p1 play 3", "chance roll 4"]}, 1, "not needed"),
        ({"seed": "abc"}, None, "'seed' must be"),
    ],
)
def test_bad_records_are_refused_with_the_reason(
    change: dict, index: int | None, reason: str
) -> None:
    record = _p9()
    record.update(change)
    with pytest.raises(RecordError) as info:
        records.replay(record)
    assert reason in str(info.value)
    assert info.value.index == index


def test_record_roundtrip_through_text_and_appending_a_line() -> None:
    state, applied = records.replay(_p9())
    assert applied == 5
    record = records.make_record(state)
    text = records.dumps(record)
    loaded = json.loads(text)
    loaded["actions"].append("p1 play 7")
    again, n = records.replay(loaded)
    assert n == 6 and again.choices[0] == 7


def test_replay_limit_stops_early() -> None:
    state, applied = records.replay(_p9(), limit=2)
    assert applied == 2 and state.to_act() == (2, 3, 4)


def test_records_load_reports_bad_files(tmp_path) -> None:  # type: ignore[no-untyped-def]
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    with pytest.raises(RecordError, match="not valid JSON"):
        records.load(bad)
    with pytest.raises(RecordError, match="cannot read"):
        records.load(tmp_path / "missing.json")
    (tmp_path / "list.json").write_text("[]", encoding="utf-8")
    with pytest.raises(RecordError, match="JSON object"):
        records.load(tmp_path / "list.json")


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32))
def test_seeded_games_replay_identically(seed: int) -> None:
    state = CorporationState.new(6, seed=seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        seat = state.to_act()[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    again, _ = records.replay(records.make_record(state))
    assert again.scores() == state.scores() and again.history == state.history


def test_game_info_pickles_by_name_as_the_registered_one() -> None:
    """A GameInfo travels by its game's name (an adapter's state may be pickled), in a
    process that loaded only the game's module too, and comes back as the game's own."""
    import pickle
    import subprocess
    import sys

    from decklab.engine.registry import game_names, get_game

    for name in game_names():
        info = get_game(name).info
        assert pickle.loads(pickle.dumps(info)) is info
    code = (
        "import pickle\n"
        "from decklab.games.cabin.state import CabinState\n"
        "data = pickle.dumps(CabinState.info)\n"
        "assert pickle.loads(data) is CabinState.info\n"
        "assert b'game_info' in data and b'resolve_options' not in data\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
