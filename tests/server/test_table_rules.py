"""One table's rules of play, driven without an event loop or a database.

Seats (joining, who may act, grace and reclaim), clock arithmetic and the next
deadline, the undo point, chat cleaning and its per-seat burst window: plain
synchronous code (:mod:`decklab.server.table`, :mod:`decklab.server.clock`), handed
made-up times, so each rule is checked exactly.
"""

from __future__ import annotations

import ast
import contextlib
import importlib
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from decklab.engine.registry import get_game
from decklab.engine.state import GameState
from decklab.server import clock
from decklab.server.errors import ServiceError
from decklab.server.replay import rebuild
from decklab.server.table import ClockSpec, Seat, Table, clean_nickname, clean_text, undo_point

from .games import pick, solo, two_player

CLOCK = {"base_ms": 60_000, "increment_ms": 2_000, "on_timeout": "bot"}


def _table(
    game: str,
    seats: list[Seat],
    *,
    status: str = "playing",
    clock_json: dict[str, Any] | None = None,
    state: GameState | None = None,
) -> Table:
    cls = get_game(game)
    state = state if state is not None else cls.new(len(seats), seed=7)
    return Table("t", cls, state, seats, 5, status, True, clock_json, {}, None)


def _person(clock_ms: int | None = 60_000, **changes: Any) -> Seat:
    seat = Seat("human", "ann", "hash", clock_ms=clock_ms, connections=1)
    for key, value in changes.items():
        setattr(seat, key, value)
    return seat


@contextlib.contextmanager
def _refused(code: str, status: int) -> Iterator[None]:
    """The block must be refused with this code and status."""
    with pytest.raises(ServiceError) as got:
        yield
    assert (got.value.code, got.value.status) == (code, status)


# ------------------------------------------------------------ clock arithmetic
def test_a_move_takes_the_time_spent_off_and_adds_the_increment() -> None:
    assert clock.after_move(10_000, 100.0, 103.25, 2_000) == 10_000 - 3_250 + 2_000
    assert clock.after_move(10_000, None, 500.0, 2_000) == 12_000  # a clock not running
    assert clock.after_move(None, None, 0.0, 1_000) == 1_000


def test_a_move_made_past_the_flag_keeps_only_the_increment() -> None:
    assert clock.after_move(1_000, 100.0, 105.0, 2_000) == 2_000


def test_the_table_stops_the_movers_clock_and_gives_its_new_time() -> None:
    game = two_player()
    table = _table(game, [_person(), _person()], clock_json=CLOCK)
    seat = table.state.to_act()[0]
    table.running_since[seat] = 50.0
    assert table.clock_after_move(seat, 53.5) == {seat: 60_000 - 3_500 + 2_000}
    assert seat not in table.running_since


def test_no_clock_change_for_a_bot_or_a_table_without_clock() -> None:
    game = two_player()
    table = _table(game, [_person(zombie=True), _person(zombie=True)], clock_json=CLOCK)
    seat = table.state.to_act()[0]
    table.running_since[seat] = 50.0
    assert table.clock_after_move(seat, 60.0) == {}
    unclocked = _table(game, [_person(), _person()])
    assert unclocked.clock_after_move(seat, 60.0) == {}


def test_clocks_run_for_the_people_to_act_and_the_deadline_is_when_theirs_runs_out() -> None:
    game = two_player()
    table = _table(game, [_person(30_000), _person(40_000)], clock_json=CLOCK)
    seat = table.state.to_act()[0]
    other = 1 - seat
    table.running_since[other] = 1.0  # not to act: its clock stops
    allowed_s = {0: 30.0, 1: 40.0}[seat]
    assert table.run_clocks(100.0) == 100.0 + allowed_s
    assert table.running_since == {seat: 100.0}
    # already running: the deadline counts from when it started, not from now
    assert table.run_clocks(120.0) == 100.0 + allowed_s


def test_no_deadline_while_a_bot_plays_the_seat_to_act() -> None:
    game = two_player()
    table = _table(game, [_person(), _person()], clock_json=CLOCK)
    seat = table.state.to_act()[0]
    table.seats[seat].zombie = True
    assert table.run_clocks(100.0) is None
    assert table.running_since == {}


