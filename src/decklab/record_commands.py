"""``decklab replay`` and ``decklab redact``: records on the command line.

Both open a record through :func:`decklab.engine.records.load` (the one robust
entry point: every bad file is a clear error) and show it as one viewer sees it:
``all`` (everything, the default), a seat (``p2``) or ``spectator``. A viewer
other than ``all`` sees exactly what the engine's views and redacted records
give that seat — the state, the log and the legal actions — so looking at one's
own saved game does not spoil it.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape

from decklab.engine import records
from decklab.engine.errors import RecordError, excerpt
from decklab.engine.state import ALL, GameState, Viewer, seat_name

err = Console(stderr=True, soft_wrap=True)

VIEWER_HELP = "whose eyes: all (everything, default), a seat such as p2, or spectator"


def parse_viewer(text: str, num_players: int) -> Viewer:
    """``"all"`` → ALL, ``"spectator"`` → None, ``"p2"`` → 1; RecordError otherwise."""
    word = text.strip().lower()
    if word == "all":
        return ALL
    if word in ("spectator", "none"):
        return None
    if word.startswith("p") and word[1:].isdigit() and len(word) <= 4:
        seat = int(word[1:]) - 1
        if 0 <= seat < num_players:
            return seat
    raise RecordError(
        f"no viewer {excerpt(text, 20)!r}: all, spectator or a seat p1…p{num_players}"
    )


def viewer_name(viewer: Viewer) -> str:
    if viewer == ALL:
        return "all"
    return "spectator" if viewer is None else seat_name(viewer)


def shows_hidden(state: GameState, viewer: Viewer) -> bool:
    """Whether showing ``state`` to ``viewer`` reveals cards some seat may not see yet."""
    return viewer == ALL and state.info.hidden_information and not state.is_terminal()


def replay_summary(
    state: GameState, applied: int, viewer: Viewer, legal: bool, log: bool
) -> dict[str, Any]:
    """What ``replay`` reports, as ``viewer`` may know it (JSON-ready)."""
    result = state.result()
    out: dict[str, Any] = {
        "game": state.info.name,
        "terminal": state.is_terminal(),
        "scores": result["scores"],
        "winners": result["winners"],
        "actions_applied": applied,
        "to_act": [seat_name(s) for s in state.to_act()],
    }
    if viewer != ALL:
        out["viewer"] = viewer_name(viewer)
    if legal:
        # A seat sees only its own legal actions: another's would tell its hand.
        seats = [s for s in state.to_act() if viewer == ALL or s == viewer]
        out["legal"] = {
            seat_name(s): [state.action_to_string(s, a) for a in state.legal_actions(s)]
            for s in seats
        }
    if log:
        out["log"] = records.action_lines(state, viewer)
    return out


def replay_text(state: GameState, out: dict[str, Any], viewer: Viewer) -> str:
    lines = []
    if "log" in out:
        lines.append("log:")
        lines.extend(f"  {i:>3} {line}" for i, line in enumerate(out["log"]))
        lines.append("")
    lines.append(state.render(viewer))
    lines.append("")
    scores = ", ".join(f"{k}: {v:g}" for k, v in out["scores"].items())
    lines.append(f"actions applied: {out['actions_applied']}")
    lines.append(f"scores ({state.info.score_unit}): {scores}")
    if out["terminal"]:
        lines.append("winners: " + (", ".join(out["winners"]) or "nobody"))
    else:
        lines.append("to act: " + ", ".join(out["to_act"]))
    for seat, acts in out.get("legal", {}).items():
        lines.append(f"legal for {seat}: " + ", ".join(acts))
    return "\n".join(lines)


def _error(exc: RecordError, as_json: bool) -> typer.Exit:
    if as_json:
        print(json.dumps({"error": exc.as_json()}))
    else:
        # The message quotes the file: escaped, so "[/x]" in it is text, not markup.
        err.print(f"[red]error:[/red] {escape(str(exc))}", highlight=False)
    return typer.Exit(2)


def run_replay(
    record_file: Path,
    as_json: bool,
    legal: bool,
    upto: int | None,
    viewer_text: str,
    log: bool,
) -> None:
    """The body of ``decklab replay`` (see its help)."""
    try:
        if upto is not None and upto < 0:
            raise RecordError(f"--upto is a number of lines, 0 or more, not {upto}")
        record = records.load(record_file)
        state, applied = records.replay(record, limit=upto)
        viewer = parse_viewer(viewer_text, state.num_players)
        out = replay_summary(state, applied, viewer, legal, log)
    except RecordError as exc:
        raise _error(exc, as_json) from None
    if as_json:
        print(json.dumps(out), flush=True)
    else:
        print(replay_text(state, out, viewer), flush=True)
    # JSON without --legal or --log holds no card; the text always shows the table.
    if shows_hidden(state, viewer) and (not as_json or legal or log):
        err.print(
            "note: this game is not over and this shows every hidden card; "
            "use --viewer p1 (your seat) or --viewer spectator to keep them hidden",
            highlight=False,
        )


def register(app: typer.Typer) -> None:
    """Add ``redact`` to ``app`` (``replay`` is declared in cli.py and calls run_replay)."""

    @app.command()
    def redact(
        record_file: Annotated[Path, typer.Argument(help="a record (JSON)", metavar="RECORD")],
        seat: Annotated[
            str, typer.Option("--seat", help="whose copy: a seat such as p2, or spectator")
        ],
        out: Annotated[
            Path | None, typer.Option("--out", help="write the copy to this file")
        ] = None,
        force: Annotated[
            bool, typer.Option("--force", help="overwrite --out if it exists")
        ] = False,
    ) -> None:
        """Print (or --out write) a seat's redacted copy of RECORD: hidden cards as ??."""
        try:
            record = records.load(record_file)
            state, _ = records.replay(record)
            viewer = parse_viewer(seat, state.num_players)
            if viewer == ALL:
                raise RecordError("redact needs a seat (p1…) or spectator, not all")
            keep = {k: record[k] for k in ("players", "note") if k in record}
            copy = records.make_record(
                state, players=keep.get("players"), viewer=viewer, date=record.get("date")
            )
            if "note" in keep:
                copy["note"] = keep["note"]
            text = records.dumps(copy)
            if out is not None:
                write_new_file(out, text, force)
        except RecordError as exc:
            raise _error(exc, False) from None
        if out is None:
            print(text, end="")
        else:
            err.print(f"wrote {escape(str(out))}", highlight=False)


def write_new_file(path: Path, text: str, force: bool) -> None:
    """Write ``text`` to ``path``; a RecordError if the folder is missing, ``path``
    is a folder, or it exists and ``force`` is not given (a user's file is kept)."""
    where = excerpt(str(path), 120)
    if path.is_dir():
        raise RecordError(f"{where} is a folder; give a file name")
    parent = path.parent
    if not parent.is_dir():
        raise RecordError(f"there is no folder {excerpt(str(parent), 120)} to write {where} in")
    try:
        flags = os.O_WRONLY | os.O_CREAT | (os.O_TRUNC if force else os.O_EXCL)
        fd = os.open(path, flags, 0o644)
    except FileExistsError:
        raise RecordError(f"{where} exists; pass --force to overwrite it") from None
    except OSError as exc:
        raise RecordError(f"cannot write {where}: {exc.strerror or type(exc).__name__}") from None
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(text)
