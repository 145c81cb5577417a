"""Generic table layout: how a seat's view is laid out as cards on a table.

Every interface (the Textual table, later the web page) needs to draw the same
things for every game: cards face up or down, piles with a count, fanned hands,
grids, the seats around the table. A game says *where* its cards lie by turning
its ``view(seat)`` into a :class:`Table` in its own folder
(``decklab.games.<package>.layout.table``); an interface says *how* to draw
cards, and never needs to know which game it draws. Because a game's layout
function reads only the view, a table can never show a card the seat may not
see, and the whole table is JSON-ready (:meth:`Table.to_json`) for a browser.

Cards and zones carry *keys*: words that appear in the canonical text of the
actions that concern them (a card's ``TH``, a stack's ``s2``, a seat's ``p3``,
a cell's ``b2``). Clicking a card or a zone can then narrow the legal actions
to those that mention it, without the interface knowing what the words mean.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any, Literal, cast

from decklab import cards
from decklab.engine.gamecode import game_function

HIDDEN = cards.HIDDEN

Spread = Literal["row", "fan", "column", "stack", "grid"]
"""How a zone's cards lie.

``row``: side by side, apart (a supply, a hand laid out to choose from);
``fan``: overlapping left to right, the last card on top (a hand, a group, a pile
whose every card is known); ``column``: overlapping top to bottom, the last card
on top (a patience stack); ``stack``: a pile of which only the first card shows,
with ``count`` telling how many it holds; ``grid``: rows of ``columns`` cards.
"""

Arrange = Literal["band", "ring", "middle"]
"""Where a row sits on a round table, a hint for an interface that draws one.

