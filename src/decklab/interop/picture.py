"""The table as an RGB image, drawn with numpy from the game's layout (engine/layout.py).

For ``render_mode="rgb_array"`` (video recorders, SB3's ``make_vec_env``): a picture a
person can follow, not a faithful card face. Each row of the layout is a band; each
zone a framed box (yellow when highlighted); each card a rectangle: face up, a white
card with its suit's colour across the top and a bar as long as its rank; face down,
a dark blue back; an empty place, a grey outline. A pile shows a bar for its count.
Because the layout is made from the seat's view, the picture shows nothing more.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from decklab.engine.layout import Card, Table, Zone

Image = npt.NDArray[np.uint8]

WIDTH, HEIGHT = 640, 480
CARD_W, CARD_H = 22, 30
GAP = 4
TITLE = 6
"""Height of the strip above a zone's cards (its frame's top)."""

BACKGROUND = (20, 90, 50)
FRAME = (200, 200, 200)
HIGHLIGHT = (250, 210, 40)
FACE = (245, 245, 240)
BACK = (30, 50, 140)
EMPTY = (120, 140, 120)
SUITS = {
    "S": (30, 30, 30),
    "H": (200, 30, 30),
    "D": (230, 120, 20),
    "C": (20, 130, 40),
    "X": (130, 50, 170),
}
RANKS = "A23456789TJQK"


def _box(img: Image, x: int, y: int, w: int, h: int, colour: tuple[int, int, int]) -> None:
    """Fill a rectangle, clipped to the image."""
    x0, y0 = max(x, 0), max(y, 0)
    x1, y1 = min(x + w, img.shape[1]), min(y + h, img.shape[0])
    if x0 < x1 and y0 < y1:
        img[y0:y1, x0:x1] = colour


def _outline(img: Image, x: int, y: int, w: int, h: int, colour: tuple[int, int, int]) -> None:
    _box(img, x, y, w, 1, colour)
    _box(img, x, y + h - 1, w, 1, colour)
    _box(img, x, y, 1, h, colour)
    _box(img, x + w - 1, y, 1, h, colour)


def _card(img: Image, c: Card, x: int, y: int) -> None:
    if c.empty:
        _outline(img, x, y, CARD_W, CARD_H, EMPTY)
        return
    if not c.up or not c.known:
        _box(img, x, y, CARD_W, CARD_H, BACK)
        _outline(img, x, y, CARD_W, CARD_H, FACE)
        return
    _box(img, x, y, CARD_W, CARD_H, FACE)
    colour = SUITS.get(c.suit, (90, 90, 90))
    _box(img, x, y, CARD_W, 8, colour)
    rank = RANKS.find(c.rank[:1].upper()) + 1 if c.rank else 0
    if rank == 0 and c.rank.isdigit():
        rank = min(int(c.rank), 13)
    _box(img, x + 2, y + CARD_H - 6, max(1, (CARD_W - 4) * rank // 13), 4, colour)
    if c.highlight:
        _outline(img, x, y, CARD_W, CARD_H, HIGHLIGHT)


def _zone_size(z: Zone) -> tuple[int, int]:
    """(width, height) of the zone's box."""
    n = max(len(z.cards), 1)
    if z.spread == "grid" and z.columns > 0:
        cols, rows = min(z.columns, n), -(-n // z.columns)
        return GAP + cols * (CARD_W + GAP), TITLE + rows * (CARD_H + GAP) + GAP
    if z.spread == "column":
        return CARD_W + 2 * GAP, TITLE + CARD_H + (n - 1) * 8 + 2 * GAP
    if z.spread == "stack":
        return CARD_W + 2 * GAP, TITLE + CARD_H + 2 * GAP + 6
    step = CARD_W + GAP if z.spread == "row" else 10
    return 2 * GAP + CARD_W + (n - 1) * step, TITLE + CARD_H + 2 * GAP


def _zone(img: Image, z: Zone, x: int, y: int) -> None:
    w, h = _zone_size(z)
    _outline(img, x, y, w, h, HIGHLIGHT if z.highlight else FRAME)
    top = y + TITLE
    for i, c in enumerate(z.cards):
        if z.spread == "grid" and z.columns > 0:
            cx = x + GAP + (i % z.columns) * (CARD_W + GAP)
            cy = top + (i // z.columns) * (CARD_H + GAP)
        elif z.spread == "column":
            cx, cy = x + GAP, top + i * 8
        elif z.spread == "stack":
            cx, cy = x + GAP, top
        else:
            cx, cy = x + GAP + i * (CARD_W + GAP if z.spread == "row" else 10), top
        _card(img, c, cx, cy)
    if z.count:
        _box(img, x + GAP, top + CARD_H + 2, min(CARD_W, z.count), 3, FACE)


def draw(table: Table, width: int = WIDTH, height: int = HEIGHT) -> Image:
    """The table as a ``height × width × 3`` uint8 image (always that size: zones that
    do not fit are cut off, rows wrap at the right edge)."""
    img = np.empty((height, width, 3), dtype=np.uint8)
    img[:] = BACKGROUND
    y = GAP
    for row in table.rows:
        x = GAP
        row_h = 0
        if row.highlight:
            _box(img, 0, y, 2, 8, HIGHLIGHT)
        for z in row.zones:
            w, h = _zone_size(z)
            if x > GAP and x + w > width:
                x, y, row_h = GAP, y + row_h + GAP, 0
            _zone(img, z, x, y)
            x += w + GAP
            row_h = max(row_h, h)
        y += row_h + 2 * GAP
    return img
