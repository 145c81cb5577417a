"""Game metadata and the options spec: what a game is, who may play, what can be tuned.

Upper layers (CLI, bots, lab, server) know a game only through this and the
state interface, so every option carries its own parser, default and check.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from decklab.engine.errors import OptionError, excerpt

_MAX_DIGITS = 18
"""Whole-number options have at most this many digits (no game needs more)."""

_TRUE: Final = {"1", "true", "yes", "on", "y"}
_FALSE: Final = {"0", "false", "no", "off", "n"}


@dataclass(frozen=True)
class Option:
    """One game option.

    ``kind`` is ``int``, ``bool``, ``str`` or ``"seat"`` (a seat name such as ``p2``).
    ``default`` may be a function of the player count (Corporation's target is 2n²).
    ``check`` returns an error message for a value that parses but is not allowed.
    """

    name: str
    help: str
    kind: Any
    default: Any = None
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[Any, ...] | None = None
    nullable: bool = False
    check: Callable[[Any, int], str | None] | None = None

    def __copy__(self) -> Option:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Option:
        # Immutable, and a compiled (mypyc) frozen dataclass cannot be rebuilt field by
        # field: a copy (e.g. OpenSpiel deep-copying an adapter) shares it.
        return self

    def default_for(self, num_players: int) -> Any:
        return self.default(num_players) if callable(self.default) else self.default

    def describe_default(self) -> str:
        if callable(self.default):
            doc = (self.default.__doc__ or "depends on the player count").strip()
            return doc
        return "random" if self.default is None and self.nullable else repr(self.default)

    def parse(self, raw: Any) -> Any:
        """Turn a command-line string (or a JSON value) into the option's value."""
        if raw is None or (isinstance(raw, str) and raw.strip().lower() in {"none", "random", ""}):
            if self.nullable:
                return None
            raise OptionError(f"option {self.name} needs a value")
        if self.kind is bool:
            if isinstance(raw, bool):
                return raw
            text = str(raw).strip().lower()
            if text in _TRUE:
                return True
            if text in _FALSE:
                return False
            raise OptionError(f"option {self.name} is yes/no, not {excerpt(raw)}")
        if self.kind is int:
            return self._parse_int(raw)
        if self.kind == "seat":
            text = str(raw).strip().lower() if isinstance(raw, str | int) else ""
            if text.isdigit():
                text = f"p{text}"
            if not (text.startswith("p") and text[1:].isdigit() and len(text) <= 4):
                raise OptionError(f"option {self.name} is a seat such as p1, not {excerpt(raw)}")
            return text
        if not isinstance(raw, str):
            raise OptionError(f"option {self.name} is text, not {excerpt(raw)}")
        return raw

    def _parse_int(self, raw: Any) -> int:
        """A whole number: ``3``, ``"3"`` or ``3.0`` — never ``1.5`` cut to 1, nor
        ``Infinity``, ``NaN``, ``true`` or a number too long to be meant."""
        bad = OptionError(f"option {self.name} is a whole number, not {excerpt(raw)}")
        if isinstance(raw, bool):
            raise bad
        if isinstance(raw, float):
            if not math.isfinite(raw) or not raw.is_integer():
                raise bad
            raw = int(raw)
        elif isinstance(raw, str):
            text = raw.strip()
            digits = text[1:] if text[:1] in "+-" else text
            if not digits.isascii() or not digits.isdigit() or len(digits) > _MAX_DIGITS:
                raise bad
            raw = int(text)
        if not isinstance(raw, int):
            raise bad
        if abs(raw) >= 10**_MAX_DIGITS:
            raise OptionError(f"option {self.name} is far too large ({excerpt(raw, 20)})")
        return raw

    def validate(self, value: Any, num_players: int) -> None:
        if value is None:
            if not self.nullable:
                raise OptionError(f"option {self.name} needs a value")
            return
        if self.minimum is not None and value < self.minimum:
            raise OptionError(f"option {self.name}={value} is below the minimum {self.minimum}")
        if self.maximum is not None and value > self.maximum:
            raise OptionError(f"option {self.name}={value} is above the maximum {self.maximum}")
        if self.choices is not None and value not in self.choices:
            allowed = ", ".join(map(str, self.choices))
            raise OptionError(f"option {self.name}={value!r} is not one of {allowed}")
        if self.kind == "seat":
            seat = int(value[1:])
            if not 1 <= seat <= num_players:
                raise OptionError(
                    f"option {self.name}={value}: there is no such seat with {num_players} players"
                )
        if self.check is not None:
            problem = self.check(value, num_players)
            if problem:
                raise OptionError(f"option {self.name}={value!r}: {problem}")


@dataclass(frozen=True)
class GameInfo:
    """What every layer needs to know about a game before creating a state."""

    name: str
    title: str
    version: int
    min_players: int
    max_players: int
    default_players: int
    summary: str
    simultaneous: bool = False
    hidden_information: bool = True
    lower_is_better: bool = False
    score_unit: str = "points"
    options: tuple[Option, ...] = field(default_factory=tuple)

    def __copy__(self) -> GameInfo:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> GameInfo:
        return self  # immutable; see Option.__deepcopy__

    def option(self, name: str) -> Option:
        for opt in self.options:
            if opt.name == name:
                return opt
        known = ", ".join(o.name for o in self.options) or "none"
        raise OptionError(f"{self.name} has no option {excerpt(name)!r} (its options: {known})")

    def check_players(self, num_players: int) -> None:
        if not self.min_players <= num_players <= self.max_players:
            span = (
                f"{self.min_players}"
                if self.min_players == self.max_players
                else f"{self.min_players}–{self.max_players}"
            )
            raise OptionError(f"{self.title} is for {span} players, not {num_players}")

    def resolve_options(self, num_players: int, given: Mapping[str, Any] | None) -> dict[str, Any]:
        """Every option with its value: given ones parsed and checked, the rest defaulted."""
        self.check_players(num_players)
        given = dict(given or {})
        resolved: dict[str, Any] = {}
        for key in given:
            self.option(key)  # raises for an unknown option
        for opt in self.options:
            value = (
                opt.parse(given[opt.name]) if opt.name in given else opt.default_for(num_players)
            )
            opt.validate(value, num_players)
            resolved[opt.name] = value
        return resolved

    def players_text(self) -> str:
        if self.min_players == self.max_players:
            return str(self.min_players)
        return f"{self.min_players}–{self.max_players}"


def parse_option_pairs(pairs: list[str] | None) -> dict[str, str]:
    """``["k=v", …]`` from the command line into a dict, with a clear error for a bad pair."""
    out: dict[str, str] = {}
    for pair in pairs or []:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise OptionError(f"options are written key=value, not {excerpt(pair)}")
        out[key.strip()] = value.strip()
    return out
