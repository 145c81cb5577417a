"""No frame tells a seat a card it may not see: a differential test.

For random games of every game, at random moments, the true state A is set beside
B = A.determinize(seat) — a state that differs from A only in cards hidden from that
seat (and the future of chance). The next move is played in both — in B the move that
looks the same to the seat (another seat's face-down card is a different card in B),
with A's chance outcomes fed to B when B allows them, and everything the server would
send the seat — and a spectator — is encoded with the server's own code: the event
frame (log lines, view, layout, legal actions, seats, clocks) and the error
message for intents the seat might try. Where the action itself reveals the
hidden cards (the seat's view after it differs between A and B), there is nothing
to compare; everywhere else the bytes must be identical: the server adds nothing
to what the engine's view already allows the seat to know.

Sized to run fast: 200 random games per game at the smallest table, 3 moments
each, every seat and the spectator at each moment, through the service's frame
building directly (the socket adds only the encoding, which is the same
:func:`frames.encode`).
"""

from __future__ import annotations

import random
from collections import deque

import pytest

from decklab.engine.errors import ChanceError, DecklabError
from decklab.engine.registry import game_names, get_game
from decklab.engine.state import CHANCE, GameState
from decklab.server.frames import encode
from decklab.server.hub import event_frame
from decklab.server.logline import Entry, move_entries
from decklab.server.service import TableService
from decklab.server.store.db import make_engine
from decklab.server.store.queries import Store
from decklab.server.table import Event, Seat, Table

GAMES_PER_GAME = 200
MOMENTS = 3


def _table(state: GameState) -> Table:
    seats = [Seat("human", f"n{i}", None) for i in range(state.num_players)]
    return Table("t", type(state), state, seats, 10, "playing", True, None, {}, None)


def _event_bytes(
    service: TableService, after: GameState, entries: list[Entry], viewer: int | None
) -> str:
    table = _table(after)
    return encode(event_frame(table, Event(11, "action", {"seat": "p1"}, tuple(entries)), viewer))


def _error(state: GameState, seat: int, text: str) -> str:
    try:
        state.parse_action(seat, text)
    except DecklabError as exc:
        return str(exc)
    return "legal"


def _step(
    before: GameState, actor: int, action: int, forced: list[str] | None
) -> tuple[GameState, list[Entry]]:
    after = before.clone()
    text = before.action_to_string(actor, action)
    sentence = before.describe_action(actor, action)
    index = len(after.history)
    if forced is not None:
        after._forced = deque(forced)
        after._strict_chance = True
    try:
        after.apply(actor, action)
    finally:
        after._strict_chance = False
    if after._forced:
        raise ChanceError("left over")
    after._forced = None
    assert index == len(before.history)
    return after, move_entries(before, after, actor, text, sentence)


def _counterpart(
    other: GameState,
    actor: int,
    action: int,
    chance: list[str],
    view: dict[str, object],
    viewer: int,
    rng: random.Random,
) -> tuple[GameState, list[Entry]] | None:
    """The move in B that looks to ``viewer`` like A's move did: the same view after it.

    Another seat's hidden move (a card played face down) has a counterpart with a
    different card in B, which is what makes the comparison bite: if anything sent
    to the viewer named the card, the frames would differ. Moves other than A's own
    are tried first.
    """
    legal = list(other.legal_actions(actor))
    rng.shuffle(legal)
    legal.sort(key=lambda a: a == action)
    for candidate in legal[:8]:
        try:
            after, entries = _step(other, actor, candidate, chance)
        except (ChanceError, DecklabError):
            continue
        if after.view(viewer) == view:
            return after, entries
    return None


