"""Cards drawn as small boxes of text, for any game's :class:`~decklab.engine.layout.Zone`.

Pure Rich (no Textual), so the drawing can be tested and reused. A card is 5
columns by 3 lines::

    ╭───╮  ╭───╮  ╭┄┄┄╮  ┌┄┄┄┐
    │10♥│  │░░░│  ┆7♦ ┆  ┆   ┆
    ╰───╯  ╰───╯  ╰┄┄┄╯  └┄┄┄┘
    face   back   face down, but known   empty place

Suits differ by shape first (♠♥♦♣★ are always drawn) and by colour second (a
four-colour deck: black spades, red hearts, blue diamonds, green clubs, purple
stars), so a 16-colour terminal or ``NO_COLOR`` still tells them apart. A
highlighted card gets a heavy border, a card that some legal action mentions a
teal border, a selected card is drawn in reverse.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text

from decklab.cards import SUIT_LETTERS, SUIT_SYMBOLS
from decklab.engine.layout import Card, Table, Zone

WIDTH = 5
HEIGHT = 3
GAP = 1
FAN_STEP = 4

# Explicit colours (not the terminal's named ones, which themes repaint): dark inks on
# an ivory face, so they keep their contrast when a terminal has only 16 colours (they
# fall to black, red, blue, green, magenta) or none at all (NO_COLOR: shades of grey).
SUIT_COLOURS = {
    "S": "#1a1a1a",
    "H": "#c8102e",
    "D": "#1f4fbf",
    "C": "#1b7a33",
    "X": "#8a2be2",
    "": "#1a1a1a",
}
FACE = Style(color="#404040", bgcolor="#f4f1e8")
BACK = Style(color="#dfe6ff", bgcolor="#2b4a8b")
EMPTY = Style(color="#7a7a7a")
PLAYABLE_BORDER = Style(color="#0a8fa0", bold=True)
HIGHLIGHT_BORDER = Style(color="#e0a000", bold=True)

_ROUND = ("╭", "─", "╮", "│", "╰", "╯")
_HEAVY = ("┏", "━", "┓", "┃", "┗", "┛")
_DASHED = ("╭", "┄", "╮", "┆", "╰", "╯")
_EMPTY = ("┌", "┄", "┐", "┆", "└", "┘")


@dataclass
class ZoneBox:
    """Where a zone was drawn on the table: its box, border included."""

    x0: int
    y0: int
    x1: int
    y1: int
    zone: Zone


@dataclass
class Drawing:
    """Lines of styled text and what is where in them.

    ``hits`` are the cards' boxes ``(x0, y0, x1, y1, key)``; ``zones`` the zones'
    boxes, so that a click anywhere in a zone can fall back to the zone's key.
    """

    lines: list[Text] = field(default_factory=list)
    hits: list[tuple[int, int, int, int, str]] = field(default_factory=list)
    zones: list[ZoneBox] = field(default_factory=list)

    @property
    def width(self) -> int:
        return max((line.cell_len for line in self.lines), default=0)

    @property
    def height(self) -> int:
        return len(self.lines)

    def text(self) -> Text:
        return Text("\n").join(self.lines)

    def key_at(self, x: int, y: int) -> str | None:
        """The key of the card drawn at (x, y) (upper cards win), else of the zone there."""
        for x0, y0, x1, y1, key in reversed(self.hits):
            if x0 <= x < x1 and y0 <= y < y1:
                return key
        for box in self.zones:
            if box.x0 <= x < box.x1 and box.y0 <= y < box.y1:
                return box.zone.key
        return None

    def box_of(self, zone: Zone) -> ZoneBox:
        for box in self.zones:
            if box.zone is zone:
                return box
        raise LookupError(f"zone {zone.title!r} is not drawn")


def symbol(suit: str) -> str:
    return SUIT_SYMBOLS[SUIT_LETTERS.index(suit)] if suit else ""


def face_text(c: Card) -> str:
    """What a face shows in its 3 columns: ``10♥``, ``K♠ ``, `` 5 ``."""
    shown = c.rank + symbol(c.suit)
    if not c.suit:
        return shown.center(3)[:3]
    return shown.ljust(3)[:3]


class _Canvas:
    """A grid of (char, style) cells, because fanned cards overlap."""

    def __init__(self) -> None:
        self.cells: dict[tuple[int, int], tuple[str, Style]] = {}
        self.hits: list[tuple[int, int, int, int, str]] = []

        self.zones: list[ZoneBox] = []

    def put(self, x: int, y: int, text: str, style: Style) -> None:
        for i, ch in enumerate(text):
            self.cells[(x + i, y)] = (ch, style)

    def blit(self, other: _Canvas, dx: int, dy: int) -> None:
        """Copy another canvas (a zone's cards) here, its hits moved along."""
        for (x, y), cell in other.cells.items():
            self.cells[(x + dx, y + dy)] = cell
        self.hits.extend((a + dx, b + dy, c + dx, d + dy, k) for a, b, c, d, k in other.hits)

    @property
    def size(self) -> tuple[int, int]:
        if not self.cells:
            return 0, 0
        return max(x for x, _ in self.cells) + 1, max(y for _, y in self.cells) + 1

    def box(self, x: int, y: int, w: int, h: int, glyphs: tuple[str, ...], style: Style) -> None:
        """A frame of ``w`` × ``h`` cells with its top-left corner at (x, y)."""
        tl, hz, tr, v, bl, br = glyphs
        self.put(x, y, tl + hz * (w - 2) + tr, style)
        for yy in range(y + 1, y + h - 1):
            self.put(x, yy, v, style)
            self.put(x + w - 1, yy, v, style)
        self.put(x, y + h - 1, bl + hz * (w - 2) + br, style)

    def drawing(self) -> Drawing:
        if not self.cells:
            return Drawing([Text("")], [], [])
        width, height = self.size
        lines = []
        blank = (" ", Style())
        for y in range(height):
            # One span per run of equal style: far fewer segments for the terminal to draw.
            line = Text()
            run: list[str] = []
            run_style: Style | None = None
            for x in range(width):
                ch, style = self.cells.get((x, y), blank)
                if style != run_style and run:
                    line.append("".join(run), run_style)
                    run = []
                run_style = style
                run.append(ch)
            if run:
                line.append("".join(run), run_style)
            line.rstrip()
            lines.append(line)
        return Drawing(lines, self.hits, self.zones)


def _styles(c: Card, playable: bool, selected: bool) -> tuple[Style, Style, tuple[str, ...]]:
    """(body style, border style, border glyphs) of a card."""
    if c.empty:
        body, glyphs = EMPTY, _EMPTY
    elif not c.up:
        body, glyphs = BACK, (_DASHED if c.known else _ROUND)
    else:
        body, glyphs = FACE, _ROUND
    border = body
    if c.highlight:
        glyphs = _HEAVY if glyphs is _ROUND else glyphs
        border = body + HIGHLIGHT_BORDER if c.empty else body + Style(bold=True)
    if playable:
        border = border + PLAYABLE_BORDER
    if selected:
        body = body + Style(reverse=True)
        border = border + Style(reverse=True)
    return body, border, glyphs


def _content(c: Card, body: Style) -> list[tuple[str, Style]]:
    """The three middle cells of a card, each with its style."""
    if c.empty:
        return [("   ", body)]
    if not c.up and not c.known:
        return [("░░░", body)]
    text = face_text(c)
    suit_style = body + Style(color=SUIT_COLOURS.get(c.suit, SUIT_COLOURS[""]), bold=True)
    if not c.up:  # known face-down: remembered, drawn on the back
        suit_style = body + Style(bold=True)
    return [(text, suit_style)]


def draw_card(
    canvas: _Canvas,
    x: int,
    y: int,
    c: Card,
    *,
    marks: tuple[bool, bool] = (False, False),
    width: int = WIDTH,
    lines: tuple[int, ...] = (0, 1, 2),
    edge_rank: bool = False,
) -> None:
    """Draw ``c`` with its top-left at (x, y), ``marks`` saying (playable, selected):
    only the first ``width`` columns (a
    fanned card under the next), only some of its ``lines`` (a card in a column);
    ``edge_rank`` puts the rank into the top edge (the only line a covered card
    in a column shows)."""
    body, border, g = _styles(c, *marks)
    tl, h, tr, v, bl, br = g
    label = c.label[:3]
    rows: dict[int, list[tuple[str, Style]]] = {}
    if edge_rank and c.known:
        inner = face_text(c).rstrip().ljust(3, h)
        suit_style = _content(c, body)[0][1]
        rows[0] = [(tl, border), (inner, suit_style), (tr, border)]
    elif edge_rank:
        rows[0] = [(tl, border), (("░░░" if not c.empty else h * 3), body), (tr, border)]
    else:
        rows[0] = [(tl + h * 3 + tr, border)]
    rows[1] = [(v, border), *_content(c, body), (v, border)]
    rows[2] = [(bl, border), (label.ljust(3, h), border), (br, border)]
    for dy in lines:
        cx = x
        col = 0
        for text, style in rows[dy]:
            for ch in text:
                if col < width:
                    canvas.put(cx, y + dy - lines[0], ch, style)
                cx += 1
                col += 1


def draw_zone(
    zone: Zone, playable: set[str] | frozenset[str] = frozenset(), selected: set[str] | None = None
) -> Drawing:
    """Draw a zone's cards as its spread says; hits map boxes to the cards' keys."""
    return _zone_canvas(zone, playable, selected or set()).drawing()


def _zone_canvas(
    zone: Zone, playable: set[str] | frozenset[str], selected: set[str] | frozenset[str]
) -> _Canvas:
    chosen = selected
    canvas = _Canvas()
    cards = list(zone.cards)
    if not cards:
        cards = [Card("")]

    def flags(c: Card) -> tuple[bool, bool]:
        """(playable, selected): whether an action names the card, whether it is picked."""
        key = c.select_key
        return key in playable, key in chosen

    def hit(x0: int, y0: int, x1: int, y1: int, c: Card) -> None:
        key = c.select_key
        if key:
            canvas.hits.append((x0, y0, x1, y1, key))

    spread = zone.spread
    if spread == "stack":
        top = cards[0]
        if (zone.count or 0) > 1:  # a pile: the outline of the next card shows behind
            edge = Style(dim=True)
            canvas.put(WIDTH, 1, "╮", edge)
            canvas.put(WIDTH, 2, "│", edge)
            canvas.put(1, HEIGHT, "╰" + "─" * (WIDTH - 2) + "╯", edge)
        draw_card(canvas, 0, 0, top, marks=flags(top))
        hit(0, 0, WIDTH + 1, HEIGHT + 1, top)
    elif spread == "fan":
        for i, c in enumerate(cards):
            last = i == len(cards) - 1
            width = WIDTH if last else FAN_STEP
            draw_card(canvas, i * FAN_STEP, 0, c, width=width, marks=flags(c))
            hit(i * FAN_STEP, 0, i * FAN_STEP + width, HEIGHT, c)
    elif spread == "column":
        # A covered card shows one line, its top edge with its rank; labels go beside.
        for i, c in enumerate(cards):
            last = i == len(cards) - 1
            if c.label:
                canvas.put(WIDTH + 1, i + (1 if last else 0), c.label, Style(dim=True))
            if last:
                draw_card(canvas, 0, i, replace(c, label=""), marks=flags(c))
                hit(0, i, WIDTH, i + HEIGHT, c)
            else:
                draw_card(canvas, 0, i, c, lines=(0,), edge_rank=True, marks=flags(c))
                hit(0, i, WIDTH, i + 1, c)
    elif spread == "grid":
        columns = max(1, zone.columns or len(cards))
        for i, c in enumerate(cards):
            x = (i % columns) * (WIDTH + GAP)
            y = (i // columns) * HEIGHT
            draw_card(canvas, x, y, c, marks=flags(c))
            hit(x, y, x + WIDTH, y + HEIGHT, c)
    else:  # row
        for i, c in enumerate(cards):
            x = i * (WIDTH + GAP)
            draw_card(canvas, x, 0, c, marks=flags(c))
            hit(x, 0, x + WIDTH, HEIGHT, c)
    return canvas


def zone_title(zone: Zone) -> str:
    """The title drawn on a zone's border: with its count when the pile shows only part."""
    if zone.count is not None:
        return f"{zone.title} · {zone.count}"
    return zone.title


ZONE_FRAME = Style(color="#7a7a7a")
ZONE_HIGHLIGHT = Style(color="#e0a000", bold=True)
ZONE_SELECTED = Style(color="#20c0d8", bold=True)
ZONE_PLAYABLE = Style(color="#20a0b0")
ROW_FRAME = Style(color="#5a5a5a")
ROW_ACTING = Style(color="#e0a000")
TITLE = Style(bold=True)
NOTE = Style(dim=True)
_DOUBLE = ("╔", "═", "╗", "║", "╚", "╝")


def _frame_text(canvas: _Canvas, x: int, y: int, w: int, text: str, style: Style) -> None:
    """Write `` text `` into a frame's edge after its corner, shortened with … to fit."""
    room = w - 4
    if not text or room <= 0:
        return
    if cell_len(text) > room:
        text = text[: room - 1] + "…"
    canvas.put(x + 1, y, f" {text} ", style)


def draw_table(
    table: Table,
    width: int,
    playable: set[str] | frozenset[str] = frozenset(),
    selected: set[str] | frozenset[str] = frozenset(),
) -> Drawing:
    """The whole table on one canvas, ``width`` columns wide at most where it can be.

    Each row is a frame holding its zones side by side, wrapped onto more lines
    when they do not fit; each zone is a frame with its title on top and its
    note below. One canvas (rather than a widget per zone) keeps a redraw cheap:
    a move changes the table, and the table is drawn once.
    """
    canvas = _Canvas()
    y = 0
    for row in table.rows:
        parts = []
        for z in row.zones:
            inner = _zone_canvas(z, playable, selected)
            cw, ch = inner.size
            title, note = zone_title(z), z.note
            w = max(cw, cell_len(title) + 2, cell_len(note) + 2) + 4
            parts.append((z, inner, w, ch + 2))
        lines: list[list[tuple[Zone, _Canvas, int, int]]] = [[]]
        used = 2
        for part in parts:
            if lines[-1] and used + part[2] > width - 2:
                lines.append([])
                used = 2
            lines[-1].append(part)
            used += part[2] + 1
        top = y
        y += 1
        right = 0
        for line in lines:
            x = 2
            for z, inner, w, h in line:
                chosen = z.key is not None and z.key in selected
                style = ZONE_SELECTED if chosen else ZONE_HIGHLIGHT if z.highlight else ZONE_FRAME
                if not chosen and not z.highlight and z.key is not None and z.key in playable:
                    style = ZONE_PLAYABLE
                glyphs = _DOUBLE if chosen else _HEAVY if z.highlight else _ROUND
                canvas.box(x, y, w, h, glyphs, style)
                _frame_text(canvas, x, y, w, zone_title(z), style + TITLE)
                _frame_text(canvas, x, y + h - 1, w, z.note, NOTE)
                canvas.blit(inner, x + 2, y + 1)
                canvas.zones.append(ZoneBox(x, y, x + w, y + h, z))
                x += w + 1
            right = max(right, x)
            y += max(h for _, _, _, h in line) if line else 0
        frame_w = max(width, right + 1)
        row_style = ROW_ACTING if row.highlight else ROW_FRAME
        canvas.box(0, top, frame_w, y - top + 1, _ROUND, row_style)
        _frame_text(canvas, 0, top, frame_w, row.title, row_style + Style(italic=True))
        y += 1
    return canvas.drawing()
