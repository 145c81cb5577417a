"""Table layouts: each game's ``layout.table(view)`` and the generic primitives.

A layout is built from a seat's view only, so it can never show a card the
seat may not see. These tests hold every game to that through whole random
games: every card a table shows face up (or as known) is written in the view,
and a determinized state (hidden cards resampled) gives the seat the very same
table.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

from decklab.engine import layout
from decklab.engine.layout import Card, Row, Table, Zone, back, blank, card, table_function
from decklab.engine.registry import game_names, get_game

SMALL: dict[str, dict[str, Any]] = {
    "corporation": {"target": 12},
    "notorious": {"games": 2},
    "lonely-face": {"stall_rounds": 2},
}


def strings_in(value: Any) -> Iterator[str]:
    """Every string anywhere in a JSON-ready value (keys included)."""
    if isinstance(value, str):
        yield value
        yield from value.split()
    elif isinstance(value, dict):
        for k, v in value.items():
            yield str(k)
            yield from strings_in(v)
    elif isinstance(value, list | tuple):
        for v in value:
            yield from strings_in(v)
    elif isinstance(value, int) and not isinstance(value, bool):
        yield str(value)


def player_counts(game: str) -> list[int]:
    info = get_game(game).info
    return sorted({info.min_players, info.default_players, min(info.max_players, 5)})


@pytest.mark.parametrize("game", game_names())
def test_each_game_has_its_own_layout_in_its_folder(game: str) -> None:
    cls = get_game(game)
    fn = table_function(cls)
    assert fn.__module__ == cls.__module__.rpartition(".")[0] + ".layout"


@pytest.mark.parametrize("game", game_names())
def test_tables_show_only_what_the_view_shows_and_ignore_hidden_cards(game: str) -> None:
    cls = get_game(game)
    fn = table_function(cls)
    for players in player_counts(game):
        for seed in range(3):
            state = cls.new(players, SMALL.get(game), seed=seed)
            rng = random.Random(seed)
            step = 0
            while True:
                if step % 5 == 0 or state.is_terminal():
                    for seat in [*range(state.num_players), None]:
                        view = state.view(seat)
                        table = fn(view)
                        assert isinstance(table, Table)
                        assert table.viewer == (None if seat is None else f"p{seat + 1}")
                        json.loads(json.dumps(table.to_json()))
                        known = set(strings_in(view))
                        for c in table.all_cards():
                            if c.known:
                                assert c.token in known, (game, seat, c.token)
                        if seat is not None and not state.is_terminal():
                            sample = state.determinize(seat, rng)
                            assert fn(sample.view(seat)) == table
                if state.is_terminal() or step > 400:
                    break
                actor = state.to_act()[0]
                state.apply(actor, rng.choice(state.legal_actions(actor)))
                step += 1


@pytest.mark.parametrize("game", game_names())
def test_keys_of_tables_name_words_of_the_legal_actions(game: str) -> None:
    """Clicking a keyed card or zone must be able to narrow the legal actions."""
    cls = get_game(game)
    fn = table_function(cls)
    state = cls.new(None, SMALL.get(game), seed=11)
    rng = random.Random(11)
    seen_match = False
    for _ in range(60):
        if state.is_terminal():
            break
        seat = state.to_act()[0]
        words = {
            w for a in state.legal_actions(seat) for w in state.action_to_string(seat, a).split()
        }
        table = fn(state.view(seat))
        keys = {c.select_key for c in table.all_cards()} | {z.key for z in table.zones()}
        keys.discard(None)
        seen_match = seen_match or bool(keys & words)
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    assert seen_match


def test_card_reads_k1_notation_backs_blanks_and_bare_values() -> None:
    ten = card("TH")
    assert (ten.rank, ten.suit, ten.up, ten.select_key) == ("10", "H", True, "TH")
    assert card("7X").suit == "X"
    hidden = card("??")
    assert not hidden.up and not hidden.known and hidden.select_key is None
    assert back("p2").label == "p2" and back().token == "??"
    assert blank(key="b2").empty and blank(key="b2").select_key == "b2"
    value = card("5")
    assert (value.rank, value.suit, value.select_key) == ("5", "", "5")
    remembered = card("QS", up=False)
    assert remembered.known and not remembered.up and remembered.select_key is None
    assert card("KD", key="").select_key is None  # shown but not selectable
    assert layout.display("TH") == "10♥" and layout.display("new") == "new"


def test_table_json_has_the_shape_an_interface_needs() -> None:
    table = Table(
        "Test",
        (Row((Zone("Pile", (back(),), "stack", key="deck", count=12),), title="r"),),
        "status",
        "p1",
        ("a fact",),
    )
    data = table.to_json()
    assert data["rows"][0]["zones"][0] == {
        "title": "Pile",
        "cards": [
            {
                "token": "??",
                "rank": "",
                "suit": "",
                "up": False,
                "key": None,
                "label": "",
                "highlight": False,
            }
        ],
        "spread": "stack",
        "key": "deck",
        "columns": 0,
        "count": 12,
        "owner": None,
        "note": "",
        "highlight": False,
    }
    assert data["viewer"] == "p1" and data["facts"] == ["a fact"]


def test_a_game_without_a_layout_gets_a_generic_table() -> None:
    class Toy:  # defined outside any package: no layout module to find
        __module__ = "toy"

    fn = table_function(Toy)
    assert fn is layout.generic_table
    table = fn({"game": "toy", "seat": "p1", "hand": ["AS", "??"], "round": 3})
    cards = [c for z in table.zones() for c in z.cards]
    assert [c.token for c in cards] == ["AS", "??"]
    assert "round: 3" in table.facts


def test_zone_helper_sets_labels_and_backs() -> None:
    z = layout.zone("Front", ["7D", "??"], spread="fan", labels=["r1", "r2"], key="p2")
    assert [c.label for c in z.cards] == ["r1", "r2"]
    assert isinstance(z.cards[1], Card) and not z.cards[1].up


def _ring_tables(game: str) -> Iterator[Table]:
    """Tables of a few random moments of ``game``, for every seat and a spectator."""
    cls = get_game(game)
    fn = table_function(cls)
    for n in player_counts(game):
        rng = random.Random(n)
        state = cls.new(n, SMALL.get(game, {}), seed=n)
        for _ in range(3):
            for viewer in [*range(n), None]:
                yield fn(state.view(viewer))
            for _ in range(rng.randint(1, 6)):
                if state.is_terminal():
                    break
                seat = state.to_act()[0]
                state.apply(seat, rng.choice(state.legal_actions(seat)))


@pytest.mark.parametrize("game", game_names())
def test_a_ring_holds_every_seat_once_with_the_middle_inside(game: str) -> None:
    for table in _ring_tables(game):
        assert {r.arrange for r in table.rows} <= {"band", "ring", "middle"}
        rings = [r for r in table.rows if r.arrange == "ring"]
        if not rings:
            assert all(r.arrange == "band" for r in table.rows), "a middle needs a ring"
            continue
        owners = [z.owner for r in rings for z in r.zones]
        assert len(owners) == len(set(owners)) and all(owners), owners
        assert all(o and o.startswith("p") for o in owners)
        if table.viewer is not None:
            assert table.viewer in owners  # the viewer's own place, drawn at the bottom
        assert all(row.to_json()["arrange"] == row.arrange for row in table.rows)


def test_the_round_table_games_sit_their_players_around_it() -> None:
    """Issue 11: Corporation's seats around a table, Notorious's cards in front of each player."""
    ringed = {
        g for g in game_names() if any(r.arrange == "ring" for t in _ring_tables(g) for r in t.rows)
    }
    assert {"corporation", "notorious"} <= ringed