``band``: across the table, in order (the default; every interface can draw
every row so). ``ring``: its zones are the seats around the table, in seating
order; all ring rows together make one ring, drawn where the first of them
comes, with the viewer's own zone (``owner`` = the table's viewer; for a
spectator, the first zone) at the bottom and the others clockwise from it. ``middle``: drawn inside the ring, in
the middle of the table. An interface without a round table (the terminal, a
phone-sized page) ignores the hint and draws the rows in order, so a layout
must read well both ways.
"""


@dataclass(frozen=True)
class Card:
    """One card, or one place for a card, as a seat sees it on the table.

    ``token`` is how the card is written in views and actions (``"TH"``, ``"5"``
    for a bare value, ``"??"`` for a card the seat cannot see, ``""`` for an empty
    place); ``rank`` and ``suit`` (a K1 suit letter or ``""``) are what a face
    shows. ``up`` is False for a card lying face down: if its token is known (the
    seat played it face down itself) an interface shows it as a remembered back.
    ``key`` is the word that selecting it matches in action texts (by default the
    token of a face-up card); ``label`` a short caption such as a round or a cell.
    """

    token: str
    rank: str = ""
    suit: str = ""
    up: bool = True
    key: str | None = None
    label: str = ""
    highlight: bool = False

    @property
    def empty(self) -> bool:
        """An empty place (a grid cell with no card, an unstarted stack)."""
        return self.token == "" and not self.rank and not self.suit

    @property
    def known(self) -> bool:
        """Whether the seat knows which card this is."""
        return self.token != HIDDEN and not self.empty

    @property
    def select_key(self) -> str | None:
        """The word that selecting this card matches in action texts, if any."""
        if self.key is not None:
            return self.key or None
        return self.token if self.up and self.known and self.token else None

    def to_json(self) -> dict[str, Any]:
        """The card as JSON (a fresh dict each time). Made once per card and kept on it:
        a card never changes, and the server lays out every viewer's table at every
        move, where these dicts were a tenth of its work."""
        made: dict[str, Any] | None = self.__dict__.get("_json")
        if made is None:
            made = {
                "token": self.token,
                "rank": self.rank,
                "suit": self.suit,
                "up": self.up,
                "key": self.select_key,
                "label": self.label,
                "highlight": self.highlight,
            }
            object.__setattr__(self, "_json", made)
        return made.copy()


_CARDS: dict[tuple[str | None, bool, str | None, str, bool], Card] = {}
_CARDS_KEPT = 1 << 16
"""How many distinct cards :func:`card` remembers (a bound, should labels be many)."""


def card(
    token: str | None,
    *,
    up: bool = True,
    key: str | None = None,
    label: str = "",
    highlight: bool = False,
) -> Card:
    """A card from its view text: K1 notation gives rank and suit, ``"??"`` a back,
    ``None`` or ``""`` an empty place, anything else a bare value (``"5"``).

    Cards are immutable, so the same arguments give the same (shared) card: a table is
    laid out for every viewer at every move, and parsing the same tokens again was
    much of that work."""
    wanted = (token, up, key, label, highlight)
    found = _CARDS.get(wanted)
    if found is None:
        found = _new_card(token, up, key, label, highlight)
        if len(_CARDS) < _CARDS_KEPT:
            _CARDS[wanted] = found
    return found


def _new_card(token: str | None, up: bool, key: str | None, label: str, highlight: bool) -> Card:
    if token is None or token == "":
        return Card("", up=up, key=key, label=label, highlight=highlight)
    if token == HIDDEN:
        return Card(HIDDEN, up=False, key=key, label=label, highlight=highlight)
    if cards.is_card_text(token) and not token.isdigit():
        c = cards.parse(token)
        rank = "10" if c & 15 == 10 else cards.RANK_LETTERS[(c & 15) - 1]
        return Card(
            token, rank, cards.SUIT_LETTERS[c >> 4], up, key=key, label=label, highlight=highlight
        )
    return Card(token, token, "", up, key=key, label=label, highlight=highlight)


def back(label: str = "", *, key: str | None = None) -> Card:
    """A face-down card the seat cannot see."""
    return card(HIDDEN, label=label, key=key)


def blank(*, key: str | None = None, label: str = "") -> Card:
    """An empty place for a card."""
    return card(None, key=key, label=label)


def suit_symbol(letter: str) -> str:
    """``"H"`` → ``"♥"``: for titles and status lines."""
    return cards.SUIT_SYMBOLS[cards.SUIT_LETTERS.index(letter)] if letter else ""


_DISPLAYED: dict[str, str] = {}


def display(token: str) -> str:
    """A card token as people read it (``TH`` → ``10♥``); other text unchanged."""
    shown = _DISPLAYED.get(token)
    if shown is None:
        shown = token
        if token and token != HIDDEN and cards.is_card_text(token) and not token.isdigit():
            shown = cards.to_display(cards.parse(token))
        if len(_DISPLAYED) < _CARDS_KEPT:
            _DISPLAYED[token] = shown
    return shown


@dataclass(frozen=True)
class Zone:
    """A place on the table: a pile, a hand, a group, a grid, a player's space.

    ``key`` is the word that selecting the zone matches in action texts (``"s1"``,
    ``"deep"``, ``"p3"``, ``"new"``), None if no action names it. ``count`` is
    how many cards a pile holds when not all are drawn (a face-down pile is one
    back and a count). ``owner`` is the seat it belongs to; ``note`` a short line
    such as a score; ``highlight`` marks where attention goes (the pile to play
    from, the seat to act).
    """

    title: str
    cards: tuple[Card, ...] = ()
    spread: Spread = "row"
    key: str | None = None
    columns: int = 0
    count: int | None = None
    owner: str | None = None
    note: str = ""
    highlight: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "title": self.title,
            "cards": [c.to_json() for c in self.cards],
            "spread": self.spread,
            "key": self.key,
            "columns": self.columns,
            "count": self.count,
            "owner": self.owner,
            "note": self.note,
            "highlight": self.highlight,
        }


@dataclass(frozen=True)
class Row:
    """Zones side by side: one seat's space, or a band of the table such as the supply."""

    zones: tuple[Zone, ...]
    title: str = ""
    owner: str | None = None
    highlight: bool = False
    arrange: Arrange = "band"
    """Where the row sits on a round table (:data:`Arrange`); a hint, free to ignore."""

    def to_json(self) -> dict[str, Any]:
        return {
            "title": self.title,
            "owner": self.owner,
            "highlight": self.highlight,
            "arrange": self.arrange,
            "zones": [z.to_json() for z in self.zones],
        }


@dataclass(frozen=True)
class Table:
    """The whole table from one seat's side: rows of zones, top to bottom, and a status line.

    ``viewer`` is the seat whose view it was built from (None: a spectator).
    """

    title: str
    rows: tuple[Row, ...]
    status: str = ""
    viewer: str | None = None
    facts: tuple[str, ...] = field(default_factory=tuple)
    """Short public facts worth a glance (counters, past results), one per line."""
    words: tuple[tuple[str, str], ...] = ()
    """How words of the actions that no card or zone carries read on a button
    (``("up", "face up")``): an interface offers such words as the remaining choices
    of a move (a seat split into its face-up and face-down halves) and labels them so."""

    def zones(self) -> Iterator[Zone]:
        for row in self.rows:
            yield from row.zones

    def all_cards(self) -> Iterator[Card]:
        for zone in self.zones():
            yield from zone.cards

    def to_json(self) -> dict[str, Any]:
        return {
            "title": self.title,
            "viewer": self.viewer,
            "status": self.status,
            "facts": list(self.facts),
            "words": dict(self.words),
            "rows": [r.to_json() for r in self.rows],
        }