def _differential(game: str, games: int) -> tuple[int, int]:
    """Run the comparison over ``games`` random games; (moments compared, of which the
    counterpart move was another move than A's)."""
    cls = get_game(game)
    n = cls.info.min_players
    service = TableService(Store(make_engine("sqlite://")))
    compared = differing = 0
    for g in range(games):
        rng = random.Random(g)
        state = cls.new(n, seed=g)
        played = []
        probe = state.clone()
        while not probe.is_terminal():  # the game's moves first, to pick moments in it
            seat = probe.to_act()[0]
            played.append((seat, rng.choice(probe.legal_actions(seat))))
            probe.apply(*played[-1])
        moments = set(rng.sample(range(len(played)), min(MOMENTS, len(played))))
        for step, (actor, action) in enumerate(played):
            if step not in moments:
                state.apply(actor, action)
                continue
            after_a, entries_a = _step(state, actor, action, None)
            chance = [e.text for e in entries_a if e.actor == CHANCE]
            probes = [
                state.action_to_string(s, a)
                for s in state.to_act()
                for a in state.legal_actions(s)[:3]
            ]
            for viewer in range(n):
                other = state.determinize(viewer, rng)
                counterpart = _counterpart(
                    other, actor, action, chance, after_a.view(viewer), viewer, rng
                )
                if counterpart is None:
                    continue  # the action revealed hidden cards: the seat may now see them
                after_b, entries_b = counterpart
                for seen_by in (viewer, None):
                    assert _event_bytes(service, after_a, entries_a, seen_by) == _event_bytes(
                        service, after_b, entries_b, seen_by
                    ), (
                        f"{game} game {g} step {step}: a frame for {seen_by} leaks what it may not see"
                    )
                for text in probes:
                    assert _error(state, viewer, text) == _error(other, viewer, text)
                compared += 1
                differing += entries_b[0].text != entries_a[0].text
            state = after_a
    return compared, differing


@pytest.mark.parametrize("game", game_names())
def test_frames_identical_when_only_hidden_cards_differ(game: str) -> None:
    compared, _ = _differential(game, GAMES_PER_GAME)
    assert compared >= GAMES_PER_GAME // 4, f"only {compared} comparisons were possible"


def test_the_differential_test_bites(monkeypatch: pytest.MonkeyPatch) -> None:
    """With redaction switched off, the comparison must catch the leak in some game."""
    assert sum(_differential(game, 10)[1] for game in game_names()) > 0
    monkeypatch.setattr(
        GameState, "redact_history_entry", lambda self, i, actor, text, viewer: text
    )
    for name in game_names():
        monkeypatch.setattr(get_game(name), "redact_history_entry", GameState.redact_history_entry)
    caught = 0
    for game in game_names():
        try:
            _differential(game, 10)
        except AssertionError:
            caught += 1
    assert caught >= 2


# ------------------------------------------------- REST answers (summary, record, replay)
REST_GAMES_PER_GAME = 12
Path = tuple[object, ...]


def _hidden_spots(full: object, seen: object, path: Path = ()) -> list[tuple[Path, str]]:
    """Where ``seen`` (a redacted setup) hides a card of ``full``: (path, card)."""
    if isinstance(full, dict) and isinstance(seen, dict):
        return [s for k in full for s in _hidden_spots(full[k], seen.get(k), (*path, k))]
    if isinstance(full, list) and isinstance(seen, list) and len(full) == len(seen):
        return [s for i, v in enumerate(full) for s in _hidden_spots(v, seen[i], (*path, i))]
    if isinstance(full, str) and isinstance(seen, str):
        words, hidden = full.split(), seen.split()
        if len(words) == len(hidden):
            return [((*path, -1 - i), w) for i, w in enumerate(words) if hidden[i] == "??" != w]
    return []


def _put(setup: dict[str, object], spot: Path, card: str) -> None:
    *outer, last = spot
    holder: object = setup
    for key in outer[:-1] if isinstance(last, int) and last < 0 else outer:
        holder = holder[key]  # type: ignore[index]
    if isinstance(last, int) and last < 0:  # a card inside a space-separated string
        words = holder[outer[-1]].split()  # type: ignore[index]
        words[-1 - last] = card
        holder[outer[-1]] = " ".join(words)  # type: ignore[index]
    else:
        holder[last] = card  # type: ignore[index]


def _other_deal(state: GameState, viewer: int, rng: random.Random) -> GameState | None:
    """A deal that looks to ``viewer`` the same as ``state``'s: its hidden cards shuffled
    among the places hidden from it (all of them, else within each part of the setup)."""
    import copy

    full = state.initial_setup
    assert full is not None
    spots = _hidden_spots(full, state.redact_setup(copy.deepcopy(full), viewer))
    groups = [spots, *([s for s in spots if s[0][0] == key] for key in full)]
    for group in groups:
        cards = [card for _, card in group]
        if len(set(cards)) < 2:
            continue
        rng.shuffle(cards)
        setup = copy.deepcopy(full)
        for (spot, _), card in zip(group, cards, strict=True):
            _put(setup, spot, card)
        try:
            other = type(state).from_setup(state.num_players, state.options, setup)
        except DecklabError:
            continue
        if other.view(viewer) == state.view(viewer) and other.initial_setup != full:
            return other
    return None


