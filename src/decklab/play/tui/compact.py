"""The table drawn one line per card, for terminals too small for boxed cards.

The boxed drawing (:mod:`decklab.play.tui.draw`) gives each card 5 columns by 3
lines, which cannot hold a 4×4 grid and four players' hands in an 80×24
terminal. Here a card is a chip of text one line high, with the same inks,
suit shapes and backs::

    [7♥]  [10♠]  [░░]  (7♦)  [  ]  [░░]×9
    face         back  known, face down  empty place  nine backs

A highlighted card is underlined with bold edges, a card some legal action
mentions has teal edges, a selected one is drawn in reverse, so that a
16-colour terminal or ``NO_COLOR`` still tells them apart. A zone is its
caption (``Hand:``) followed by its chips, wrapped to the width it is given,
and a row of zones flows left to right, one band of the table after another:
either under a title line (``roomy``) or with the title in front (``dense``),
which is what fits the most in the fewest lines.

Like the boxed drawing it draws any game's :class:`~decklab.engine.layout.Table`
and records where each card and zone is, so a click still narrows the actions.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.cells import cell_len
from rich.style import Style

from decklab.engine.layout import Card, Row, Table, Zone
from decklab.play.tui.draw import (
    BACK,
    EMPTY,
    FACE,
    HIGHLIGHT_BORDER,
    NOTE,
    PLAYABLE_BORDER,
    ROW_ACTING,
    ROW_FRAME,
    SUIT_COLOURS,
    TITLE,
    ZONE_HIGHLIGHT,
    ZONE_PLAYABLE,
    ZONE_SELECTED,
    Drawing,
    ZoneBox,
    _Canvas,
    symbol,
    zone_title,
)

RUN = 3
"""This many unknown backs in a row or more are drawn as one chip and a count."""
ZONE_GAP = 2
INDENT = 2

Keys = set[str] | frozenset[str]


def chip_face(c: Card) -> str:
    """What a chip shows between its edges: ``7♥``, ``10♠``, ``8``, ``░░`` or blanks."""
    if c.empty:
        return ""
    if not c.up and not c.known:
        return "░░"
    return c.rank + symbol(c.suit)


def _inner(cards: list[Card]) -> int:
    """The width between the edges, the same for every chip of a zone so that they align."""
    return max([2, *(cell_len(chip_face(c)) for c in cards)])


def chip(c: Card, inner: int, playable: bool, selected: bool) -> list[tuple[str, Style]]:
    """A card as styled segments, ``inner + 2`` cells wide: edges and face."""
    face = chip_face(c)
    if c.empty:
        body = EMPTY
        text = " " * inner
    elif not c.up and not c.known:
        body = BACK
        text = "░" * inner
    else:
        body = FACE if c.up else BACK
        text = face.rjust(inner) if not c.suit else face.ljust(inner)
    ink = body
    if c.known and c.up:
        ink = body + Style(color=SUIT_COLOURS.get(c.suit, SUIT_COLOURS[""]), bold=True)
    elif c.known:  # remembered face-down: drawn on the back, as in the boxed drawing
        ink = body + Style(bold=True)
    edge = body
    opening, closing = ("(", ")") if (not c.up and c.known) else ("[", "]")
    if c.highlight:
        ink = ink + Style(underline=True)
        edge = edge + (HIGHLIGHT_BORDER if c.empty else Style(bold=True))
    if playable:
        edge = edge + PLAYABLE_BORDER
    if selected:
        ink = ink + Style(reverse=True)
        edge = edge + Style(reverse=True)
    return [(opening, edge), (text, ink), (closing, edge)]


@dataclass
class _Piece:
    """One thing drawn in a zone: a card (or a run of backs) and its label."""

    card: Card
    label: str
    count: int = 1


def _pieces(zone: Zone) -> list[_Piece]:
    cards = list(zone.cards) or [Card("")]
    if zone.spread == "stack":
        cards = cards[:1]
    out: list[_Piece] = []
    for c in cards:
        plain_back = not c.known and not c.empty and not c.label and not c.select_key
        last = out[-1] if out else None
        if (
            plain_back
            and last is not None
            and not last.label
            and last.card == c
            and zone.spread != "grid"
        ):
            last.count += 1
        else:
            out.append(_Piece(c, c.label[:3]))
    # Short runs read better as the backs themselves.
    spread: list[_Piece] = []
    for p in out:
        if 1 < p.count < RUN:
            spread.extend(_Piece(p.card, p.label) for _ in range(p.count))
        else:
            spread.append(p)
    return spread


def _piece_width(p: _Piece, inner: int, label_w: int) -> int:
    return inner + 2 + label_w + (len(f"×{p.count}") if p.count > 1 else 0)


def _widths(zone: Zone, pieces: list[_Piece]) -> tuple[int, list[int], int]:
    """(inner width of the chips, each piece's width, the gap between pieces)."""
    inner = _inner([p.card for p in pieces])
    label_w = max((cell_len(p.label) for p in pieces), default=0)
    gap = 1 if zone.spread in ("row", "grid") or label_w else 0
    grid = zone.spread == "grid"
    widths = [_piece_width(p, inner, label_w if grid else cell_len(p.label)) for p in pieces]
    return inner, widths, gap


def _cards_canvas(zone: Zone, room: int, playable: Keys, selected: Keys) -> _Canvas:
    """The zone's chips, wrapped to ``room`` columns (a grid keeps its columns)."""
    canvas = _Canvas()
    pieces = _pieces(zone)
    inner, widths, gap = _widths(zone, pieces)
    columns = max(1, zone.columns or len(pieces)) if zone.spread == "grid" else 0
    x = y = 0
    for i, (p, w) in enumerate(zip(pieces, widths, strict=True)):
        if columns:
            if i and i % columns == 0:
                x, y = 0, y + 1
        elif x and x + w > room:
            x, y = 0, y + 1
        key = p.card.select_key
        cx = x
        for text, style in chip(p.card, inner, key in playable, key in selected):
            canvas.put(cx, y, text, style)
            cx += cell_len(text)
        if key:
            canvas.hits.append((x, y, cx, y + 1, key))
        if p.count > 1:
            canvas.put(cx, y, f"×{p.count}", NOTE)
            cx += len(f"×{p.count}")
        if p.label:
            canvas.put(cx, y, p.label, NOTE)
        x += w + gap
    return canvas


def _caption_style(zone: Zone, playable: Keys, selected: Keys) -> Style:
    if zone.key is not None and zone.key in selected:
        return ZONE_SELECTED + Style(reverse=True)
    if zone.highlight:
        return ZONE_HIGHLIGHT + Style(underline=True)
    if zone.key is not None and zone.key in playable:
        return ZONE_PLAYABLE + TITLE
    return TITLE


def _zone_block(zone: Zone, room: int, playable: Keys, selected: Keys) -> _Canvas:
    """A zone as a block: ``Caption: chips note``, the chips wrapped under themselves
    (or under the caption when it leaves them too little room)."""
    block = _Canvas()
    title = zone_title(zone)
    if cell_len(title) + 2 > room:
        title = title[: max(1, room - 3)] + "…"
    caption = f"{title}: " if title else ""
    cap_w = cell_len(caption)
    widest = max(_widths(zone, _pieces(zone))[1])
    if cap_w and cap_w + widest > room:
        dx, dy = INDENT, 1
    else:
        dx, dy = cap_w, 0
    cards = _cards_canvas(zone, max(1, room - dx), playable, selected)
    if caption:
        block.put(0, 0, caption.rstrip(), _caption_style(zone, playable, selected))
    block.blit(cards, dx, dy)
    if zone.note:
        ch = cards.size[1]
        last_y = dy + ch - 1
        last_w = max((x for x, y in cards.cells if y == ch - 1), default=-1) + 1
        note_w = cell_len(zone.note)
        if dx + last_w + 1 + note_w <= room:
            block.put(dx + last_w + 1, last_y, zone.note, NOTE)
        else:
            block.put(dx, last_y + 1, zone.note[: max(1, room - dx)], NOTE)
    return block


def _row_title_style(row: Row) -> Style:
    if row.highlight:
        return ROW_ACTING + Style(bold=True, italic=True, underline=True)
    return Style(italic=True)


def compact_table(
    table: Table,
    width: int,
    playable: Keys = frozenset(),
    selected: Keys = frozenset(),
    *,
    dense: bool = False,
) -> Drawing:
    """The whole table one line per card, ``width`` columns wide.

    ``dense`` puts each row's title in front of its first zone instead of on a
    line of its own: one line fewer per row, for the smallest screens.
    """
    canvas = _Canvas()
    width = max(20, width)
    y = 0
    for row in table.rows:
        x = 0
        indent = INDENT if dense and row.title else 0
        if row.title and not dense:
            label = f"─ {row.title} "
            canvas.put(0, y, "─", ROW_FRAME)
            canvas.put(2, y, row.title[: width - 4], _row_title_style(row))
            rest = width - cell_len(label) - 1
            if rest > 0:
                canvas.put(cell_len(label), y, "─" * rest, ROW_FRAME)
            y += 1
        elif row.title:
            head = row.title
            if cell_len(head) > width // 2:
                head = head[: max(1, width // 2 - 1)] + "…"
            canvas.put(0, y, head, _row_title_style(row))
            canvas.put(cell_len(head), y, " │", ROW_FRAME)
            x = cell_len(head) + 3
        top = y
        line_h = 0
        placed = False
        for z in row.zones:
            room = width - x
            block = _zone_block(z, 10_000, playable, selected)
            bw, bh = block.size
            if bw > room:
                # Wrap onto a new line, unless this is the first zone of its line (after
                # a row's title): then its own chips wrap where it stands.
                if placed:
                    top, x, line_h = top + max(line_h, 1), indent, 0
                    room = width - x
                block = _zone_block(z, room, playable, selected)
                bw, bh = block.size
            canvas.blit(block, x, top)
            canvas.zones.append(ZoneBox(x, top, x + bw, top + bh, z))
            placed = True
            line_h = max(line_h, bh)
            x += bw + ZONE_GAP
        y = top + max(line_h, 1)
    return canvas.drawing()
