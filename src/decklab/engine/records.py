"""Game records: JSON documents that rebuild a game exactly (docs/records.md).

In the spirit of PGN: a header (game, version, options, seats, date, result),
the explicit setup (or a seed that deals it), and ``actions``, a list of
``"ACTOR TEXT"`` lines where ACTOR is a seat name or ``chance``. Appending a
line extends the game. Replaying feeds recorded chance outcomes back to the
state, so a record does not depend on the random generator.
"""

from __future__ import annotations

import datetime as _dt
import json
from collections import deque
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from decklab.engine.errors import ChanceError, DecklabError, OptionError, RecordError, SetupError
from decklab.engine.registry import get_game
from decklab.engine.state import ALL, CHANCE, GameState, Viewer, seat_name

FORMAT = "decklab-record/1"
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
    setup = (
        state.initial_setup if viewer == ALL else state.redact_setup(state.initial_setup, viewer)
    )
    record: dict[str, Any] = {
        "format": FORMAT,
        "game": state.info.name,
        "version": state.info.version,
        "options": dict(state.options),
        "seats": [seat_name(i) for i in range(state.num_players)],
        "date": date or _dt.datetime.now(_dt.UTC).replace(microsecond=0).isoformat(),
    }
    if players:
        record["players"] = dict(players)
    if viewer != ALL:
        record["viewer"] = seat_name(viewer) if viewer is not None else "spectator"
    record["setup"] = setup
    record["actions"] = action_lines(state, viewer)
    record["result"] = state.result()
    return record


def _split_line(index: int, line: Any) -> tuple[str, str]:
    if not isinstance(line, str):
        raise RecordError("each action is a string 'ACTOR TEXT'", index, repr(line))
    actor, _, text = line.strip().partition(" ")
    if not actor or not text.strip():
        raise RecordError("an action line is 'ACTOR TEXT', e.g. 'p1 play 3'", index, line)
    return actor.lower(), text.strip()


def new_state_for(record: Mapping[str, Any]) -> GameState:
    """The initial state a record describes (its setup or its seed), actions not applied."""
    if not isinstance(record, Mapping):
        raise RecordError("a record is a JSON object")
    unknown = set(record) - _KNOWN_KEYS
    if unknown:
        raise RecordError(f"unknown field(s) {', '.join(sorted(unknown))}")
    fmt = record.get("format", FORMAT)
    if fmt != FORMAT:
        raise RecordError(f"unsupported format {fmt!r} (this decklab reads {FORMAT})")
    name = record.get("game")
    if not isinstance(name, str):
        raise RecordError("the record has no 'game' (e.g. \"cabin\")")
    try:
        cls = get_game(name)
    except KeyError as exc:
        raise RecordError(str(exc.args[0])) from None
    version = record.get("version", cls.info.version)
    if version != cls.info.version:
        raise RecordError(
            f"the record is for {name} version {version}; this decklab plays version {cls.info.version}"
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


def replay(record: Mapping[str, Any], limit: int | None = None) -> tuple[GameState, int]:
    """Rebuild the state a record describes; returns it and the number of actions applied.

    Chance lines must follow the action that caused them. Without a seed, every
    chance outcome must be in the record; with one, missing outcomes are drawn
    from it. Raises :class:`RecordError` naming the line and the reason.
    """
    state = new_state_for(record)
    raw = record.get("actions", [])
    if not isinstance(raw, list):
        raise RecordError("'actions' must be a list of 'ACTOR TEXT' strings")
    lines = [_split_line(i, line) for i, line in enumerate(raw)]
    if limit is not None:
        lines = lines[:limit]
        while lines and lines[-1][0] == "chance":
            lines.pop()
    strict = record.get("seed") is None
    applied = 0
    i = 0
    while i < len(lines):
        actor, text = lines[i]
        if actor == "chance":
            raise RecordError("a chance outcome must follow the action that caused it", i, text)
        j = i + 1
        while j < len(lines) and lines[j][0] == "chance":
            j += 1
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
            raise RecordError(str(exc), i, f"{actor} {text}") from None
        finally:
            state._strict_chance = False
        if state._forced:
            k = i + 1 + len(lines[i + 1 : j]) - len(state._forced)
            raise RecordError("this chance outcome was not needed here", k, f"chance {lines[k][1]}")
        state._forced = None
        applied += 1
        i = j
    return state, applied


def _seat_of(actor: str, num_players: int) -> int:
    if actor.startswith("p") and actor[1:].isdigit():
        idx = int(actor[1:]) - 1
        if 0 <= idx < num_players:
            return idx
    raise RecordError(f"unknown actor {actor!r} (seats are p1…p{num_players}, or chance)")


def load(path: str | Path) -> dict[str, Any]:
    """Read a record file, with a clear error for a file that is not a JSON object."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise RecordError(f"cannot read {path}: {exc.strerror}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(f"{path} is not valid JSON: {exc.msg} at line {exc.lineno}") from None
    if not isinstance(data, dict):
        raise RecordError(f"{path} does not hold a JSON object")
    return data


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
    Path(path).write_text(dumps(record), encoding="utf-8")
