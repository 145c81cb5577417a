"""What a viewer is sent: built only from what that viewer may know.

Every frame a seat receives comes from here: the seat's ``view``, the layout the
game builds from that view, the canonical strings of the seat's legal actions,
log lines redacted for the seat (:mod:`.logline`), and public table facts
(seats, clocks). Nothing else of the state is read, which is what the no-leak
tests check: frames are byte-identical when only cards hidden from the seat differ.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import orjson

from decklab.engine import story
from decklab.engine.layout import table_function
from decklab.engine.state import GameState, Viewer, seat_name
from decklab.server.logline import Entry, log_line


def encode(frame: dict[str, Any]) -> str:
    """The one JSON encoding of every frame (compact, stable key order, UTF-8).

    orjson writes the same text as ``json.dumps(frame, ensure_ascii=False,
    separators=(",", ":"))`` about ten times faster — encoding was a tenth of a busy
    server's work; the standard library takes over for what orjson refuses (an
    integer beyond 64 bits, a lone surrogate)."""
    try:
        return orjson.dumps(frame, option=orjson.OPT_NON_STR_KEYS).decode()
    except TypeError:
        return json.dumps(frame, ensure_ascii=False, separators=(",", ":"))


def log_for(state: GameState, entries: Sequence[Entry], viewer: Viewer) -> list[dict[str, Any]]:
    out = []
    for entry in entries:
        line = log_line(state, entry, viewer)
        if line is not None:
            out.append(line)
    return out


def game_part(state: GameState, viewer: Viewer, *, acting: bool = True) -> dict[str, Any]:
    """The game as ``viewer`` sees it: view, layout, legal actions, whose turn, result.

    A finished game also carries each seat's score taken apart
    (:func:`decklab.engine.story.score_breakdown`, built from ``viewer``'s view only).

    ``acting`` is False when the viewer's seat is being played by a bot (it may
    watch but not act until it takes the seat back).
    """
    view = state.view(viewer)
    to_act = state.to_act()
    legal: list[str] = []
    if acting and viewer is not None and viewer in to_act:
        legal = [state.action_to_string(viewer, a) for a in state.legal_actions(viewer)]
    part: dict[str, Any] = {
        "view": view,
        "layout": table_function(type(state))(view).to_json(),
        "legal": legal,
        "to_act": [seat_name(s) for s in to_act],
        "terminal": not to_act,
    }
    if not to_act:
        part["result"] = state.result()
        part["breakdown"] = story.score_breakdown(state, viewer)
    return part
