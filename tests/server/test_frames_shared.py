"""Frames built the server's cheap way are the frames built from scratch, for every game.

The table service makes each viewer's view of a state once (``frames.Views``) and
shares it between the frame's view, its layout, the log line's narration of this
move and of the next one (as its "before"), and it finds an intent among the legal
texts it made for the seat's last frame instead of asking the engine to write them
all again. None of that may change a byte: over random games of every game, at
every move, the event frame (log lines, view, layout, legal actions, breakdown at
the end) each seat and the spectator get the shared way is compared with the one
built afresh, the shared views with fresh ones after everything has read them (a
layout or story hook that changed its view would be caught here), and the intent
lookup with the engine's own parsing, errors included.
"""

from __future__ import annotations

import random

import pytest

from decklab.engine import layout
from decklab.engine.errors import DecklabError
from decklab.engine.registry import game_names, get_game
from decklab.engine.state import GameState, Viewer
from decklab.server import frames
from decklab.server.hub import Encoded, event_frame
from decklab.server.logline import Entry, move_entries
from decklab.server.service import TableService
from decklab.server.store.db import make_engine
from decklab.server.store.queries import Store
from decklab.server.table import Event, Seat, Table

GAMES_PER_GAME = 3


def _seat_counts(game: str) -> list[int]:
    info = get_game(game).info
    return sorted({info.min_players, min(info.max_players, info.min_players + 2)})


def _frame(
    service: TableService,
    state: GameState,
    entries: list[Entry],
    viewer: Viewer,
    views: frames.Views | None,
) -> str:
    seats = [Seat("human", f"n{i}", None) for i in range(state.num_players)]
    table = Table("t", type(state), state, seats, 10, "playing", True, None, {}, None)
    if views is not None:
        table._views = views
    event = Event(11, "action", {"seat": "p1"}, tuple(entries))
    return frames.encode(event_frame(table, event, viewer))


def _parsed(parse: object, seat: int, text: str) -> str:
    assert callable(parse)
    try:
        return f"action {parse(seat, text)}"
    except DecklabError as exc:
        return f"{type(exc).__name__}: {exc}"


def _variants(text: str) -> list[str]:
    """Spellings a person may type for ``text``, and texts that are not legal."""
    return [text, text.upper(), f"  {text} ", text.replace("T", "10"), f"{text} x", "", "bid"]


@pytest.mark.parametrize("game", game_names())
def test_shared_views_give_the_frames_built_afresh(game: str) -> None:
    cls = get_game(game)
    service = TableService(Store(make_engine("sqlite://")))
    moves = 0
    for players in _seat_counts(game):
        for g in range(GAMES_PER_GAME):
            rng = random.Random(1000 * players + g)
            state = cls.new(players, seed=g)
            held = frames.Views(state)
            viewers: list[Viewer] = [*range(players), None]
            while not state.is_terminal():
                seat = rng.choice(state.to_act())
                texts = held.legal(seat)
                assert texts == [state.action_to_string(seat, a) for a in state.legal_actions(seat)]
                text = rng.choice(texts)
                for typed in [*_variants(text), rng.choice(texts)]:
                    assert _parsed(held.parse, seat, typed) == _parsed(
                        state.parse_action, seat, typed
                    ), (game, typed)
                action = held.parse(seat, text)
                after = state.clone()
                sentence = state.describe_action(seat, action)
                after.apply(seat, action)
                after_views = frames.Views(after)
                shared = move_entries(
                    state, after, seat, text, sentence, frames.held_views(held, after_views)
                )
                fresh = move_entries(state, after, seat, text, sentence)
                assert shared == fresh, (game, g, text)
                for viewer in viewers:
                    assert _frame(service, after, shared, viewer, after_views) == _frame(
                        service, after, fresh, viewer, None
                    ), (game, g, text, viewer)
                for viewer in viewers:  # nothing that read a shared view changed it
                    assert held.of(viewer) == state.view(viewer), (game, "before", viewer)
                    assert after_views.of(viewer) == after.view(viewer), (game, "after", viewer)
                state, held = after, after_views
                moves += 1
    assert moves > GAMES_PER_GAME * 5


def test_views_are_made_once_and_legal_texts_are_fresh_lists() -> None:
    cls = get_game(game_names()[0])
    state = cls.new(cls.info.min_players, seed=3)
    views = frames.Views(state)
    assert views.of(0) is views.of(0)
    assert views.of(None) is views.of(None)
    seat = state.to_act()[0]
    first = views.legal(seat)
    first.clear()  # a caller's list is its own
    assert views.legal(seat) == [state.action_to_string(seat, a) for a in state.legal_actions(seat)]


def test_a_table_makes_new_views_when_its_state_changes() -> None:
    cls = get_game(game_names()[0])
    state = cls.new(cls.info.min_players, seed=4)
    seats = [Seat("human", None, None) for _ in range(state.num_players)]
    table = Table("t", cls, state, seats, 1, "playing", True, None, {}, None)
    views = table.views()
    assert table.views() is views
    seat = state.to_act()[0]
    after = state.clone()
    after.apply(seat, after.legal_actions(seat)[0])
    table.state = after
    assert table.views() is not views
    assert table.views().state is after
    assert table.views().of(seat) == after.view(seat)


def test_layout_cards_are_shared_and_their_json_is_a_fresh_dict() -> None:
    one = layout.card("TH", up=False, key="s1", label="p2")
    assert one is layout.card("TH", up=False, key="s1", label="p2")
    assert one == layout._new_card("TH", False, "s1", "p2", False)
    made = one.to_json()
    made["token"] = "changed"
    assert one.to_json()["token"] == "TH"
    assert layout.display("TH") == layout.display("TH") != "TH"
    assert layout.display("??") == "??"


@pytest.mark.anyio
async def test_text_listeners_get_each_frame_written_once_per_viewer(
    service: TableService,
) -> None:
    """Connections take the table's frames as text: the same text a dict listener's frame
    encodes to, written once for all the connections of one viewer."""
    game = game_names()[0]
    players = get_game(game).info.min_players
    table = await service.create_table(game, players, [])
    tokens = [(await service.join(table.id, f"p{s + 1}", f"n{s}"))[1] for s in range(players)]
    plain = service.hub.subscribe(table, 0)[1]
    texts = [service.hub.subscribe(table, 0, encoded=True)[1] for _ in range(2)]
    watcher = [service.hub.subscribe(table, None, encoded=True)[1] for _ in range(2)]
    spectator = service.hub.subscribe(table, None)[1]
    for listener in [plain, spectator, *texts, *watcher]:  # the first syncs
        while not listener.queue.empty():
            listener.queue.get_nowait()
    seat = table.state.to_act()[0]
    text = table.views().legal(seat)[0]
    await service.act(table.id, tokens[seat], text, table.version, "c-1")
    for dict_listener, text_listeners in ((plain, texts), (spectator, watcher)):
        frame = dict_listener.queue.get_nowait()
        got = [listener.queue.get_nowait() for listener in text_listeners]
        assert isinstance(frame, dict) and frame["type"] == "event"
        assert all(isinstance(g, Encoded) for g in got)
        assert got[0] is got[1]  # encoded once for both connections
        assert isinstance(got[0], Encoded)
        assert got[0].text == frames.encode(frame)
        assert (got[0].type, got[0].version) == ("event", frame["version"])
