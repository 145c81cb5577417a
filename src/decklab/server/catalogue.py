"""The games this server offers, as the lobby's forms need them."""

from __future__ import annotations

from typing import Any

from decklab.engine.registry import game_names, get_game


def games_catalogue() -> list[dict[str, Any]]:
    """Every game with its players, dynamics and options spec, for the lobby's forms."""
    out = []
    for name in game_names():
        info = get_game(name).info
        out.append(
            {
                "name": info.name,
                "title": info.title,
                "version": info.version,
                "summary": info.summary,
                "min_players": info.min_players,
                "max_players": info.max_players,
                "default_players": info.default_players,
                "solo": info.max_players == 1,
                "simultaneous": info.simultaneous,
                "hidden_information": info.hidden_information,
                "lower_is_better": info.lower_is_better,
                "score_unit": info.score_unit,
                "options": [
                    {
                        "name": o.name,
                        "help": o.help,
                        "kind": o.kind if isinstance(o.kind, str) else o.kind.__name__,
                        "default": None if callable(o.default) else o.default,
                        "default_text": o.describe_default(),
                        "minimum": o.minimum,
                        "maximum": o.maximum,
                        "choices": list(o.choices) if o.choices is not None else None,
                        "nullable": o.nullable,
                    }
                    for o in info.options
                ],
            }
        )
    return out
