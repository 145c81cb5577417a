"""Assemble docs/interop.md: the hand-written part, then every game's encoding, printed
from its ``encoding.py`` hook (so the documented layout is the one in use).

    python docs/build_interop.py

A test checks that interop.md is up to date.
"""

from __future__ import annotations

import importlib
import inspect
from pathlib import Path

from decklab.engine.registry import game_names, get_game
from decklab.interop.table import Table, env_name

DOCS = Path(__file__).parent


def _section(game: str) -> str:
    cls = get_game(game)
    info = cls.info
    tables = [Table(game, n) for n in range(info.min_players, info.max_players + 1)]
    first = tables[0]
    module = importlib.import_module(first.hooks.encode.__module__)
    doc = inspect.getdoc(module) or ""
    paragraphs = doc.split("\n\n")
    start = next((i for i, p in enumerate(paragraphs) if p.startswith("Actions")), 1)
    body = "\n\n".join(paragraphs[start:])
    lines = [f"### {info.title} (`{game}`)", ""]
    names = [
        f"PettingZoo `{first.name}`",
        f"OpenSpiel `python_decklab_{env_name(game)}`",
    ]
    if info.min_players == 1:
        names.append(f"Gymnasium `decklab/{game}-v{first.version}`")
    lines += [", ".join(names) + ".", ""]
    lines += [body.strip(), ""]
    lines += ["| players | observation size | actions |", "| ---: | ---: | ---: |"]
    lines += [f"| {t.num_players} | {t.obs_size} | {t.num_actions} |" for t in tables]
    lines += [
        "",
        f"Observation layout at {first.num_players} player{'s' if first.num_players > 1 else ''}"
        " and the default options (blocks `[r]` repeat for every seat r = 0 … n-1, the"
        " viewer first):",
        "",
        "| block | start | size | meaning |",
        "| --- | ---: | ---: | --- |",
    ]
    lines += [
        f"| `{name}` | {start} | {size} | {meaning} |"
        for name, start, size, meaning in first.layout
    ]
    return "\n".join(lines) + "\n"


def build() -> str:
    parts = [(DOCS / "interop.head.md").read_text(encoding="utf-8").rstrip() + "\n"]
    parts.append(
        "## The games' encodings\n\n"
        "Printed from each game's `encoding.py` by `python docs/build_interop.py`. Card blocks"
        " count each card at its *slot*, its place in the sorted deck of the game: A♠ … K♠,"
        " A♥ … K♥, A♦ …, A♣ … (suit-major, S H D C; Façade's draw pile is 2–10 only, stars"
        " last). Numbers are divided by the scale shown, so most lie in 0 … 1.\n"
    )
    parts += [_section(game) for game in game_names()]
    return "\n".join(parts)


if __name__ == "__main__":
    (DOCS / "interop.md").write_text(build(), encoding="utf-8")
    print("wrote docs/interop.md")
