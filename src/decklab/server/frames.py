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
from decklab.engine.state import GameState, Viewer, normalize_action_text, seat_name
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


class Views:
    """Each viewer's ``view`` of one state, made at most once.

    A table's state never changes once the table holds it (a move makes a new
    state), so the view a seat is sent, the one its layout is built from and the
    ones its log line is narrated from (this state's, and the next move's
    "before") are one and the same dict: building views was a large share of a
    busy server's work. Whoever reads them must not change them (layouts and
    story hooks only read; ``tests/server/test_frames_shared.py`` checks it for
    every game)."""

    __slots__ = ("_legal", "_made", "state")

    def __init__(self, state: GameState) -> None:
        self.state = state
        self._made: dict[Viewer, dict[str, Any]] = {}
        self._legal: dict[int, list[str]] = {}

    def of(self, viewer: Viewer) -> dict[str, Any]:
        made = self._made.get(viewer)
        if made is None:
            made = self._made[viewer] = self.state.view(viewer)
        return made

    def legal(self, seat: int) -> list[str]:
        """The canonical texts of ``seat``'s legal actions, in the engine's order (a fresh
        list; the texts are made once)."""
        texts = self._legal.get(seat)
        if texts is None:
            state = self.state
            texts = [state.action_to_string(seat, a) for a in state.legal_actions(seat)]
            self._legal[seat] = texts
        return list(texts)

    def parse(self, seat: int, text: str) -> int:
        """``state.parse_action(seat, text)``, found among the texts :meth:`legal` made for
        the seat's last frame instead of writing every legal action out again; anything
        not found there goes to the engine, which says why it is not legal."""
        state = self.state
        wanted = normalize_action_text(text)
        if wanted and seat in state.to_act():
            texts = self._legal.get(seat)
            if texts is None:
                self.legal(seat)
                texts = self._legal[seat]
            try:
                return state.legal_actions(seat)[texts.index(wanted)]
            except ValueError:
                pass
        return state.parse_action(seat, text)


def held_views(*held: Views) -> story.ViewOf:
    """``view_of`` for :func:`decklab.engine.story.narrate`: the views ``held`` keeps for
    its states, made afresh for any other state."""

    def view_of(state: GameState, viewer: Viewer) -> dict[str, Any]:
        for views in held:
            if views.state is state:
                return views.of(viewer)
        return state.view(viewer)

    return view_of


def log_for(state: GameState, entries: Sequence[Entry], viewer: Viewer) -> list[dict[str, Any]]:
    out = []
    for entry in entries:
        line = log_line(state, entry, viewer)
        if line is not None:
            out.append(line)
    return out


def game_part(
    state: GameState, viewer: Viewer, *, acting: bool = True, views: Views | None = None
) -> dict[str, Any]:
    """The game as ``viewer`` sees it: view, layout, legal actions, whose turn, result.

    A finished game also carries each seat's score taken apart
    (:func:`decklab.engine.story.score_breakdown`, built from ``viewer``'s view only).

    ``acting`` is False when the viewer's seat is being played by a bot (it may
    watch but not act until it takes the seat back). ``views``, if given, holds
    ``state``'s views (see :class:`Views`).
    """
    view = state.view(viewer) if views is None else views.of(viewer)
    to_act = state.to_act()
    legal: list[str] = []
    if acting and viewer is not None and viewer in to_act:
        if views is None:
            legal = [state.action_to_string(viewer, a) for a in state.legal_actions(viewer)]
        else:
            legal = views.legal(viewer)
    part: dict[str, Any] = {
        "view": view,
        "layout": table_function(type(state))(view).to_json(),
        "legal": legal,
        "to_act": [seat_name(s) for s in to_act],
        "terminal": not to_act,
    }
    if not to_act:
        part["result"] = state.result()
        part["breakdown"] = story.score_breakdown(state, viewer, view)
    return part


def ended_early(part: dict[str, Any], outcome: dict[str, Any]) -> dict[str, Any]:
    """:func:`game_part` of a game that ended before its rules did (a seat forfeited):
    nobody is to act, it is over, its result is the table's ``outcome``, and the line
    the layout shows says how it ended rather than whose turn it was."""
    layout = dict(part["layout"])
    reason = outcome.get("reason")
    if isinstance(reason, str):
        layout["status"] = reason
    return {
        **part,
        "layout": layout,
        "legal": [],
        "to_act": [],
        "terminal": True,
        "result": outcome,
    }
