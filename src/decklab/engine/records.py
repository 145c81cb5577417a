"""Game records: JSON documents that rebuild a game exactly (docs/records.md).

In the spirit of PGN: a header (game, version, options, seats, date, result),
the explicit setup (or a seed that deals it), and ``actions``, a list of
``"ACTOR TEXT"`` lines where ACTOR is a seat name or ``chance``. Appending a
line extends the game. Replaying feeds recorded chance outcomes back to the
state, so a record does not depend on the random generator.
"""

from __future__ import annotations

import copy
import datetime as _dt
import json
import math
import os
import stat
from collections import deque
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from decklab.engine.errors import (
    ChanceError,
    DecklabError,
    OptionError,
    RecordError,
    SetupError,
    excerpt,
)
from decklab.engine.registry import get_game
from decklab.engine.state import ALL, CHANCE, GameState, Viewer, seat_name

FORMAT = "decklab-record/1"

MAX_RECORD_BYTES = 8 * 1024 * 1024
"""The largest record file :func:`load` reads (8 MiB; a long game is a few KiB).

A bigger file is refused from its size alone, before any of it is read."""

MAX_DEPTH = 16
"""How deeply a record's JSON may nest (records need 4 levels; 16 leaves room)."""

UNFORESEEN = "a shape the game's loader did not expect"
"""Marks the generic setup error behind which a game's own message is missing."""

MAX_INT_DIGITS = 40
"""The longest whole number a record may hold (seeds are 64-bit: 20 digits)."""
_KNOWN_KEYS = {
    "format",
    "game",
    "version",
    "options",
    "seats",
    "players",
    "date",
    "seed",
    "setup",
    "actions",
    "result",
    "viewer",
    "note",
}


def action_lines(state: GameState, viewer: Viewer = ALL) -> list[str]:
    """The history of ``state`` as record lines (redacted for ``viewer`` unless ALL)."""
    if state.initial_setup is None:
        raise RecordError(
            "this state has no known setup (a determinized sample cannot be recorded)"
        )
    cls = type(state)
    replay_state = cls.from_setup(state.num_players, state.options, state.initial_setup)
    replay_state._forced = deque(text for actor, text in state.history if actor == CHANCE)
    replay_state._strict_chance = True
    lines = []
    for index, (actor, action) in enumerate(state.history):
        if actor == CHANCE:
            text = str(action)
        else:
            text = replay_state.action_to_string(actor, action)
            replay_state.history.append((actor, action))
            replay_state._apply(actor, action)
        if viewer != ALL:
            text = state.redact_history_entry(index, actor, text, viewer)
        lines.append(f"{seat_name(actor)} {text}")
    return lines


def make_record(
    state: GameState,
    players: Mapping[str, str] | None = None,
    viewer: Viewer = ALL,
    date: str | None = None,
) -> dict[str, Any]:
    """The record of ``state`` so far; ``viewer`` gives that seat's redacted copy."""
    if state.initial_setup is None:
        raise RecordError(
            "this state has no known setup (a determinized sample cannot be recorded)"
        )
    # Deep copies: the record is the caller's to edit, and editing it must not
    # reach into the state (whose initial setup replays and records rely on).
    setup = copy.deepcopy(
        state.initial_setup if viewer == ALL else state.redact_setup(state.initial_setup, viewer)
    )
    record: dict[str, Any] = {
        "format": FORMAT,
        "game": state.info.name,
        "version": state.info.version,
        "options": copy.deepcopy(dict(state.options)),
        "seats": [seat_name(i) for i in range(state.num_players)],
        "date": date or _dt.datetime.now(_dt.UTC).replace(microsecond=0).isoformat(),
    }
    if players:
        record["players"] = dict(players)
    if viewer != ALL:
        record["viewer"] = seat_name(viewer) if viewer is not None else "spectator"
    record["setup"] = setup
    record["actions"] = action_lines(state, viewer)
    record["result"] = copy.deepcopy(state.result())
    return record