def zone(
    title: str,
    tokens: Sequence[str | None] = (),
    *,
    spread: Spread = "row",
    key: str | None = None,
    columns: int = 0,
    count: int | None = None,
    owner: str | None = None,
    note: str = "",
    highlight: bool = False,
    labels: Sequence[str] = (),
) -> Zone:
    """A zone from view tokens (``"??"`` for backs), with optional per-card labels."""
    made = tuple(card(t, label=labels[i] if i < len(labels) else "") for i, t in enumerate(tokens))
    return Zone(title, made, spread, key, columns, count, owner, note, highlight)


def pile(
    title: str,
    count: int,
    *,
    top: str | None = None,
    key: str | None = None,
    note: str = "",
    highlight: bool = False,
) -> Zone:
    """A pile drawn as its top card (face down unless ``top`` is given) and a count."""
    shown: tuple[Card, ...] = ()
    if count > 0:
        shown = (card(top) if top is not None else back(),)
    return Zone(title, shown, "stack", key, 0, count, None, note, highlight)


def seat_names(view: Mapping[str, Any], key: str) -> list[str]:
    """The seat names of a per-seat mapping in a view, in seat order (p1, p2, … p10)."""
    names = list(view.get(key) or {})
    return sorted(names, key=lambda s: int(s[1:]) if s[1:].isdigit() else 0)


# ---------------------------------------------------------------- lookup
TableFn = Callable[[dict[str, Any]], Table]

_FOUND: dict[str, TableFn] = {}


_OWN_SEAT = "\x00own"
_READER: ContextVar[str | None] = ContextVar("decklab_layout_reader", default=_OWN_SEAT)


@contextmanager
def read_by(reader: str | None) -> Iterator[None]:
    """Lay tables out for ``reader`` (a seat name, or None for someone seated nowhere).

    A seat's view is usually read by that seat, and a layout says "you" of it. But a
    finished table shows every seat's last view to everyone, and a replay may be watched
    by a stranger: then "Your hand" and "(you)" would name the wrong person. Inside this
    block :func:`you` and :func:`yours` speak to ``reader`` instead of the view's seat."""
    token = _READER.set(reader)
    try:
        yield
    finally:
        _READER.reset(token)


def is_reader(seat: str, own: str | None) -> bool:
    """Whether the person reading the table sits at ``seat``. ``own`` is the seat the
    view belongs to: the reader unless :func:`read_by` says otherwise."""
    reader = _READER.get()
    return seat == (own if reader == _OWN_SEAT else reader)


def you(seat: str, own: str | None, text: str | None = None) -> str:
    """``text`` (the seat's name by default), marked "(you)" for the reader's own seat."""
    shown = seat if text is None else text
    return f"{shown} (you)" if is_reader(seat, own) else shown


def yours(noun: str, seat: str, own: str | None) -> str:
    """ "Your hand" for the reader's seat, "p2's hand" for another's."""
    return f"Your {noun}" if is_reader(seat, own) else f"{seat}'s {noun}"


def table_function(state_class: type) -> TableFn:
    """The ``table(view)`` function of a game: ``layout.table`` in the game's own package.

    Found from where the state class is defined, so that no game is named outside
    its folder. A game without a layout module gets :func:`generic_table`.
    """
    module = state_class.__module__
    if module not in _FOUND:
        found = game_function(state_class, "layout", "table")
        _FOUND[module] = cast(TableFn, found) if found is not None else generic_table
    return _FOUND[module]


def generic_table(view: dict[str, Any]) -> Table:
    """A plain table for a game without a layout: every list of card tokens in the view
    becomes a fanned zone, every number a fact. Better than nothing, never wrong."""
    zones: list[Zone] = []
    facts: list[str] = []
    for name, value in view.items():
        if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
            if all(v == HIDDEN or cards.is_card_text(v) for v in value):
                zones.append(zone(name, value, spread="fan"))
        elif isinstance(value, int | str) and not isinstance(value, bool):
            facts.append(f"{name}: {value}")
    rows = tuple(Row(tuple(zones[i : i + 4])) for i in range(0, len(zones), 4))
    return Table(str(view.get("game", "")), rows, "", view.get("seat"), tuple(facts))