def _rest_answers(
    service: TableService,
    state: GameState,
    played: list[tuple[int, str, list[str]]],
    viewer: int | None,
) -> str:
    """Everything the REST API answers ``viewer`` about a table in ``state`` (after the
    actions ``played``): its summary, the record copy and the replay at every step."""
    from decklab.engine import records
    from decklab.server import frames
    from decklab.server.replay import rebuild

    table = _table(state)
    table.actions, table.seed = len(played), state.seed  # B's seed is unknown: None
    answers: list[object] = [table.summary()]
    answers.append(records.make_record(state, players={"p1": "a"}, viewer=viewer, date="d"))
    for step in range(len(played) + 1):
        past, entries = rebuild(
            type(state),
            state.num_players,
            state.options,
            state.initial_setup or {},
            None,
            played[:step],
        )
        answers.append(frames.log_for(past, entries, viewer))
        answers.append(frames.game_part(past, viewer, acting=False))
    return encode({"answers": answers})


def _rest_differential(game: str, games: int) -> int:
    cls = get_game(game)
    n = cls.info.min_players
    service = TableService(Store(make_engine("sqlite://")))
    compared = 0
    for g in range(games):
        rng = random.Random(g)
        a = cls.new(n, seed=g)
        viewer = rng.randrange(n)
        b = _other_deal(a, viewer, rng)
        if b is None:
            continue
        played_a: list[tuple[int, str, list[str]]] = []
        played_b: list[tuple[int, str, list[str]]] = []
        for _ in range(rng.randrange(1, 12)):
            if a.is_terminal():
                break
            actor = a.to_act()[0]
            action = rng.choice(a.legal_actions(actor))
            after_a, entries_a = _step(a, actor, action, None)
            chance = [e.text for e in entries_a if e.actor == CHANCE]
            counterpart = _counterpart(b, actor, action, chance, after_a.view(viewer), viewer, rng)
            if counterpart is None:
                break  # the move showed the seat hidden cards: nothing more to compare
            after_b, _ = counterpart
            played_a.append((actor, a.action_to_string(actor, action), chance))
            action_b = after_b.history[len(b.history)][1]
            played_b.append((actor, b.action_to_string(actor, action_b), chance))
            a, b = after_a, after_b
        for seen_by in (viewer, None):
            assert _rest_answers(service, a, played_a, seen_by) == _rest_answers(
                service, b, played_b, seen_by
            ), f"{game} game {g}: a REST answer for {seen_by} tells what it may not see"
        compared += 1
    return compared


@pytest.mark.parametrize("game", game_names())
def test_rest_answers_identical_when_only_hidden_cards_differ(game: str) -> None:
    """The table summary, a seat's or a spectator's record copy and the replays at every
    step are the same for two deals that differ only in cards hidden from that seat."""
    info = get_game(game).info
    if get_game(game).new(info.min_players, seed=1).initial_setup == {}:
        pytest.skip(reason="nothing is dealt: there is no hidden deal to tell apart")
    if info.max_players == 1:
        pytest.skip(reason="a game played alone shows its deal number by design (docs/server.md)")
    assert _rest_differential(game, REST_GAMES_PER_GAME) >= REST_GAMES_PER_GAME // 2


def test_the_rest_differential_bites(monkeypatch: pytest.MonkeyPatch) -> None:
    """With the setup unredacted in record copies, or the deal in the summary, the REST
    comparison catches it."""
    dealt = [
        g
        for g in game_names()
        if get_game(g).info.max_players > 1
        and get_game(g).new(get_game(g).info.min_players).initial_setup
    ]
    from decklab.engine import records

    make_record = records.make_record
    monkeypatch.setattr(
        records,
        "make_record",
        lambda state, players=None, viewer=None, date=None: make_record(state, players, date=date),
    )
    for game in dealt:
        with pytest.raises(AssertionError):
            _rest_differential(game, 4)
    monkeypatch.undo()
    summary = Table.summary
    monkeypatch.setattr(
        Table, "summary", lambda self: {**summary(self), "deal": str(self.state.initial_setup)}
    )
    for game in dealt:
        with pytest.raises(AssertionError):
            _rest_differential(game, 4)
