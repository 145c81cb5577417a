"""The generic engine: the game interface, records, chance, options. It knows no game."""

from decklab.engine.chance import Rng
from decklab.engine.errors import (
    ChanceError,
    DecklabError,
    IllegalAction,
    OptionError,
    RecordError,
    SetupError,
)
from decklab.engine.info import GameInfo, Option, parse_option_pairs
from decklab.engine.registry import game_names, get_game, register
from decklab.engine.state import (
    ALL,
    CHANCE,
    GameState,
    Viewer,
    normalize_action_text,
    seat_index,
    seat_name,
)

__all__ = [
    "ALL",
    "CHANCE",
    "ChanceError",
    "DecklabError",
    "GameInfo",
    "GameState",
    "IllegalAction",
    "Option",
    "OptionError",
    "RecordError",
    "Rng",
    "SetupError",
    "Viewer",
    "game_names",
    "get_game",
    "normalize_action_text",
    "parse_option_pairs",
    "register",
    "seat_index",
    "seat_name",
]
