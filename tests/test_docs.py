"""The documentation stays true: records.md is assembled from every game's notation,
and each notation's example records replay."""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path

import pytest

from decklab.engine import records
from decklab.engine.registry import game_names

ROOT = Path(__file__).parent.parent
DOCS = ROOT / "docs"


def _builder():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("build_records", DOCS / "build_records.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_records_md_is_up_to_date() -> None:
    built = _builder().build()
    assert (DOCS / "records.md").read_text(encoding="utf-8") == built, (
        "docs/records.md is stale: run `python docs/build_records.py`"
    )


@pytest.mark.parametrize("game", game_names())
def test_every_game_documents_its_notation(game: str) -> None:
    text = (DOCS / "notation" / f"{game}.md").read_text(encoding="utf-8")
    assert "setup" in text.lower() and "action" in text.lower()


@pytest.mark.parametrize("game", game_names())
def test_example_records_in_the_notation_replay(game: str) -> None:
    text = (DOCS / "notation" / f"{game}.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```json\n(.*?)```", text, flags=re.S)
    full = [json.loads(b) for b in blocks if '"game"' in b and '"seats"' in b]
    assert full, f"docs/notation/{game}.md has no complete example record"
    for record in full:
        _state, applied = records.replay(record)
        assert applied == len(record.get("actions", []))  # lines, chance lines included
