"""Choosing games for tests by what they are, never by name."""

from __future__ import annotations

from collections.abc import Callable

from decklab.engine.info import GameInfo
from decklab.engine.registry import game_names, get_game


def pick(wanted: Callable[[GameInfo], bool]) -> str:
    for name in game_names():
        if wanted(get_game(name).info):
            return name
    raise LookupError("no game fits")


def two_player() -> str:
    """A sequential game for two: the simplest table with two people."""
    return pick(lambda i: i.min_players <= 2 <= i.max_players and not i.simultaneous)


def solo() -> str:
    return pick(lambda i: i.max_players == 1)


def simultaneous() -> str:
    """A game whose seats choose at once, face down."""
    return pick(lambda i: i.simultaneous)