def test_the_earliest_of_several_running_clocks_is_the_deadline() -> None:
    game = pick(lambda i: i.simultaneous)
    players = get_game(game).info.min_players
    state = get_game(game).new(players, seed=7)
    assert len(state.to_act()) >= 2, "a simultaneous game has several seats to act"
    seats = [_person(50_000) for _ in range(players)]
    first, second = state.to_act()[:2]
    seats[second].clock_ms = 20_000
    for other in state.to_act()[2:]:
        seats[other].zombie = True  # played by bots: no clock
    table = _table(game, seats, clock_json=CLOCK, state=state)
    table.running_since[first] = 10.0
    assert table.run_clocks(30.0) == min(10.0 + 50.0, 30.0 + 20.0)
    assert table.running_since == {first: 10.0, second: 30.0}


def test_a_clock_is_late_at_its_last_millisecond_not_before() -> None:
    game = two_player()
    table = _table(game, [_person(5_000), _person(5_000)], clock_json=CLOCK)
    table.running_since[0] = 10.0
    assert table.late_seats(14.999) == []
    assert table.late_seats(15.0) == [0]


def test_the_clocks_shown_count_down_and_stop_at_zero() -> None:
    game = two_player()
    table = _table(game, [_person(5_000), _person(None)], clock_json=CLOCK)
    table.running_since[0] = 10.0
    shown = table.clocks_part(12.5)
    assert shown == {
        "increment_ms": 2_000,
        "remaining_ms": {"p1": 2_500, "p2": None},
        "running": ["p1"],
    }
    late = table.clocks_part(99.0)
    assert late is not None and late["remaining_ms"]["p1"] == 0
    assert _table(game, [_person(), _person()]).clocks_part(1.0) is None


def test_a_clock_asked_for_out_of_range_is_refused() -> None:
    assert ClockSpec(60, 2).to_json() == CLOCK
    for wrong in (ClockSpec(0.5), ClockSpec(25 * 3600), ClockSpec(60, 3601)):
        with _refused("bad_request", 400):
            wrong.to_json()
    with _refused("bad_request", 400):
        ClockSpec(60, 0, "pause").to_json()


# ------------------------------------------------------------ seats
def test_joining_an_open_seat_starts_the_game_only_when_it_is_the_last() -> None:
    game = two_player()
    table = _table(game, [Seat("open"), Seat("open")], status="waiting")
    assert table.may_join(0) is False
    table.seated(0, "ann", "h", "waiting")
    assert table.seats[0].kind == "human" and table.seats[0].nickname == "ann"
    assert table.may_join(1) is True


def test_a_taken_seat_an_expired_table_and_a_bad_seat_are_refused() -> None:
    game = two_player()
    table = _table(game, [_person(), Seat("open")], status="waiting")
    with _refused("seat_taken", 409):
        table.may_join(0)
    table.status = "expired"
    with _refused("expired", 410):
        table.may_join(1)
    with _refused("bad_request", 400):
        table.seat_index("p9")
    assert table.seat_index("p2") == 1


def test_only_a_seat_at_the_current_version_of_a_game_going_on_may_act() -> None:
    game = two_player()
    table = _table(game, [_person(), _person()])
    table.may_act(0, 5)  # no refusal
    with _refused("stale", 409):
        table.may_act(0, 4)
    table.seats[0].zombie = True
    with _refused("not_yours_now", 409):
        table.may_act(0, 5)
    table.status = "finished"
    with _refused("not_playing", 409):
        table.may_act(1, 5)


def test_a_token_holds_only_its_own_seat() -> None:
    from decklab.server.tokens import hash_token

    game = two_player()
    table = _table(
        game, [Seat("human", "a", hash_token("one")), Seat("human", "b", hash_token("two"))]
    )
    assert table.viewer("two") == 1
    assert table.viewer(None) is None
    with _refused("forbidden", 403):
        table.viewer("three")


def test_a_person_away_during_play_gets_a_grace_period_a_bot_or_a_zombie_none() -> None:
    game = two_player()
    table = _table(game, [_person(), Seat("bot", bot_spec="greedy")])
    assert not table.needs_grace(0)  # connected
    table.disconnect(0, 1.0)
    assert table.seats[0].connections == 0
    assert table.needs_grace(0) and table.still_away(0)
    assert not table.needs_grace(1)
    table.zombied(0)
    assert not table.needs_grace(0) and not table.still_away(0)


