"""The JSON types of a new table's options, checked against the game's options spec.

The engine parses options leniently because the command line hands it text
(``decklab play -o target=60``); a JSON client has types, so ``"5"`` where a whole
number is expected is a mistake to point out, not a string to convert. The check
reads only the generic spec (``cls.info.options``): no game is named here.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from decklab.engine.errors import OptionError, excerpt
from decklab.engine.registry import get_game
from decklab.server.errors import ServiceError

KINDS: dict[Any, tuple[str, tuple[type, ...]]] = {
    int: ("a whole number", (int,)),
    bool: ("true or false", (bool,)),
    str: ("text", (str,)),
    "seat": ('a seat such as "p2"', (str,)),
}
"""Per option kind: how to say it, and the JSON types that may hold it."""


def check_option_types(game: str, options: Mapping[str, Any]) -> None:
    """Refuse an option whose JSON type is not its kind's (a 400 ``bad_option``).

    An unknown game or option, and values out of range, are left to the service,
    which answers them as it does for every caller."""
    try:
        info = get_game(game).info
    except KeyError:
        return
    for name, value in options.items():
        try:
            option = info.option(name)
        except OptionError:
            continue
        if value is None:
            continue
        said, types = KINDS.get(option.kind, ("text", (str,)))
        if not isinstance(value, types) or (bool not in types and isinstance(value, bool)):
            raise ServiceError(
                "bad_option", f"option {option.name} is {said}, not {excerpt(json.dumps(value))}"
            )