def _split_line(index: int, line: Any) -> tuple[str, str]:
    if not isinstance(line, str):
        raise RecordError("each action is a string 'ACTOR TEXT'", index, excerpt(line))
    actor, _, text = line.strip().partition(" ")
    if not actor or not text.strip():
        raise RecordError("an action line is 'ACTOR TEXT', e.g. 'p1 play 3'", index, line)
    return actor.lower(), text.strip()


def new_state_for(record: Mapping[str, Any]) -> GameState:
    """The initial state a record describes (its setup or its seed), actions not applied."""
    if not isinstance(record, Mapping):
        raise RecordError("a record is a JSON object")
    check_plain_json(record)
    unknown = set(record) - _KNOWN_KEYS
    if unknown:
        shown = ", ".join(excerpt(k, 30) for k in sorted(unknown, key=str)[:5])
        raise RecordError(f"unknown field(s) {shown}")
    fmt = record.get("format", FORMAT)
    if fmt != FORMAT:
        raise RecordError(f"unsupported format {excerpt(fmt)} (this decklab reads {FORMAT})")
    name = record.get("game")
    if not isinstance(name, str):
        raise RecordError("the record has no 'game' (e.g. \"cabin\")")
    try:
        cls = get_game(name)
    except KeyError as exc:
        raise RecordError(str(exc.args[0])) from None
    version = record.get("version", cls.info.version)
    if version != cls.info.version or isinstance(version, bool):
        raise RecordError(
            f"the record is for {cls.info.name} version {excerpt(version, 20)}; "
            f"this decklab plays version {cls.info.version}"
        )
    seats = record.get("seats")
    if seats is None:
        raise RecordError('the record has no \'seats\' (e.g. ["p1", "p2", "p3", "p4"])')
    if not isinstance(seats, list) or seats != [seat_name(i) for i in range(len(seats))]:
        raise RecordError('\'seats\' must list the seats in order: ["p1", "p2", …]')
    options = record.get("options") or {}
    if not isinstance(options, Mapping):
        raise RecordError("'options' must be an object of option names to values")
    seed = record.get("seed")
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
        raise RecordError("'seed' must be a whole number")
    setup = record.get("setup")
    try:
        if setup is not None:
            if not isinstance(setup, Mapping):
                raise RecordError("'setup' must be an object")
            return cls.from_setup(len(seats), options, setup, seed)
        if seed is None:
            raise RecordError("the record needs an explicit 'setup' or a 'seed'")
        return cls.new(len(seats), options, seed)
    except (OptionError, SetupError) as exc:
        raise RecordError(str(exc)) from None
    except RecordError:
        raise
    except (TypeError, KeyError, IndexError, AttributeError, ValueError) as exc:
        # A setup of a shape a game's loader did not foresee: still the file's
        # fault, so a clear error rather than a traceback. (The fuzz test fails on
        # this message: each such case deserves a precise one from the game.)
        raise RecordError(
            f"the setup is not valid for {cls.info.name} ({UNFORESEEN}: {type(exc).__name__})"
        ) from None


def check_plain_json(value: Any) -> None:
    """Refuse what no record holds and what would break later code: nesting deeper
    than :data:`MAX_DEPTH`, whole numbers longer than :data:`MAX_INT_DIGITS`
    digits, non-finite numbers, and anything that is not plain JSON data."""
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise RecordError(f"the record nests deeper than {MAX_DEPTH} levels")
        if isinstance(item, Mapping):
            for key, sub in item.items():
                if not isinstance(key, str):
                    raise RecordError("a record's object keys are strings")
                stack.append((sub, depth + 1))
        elif isinstance(item, list | tuple):
            stack.extend((sub, depth + 1) for sub in item)
        elif isinstance(item, bool) or item is None or isinstance(item, str):
            continue
        elif isinstance(item, int):
            if item.bit_length() > MAX_INT_DIGITS * 10 // 3:
                raise RecordError(f"the record holds a number longer than {MAX_INT_DIGITS} digits")
        elif isinstance(item, float):
            if not math.isfinite(item):
                raise RecordError("the record holds a number that is not finite (Infinity or NaN)")
        else:
            raise RecordError(f"a record holds JSON data, not a {type(item).__name__}")


