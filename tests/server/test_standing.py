"""An intent made before the others chose face down still stands; one made before
anything its seat could see or play changed is stale (server/standing.py)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest

from decklab.engine.registry import get_game
from decklab.engine.state import CHANCE, GameState
from decklab.server.errors import ServiceError
from decklab.server.logline import Entry
from decklab.server.service import LiveTable, TableService
from decklab.server.standing import standing_after
from decklab.server.table import SeatSpec

from .games import simultaneous, two_player

pytestmark = pytest.mark.anyio


async def _seated(service: TableService, game: str, n: int) -> tuple[LiveTable, list[str]]:
    table = await service.create_table(game, n, [SeatSpec() for _ in range(n)])
    tokens = [(await service.join(table.id, f"p{i + 1}", f"n{i}"))[1] for i in range(n)]
    return table, tokens


def _first_move(table: LiveTable, seat: int) -> str:
    state = table.state
    return state.action_to_string(seat, state.legal_actions(seat)[0])


async def _stale(service: TableService, table: LiveTable, token: str, text: str, v: int) -> None:
    before = (table.version, table.actions)
    with pytest.raises(ServiceError) as err:
        await service.act(table.id, token, text, v, f"late{v}")
    assert err.value.code == "stale"
    assert (table.version, table.actions) == before


async def test_an_intent_stands_while_the_others_only_choose_face_down(
    service: TableService,
) -> None:
    """The race a person lost to every bot at a round's start: the others' face-down
    choices since the version the person chose at do not make the choice stale."""
    table, tokens = await _seated(service, simultaneous(), 4)
    assert sorted(table.state.to_act()) == [0, 1, 2, 3]
    seen = table.version  # p4 looks at the table and thinks...
    for seat in (0, 1):  # ...while p1 and p2 choose
        await service.act(
            table.id, tokens[seat], _first_move(table, seat), table.version, f"c{seat}"
        )
    assert table.version == seen + 2
    acked = await service.act(table.id, tokens[3], _first_move(table, 3), seen, "p4")
    assert acked == seen + 3 and table.actions == 3
    # resent, the same answer, applied once
    assert await service.act(table.id, tokens[3], "anything", seen, "p4") == acked
    assert table.actions == 3


async def test_an_intent_made_before_the_round_was_revealed_is_stale(
    service: TableService,
) -> None:
    """Once the round is revealed, every seat's position changed: an intent made before
    is refused, though the seat is to act again (it fails if standing outlives a reveal)."""
    table, tokens = await _seated(service, simultaneous(), 4)
    first_round = table.version
    for seat in range(4):
        await service.act(
            table.id, tokens[seat], _first_move(table, seat), table.version, f"r{seat}"
        )
    assert 0 in table.state.to_act()
    await _stale(service, table, tokens[0], _first_move(table, 0), first_round)
    # an intent made after the reveal, before the others chose again, stands
    revealed = table.version
    await service.act(table.id, tokens[1], _first_move(table, 1), revealed, "s1")
    assert (
        await service.act(table.id, tokens[0], _first_move(table, 0), revealed, "s0")
        == revealed + 2
    )


async def test_a_person_who_chose_while_the_bots_chose_first_is_not_refused(
    service: TableService,
) -> None:
    """The case as it came up: one person and three bots; the bots choose as soon as
    the round starts, and the person's choice, made on the round's first version, is
    played (before server/standing.py it was refused as stale)."""
    game = simultaneous()
    table = await service.create_table(game, 4, [SeatSpec()] + [SeatSpec("greedy")] * 3)
    _, token = await service.join(table.id, "p1", "ann")
    seen = table.version
    text = _first_move(table, 0)
    await asyncio.wait_for(_until(lambda: table.actions == 3), 30)
    assert table.version == seen + 3
    assert await service.act(table.id, token, text, seen, "ann") == seen + 4


async def test_a_seat_taken_over_or_a_move_seen_makes_the_intent_stale(
    service: TableService,
) -> None:
    """A seat a bot took over (a commit that is no move) ends the standing; so does a
    turn-based game's move, which the next seat sees; and a version not yet made is never
    accepted (each fails if any other version than the table's were)."""
    table, tokens = await _seated(service, simultaneous(), 4)
    seen = table.version
    await service._zombie(table, 1, "test")
    await _stale(service, table, tokens[0], _first_move(table, 0), seen)
    await _stale(service, table, tokens[0], _first_move(table, 0), table.version + 1)

    table, tokens = await _seated(service, two_player(), 2)
    seat = table.state.to_act()[0]
    seen = table.version
    await service.act(table.id, tokens[seat], _first_move(table, seat), seen, "m")
    nxt = table.state.to_act()[0]
    await _stale(service, table, tokens[nxt], _first_move(table, nxt), seen)


async def _until(done: Callable[[], bool]) -> None:
    while not done():
        await asyncio.sleep(0.01)


def _one_move(game: str) -> tuple[GameState, GameState, list[Entry]]:
    """A simultaneous round's first move, by p1, and its log entries."""
    before = get_game(game).new(4, seed=3)
    after = before.clone()
    action = before.legal_actions(0)[0]
    after.apply(0, action)
    entry = Entry(len(before.history), 0, before.action_to_string(0, action), None)
    return before, after, [entry]


def test_the_rule_keeps_only_what_a_face_down_move_leaves_unchanged(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each condition of standing_after, broken one at a time on a real round: the seats
    still to choose keep their standing unless the move was shown to them, chance
    followed it, or their legal moves changed."""
    before, after, added = _one_move(simultaneous())
    known = {1: 3, 2: 4}
    assert standing_after(before, after, added, 0, known, 9) == {1: 3, 2: 4, 3: 8}
    chance = Entry(added[0].index + 1, CHANCE, "deal ??", None)
    assert standing_after(before, after, [*added, chance], 0, known, 9) == {1: 9, 2: 9, 3: 9}
    shown = type(after).redact_history_entry
    monkeypatch.setattr(type(after), "redact_history_entry", lambda self, i, a, text, v: text)
    assert standing_after(before, after, added, 0, known, 9) == {1: 9, 2: 9, 3: 9}
    monkeypatch.setattr(type(after), "redact_history_entry", shown)
    real = type(after).legal_actions
    monkeypatch.setattr(
        type(after),
        "legal_actions",
        lambda self, seat: real(self, seat)[: 1 if self is after and seat == 2 else None],
    )
    assert standing_after(before, after, added, 0, known, 9) == {1: 3, 2: 9, 3: 8}
