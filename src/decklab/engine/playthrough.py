"""Golden playthroughs (OpenSpiel's idea): a full seeded game written as text.

Each step shows who acts, the action, and the acting seat's view before it; the
end shows the full state and every seat's view. Tests regenerate the text and
compare it line by line with the checked-in file, so any change of behaviour is
a visible diff. Regenerate on purpose with ``make golden``.
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

from decklab.engine import records
from decklab.engine.checks import canonical
from decklab.engine.registry import game_names, get_game
from decklab.engine.state import ALL, seat_name

CASES: list[tuple[str, int, dict[str, object]]] = [
    ("cabin", 1, {}),
    ("cabin", 1, {"stacks": 7, "beach_dump": True}),
    ("corporation", 4, {}),
    ("corporation", 10, {"max_rounds": 6}),
    ("facade", 2, {}),
    ("facade", 4, {"fifth_suit": True}),
    ("lonely-face", 2, {}),
    ("lonely-face", 4, {"suit_die": True}),
    ("lonely-face", 3, {"opening": "no_pairs"}),
    ("notorious", 3, {"games": 2}),
    ("notorious", 8, {"games": 1}),
]


def case_filename(game: str, players: int, options: dict[str, object]) -> str:
    opts = "".join(f"_{k}-{v}" for k, v in sorted(options.items()))
    return f"{game}_{players}p{opts}.txt".replace(" ", "")


def playthrough(game: str, players: int, options: dict[str, object], seed: int = 7) -> str:
    """The golden text of one seeded random game."""
    cls = get_game(game)
    state = cls.new(players, options, seed=seed)
    rng = random.Random(seed)
    out = [
        f"game: {game} v{cls.info.version}",
        f"players: {players}",
        f"options: {canonical(state.options)}",
        f"seed: {seed}",
        f"setup: {canonical(state.initial_setup)}",
        "",
    ]
    step = 0
    while not state.is_terminal():
        seat = state.to_act()[0]
        legal = state.legal_actions(seat)
        action = rng.choice(legal)
        out.append(f"[{step}] {seat_name(seat)} view: {canonical(state.view(seat))}")
        out.append(f"[{step}] {seat_name(seat)} legal: {len(legal)}")
        before = len(state.history)
        out.append(f"[{step}] {seat_name(seat)} {state.action_to_string(seat, action)}")
        state.apply(seat, action)
        for actor, text in state.history[before + 1 :]:
            out.append(f"[{step}] {seat_name(actor)} {text}")
        step += 1
    out.append("")
    out.append("final state:")
    out.extend(state.render(ALL).splitlines())
    out.append(f"final view all: {canonical(state.view(ALL))}")
    out.append(f"final view spectator: {canonical(state.view(None))}")
    for seat in range(players):
        out.append(f"final view {seat_name(seat)}: {canonical(state.view(seat))}")
    out.append(f"result: {canonical(state.result())}")
    out.append("record actions:")
    out.extend(records.action_lines(state))
    return "\n".join(out) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description="Write the golden playthrough files.")
    parser.add_argument("--write", required=True, help="folder to write into")
    parser.add_argument(
        "--only", default=None, help="comma-separated games to write (default: all)"
    )
    args = parser.parse_args()
    only = set(args.only.split(",")) if args.only else None
    folder = Path(args.write)
    folder.mkdir(parents=True, exist_ok=True)
    available = set(game_names())
    for game, players, options in CASES:
        if game not in available or (only is not None and game not in only):
            continue
        try:
            get_game(game)
        except ImportError:
            print(f"skipped {game}: not implemented yet")
            continue
        path = folder / case_filename(game, players, options)
        path.write_text(playthrough(game, players, options), encoding="utf-8")
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
