"""The card table as a Textual widget: any game's :class:`~decklab.engine.layout.Table`.

Nothing here knows a game. The table is drawn on one canvas: rows of framed
zones of boxed cards (:func:`decklab.play.tui.draw.draw_table`), or on a small
terminal one line per card (:func:`decklab.play.tui.compact.compact_table`), as
the screen's :func:`decklab.play.tui.fit.choose` decides, wrapped to the width
of the view. A click is mapped back through the drawing to the key
of the card (or else the zone) under the pointer and comes out as
:class:`Picked`. One widget for the whole table keeps each redraw to a single
render, which matters on a slow machine when bots move quickly.
"""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.geometry import Region
from textual.message import Message
from textual.widget import Widget

from decklab.engine.layout import Table
from decklab.play.tui import fit as fit_module
from decklab.play.tui.draw import Drawing
from decklab.play.tui.fit import Fit, Style, draw


class Picked(Message):
    """A card or a zone with a key was clicked."""

    def __init__(self, key: str) -> None:
        super().__init__()
        self.key = key


class TableCanvas(Widget):
    """The drawn table; its size is the drawing's."""

    DEFAULT_CSS = """
    TableCanvas { width: auto; height: auto; }
    """

    def __init__(self) -> None:
        super().__init__()
        self.drawing = Drawing([Text("")])

    def set_drawing(self, drawing: Drawing) -> None:
        resized = (drawing.width, drawing.height) != (self.drawing.width, self.drawing.height)
        self.drawing = drawing
        self.refresh(layout=resized)

    def render(self) -> Text:
        return self.drawing.text()

    def get_content_width(self, container: object, viewport: object) -> int:
        return self.drawing.width

    def get_content_height(self, container: object, viewport: object, width: int) -> int:
        return self.drawing.height

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        key = self.drawing.key_at(offset.x, offset.y)
        if key:
            event.stop()
            self.post_message(Picked(key))


class TableView(VerticalScroll):
    """The whole table, scrolled when it is taller than the screen. :meth:`show` draws it,
    boxed or one line per card as the screen's :class:`~decklab.play.tui.fit.Fit` says."""

    DEFAULT_CSS = """
    TableView { padding: 0 1; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.table: Table | None = None
        self.playable: set[str] = set()
        self.selected: set[str] = set()
        self.canvas = TableCanvas()
        self.style: Style = "full"
        self.fit: Fit | None = None
        self._width = 0

    def compose(self) -> ComposeResult:
        yield self.canvas

    @property
    def drawing(self) -> Drawing:
        return self.canvas.drawing

    def show(
        self, table: Table, playable: set[str], selected: set[str], fit: Fit | None = None
    ) -> None:
        """Draw ``table``; ``fit`` (the screen's choice) gives the style and a drawing
        made for the width this view is about to have."""
        self.table, self.playable, self.selected = table, set(playable), set(selected)
        self.fit = fit
        if fit is not None:
            self.style = fit.style
            self._width = fit.room.width
            self._set(fit.drawing)
        else:
            self._redraw()

    def _available(self) -> int:
        """The columns to draw in: the view's, less one, and less the scroll bar when
        the table is known not to fit (a scroll bar that comes and goes with the
        drawing's height must not change the width it is drawn at)."""
        width = self.content_region.width
        if not width:
            return self._width or max(30, self.app.size.width - 46)
        if self.fit is not None and not self.fit.fits:
            width -= fit_module.SCROLLBAR
        return max(20, width - 1)

    def _redraw(self) -> None:
        """Draw again at the width this view has now."""
        if self.table is None:
            return
        self._width = self._available()
        self._set(draw(self.table, self.style, self._width, self.playable, self.selected))

    def _set(self, drawing: Drawing) -> None:
        self.canvas.set_drawing(drawing)
        self.call_after_refresh(self.keep_playable_in_view)

    def playable_rows(self) -> tuple[int, int] | None:
        """The rows of the drawing that hold what can be played now: the viewer's own
        zones with playable cards (the hand) if any, else the zones with playable cards
        (a card to place), else the zones that can be chosen; None if nothing is."""
        zones = self.drawing.zones
        with_cards = [
            box
            for box in zones
            if any(c.select_key in self.playable for c in box.zone.cards if c.select_key)
        ]
        keyed = [box for box in zones if box.zone.key and box.zone.key in self.playable]
        viewer = self.table.viewer if self.table is not None else None
        own = [b for b in with_cards if viewer is not None and b.zone.owner == viewer]
        rows = [(b.y0, b.y1) for b in (own or with_cards or keyed)]
        if not rows:
            return None
        return min(r[0] for r in rows), max(r[1] for r in rows)

    def keep_playable_in_view(self) -> None:
        """On a small terminal the table scrolls: keep the playable part (the hand) on
        screen rather than the top of the table."""
        rows = self.playable_rows()
        if rows is None:
            return
        top, bottom = rows
        self.scroll_to_region(
            Region(0, top, 1, bottom - top + 1), animate=False, immediate=True, top=False
        )

    def on_resize(self, event: events.Resize) -> None:
        # After the layout pass that resized this view: a size change asked for in the
        # middle of one is lost, and the canvas would keep its old height.
        self.call_after_refresh(self._fit_width)

    def _fit_width(self) -> None:
        if self.table is not None and self._available() != self._width:
            self._redraw()
