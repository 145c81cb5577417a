"""The generic game suite (tests/test_generic.py) over goofspiel, a game that exists only
as an installed plugin; plus its golden playthrough, kept beside these tests.

The generic tests take a game name, so they are called here as they are: nothing in
them knows a game is a plugin.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import test_generic as generic  # tests/test_generic.py (tests/ is on sys.path)
from decklab.engine.playthrough import case_filename, playthrough

PLAYERS = [2, 3, 4, 5]
GOLDEN = Path(__file__).parent / "golden"
CASES: list[tuple[str, int, dict[str, object]]] = [
    ("goofspiel", 2, {}),
    ("goofspiel", 4, {"cards": 6}),
]
GENERIC = [
    generic.test_random_playouts_terminate_and_keep_invariants,
    generic.test_same_seed_same_game,
    generic.test_record_roundtrip,
    generic.test_no_leak_and_determinize_consistent,
    generic.test_determinize_depends_only_on_what_the_seat_sees,
    generic.test_redacted_record_does_not_leak,
    generic.test_illegal_actions_change_nothing,
    generic.test_views_are_json_and_clone_is_independent,
]


def test_the_plugin_game_loads_by_its_name(plugins: Path) -> None:
    generic.test_every_registered_game_loads("goofspiel")


@pytest.mark.parametrize("check", GENERIC, ids=[f.__name__[5:] for f in GENERIC])
@pytest.mark.parametrize("players", PLAYERS, ids=[f"{n}p" for n in PLAYERS])
def test_generic_suite(plugins: Path, check: object, players: int) -> None:
    check("goofspiel", players)  # type: ignore[operator]


@pytest.mark.parametrize(
    ("game", "players", "options"), CASES, ids=[case_filename(*c)[:-4] for c in CASES]
)
def test_golden_playthrough(
    plugins: Path, game: str, players: int, options: dict[str, object]
) -> None:
    path = GOLDEN / case_filename(game, players, options)
    assert path.exists(), f"missing {path.name}: run `python {__file__} --write` and review it"
    expected = path.read_text(encoding="utf-8").splitlines()
    actual = playthrough(game, players, options).splitlines()
    for i, (want, got) in enumerate(zip(expected, actual, strict=False)):
        assert got == want, f"{path.name} line {i + 1} differs"
    assert len(actual) == len(expected)


if __name__ == "__main__" and sys.argv[1:] == ["--write"]:
    # PYTHONPATH must hold the installed plugin (see conftest.py); writes the golden files.
    for game, players, options in CASES:
        out = GOLDEN / case_filename(game, players, options)
        out.write_text(playthrough(game, players, options), encoding="utf-8")
        print(f"wrote {out}")