def test_a_seat_back_before_its_grace_ends_stays_its_persons() -> None:
    game = two_player()
    table = _table(game, [_person(left=True), _person()])
    assert table.still_away(0)
    assert table.connect(0) is False  # not a zombie: nothing to reclaim
    assert not table.seats[0].left and not table.still_away(0)


def test_a_zombie_seat_is_reclaimed_on_connecting_unless_the_game_is_over() -> None:
    game = two_player()
    table = _table(game, [_person(connections=0), _person()], clock_json=CLOCK)
    seat = table.state.to_act()[0]
    table.seats[seat].connections = 0
    table.zombied(seat)
    table.thinking.add(seat)
    assert table.connect(seat) is True
    table.reclaimed(seat, 42.0)
    assert not table.seats[seat].zombie and seat not in table.thinking
    assert table.running_since[seat] == 42.0  # their clock runs again
    table.zombied(seat)
    table.status = "finished"
    assert table.connect(seat) is False


# ------------------------------------------------------------ undo
def _solo_after(moves: int) -> Table:
    """A game played alone after ``moves`` of its seat's actions, rebuilt as a table is."""
    cls = get_game(solo())
    state = cls.new(1, seed=11)
    start = state.clone()
    actions: list[tuple[int, str, list[str]]] = []
    for _ in range(moves):
        seat = state.to_act()[0]
        action = state.legal_actions(seat)[0]
        text = state.action_to_string(seat, action)
        index = len(state.history)
        state.apply(seat, action)
        actions.append((seat, text, [str(a) for _, a in state.history[index + 1 :]]))
    rebuilt, entries = rebuild(cls, 1, dict(start.options), start.export_setup(), 11, actions)
    table = _table(solo(), [_person()], state=rebuilt)
    table.entries, table.actions = entries, moves
    return table


def test_undo_takes_back_the_seats_last_action_with_the_chance_after_it() -> None:
    table = _solo_after(3)
    point = undo_point(table.state, 0)
    history = table.state.history
    assert point is not None and history[point][0] == 0
    assert all(actor != 0 for actor, _ in history[point + 1 :])
    assert table.undo_keep(0) == 2
    assert table.can_undo(0) and not table.can_undo(None)