def _groups(lines: list[tuple[str, str]]) -> list[tuple[int, int]]:
    """``(start, end)`` of each action line with the chance lines that follow it."""
    out = []
    i = 0
    while i < len(lines):
        j = i + 1
        while j < len(lines) and lines[j][0] == "chance":
            j += 1
        out.append((i, j))
        i = j
    return out


def replay(record: Mapping[str, Any], limit: int | None = None) -> tuple[GameState, int]:
    """Rebuild the state a record describes; returns it and the number of lines applied.

    Chance lines must follow the action that caused them. Without a seed, every
    chance outcome must be in the record; with one, missing outcomes are drawn
    from it. Raises :class:`RecordError` naming the line and the reason.

    Counting (docs/records.md): ``limit``, the count returned and an error's
    index all count lines of ``actions``, chance lines included. ``limit=N``
    applies the first N lines, but never half an action: an action line and
    the chance lines after it go together, so a cut that falls inside that
    group stops just before the action (the count returned is then below N).
    """
    if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int) or limit < 0):
        raise RecordError(f"the number of lines to apply is a whole number ≥ 0, not {limit!r}")
    state = new_state_for(record)
    raw = record.get("actions", [])
    if raw is None:
        raw = []
    if not isinstance(raw, list):
        raise RecordError("'actions' must be a list of 'ACTOR TEXT' strings")
    lines = [_split_line(i, line) for i, line in enumerate(raw)]
    strict = record.get("seed") is None
    applied = 0
    for i, j in _groups(lines):
        if limit is not None and j > limit:
            break
        actor, text = lines[i]
        if actor == "chance":
            raise RecordError("a chance outcome must follow the action that caused it", i, text)
        forced = deque(text for _, text in lines[i + 1 : j])
        try:
            seat = _seat_of(actor, state.num_players)
            action = state.parse_action(seat, text)
        except (DecklabError, ValueError) as exc:
            reason = exc.reason if hasattr(exc, "reason") else str(exc)
            raise RecordError(reason, i, f"{actor} {text}") from None
        state._forced = forced
        state._strict_chance = strict
        try:
            state.apply(seat, action)
        except ChanceError as exc:
            used = len(lines[i + 1 : j]) - len(forced)
            if used > 0:  # a written outcome was wrong: name its line, not the action's
                k = i + used
                raise RecordError(str(exc), k, f"chance {lines[k][1]}") from None
            raise RecordError(str(exc), i, f"{actor} {text}") from None
        finally:
            state._strict_chance = False
        if state._forced:
            k = j - len(state._forced)
            raise RecordError("this chance outcome was not needed here", k, f"chance {lines[k][1]}")
        state._forced = None
        applied = j
    return state, applied


def _seat_of(actor: str, num_players: int) -> int:
    if actor.startswith("p") and actor[1:].isdigit():
        idx = int(actor[1:]) - 1
        if 0 <= idx < num_players:
            return idx
    raise RecordError(
        f"unknown actor {excerpt(actor, 20)!r} (seats are p1…p{num_players}, or chance)"
    )


def _refuse_constant(name: str) -> Any:
    raise RecordError(f"the record holds {name}, which is not a number a record may hold")


def _parse_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_INT_DIGITS:
        raise RecordError(f"the record holds a number longer than {MAX_INT_DIGITS} digits")
    return int(text)


def _parse_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise RecordError(f"the record holds a number too large to be meant ({excerpt(text, 20)})")
    return value


def read_text(path: str | Path, limit: int = MAX_RECORD_BYTES, what: str = "record") -> str:
    """The text of a user's file, or a :class:`RecordError` saying why it cannot be read.

    Checked before reading: it exists, it is not a folder, and its size is at
    most ``limit`` bytes (refused from ``stat`` alone). The read itself is bounded
    too, for files whose size ``stat`` does not know (pipes, devices).
    """
    where = excerpt(str(path), 120)
    try:
        info = os.stat(path)
    except FileNotFoundError:
        raise RecordError(f"cannot read {where}: there is no such file") from None
    except (OSError, ValueError) as exc:
        raise RecordError(f"cannot read {where}: {_os_reason(exc)}") from None
    if stat.S_ISDIR(info.st_mode):
        raise RecordError(f"{where} is a folder, not a {what} file")
    if info.st_size > limit:
        raise RecordError(
            f"{where} is {info.st_size:,} bytes; a {what} is at most {limit:,} bytes "
            "(docs/records.md), so it was not read"
        )
    try:
        with open(path, "rb") as handle:
            data = handle.read(limit + 1)
    except (OSError, ValueError) as exc:
        raise RecordError(f"cannot read {where}: {_os_reason(exc)}") from None
    if len(data) > limit:
        raise RecordError(f"{where} holds more than {limit:,} bytes; a {what} is at most that")
    return decode(data, where, what)


