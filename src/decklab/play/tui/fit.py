"""How the table fits the terminal: boxed or one-line cards, the panel beside or below.

A person should see the whole table and enough legal actions to choose from
without scrolling, on any terminal down to 80×24. The boxed drawing looks best
and is kept whenever it fits; otherwise the one-line drawing
(:mod:`decklab.play.tui.compact`) is tried, with the side panel (the actions
and the log) beside the table, then below it, where the table gets the whole
width. The first arrangement in that order that shows the whole table wins; if
none does, the one that hides the least, and the table scrolls to keep the
playable cards in view. The screen never goes back up that order while its
size stays the same (``start``): a table that grows and shrinks from move to
move would otherwise make the panel jump from the side to the bottom and back.

Pure arithmetic over the screen size and the drawings, so that the choice is
the same every time and can be tested without a terminal. The sizes here are
the ones the screen's CSS uses (:mod:`decklab.play.tui.app` builds its CSS
from them).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from decklab.engine.layout import Table
from decklab.play.tui.compact import compact_table
from decklab.play.tui.draw import Drawing, draw_table

Style = Literal["full", "roomy", "dense"]
"""``full``: boxed cards; ``roomy``: one-line cards under row titles; ``dense``:
one-line cards with each row's title in front."""

Keys = set[str] | frozenset[str]

SIDE_WIDTH = 40
SIDE_WIDTH_NARROW = 32
NARROW_BELOW = 110
"""Terminals narrower than this get the narrow side panel."""
SHORT_BELOW = 32
"""Terminals shorter than this get a shorter log and one status line."""
PANEL_BELOW = 7
"""Rows the panel keeps when it lies under the table: six actions and a line."""
TABLE_PADDING = 2
"""The table view's left and right padding."""
SCROLLBAR = 2
"""The width of the table's scroll bar, there only when the table does not fit."""


@dataclass(frozen=True)
class Room:
    """The cells the table may use in one arrangement."""

    width: int
    height: int
    below: bool


@dataclass(frozen=True)
class Fit:
    """The chosen arrangement: how to draw, where the panel goes, and the drawing."""

    style: Style
    below: bool
    room: Room
    drawing: Drawing
    rank: int = 0
    """Its place in :data:`ORDER`."""

    @property
    def fits(self) -> bool:
        return self.drawing.height <= self.room.height and self.drawing.width <= self.room.width


def narrow(width: int) -> bool:
    return width < NARROW_BELOW


def short(height: int) -> bool:
    return height < SHORT_BELOW


def room(width: int, height: int, *, below: bool) -> Room:
    """The table's cells on a ``width`` × ``height`` screen, the panel beside or below.

    The screen is a header line, the table and the panel, the status (one line on
    a short screen, two otherwise) and the footer line. The last column is kept
    free, as the table view does, for a scroll bar's edge.
    """
    body = height - 2 - (1 if short(height) else 2)
    if below:
        return Room(width - TABLE_PADDING - 1, body - PANEL_BELOW, True)
    side = SIDE_WIDTH_NARROW if narrow(width) else SIDE_WIDTH  # its border included
    return Room(width - side - TABLE_PADDING - 1, body, False)


def draw(
    table: Table,
    style: Style,
    width: int,
    playable: Keys = frozenset(),
    selected: Keys = frozenset(),
) -> Drawing:
    """The table drawn in ``style`` at ``width`` columns."""
    if style == "full":
        return draw_table(table, width, playable, selected)
    return compact_table(table, width, playable, selected, dense=style == "dense")


ORDER: tuple[tuple[Style, bool], ...] = (
    ("full", False),
    ("full", True),
    ("roomy", False),
    ("dense", False),
    ("roomy", True),
    ("dense", True),
)
"""The arrangements in order of preference: (style, panel below). Boxed cards
first; then one-line cards with the panel beside, so that it moves below once
at most."""


def choose(
    table: Table,
    width: int,
    height: int,
    playable: Keys = frozenset(),
    selected: Keys = frozenset(),
    *,
    start: int = 0,
) -> Fit:
    """The first arrangement of :data:`ORDER` from ``start`` on in which the whole
    table shows, else the one that leaves the fewest rows out of sight (the densest
    on a tie)."""
    best: Fit | None = None
    for rank in range(min(max(0, start), len(ORDER) - 1), len(ORDER)):
        style, below = ORDER[rank]
        where = room(width, height, below=below)
        if where.width < 20 or where.height < 3:
            continue
        drawing = draw(table, style, where.width, playable, selected)
        fit = Fit(style, below, where, drawing, rank)
        if fit.fits:
            return fit
        if best is None or _hidden(fit) <= _hidden(best):
            best = fit
    if best is None:  # a tiny screen: densely, beside the panel
        rank = ORDER.index(("dense", False))
        best = Fit("dense", False, room(width, height, below=False), Drawing(), rank)
    # It scrolls: draw it again beside the scroll bar.
    where = best.room
    where = Room(max(20, where.width - SCROLLBAR), where.height, where.below)
    drawing = draw(table, best.style, where.width, playable, selected)
    return Fit(best.style, best.below, where, drawing, best.rank)


def _hidden(fit: Fit) -> int:
    over_h = max(0, fit.drawing.height - fit.room.height)
    over_w = max(0, fit.drawing.width - fit.room.width)
    return over_h * fit.room.width + over_w * fit.drawing.height