def test_the_end_of_a_game_played_alone_is_final() -> None:
    state = get_game(solo()).new(1, seed=11)
    rng = random.Random(1)
    while not state.is_terminal():
        seat = state.to_act()[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    assert any(actor == 0 for actor, _ in state.history)
    assert undo_point(state, 0) is None


def test_nothing_to_undo_before_a_first_move_and_never_at_a_table_of_several() -> None:
    with _refused("no_undo", 409):
        _solo_after(0).undo_keep(0)
    several = _table(two_player(), [_person(), _person()])
    seat = several.state.to_act()[0]
    several.state.apply(seat, several.state.legal_actions(seat)[0])  # it has a move to take back
    assert undo_point(several.state, seat) is None
    with _refused("no_undo", 409):
        several.undo_keep(seat)


# ------------------------------------------------------------ chat
def test_chat_text_is_cleaned_and_refused_when_empty_or_too_long() -> None:
    assert clean_text("  well\u0000  played\n\t!  ", 500) == "well played!"  # controls go
    with _refused("bad_request", 400):
        clean_text(" \u200b\u0007 ", 500)
    with _refused("too_long", 400):
        clean_text("x" * 11, 10)
    assert clean_nickname("  Ann\u0000  Lee ") == "Ann Lee"
    with _refused("bad_request", 400):
        clean_nickname("x" * 33)


def test_the_chat_burst_window_is_per_seat_and_slides() -> None:
    table = _table(two_player(), [_person(), _person()])
    for now in (0.0, 1.0, 2.0):
        table.note_chat(0, now, window_s=10.0, burst=3)
    with _refused("rate_limited", 429):
        table.note_chat(0, 3.0, window_s=10.0, burst=3)
    table.note_chat(1, 3.0, window_s=10.0, burst=3)  # another seat has its own window
    with _refused("rate_limited", 429):
        table.note_chat(0, 10.0, window_s=10.0, burst=3)  # the first is 10 s old, not older
    table.note_chat(0, 10.5, window_s=10.0, burst=3)  # now it has left the window


# ------------------------------------------------------------ a move taken
def test_a_move_taken_sets_the_clock_the_ack_and_the_end() -> None:
    game = two_player()
    table = _table(game, [_person(), _person()], clock_json=CLOCK)
    seat = table.state.to_act()[0]
    table.running_since[1 - seat] = 3.0
    after = table.state.clone()
    after.apply(seat, after.legal_actions(seat)[0])
    from decklab.server import frames

    table.moved(after, frames.Views(after), [], seat, "c1", 6, {seat: 1_234}, {"winners": []})
    assert table.state is after and table.views().state is after
    assert (table.actions, table.last_action_version) == (1, 6)
    assert table.seats[seat].clock_ms == 1_234
    assert table.acks == {(seat, "c1"): 6}
    assert table.status == "finished" and table.outcome == {"winners": []}
    assert table.running_since == {}


# ------------------------------------------------------------ the layers
def _imported(module: str) -> set[str]:
    """Every module ``module`` imports, anywhere in it (functions and TYPE_CHECKING too)."""
    path = Path(importlib.import_module(module).__file__ or "")
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return found


@pytest.mark.parametrize("module", ["decklab.server.table", "decklab.server.clock"])
def test_the_rules_need_no_event_loop_no_database_and_no_service(module: str) -> None:
    imported = _imported(module)
    assert not {m for m in imported if m.split(".")[0] in {"asyncio", "anyio", "sqlalchemy"}}
    assert not {
        m for m in imported if m.startswith(("decklab.server.store", "decklab.server.service"))
    }


@pytest.mark.parametrize(
    "module", ["decklab.server.hub", "decklab.server.replay", "decklab.server.errors"]
)
def test_the_hub_and_the_replays_do_not_reach_back_into_the_service(module: str) -> None:
    assert not {m for m in _imported(module) if m.startswith("decklab.server.service")}


# ------------------------------------------------------------ endings and deadlines
def test_a_grace_period_runs_from_the_last_sign_of_life() -> None:
    game = two_player()
    table = _table(game, [_person(connections=0), _person()])
    assert table.away_seats() == [0]
    assert table.grace_left(0, 100.0, 30.0) == 30.0  # never seen: from now
    assert table.grace_left(0, 120.0, 30.0) == 10.0
    table.seen_now(0, 125.0)  # a request with its token
    assert table.grace_left(0, 130.0, 30.0) == 25.0
    table.connect(0)
    assert table.grace_left(0, 200.0, 30.0) is None  # back


def test_a_game_played_alone_never_needs_a_bot() -> None:
    table = _table(solo(), [_person(connections=0)], clock_json=CLOCK)
    assert not table.needs_grace(0) and not table.still_away(0)
    assert table.on_timeout == "forfeit"  # its clock's "bot" is not for a game alone


def test_a_forfeit_puts_the_seat_last_and_the_others_first() -> None:
    game = two_player()
    table = _table(game, [_person(), _person()], clock_json=CLOCK)
    outcome = table.forfeit_outcome(1)
    assert outcome["terminal"] is True and outcome["winners"] == ["p1"]
    assert outcome["ranks"] == {"p1": 1, "p2": 2} and outcome["forfeit"] == "p2"
    assert outcome["reason"] == "p2 ran out of time and forfeits. Won by p1."


def test_a_seat_taken_back_with_no_time_left_gets_some() -> None:
    game = two_player()
    table = _table(game, [_person(clock_ms=0), _person()], clock_json=CLOCK)
    assert table.reclaim_clock_ms(0) == 30_000
    assert table.reclaim_clock_ms(1) is None  # time left: unchanged


def test_turn_based_deadlines_start_when_a_person_is_to_act() -> None:
    from decklab.server.pace import TurnSpec

    game = two_player()
    table = _table(game, [_person(connections=0), _person(connections=0)])
    table.set_turn(TurnSpec(3600, "bot").to_json())
    seat = table.state.to_act()[0]
    assert not table.needs_grace(seat)  # a turn-based seat waits
    assert table.run_deadlines(1000.0) == 4600.0
    assert table.run_deadlines(2000.0) == 4600.0  # kept, not pushed back
    assert table.late_for_deadline(4599.0) == [] and table.late_for_deadline(4600.0) == [seat]
    with _refused("bad_request", 400):
        TurnSpec(5, "bot").to_json()
    with _refused("bad_request", 400):
        TurnSpec(3600, "nap").to_json()
