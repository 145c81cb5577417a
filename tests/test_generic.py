"""The generic suite of ARCHITECTURE.md, run over every game at every player count."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from decklab.engine import checks
from decklab.engine.playthrough import CASES, case_filename, playthrough
from decklab.engine.registry import game_names, get_game
from decklab.engine.state import ALL, seat_name

GOLDEN = Path(__file__).parent / "golden"


def _game_counts() -> list[tuple[str, int]]:
    out = []
    for name in game_names():
        try:
            info = get_game(name).info
        except ImportError:
            out.append((name, 0))  # fails in test_every_registered_game_loads
            continue
        out.extend((name, n) for n in range(info.min_players, info.max_players + 1))
    return out


GAME_COUNTS = [(g, n) for g, n in _game_counts() if n]
IDS = [f"{g}-{n}p" for g, n in GAME_COUNTS]


@pytest.mark.parametrize("game", game_names())
def test_every_registered_game_loads(game: str) -> None:
    cls = get_game(game)
    assert cls.info.name == game


def _option_variants(name: str) -> list[dict[str, object]]:
    """Defaults, plus each boolean option switched on, so every rule path is played."""
    info = get_game(name).info
    variants: list[dict[str, object]] = [{}]
    for opt in info.options:
        if opt.kind is bool:
            variants.append({opt.name: not opt.default})
    return variants


@pytest.mark.parametrize(("game", "players"), GAME_COUNTS, ids=IDS)
def test_random_playouts_terminate_and_keep_invariants(game: str, players: int) -> None:
    cls = get_game(game)
    for variant in _option_variants(game):
        for seed in range(6):
            state = cls.new(players, variant, seed=seed)
            checks.random_playout(state, random.Random(seed))
            assert state.is_terminal()
            assert len(state.scores()) == players
            winners = state.winners()
            assert all(0 <= w < players for w in winners)


@pytest.mark.parametrize(("game", "players"), GAME_COUNTS, ids=IDS)
def test_a_missed_deadline_forfeits_or_skips_as_the_engine_says(game: str, players: int) -> None:
    # What a turn-based table asks a game when a seat's clock runs out (the server's
    # deadlines), asked directly here: make test-pure leaves the server's tests out, and
    # these compiled methods must be checked on the pure build too (tests/conftest.py).
    state = get_game(game).new(players, seed=5)
    rng = random.Random(5)
    for _ in range(3):  # in mid-game, where a forfeit happens
        if state.is_terminal():
            break
        seat = state.to_act()[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    history = list(state.history)
    for seat in range(players):
        got = state.forfeit_result(seat)
        assert got["terminal"] is True and got["forfeit"] == seat_name(seat)
        assert got["scores"] == state.result()["scores"]
        assert got["winners"] == [seat_name(i) for i in range(players) if i != seat]
        assert got["ranks"] == {seat_name(i): players if i == seat else 1 for i in range(players)}
        skip = state.skip_action(seat)
        assert skip is None or (seat in state.to_act() and skip in state.legal_actions(seat))
    assert state.history == history  # the state is left as it stands


@pytest.mark.parametrize(("game", "players"), GAME_COUNTS, ids=IDS)
def test_same_seed_same_game(game: str, players: int) -> None:
    cls = get_game(game)
    a, b = cls.new(players, seed=11), cls.new(players, seed=11)
    assert a.initial_setup == b.initial_setup
    checks.random_playout(a, random.Random(3), check_every=0)
    checks.random_playout(b, random.Random(3), check_every=0)
    assert a.history == b.history and a.scores() == b.scores()


@pytest.mark.parametrize(("game", "players"), GAME_COUNTS, ids=IDS)
def test_record_roundtrip(game: str, players: int) -> None:
    cls = get_game(game)
    for variant in _option_variants(game):
        for seed in range(2):
            state = cls.new(players, variant, seed=100 + seed)
            checks.random_playout(state, random.Random(seed), check_every=0)
            checks.check_record_roundtrip(state)
            # and part-way through a game
            partial = cls.new(players, variant, seed=200 + seed)
            rng = random.Random(seed)
            for _ in range(rng.randrange(1, 30)):
                if partial.is_terminal():
                    break
                seat = partial.to_act()[0]
                partial.apply(seat, rng.choice(partial.legal_actions(seat)))
            checks.check_record_roundtrip(partial)


def _midgame_states(game: str, players: int, count: int, seed: int) -> list:
    cls = get_game(game)
    rng = random.Random(seed)
    states = []
    for k in range(count):
        state = cls.new(players, seed=seed * 1000 + k)
        stop = rng.randrange(0, 60)
        played: list[tuple[int, int]] = []
        for _ in range(stop):
            if state.is_terminal():
                # A short game (goofspiel's 2 × 13 bids) would end before ``stop``: play
                # it again to a point within it, so that something is still hidden.
                state = cls.new(players, seed=seed * 1000 + k)
                for seat, action in played[: stop % len(played)]:
                    state.apply(seat, action)
                break
            seat = state.to_act()[0]
            action = rng.choice(state.legal_actions(seat))
            played.append((seat, action))
            state.apply(seat, action)
        states.append(state)
    return states


@pytest.mark.parametrize(("game", "players"), GAME_COUNTS, ids=IDS)
def test_no_leak_and_determinize_consistent(game: str, players: int) -> None:
    rng = random.Random(5)
    changed = False
    for state in _midgame_states(game, players, count=4, seed=players):
        changed |= checks.check_no_leak(state, rng, samples=3)
    if get_game(game).info.hidden_information:
        assert changed, "determinize never resampled any hidden card"


@pytest.mark.parametrize(("game", "players"), GAME_COUNTS, ids=IDS)
def test_determinize_depends_only_on_what_the_seat_sees(game: str, players: int) -> None:
    for k, state in enumerate(_midgame_states(game, players, count=4, seed=30 + players)):
        checks.check_determinize_depends_only_on_view(state, seed=k)


@pytest.mark.parametrize(("game", "players"), GAME_COUNTS, ids=IDS)
def test_redacted_record_does_not_leak(game: str, players: int) -> None:
    """A seat's copy of the record names no card the seat was never shown."""
    for state in _midgame_states(game, players, count=3, seed=50 + players):
        checks.check_redacted_record(state)
    finished = get_game(game).new(players, seed=3)
    checks.random_playout(finished, random.Random(3), check_every=0)
    checks.check_redacted_record(finished)


