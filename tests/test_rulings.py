"""Item 12: the rulings ship with the project, and the newest ruling (C6) has its test."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

import pytest
from typer.testing import CliRunner

from decklab.cli import app
from decklab.engine.registry import game_names, get_game
from decklab.games.cabin.state import CabinState

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs" / "rulings.md"
SHARED = ROOT.parent / "shared" / "RULINGS.md"
runner = CliRunner()


def _sorted_setup(sea: str) -> dict[str, str]:
    from decklab import cards

    placed = {cards.parse(t) for t in sea.split()}
    rest = [cards.to_str(c) for c in cards.deck() if c not in placed]
    return {"sea": " ".join([*sea.split(), *rest]), "cabin": "", "beach": ""}


def test_item12_docs_rulings_is_the_shared_file() -> None:
    if not SHARED.exists():
        pytest.skip(reason=f"{SHARED} is absent (a clone without ../shared); CI has it")
    assert DOCS.read_text(encoding="utf-8") == SHARED.read_text(encoding="utf-8"), (
        "docs/rulings.md differs from ../shared/RULINGS.md: cp ../shared/RULINGS.md docs/rulings.md"
    )


def test_item12_the_package_ships_the_same_rulings() -> None:
    packaged = (resources.files("decklab") / "rulings.md").read_text(encoding="utf-8")
    assert packaged == DOCS.read_text(encoding="utf-8"), (
        "src/decklab/rulings.md differs from docs/rulings.md: copy docs/rulings.md there"
    )


@pytest.mark.parametrize("game", game_names())
def test_item12_every_ruling_id_a_rules_text_cites_is_in_decklab_rules_rulings(game: str) -> None:
    import re

    rules = runner.invoke(app, ["rules", game])
    assert rules.exit_code == 0 and "docs/rulings.md" in rules.output
    shown = runner.invoke(app, ["rules", game, "--rulings"])
    assert shown.exit_code == 0
    cited = set(re.findall(r"\b([A-Z]\d{1,2})\b", rules.output))
    prefix = {"cabin": "C", "corporation": "P"}.get(game, get_game(game).info.title[0])
    own = {c for c in cited if c[0] in (prefix, "K")}
    assert own, f"the rules text of {game} cites no ruling id"
    for ruling in own:
        assert f"- {ruling}." in shown.output, f"{ruling} cited by {game} but not shown"


def test_item12_C6_dump_is_still_offered_in_C3s_last_case() -> None:
    """C6: with beach_dump, a sea card that cannot be built while 🏠 and 🏖 are empty
    goes to ⚓ or, if the player chooses, onto 🏖 (the third choice stays open)."""
    state = CabinState.from_setup(1, {"stacks": 1, "beach_dump": True}, _sorted_setup("2S 3H"))
    state.apply(0, state.parse_action(0, "build 2S new"))
    legal = [state.action_to_string(0, a) for a in state.legal_actions(0)]
    assert legal == ["anchor", "dump"]
    state.apply(0, state.parse_action(0, "dump"))
    view = state.view(0)
    assert view["beach"]["seen"] == ["3H"] and view["beach"]["count"] == 1
    assert view["deep"] == []
    state.check_invariants()


def test_item12_C6_without_the_option_C3s_last_case_sinks_to_the_deep() -> None:
    """Without beach_dump there is no choice: the card goes to ⚓ with no decision."""
    state = CabinState.from_setup(1, {"stacks": 1}, _sorted_setup("2S 3H"))
    state.apply(0, state.parse_action(0, "build 2S new"))
    assert state.view(0)["deep"] == ["3H"] and len(state.history) == 1