def decode(data: bytes, where: str = "the record", what: str = "record") -> str:
    """The text of a file's bytes: UTF-8 (a leading BOM allowed), not empty."""
    if not data.strip():
        raise RecordError(f"{where} is empty")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise RecordError(
            f"{where} is not UTF-8 text (byte 0x{data[exc.start]:02x} at offset {exc.start}); "
            f"a {what} is a JSON text file"
        ) from None


def _os_reason(exc: BaseException) -> str:
    return getattr(exc, "strerror", None) or type(exc).__name__


def parse(text: str, where: str = "the record") -> dict[str, Any]:
    """A record from JSON text: a JSON object of plain data, or a :class:`RecordError`."""
    try:
        data = json.loads(
            text,
            parse_constant=_refuse_constant,
            parse_int=_parse_int,
            parse_float=_parse_float,
        )
    except json.JSONDecodeError as exc:
        raise RecordError(
            f"{where} is not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}"
        ) from None
    except RecursionError:
        raise RecordError(f"{where} nests deeper than {MAX_DEPTH} levels") from None
    except RecordError as exc:
        raise RecordError(f"{where}: {exc.reason}") from None
    except ValueError as exc:  # e.g. a number Python will not convert
        raise RecordError(f"{where} is not valid JSON ({excerpt(str(exc), 80)})") from None
    if not isinstance(data, dict):
        raise RecordError(f"{where} does not hold a JSON object")
    try:
        check_plain_json(data)
    except RecordError as exc:
        raise RecordError(f"{where}: {exc.reason}") from None
    return data


def loads(data: bytes | str, where: str = "the record") -> dict[str, Any]:
    """A record from a file's contents (bytes as read, or text): what :func:`load`
    does after reading, for callers that receive records over the wire."""
    if isinstance(data, bytes):
        if len(data) > MAX_RECORD_BYTES:
            raise RecordError(f"{where} holds more than {MAX_RECORD_BYTES:,} bytes")
        data = decode(data, where)
    elif not data.strip():
        raise RecordError(f"{where} is empty")
    return parse(data, where)


def load(path: str | Path) -> dict[str, Any]:
    """Read a record file: the one entry point for every command that opens a record.

    Every way a file can be bad — missing, a folder, over :data:`MAX_RECORD_BYTES`,
    not UTF-8, not JSON, too deep, absurd numbers — is a :class:`RecordError`
    with a message a person can act on; nothing else escapes.
    """
    return parse(read_text(path), excerpt(str(path), 120))


def dumps(record: Mapping[str, Any]) -> str:
    """JSON laid out for people: one field per line, setup piles and actions one per line.

    Records then diff nicely and can be extended by appending an action line.
    """

    def compact(value: Any) -> str:
        return json.dumps(value, ensure_ascii=False)

    lines = []
    for key, value in record.items():
        if key == "actions" and value:
            body = ",\n".join("    " + compact(a) for a in value)
            lines.append(f'  "actions": [\n{body}\n  ]')
        elif key == "setup" and isinstance(value, Mapping) and value:
            body = ",\n".join(f"    {compact(k)}: {compact(v)}" for k, v in value.items())
            lines.append(f'  "setup": {{\n{body}\n  }}')
        else:
            lines.append(f"  {compact(key)}: {compact(value)}")
    return "{\n" + ",\n".join(lines) + "\n}\n"


def save(path: str | Path, record: Mapping[str, Any]) -> None:
    """Write ``record`` to ``path`` (callers decide whether overwriting is allowed)."""
    Path(path).write_text(dumps(record), encoding="utf-8")