@pytest.mark.parametrize(("game", "players"), GAME_COUNTS, ids=IDS)
def test_illegal_actions_change_nothing(game: str, players: int) -> None:
    rng = random.Random(1)
    for state in _midgame_states(game, players, count=3, seed=70 + players):
        checks.check_illegal_changes_nothing(state, rng)
        checks.check_action_strings(state)


@pytest.mark.parametrize(("game", "players"), GAME_COUNTS, ids=IDS)
def test_views_are_json_and_clone_is_independent(game: str, players: int) -> None:
    for state in _midgame_states(game, players, count=2, seed=90 + players):
        for viewer in [None, ALL, *range(players)]:
            checks.canonical(state.view(viewer))
            assert isinstance(state.render(viewer), str)
        if state.is_terminal():
            continue
        copy = state.clone()
        before = checks.canonical(state.view(ALL))
        checks.random_playout(copy, random.Random(0), check_every=0)
        assert checks.canonical(state.view(ALL)) == before


@pytest.mark.parametrize(
    ("game", "players", "options"),
    CASES,
    ids=[case_filename(g, n, o)[:-4] for g, n, o in CASES],
)
def test_golden_playthrough(game: str, players: int, options: dict[str, object]) -> None:
    path = GOLDEN / case_filename(game, players, options)
    assert path.exists(), f"missing golden file {path.name}: run `make golden` and review it"
    expected = path.read_text(encoding="utf-8").splitlines()
    actual = playthrough(game, players, options).splitlines()
    for i, (want, got) in enumerate(zip(expected, actual, strict=False)):
        assert got == want, f"{path.name} line {i + 1} differs"
    assert len(actual) == len(expected)
