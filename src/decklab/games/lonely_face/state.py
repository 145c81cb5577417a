"""Lonely Face's rules (RULINGS.md L1–L11) on the generic engine.

A turn: the turn suit comes from the top of the turn deck (or the suit die),
then the player flips, swaps, takes or — only when nothing else is possible —
passes. A flip or swap that makes new pairs is followed by a second decision of
the same seat: which one of the new pairs to take (L7).

The state keeps, besides the cards, what the table has learnt about hidden hands
(which hand cards everyone saw go in, and what the end test of L9 revealed about
a hand), so that :meth:`LonelyFaceState.determinize` never deals a seat a hand
that the public history rules out.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from itertools import combinations_with_replacement
from typing import Any, Final, TypeVar

from mypy_extensions import i64, mypyc_attr

from decklab import cards
from decklab.engine.chance import Rng, std_shuffle
from decklab.engine.errors import IllegalAction, SetupError, excerpt
from decklab.engine.info import GameInfo, Option
from decklab.engine.shorthand import DeckPiles, complete_tokens
from decklab.engine.state import (
    ALL,
    CHANCE,
    GameState,
    Viewer,
    normalize_action_text,
    seat_index,
    seat_name,
)
from decklab.games.lonely_face.tables import (
    BITS8,
    CELL_NAMES,
    CELL_OF,
    CELLS,
    DECK,
    DECK_SET,
    DIE,
    DOWN,
    EDGE_MASK,
    EDGE_OF,
    EDGES,
    FACE_CARD,
    FACE_MASK,
    FLIP,
    FLIP_SIDES,
    FLIPS_DOWN,
    FLIPS_RIGHT,
    FULL,
    HIGH,
    LEFT,
    NB_MASK,
    NBT,
    NUM_EDGES,
    PAIR,
    PASS,
    RIGHT,
    SCORE,
    SIDE_X,
    SIDE_Y,
    STR,
    SUIT_MASK,
    SWAP,
    SWAP_ALL,
    TAKE,
    TAKES_DOWN,
    TAKES_RIGHT,
    is_pair,
    pair_points,
)

T = TypeVar("T")

INFO: Final = GameInfo(
    name="lonely-face",
    title="Lonely Face",
    version=1,
    min_players=2,
    max_players=4,
    default_players=2,
    summary="Flip and swap cards in a 4×4 grid of playing cards to collect pairs: "
    "face cards are pals, hearts are nice, spades hurt.",
    hidden_information=True,
    score_unit="points",
    options=(
        Option(
            "suit_die",
            "a six-sided suit die (♥ ♥ ♠ ♠ ♣ ♦) instead of the turn deck (L1)",
            bool,
            default=False,
        ),
        Option(
            "stall_rounds",
            "the game also ends after this many full rounds in a row without a pair taken (L9)",
            int,
            default=10,
            minimum=1,
            maximum=10_000,
        ),
        Option(
            "opening",
            "the opening grid (L2): deal, as it comes; no_pairs, dealt without a pair (L6): "
            "a card that would make one is set aside and shuffled back",
            str,
            default="deal",
            choices=("deal", "no_pairs"),
        ),
    ),
)

PLAY: Final = 0
CHOOSE: Final = 1
OVER: Final = 2
_PHASE_NAMES: Final = ("play", "choose", "over")
_EMPTY: Final[list[int]] = []
_PASS_ALONE: Final[list[int]] = [PASS]
"""The legal list of a turn with nothing else to do (L5d), shared (never changed)."""
_TAKE_ALONE: Final[list[list[int]]] = [[TAKE + e] for e in range(NUM_EDGES)]
"""``_TAKE_ALONE[e]``: the legal list of a move that made one new pair, on edge e (L7)."""
_SEATS: Final[tuple[tuple[int, ...], ...]] = tuple((s,) for s in range(8))
"""``_SEATS[s]``, the ``to_act`` of seat s (typed so: compiled, each stays the one object)."""
_NUM_ACTIONS: Final = SWAP + 64 * 16
"""Every action code is below this (a swap's card is below 64, its cell below 16)."""
_MOVES: Final[list[list[Any]]] = [
    [(s, a) for a in range(_NUM_ACTIONS)] for s in range(INFO.max_players)
]
"""``_MOVES[seat][action]``: the history entry ``(seat, action)`` of a move, made once.
A move appends the shared tuple (immutable, so sharing is safe) instead of building one
and boxing an action code above 256. Typed ``Any``: compiled, a ``tuple[int, int]`` read
from the table would be unpacked into a native pair and packed into a new tuple again."""
_SUIT_TEXT: Final = {"S": cards.SPADES, "H": cards.HEARTS, "D": cards.DIAMONDS, "C": cards.CLUBS}
_SUIT_TEXT.update({sym: i for i, sym in enumerate(cards.SUIT_SYMBOLS[:4])})
_SETUP_KEYS_DECK: Final = (
    "grid",
    "hands",
    "main_deck",
    "piles",
    "start_draws",
    "first_player",
    "turn_deck",
)
_SETUP_KEYS_DIE: Final = ("grid", "hands", "main_deck", "piles", "first_player", "first_roll")
_EMPTY_CELL: Final = "--"


# ------------------------------------------------------------------ chance helpers
def _pairs_back(grid: list[int], i: int, c: int) -> bool:
    """Whether card ``c`` at cell ``i`` makes a pair (L6) with the cell on its left or
    the one above it (the neighbours dealt before it in reading order)."""
    if i % 4 and grid[i - 1] and is_pair(c, grid[i - 1]):
        return True
    return i >= 4 and grid[i - 4] != 0 and is_pair(c, grid[i - 4])


def _deal_without_pairs(
    shuffled: list[int], n: int, rng: Rng
) -> tuple[list[int], list[list[int]], list[int]]:
    """Option ``opening=no_pairs``: the grid dealt from the top of ``shuffled`` in reading
    order, each card that would make a pair with a neighbour already dealt set aside
    (L2, L6); the set-aside cards and the rest are then shuffled together, and the hands
    and the draw pile dealt from them. A table can do it by hand, it always ends (at the
    last cell at most 2 suits are barred and 15 cards used, so a card that fits is left),
    and the hands stay a fair draw from the cards off the grid (samples stay valid)."""
    grid = [0] * CELLS
    aside: list[int] = []
    pos = 0
    for i in range(CELLS):
        while True:
            c = shuffled[pos]
            pos += 1
            if _pairs_back(grid, i, c):
                aside.append(c)
            else:
                grid[i] = c
                break
    rest = aside + shuffled[pos:]
    rng.shuffle(rest)
    hands = [rest[3 * s : 3 * s + 3] for s in range(n)]
    return grid, hands, rest[3 * n :]


def grid_pairs(grid: Sequence[int]) -> list[tuple[int, int]]:
    """The cells (reading order) of every pair on a grid (L6): what ``opening=no_pairs``
    keeps off the opening grid."""
    return [(a, b) for a, b in EDGES if grid[a] and grid[b] and is_pair(grid[a], grid[b])]


def _draw_shuffle(rng: Rng) -> list[int]:
    order = list(DECK)
    rng.shuffle(order)
    return order


def _fmt_cards(order: list[int]) -> str:
    return cards.format_many(order)


def _parse_shuffle(text: str) -> list[int]:
    """A reshuffled turn deck (L4): all 52 cards, each once, first = top; a final
    ``...`` stands for the cards not listed, in canonical order (engine/shorthand.py)."""
    try:
        order = cards.parse_many(complete_tokens(text.split(), DECK, "shuffle"))
    except (SetupError, cards.CardError) as exc:
        raise ValueError(str(exc)) from None
    if len(order) != 52 or set(order) != DECK_SET:
        missing = sorted(DECK_SET - set(order))
        extra = sorted({c for c in order if order.count(c) > 1 or c not in DECK_SET})
        detail = []
        if missing:
            detail.append("missing " + cards.format_many(missing))
        if extra:
            detail.append("repeated or unknown " + cards.format_many(extra))
        raise ValueError(
            f"a reshuffled turn deck lists all 52 cards once ({len(order)} given; {'; '.join(detail)})"
        )
    return order


def _roll(rng: Rng) -> int:
    return DIE[rng.below(6)]


def _fmt_suit(suit: int) -> str:
    return cards.SUIT_LETTERS[suit]


def _parse_suit(text: str) -> int:
    suit = _SUIT_TEXT.get(text.strip().upper())
    if suit is None:
        raise ValueError(f"a die roll is a suit letter S, H, D or C, not {text!r}")
    return suit


def _cell_text(c: int) -> str | None:
    return cards.to_str(c) if c else None


@mypyc_attr(allow_interpreted_subclasses=True)  # a variant's class (engine/registry.py)
class LonelyFaceState(GameState):
    """A game of Lonely Face between ``num_players`` seats."""

    info = INFO
    static_setup = True

    die: bool
    no_pairs: bool
    """Option ``opening=no_pairs``: the opening grid is dealt without a pair (L2, L6)."""
    stall: int
    """Turns in a row without a pair taken that end the game: stall_rounds × n (L9)."""
    grid: list[int]
    """16 cells in reading order; 0 is an empty cell."""
    suits: i64
    """Per suit u, the bit mask of the cells holding a card of that suit, in bits 16u … 16u+15
    (see :func:`_suit_cells`): one native word, so a move changes no list of boxed masks.
    Compiled, suit 3's top bit is the word's sign bit; every read masks its 16 bits out."""
    occ: i64
    """Bit mask of the cells holding a card (the masks are native words compiled: no tag
    checks in the bit arithmetic of every turn)."""
    fmask: i64
    """Bit mask of the cells holding a face card (K2)."""
    hands: list[list[int]]
    known: list[list[int]]
    """Per seat, the hand cards everybody saw go into the hand (taken from the grid by a swap)."""
    deck: list[int]
    """The rest of the main deck, top card LAST (so drawing is a pop)."""
    piles: list[list[int]]
    """Score piles (L8): taken pairs, two cards each, in the order taken."""
    points: list[int]
    npairs: list[int]
    turn_deck: list[int]
    """The turn deck, top card LAST."""
    turned: list[int]
    """Turn-deck cards turned since the last shuffle, in order (public)."""
    turn_card: int
    suit: int
    cur: int
    phase: int
    streak: int
    """Turns in a row in which the player could not have removed a pair (L9)."""
    quiet: int
    """Turns in a row in which no pair was removed (L9, stall_rounds)."""
    turns: int
    forbid: list[int]
    """Per seat, a card mask that no still-unseen hand card can be in (learnt from L9 and passes)."""
    musts: list[list[int]]
    """Per seat, card masks each of which some still-unseen hand card must be in (learnt from L9)."""
    coin: int
    first_player: int
    start_draws: list[dict[int, int]]
    _legal: list[int]
    _fr: i64
    _fd: i64
    _takes: i64
    """This turn's flip edges (bit masks, see _gen_legal) and take edges (horizontal ones
    in the low 16 bits, vertical ones above, as ``EDGE_MASK``): zero if no take is legal."""
    _acting: tuple[int, ...]
    _dealt: tuple[list[int], list[list[int]], list[int], list[list[int]], list[int], int] | None
    """The deal as laid out (grid, hands, main deck, piles, turn deck, first roll), kept
    for :meth:`export_setup`: its text is written only when asked for (none for a sample)."""
    _setup: dict[str, Any] | None
    """The deal's text, once written."""
    _deck_start: int
    _shuffle_at: int

    # ------------------------------------------------------------- set-up
    def _init_fields(self) -> None:
        n = self.num_players
        self.die = bool(self.options["suit_die"])
        self.no_pairs = self.options["opening"] == "no_pairs"
        self.stall = self.options["stall_rounds"] * n
        # (the grid, hands, main deck and score piles: laid out by _install on every path)
        self.suits = 0
        self.occ = 0
        self.fmask = 0
        self._fr = self._fd = self._takes = 0
        self.known = [[] for _ in range(n)]
        self.points = [0] * n
        self.npairs = [0] * n
        self.turn_deck = []
        self.turned = []
        self.turn_card = 0
        self.suit = 0
        self.cur = 0
        self.phase = PLAY
        self.streak = 0
        self.quiet = 0
        self.turns = 0
        self.forbid = [0] * n
        self.musts = [[] for _ in range(n)]
        self.coin = -1
        self.first_player = 0
        self.start_draws = []
        self._legal = _EMPTY
        self._acting = ()
        self._dealt = None
        self._setup = None
        self._deck_start = 0
        self._shuffle_at = -1

    def _deal(self) -> None:
        """L1–L3: shuffle the main deck, deal the grid and the hands, draw for the first player.

        Every shuffle and draw comes from the game's own generator (K3).
        """
        rng = self.rng
        n = self.num_players
        main = list(DECK)
        rng.shuffle(main)
        grid = main[:CELLS]
        hands = [main[CELLS + 3 * s : CELLS + 3 * s + 3] for s in range(n)]
        rest = main[CELLS + 3 * n :]
        draws: list[dict[int, int]] = []
        first = 0
        first_roll = 0
        turn_deck: list[int] = []
        if self.die:
            first = rng.below(n)
            first_roll = _roll(rng)
        else:
            while True:  # L3: draw, the tied highest draw again
                order = list(DECK)  # cards order[:pos] are drawn, the rest still in the deck
                draws = []
                drawing = [s for s in range(n)]  # (compiled, a native loop; list(range) is not)
                pos = 0
                while pos + len(drawing) <= len(order):
                    rnd = {}
                    for s in drawing:
                        j = pos + rng.below(len(order) - pos)
                        order[pos], order[j] = order[j], order[pos]
                        rnd[s] = order[pos]
                        pos += 1
                    draws.append(rnd)
                    drawing = _tied_highest(rnd)
                    if len(drawing) == 1:
                        break
                if len(drawing) == 1:  # (running out of cards is all but impossible)
                    first = drawing[0]
                    break
            turn_deck = list(DECK)
            rng.shuffle(turn_deck)  # the drawn cards go back, the deck is reshuffled (L3)
        if self.no_pairs:
            # After every draw of the default deal, so that the same seed gives the same
            # first player and turn deck with and without the option: a paired comparison
            # then differs only in the grid (and so the hands and the draw pile).
            grid, hands, rest = _deal_without_pairs(main, n, rng)
        self._install(
            grid, hands, rest, [[] for _ in range(n)], draws, first, turn_deck, first_roll
        )

    def _install(
        self,
        grid: list[int],
        hands: list[list[int]],
        main: list[int],
        piles: list[list[int]],
        draws: list[dict[int, int]],
        first: int,
        turn_deck: list[int],
        first_roll: int,
    ) -> None:
        """Lay out a checked deal (``main`` and ``turn_deck`` top first) and start the first turn."""
        self.grid = g = list(grid)
        suits: i64 = 0
        occ: i64 = 0
        fmask: i64 = 0
        for i in range(CELLS):
            c = g[i]
            if c:
                bit = 1 << i
                suits |= _suit_cells(c >> 4, bit)
                occ |= bit
                if FACE_CARD[c]:
                    fmask |= bit
        self.suits = suits
        self.occ = occ
        self.fmask = fmask
        self.hands = [list(h) for h in hands]
        # (copy and reverse, not ``[::-1]``: compiled, a slice with a step is a generic call)
        self.deck = main.copy()
        self.deck.reverse()
        self._deck_start = len(main)
        self.piles = [list(p) for p in piles]
        for s, pile in enumerate(self.piles):
            for k in range(0, len(pile), 2):
                self.points[s] = self.points[s] + SCORE[pile[k] << 6 | pile[k + 1]]
                self.npairs[s] = self.npairs[s] + 1
        self.start_draws = draws
        self.first_player = first
        self.cur = first
        self._acting = _SEATS[first]
        if not self.die:
            self.turn_deck = turn_deck.copy()
            self.turn_deck.reverse()
        # The arguments are never changed afterwards (the state copies what it changes).
        self._dealt = (grid, hands, main, piles, turn_deck, first_roll)
        self._start_turn(first_roll)

    def _setup_text(self) -> dict[str, Any]:
        """The deal written out (once; a new game's setup is read rarely, see ``static_setup``)."""
        setup = self._setup
        if setup is not None:
            return setup
        if self._dealt is None:
            raise ValueError("a determinized sample has no known setup")
        grid, hands, main, piles, turn_deck, first_roll = self._dealt
        # (STR[0] is "--", an empty cell; comprehensions, not map: native when compiled)
        setup = {
            "grid": [STR[c] for c in grid],
            "hands": [[STR[c] for c in h] for h in hands],
            "main_deck": [STR[c] for c in main],
        }
        if any(piles):
            setup["piles"] = [[cards.to_str(c) for c in p] for p in piles]
        if self.die:
            setup["first_player"] = seat_name(self.first_player)
            setup["first_roll"] = cards.SUIT_LETTERS[first_roll]
        else:
            setup["start_draws"] = _draws_text(self.start_draws)
            setup["first_player"] = seat_name(self.first_player)
            setup["turn_deck"] = [STR[c] for c in turn_deck]
        self._setup = setup
        return setup

    def setup_decks(self) -> Sequence[DeckPiles]:
        """The main deck (grid, hands, main deck, score piles) and the turn deck are two
        decks: ``...`` completes a pile of each (engine/shorthand.py)."""
        main = DeckPiles(tuple(DECK), ("grid", "hands", "main_deck", "piles"))
        return (main,) if self.die else (main, DeckPiles(tuple(DECK), ("turn_deck",)))

    def _load_setup(self, setup: Mapping[str, Any]) -> None:
        n = self.num_players
        allowed = _SETUP_KEYS_DIE if self.die else _SETUP_KEYS_DECK
        unknown = [k for k in setup if k not in allowed]
        if unknown:
            mode = "with suit_die" if self.die else "with a turn deck"
            raise SetupError(
                f"unknown setup key(s) {', '.join(map(repr, unknown))} (a Lonely Face setup {mode} "
                f"has {', '.join(allowed)})"
            )
        missing = [k for k in allowed if k not in setup and k != "piles"]
        if missing:
            raise SetupError(f"the setup lacks {', '.join(missing)}")
        where: dict[int, str] = {}

        def place(c: int, label: str) -> None:
            if c not in DECK_SET:
                raise SetupError(f"{label}: {cards.to_str(c)} is not a card of a standard deck")
            if c in where:
                raise SetupError(f"{cards.to_str(c)} is both in {where[c]} and in {label}")
            where[c] = label

        raw_grid = _card_list(_grid_cells(setup["grid"]), "grid", allow_empty=True)
        if len(raw_grid) != CELLS:
            raise SetupError(f"the grid has 16 cells (reading order), not {len(raw_grid)}")
        for i, c in enumerate(raw_grid):
            if c:
                place(c, f"the grid at {CELL_NAMES[i]}")
        hands_raw = setup["hands"]
        if not isinstance(hands_raw, list) or len(hands_raw) != n:
            raise SetupError(f"hands is a list of {n} hands, one per seat")
        hands = []
        for s, h in enumerate(hands_raw):
            hand = _card_list(h, f"{seat_name(s)}'s hand")
            if len(hand) != 3:
                raise SetupError(
                    f"{seat_name(s)}'s hand has {len(hand)} cards; every hand has 3 (L2)"
                )
            for c in hand:
                place(c, f"{seat_name(s)}'s hand")
            hands.append(hand)
        main = _card_list(setup["main_deck"], "main_deck")
        for c in main:
            place(c, "the main deck")
        if main and not all(raw_grid):
            empty = ", ".join(CELL_NAMES[i] for i, c in enumerate(raw_grid) if not c)
            raise SetupError(
                f"the grid has empty cells ({empty}) while the main deck still has cards: "
                "emptied cells are refilled while it lasts (L8)"
            )
        piles_raw = setup.get("piles", [[] for _ in range(n)])
        if not isinstance(piles_raw, list) or len(piles_raw) != n:
            raise SetupError(f"piles is a list of {n} score piles, one per seat")
        piles = []
        for s, p in enumerate(piles_raw):
            label = f"{seat_name(s)}'s score pile"
            pile = _card_list(p, label)
            if len(pile) % 2:
                raise SetupError(
                    f"{label} holds pairs, so an even number of cards, not {len(pile)}"
                )
            for k in range(0, len(pile), 2):
                if not is_pair(pile[k], pile[k + 1]):
                    raise SetupError(
                        f"{label}: {cards.to_str(pile[k])} {cards.to_str(pile[k + 1])} is not a pair "
                        "(two face cards or two cards of one suit, L6)"
                    )
            for c in pile:
                place(c, label)
            piles.append(pile)
        if len(where) != 52:
            absent = cards.format_many(sorted(DECK_SET - set(where)))
            raise SetupError(
                f"the grid, hands, main deck and score piles hold {len(where)} cards, not the 52 of "
                f"the main deck (missing: {absent})"
            )
        if self.no_pairs and not any(piles):
            found = grid_pairs(raw_grid)
            if found:
                named = ", ".join(f"{CELL_NAMES[a]}–{CELL_NAMES[b]}" for a, b in found)
                raise SetupError(
                    f"with opening=no_pairs the opening grid holds no pair (L6), but this one "
                    f"has {named} (a position with score piles is not an opening: not checked)"
                )
        first = _seat_of(setup["first_player"], n, "first_player")
        draws: list[dict[int, int]] = []
        turn_deck: list[int] = []
        first_roll = 0
        if self.die:
            raw_roll = setup["first_roll"]
            if not isinstance(raw_roll, str):
                raise SetupError("first_roll is the suit of the first turn's roll: S, H, D or C")
            try:
                first_roll = _parse_suit(raw_roll)
            except ValueError as exc:
                raise SetupError(f"first_roll: {exc}") from None
        else:
            draws = _check_draws(setup["start_draws"], n, first)
            turn_deck = _card_list(setup["turn_deck"], "turn_deck")
            if len(turn_deck) != 52 or set(turn_deck) != DECK_SET:
                dup = sorted({c for c in turn_deck if turn_deck.count(c) > 1})
                absent_t = sorted(DECK_SET - set(turn_deck))
                raise SetupError(
                    f"turn_deck is the whole reshuffled turn deck, 52 cards once each (L3); "
                    f"got {len(turn_deck)}"
                    + (f", repeated {cards.format_many(dup)}" if dup else "")
                    + (f", missing {cards.format_many(absent_t)}" if absent_t else "")
                )
        self._install(raw_grid, hands, main, piles, draws, first, turn_deck, first_roll)

    def export_setup(self) -> dict[str, Any]:
        """The deal: grid (reading order, ``--`` empty), hands, main deck and turn deck first = top."""
        src = self._setup_text()
        out = dict(src)
        for key in ("grid", "main_deck", "turn_deck"):
            if key in src:
                out[key] = src[key].copy()
        out["hands"] = [h.copy() for h in src["hands"]]
        if "piles" in src:
            out["piles"] = [p.copy() for p in src["piles"]]
        if "start_draws" in src:
            out["start_draws"] = [dict(r) for r in src["start_draws"]]
        return out

    def clone(self) -> LonelyFaceState:
        c = self._clone_base()
        c.die = self.die
        c.no_pairs = self.no_pairs
        c.stall = self.stall
        c.grid = self.grid.copy()
        c.suits = self.suits
        c.occ = self.occ
        c.fmask = self.fmask
        c._fr = self._fr
        c._fd = self._fd
        c._takes = self._takes
        c.hands = [h.copy() for h in self.hands]
        c.known = [k.copy() for k in self.known]
        c.deck = self.deck.copy()
        c.piles = [p.copy() for p in self.piles]
        c.points = self.points.copy()
        c.npairs = self.npairs.copy()
        c.turn_deck = self.turn_deck.copy()
        c.turned = self.turned.copy()
        c.turn_card = self.turn_card
        c.suit = self.suit
        c.cur = self.cur
        c.phase = self.phase
        c.streak = self.streak
        c.quiet = self.quiet
        c.turns = self.turns
        c.forbid = self.forbid.copy()
        c.musts = [m.copy() for m in self.musts]
        c.coin = self.coin
        c.first_player = self.first_player
        c.start_draws = self.start_draws  # never mutated
        c._legal = self._legal  # replaced, never mutated
        c._acting = self._acting
        c._dealt = self._dealt  # never mutated
        c._setup = self._setup  # never mutated
        c._deck_start = self._deck_start
        c._shuffle_at = self._shuffle_at
        return c

    # -------------------------------------------------------------- turns
    def to_act(self) -> tuple[int, ...]:
        return self._acting

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def legal_actions(self, seat: int) -> list[int]:
        if seat == self.cur and self.phase != OVER:
            return self._legal
        return _EMPTY

    def apply(self, seat: int, action: int) -> None:
        # Inlined check (hot path), the same test as membership in the cached list, made
        # on the masks it was built from (see _gen_legal): no scan of the list.
        if seat == self.cur:
            phase = self.phase
            if phase == PLAY:
                if action >= SWAP:  # a turn-suit hand card for the card of an occupied cell
                    rest = action - SWAP
                    c = rest >> 4
                    ok = (
                        self.occ >> (rest & 15) & 1 == 1
                        and c >> 4 == self.suit
                        and _index_of(self.hands[seat], c) >= 0
                    )
                elif action >= TAKE:
                    ok = action < TAKE + NUM_EDGES and self._takes & EDGE_MASK[action - TAKE] != 0
                elif action >= FLIP:
                    flips = self._fr | self._fd << 16
                    ok = action < FLIP + NUM_EDGES and flips & EDGE_MASK[action - FLIP] != 0
                else:  # a pass is legal only alone
                    ok = action == PASS and self._legal[0] == PASS
            else:  # the choice of a new pair (L7); a finished game's list is empty
                ok = action in self._legal
            if ok:
                self.history.append(_MOVES[seat][action])
                self._apply(seat, action)
                return
        raise self.illegal(seat, action)

    def _start_turn(self, first_roll: int | None = None) -> None:
        """L4: turn the top turn-deck card (reshuffling an empty deck) or roll the die."""
        if self.die:
            if first_roll is None:
                self.suit = self._chance("roll", _roll, _fmt_suit, _parse_suit)
            else:
                self.suit = first_roll
        else:
            td = self.turn_deck
            if not td:
                self._shuffle_at = len(self.history)
                order = self._chance("shuffle", _draw_shuffle, _fmt_cards, _parse_shuffle)
                td = self.turn_deck = order[::-1]
                self.turned = []
            c = td.pop()
            self.turned.append(c)
            self.turn_card = c
            self.suit = c >> 4
        self._gen_legal()

    def _gen_legal(self) -> None:
        """L5: flips and takes on edges with a turn-suit card, swaps of turn-suit hand cards.

        Edges are found bit-parallel on the cell masks (see tables.py): flips need two
        cards and a turn-suit one; takes need that and a pair (one suit, or two faces).
        """
        u = self.suit
        um: i64 = self.suits >> (u << 4) & FULL
        occ = self.occ
        fm = self.fmask
        ur = um | um >> 1
        ud = um | um >> 4
        fr = occ & occ >> 1 & ur & RIGHT
        fd = occ & occ >> 4 & ud & DOWN
        tr = (um & um >> 1 | fm & fm >> 1 & ur) & RIGHT
        td = (um & um >> 4 | fm & fm >> 4 & ud) & DOWN
        self._fr = fr
        self._fd = fd
        self._takes = tr | td << 16
        # One new list from the two flip parts (a concatenation allocates it once), then
        # only the non-empty other parts: an extend costs about as much for an empty
        # list as for a short one, and most turns offer no take. (``+=``, not ``extend``:
        # compiled, ``extend`` is a generic slice assignment, ``+=`` the list's own.)
        acts = FLIPS_RIGHT[fr] + FLIPS_DOWN[fd]
        if tr:
            acts += TAKES_RIGHT[tr]
        if td:
            acts += TAKES_DOWN[td]
        if occ:
            for c in self.hands[self.cur]:
                if c >> 4 == u:
                    if occ == FULL:
                        acts += SWAP_ALL[c]
                    else:
                        _append_picked(acts, SWAP_ALL[c], occ)
        self._legal = acts or _PASS_ALONE

    def _apply(self, seat: int, action: int) -> None:
        # One function for the whole step (hot path): the move, then L8's refill, then
        # L9's count and the next turn's start (L4) — the turn card inlined.
        g = self.grid
        if TAKE <= action < SWAP:  # a take (L5c), or the follow-up take of a new pair (L7)
            x, y = EDGES[action - TAKE]
            cx = g[x]
            cy = g[y]
            _append_two(self.piles[seat], g, x, y)
            # (``lst[i] = lst[i] + v``, not ``lst[i] += v``: compiled, the latter is a generic call)
            self.points[seat] = self.points[seat] + SCORE[cx << 6 | cy]
            self.npairs[seat] = self.npairs[seat] + 1
            bx: i64 = 1 << x  # (shifted into the suits' word: native, as in _suit_cells)
            by: i64 = 1 << y
            # (_suit_cells inlined in this function: compiled, a call per use is costly)
            sm = self.suits ^ bx << (cx >> 4 << 4) ^ by << (cy >> 4 << 4)
            fm = self.fmask & ~(bx | by)
            deck = self.deck  # L8: refill in reading order (x < y) while the main deck lasts
            if deck:
                c = _pop_into(deck, g, x)
                sm |= bx << (c >> 4 << 4)
                if FACE_CARD[c]:
                    fm |= bx
                if deck:
                    c = _pop_into(deck, g, y)
                    sm |= by << (c >> 4 << 4)
                    if FACE_CARD[c]:
                        fm |= by
                else:
                    g[y] = 0
                    self.occ ^= by
            else:
                g[x] = g[y] = 0
                self.occ ^= bx | by
            self.suits = sm
            self.fmask = fm
            self.quiet = 0
            self.streak = 0
        else:
            if action >= SWAP:
                c = (action - SWAP) >> 4
                x = action & 15
                sm = self.suits
                new = _EMPTY  # a list only once a pair is found (many moves make none)
                # First, from the masks, whether c pairs with a neighbour of x at all
                # (L6: its suit's cells, and the face cards if it is one; about half
                # the moves make no pair, and then no neighbour is looked at).
                meets = sm >> (c >> 4 << 4)  # the cells whose cards pair with c
                if FACE_CARD[c]:
                    meets |= self.fmask
                if NB_MASK[x] & meets:
                    row = c << 6
                    for z, t in NBT[x]:
                        if PAIR[row | g[z]]:
                            new = _with_take(new, t)
                dry = False if new else self._learn(seat, action)
                old = g[x]
                g[x] = c
                bx = 1 << x  # (an i64, as declared for a take above)
                self.suits = sm ^ bx << (old >> 4 << 4) ^ bx << (c >> 4 << 4)
                if FACE_CARD[old] != FACE_CARD[c]:
                    self.fmask ^= bx
                hand = self.hands[seat]
                hand[_index_of(hand, c)] = old
                known = self.known[seat]
                k = _index_of(known, c)
                if k >= 0:
                    known.pop(k)  # (compiled, ``del known[k]`` is a generic slice deletion)
                elif self.musts[seat]:  # an unseen card comes to light: drop what it satisfies
                    bit = 1 << c
                    self.musts[seat] = [m for m in self.musts[seat] if not m & bit]
                known.append(old)
            elif action:
                e = action - FLIP
                x, y = EDGES[e]
                cx = g[x]
                cy = g[y]
                sm = self.suits
                fm = self.fmask
                new = _EMPTY
                # As for a swap: first from the masks, whether the card going to x pairs
                # with one of x's other neighbours or the card going to y with y's.
                # The cells whose cards pair with cy, and with cx (no ``a if c else b``
                # here: compiled, its type would be a boxed int's, not the word's)
                meets_y = sm >> (cy >> 4 << 4)
                if FACE_CARD[cy]:
                    meets_y |= fm
                meets_x = sm >> (cx >> 4 << 4)
                if FACE_CARD[cx]:
                    meets_x |= fm
                if SIDE_X[e] & meets_y | SIDE_Y[e] & meets_x:
                    sx, sy = FLIP_SIDES[e]
                    row = cy << 6
                    for z, t in sx:
                        if PAIR[row | g[z]]:
                            new = _with_take(new, t)
                    row = cx << 6
                    for w, t in sy:
                        if PAIR[row | g[w]]:
                            new = _with_take(new, t)
                dry = False if new else self._learn(seat, action)
                _exchange(g, x, g, y)
                if (cx ^ cy) >> 4:
                    b: i64 = (1 << x) | (1 << y)  # (shifted into the suits' word: native)
                    self.suits = sm ^ b << (cx >> 4 << 4) ^ b << (cy >> 4 << 4)
                if FACE_CARD[cx] != FACE_CARD[cy]:
                    self.fmask ^= (1 << x) | (1 << y)
            else:  # PASS (L5d)
                new = _EMPTY
                dry = self._learn(seat, action)
            if new:  # L7: the same seat must now take exactly one of the new pairs
                if len(new) > 2:
                    new.sort()
                self._legal = new
                self.phase = CHOOSE
                return
            self.quiet += 1
            self.streak = self.streak + 1 if dry else 0
        # L9: the end of a turn
        self.turns += 1
        n = self.num_players
        if self.streak >= n or self.quiet >= self.stall:
            self._finish()
            return
        self.cur = cur = (self.cur + 1) % n  # clockwise = seat order (L3)
        self._acting = _SEATS[cur]
        self.phase = PLAY
        td = self.turn_deck
        if td:  # the common case of _start_turn, inlined
            c = _pop_onto(td, self.turned)
            self.turn_card = c
            self.suit = c >> 4
            self._gen_legal()
        else:
            self._start_turn()

    def _learn(self, seat: int, action: int) -> bool:
        """Whether this turn (about to remove no pair) was *dry*: the seat had no action that
        removes a pair (L9). Judged on the turn's starting position, before the move is made.

        The table learns the answer (it decides when the game ends), and so it learns
        something about the seat's hidden hand: that is written into ``forbid``/``musts``
        for :meth:`determinize`.
        """
        if self._takes:
            return False  # a take was possible (public)
        fr = self._fr
        fd = self._fd
        if (_pairing_flips(self.suits) | _pairing_flips(self.fmask)) & (fr | fd << 16):
            return False  # a flip would have made a new pair (public)
        # Which hand cards could have made a new pair by a swap? A turn-suit card
        # pairs with a turn-suit neighbour of the target cell (there is one iff a
        # flip is legal); a turn-suit face card also with a face-card neighbour.
        u = self.suit
        occ = self.occ
        fm = self.fmask
        if fr or fd:
            mask = SUIT_MASK[u]
        elif fm & (occ >> 1 & RIGHT | occ << 1 & LEFT | occ >> 4 | occ << 4 & FULL):
            mask = FACE_MASK[u]
        else:
            mask = 0
        if mask:
            for c in self.hands[seat]:
                if 1 << c & mask:
                    if not any(1 << k & mask for k in self.known[seat]):
                        self.musts[seat].append(mask)
                    return False
        forbid = self.forbid
        forbid[seat] = forbid[seat] | mask
        if action == PASS and occ:
            forbid[seat] = (
                forbid[seat] | SUIT_MASK[u]
            )  # a pass with cards on the grid: no turn-suit card
        return True

    def _finish(self) -> None:
        """L11: most points; then most pairs; then a coin flip among those still tied."""
        self.phase = OVER
        self._acting = ()
        self._legal = _EMPTY
        tied = self._tied_leaders()
        if len(tied) > 1:
            self._flip_coin(tied)

    def _flip_coin(self, tied: list[int]) -> None:
        """L11's coin flip among the ``tied`` seats, a recorded chance outcome. (A method of
        its own: compiled, the closures' environment is made on every call of the function
        that defines them, and most games end without a tie.)"""

        def parse(text: str) -> int:
            seat = seat_index(text, self.num_players)
            if seat not in tied:
                names = ", ".join(seat_name(s) for s in tied)
                raise ValueError(f"{text} is not among the tied seats ({names})")
            return seat

        self.coin = self._chance("coin", lambda r: tied[r.below(len(tied))], seat_name, parse)

    def _tied_leaders(self) -> list[int]:
        """The seats with the most points, and among them those with the most pairs (L11).
        (Plain loops: compiled, native ones; ``max`` and ``enumerate`` are generic calls.)"""
        points = self.points
        npairs = self.npairs
        tied: list[int] = []
        best = 0
        most = 0
        for s in range(len(points)):
            p = points[s]
            k = npairs[s]
            if not tied or p > best or (p == best and k > most):
                best = p
                most = k
                tied = [s]
            elif p == best and k == most:
                tied.append(s)
        return tied

    # -------------------------------------------------------- action text
    def action_to_string(self, seat: int, action: int) -> str:
        if action == PASS:
            return "pass"
        if FLIP <= action < FLIP + NUM_EDGES:
            x, y = EDGES[action - FLIP]
            return f"flip {CELL_NAMES[x]} {CELL_NAMES[y]}"
        if TAKE <= action < TAKE + NUM_EDGES:
            x, y = EDGES[action - TAKE]
            return f"take {CELL_NAMES[x]} {CELL_NAMES[y]}"
        if action >= SWAP:
            c = (action - SWAP) >> 4
            if c in DECK_SET:
                return f"swap {cards.to_str(c)} {CELL_NAMES[action & 15]}"
        raise ValueError(f"{action} is not a Lonely Face action")

    def _encode(self, words: list[str]) -> int | None:
        """The action a normalised text names, whether legal or not (None if malformed)."""
        if words == ["pass"]:
            return PASS
        if len(words) == 3 and words[0] in ("flip", "take"):
            x, y = CELL_OF.get(words[1]), CELL_OF.get(words[2])
            if x is None or y is None or (x, y) not in EDGE_OF:
                return None
            return (FLIP if words[0] == "flip" else TAKE) + EDGE_OF[(x, y)]
        if len(words) == 3 and words[0] == "swap" and cards.is_card_text(words[1]):
            x = CELL_OF.get(words[2])
            c = cards.parse(words[1])
            if x is None or c not in DECK_SET:
                return None
            return SWAP + c * 16 + x
        return None

    def parse_action(self, seat: int, text: str) -> int:
        """Canonical text, any case, ``10H`` for ``TH``; a flip or take may name its cells either way."""
        wanted = normalize_action_text(text)
        if not wanted:
            raise IllegalAction(seat_name(seat), text, "empty action")
        if not 0 <= seat < self.num_players or seat not in self.to_act():
            raise self.illegal(seat, text)
        action = self._encode(wanted.split())
        if action is not None and action in self._legal:
            return action
        raise self.illegal(seat, wanted)

    def explain_illegal(self, seat: int, text: str) -> str:
        """Why, from what the acting seat sees: the grid, its own hand, the turn suit."""
        words = normalize_action_text(text).split()
        suit = cards.SUIT_NAMES[self.suit]
        sym = cards.SUIT_SYMBOLS[self.suit]
        legal = [self.action_to_string(seat, a) for a in self._legal]
        if self.phase == CHOOSE:
            return "the move made new pairs: take exactly one of them (L7): " + ", ".join(legal)
        action = self._encode(words)
        if action is None:
            if words and words[0] in ("flip", "take") and len(words) == 3:
                if words[1] not in CELL_OF or words[2] not in CELL_OF:
                    return "cells are named a1 … d4 (column a–d, row 1–4 from the top)"
                return f"{words[1]} and {words[2]} are not orthogonal neighbours (L6)"
            if words and words[0] == "swap":
                return "write 'swap CARD CELL', e.g. 'swap 7H b2' (a hand card, a grid cell)"
            return "actions are 'flip b2 c2', 'swap 7H b2', 'take b2 c2' or 'pass'"
        g = self.grid
        if action == PASS:
            return "a pass is allowed only when no flip, swap or take is possible (L5d)"
        if action < SWAP:
            x, y = EDGES[action - TAKE if action >= TAKE else action - FLIP]
            cx, cy = g[x], g[y]
            if not cx or not cy:
                empty = CELL_NAMES[x] if not cx else CELL_NAMES[y]
                return f"{empty} is empty: nothing is flipped or taken there (L5, L6)"
            if cx >> 4 != self.suit and cy >> 4 != self.suit:
                return f"neither {cards.to_str(cx)} nor {cards.to_str(cy)} is a {sym} {suit} card, the turn suit (L5)"
            if action >= TAKE:
                return f"{cards.to_str(cx)} and {cards.to_str(cy)} are not a pair (two face cards or one suit, L6)"
        else:
            c = (action - SWAP) >> 4
            x = action & 15
            if c not in self.hands[seat]:
                return f"{cards.to_str(c)} is not in your hand"
            if c >> 4 != self.suit:
                return f"{cards.to_str(c)} is not a {sym} {suit} card, the turn suit (L5b)"
            if not g[x]:
                return f"{CELL_NAMES[x]} is empty: nothing is swapped with it (L5)"
        return super().explain_illegal(seat, text)

    def describe_action(self, seat: int, action: int) -> str:
        g = self.grid
        who = seat_name(seat)
        if action == PASS:
            return f"{who} passes: nothing can be done with {cards.SUIT_SYMBOLS[self.suit]}."
        if action >= SWAP:
            c = (action - SWAP) >> 4
            x = action & 15
            return f"{who} swaps {cards.to_display(c)} from hand for {cards.to_display(g[x])} at {CELL_NAMES[x]}."
        x, y = EDGES[action - TAKE if action >= TAKE else action - FLIP]
        shown = f"{cards.to_display(g[x])} at {CELL_NAMES[x]} and {cards.to_display(g[y])} at {CELL_NAMES[y]}"
        if action >= TAKE:
            pts = SCORE[g[x] << 6 | g[y]]
            return f"{who} takes the pair {shown} ({pts:+d})."
        return f"{who} flips {shown}."

    # -------------------------------------------------------------- views
    def _hand_view(self, owner: int, viewer: Viewer) -> list[str]:
        hand = self.hands[owner]
        if viewer in (ALL, owner):
            return [cards.to_str(c) for c in hand]
        known = sorted(self.known[owner])
        return [cards.to_str(c) for c in known] + [cards.HIDDEN] * (len(hand) - len(known))

    def view(self, seat: Viewer) -> dict[str, Any]:
        n = self.num_players
        g = self.grid
        out: dict[str, Any] = {"game": "lonely-face"}
        if seat is not None and seat != ALL:
            out["seat"] = seat_name(seat)
        out.update(
            {
                "turn": self.turns + 1,
                "to_act": [seat_name(s) for s in self._acting],
                "phase": _PHASE_NAMES[self.phase],
                "turn_suit": cards.SUIT_LETTERS[self.suit],
            }
        )
        if not self.die:
            out["turn_card"] = cards.to_str(self.turn_card)
        out["grid"] = [[_cell_text(g[r * 4 + k]) for k in range(4)] for r in range(4)]
        if self.phase == CHOOSE:
            out["new_pairs"] = [
                " ".join(CELL_NAMES[i] for i in EDGES[a - TAKE]) for a in self._legal
            ]
        out["hands"] = {seat_name(s): self._hand_view(s, seat) for s in range(n)}
        out["main_deck_left"] = len(self.deck)
        if seat == ALL:
            out["main_deck"] = [cards.to_str(c) for c in reversed(self.deck)]
        out["piles"] = {seat_name(s): [cards.to_str(c) for c in self.piles[s]] for s in range(n)}
        out["points"] = {seat_name(s): self.points[s] for s in range(n)}
        out["pairs"] = {seat_name(s): self.npairs[s] for s in range(n)}
        out["dry_turns"] = self.streak
        out["quiet_turns"] = self.quiet
        out["stall_turns"] = self.stall
        out["first_player"] = seat_name(self.first_player)
        if not self.die:
            out["start_draws"] = _draws_text(self.start_draws)
            td: dict[str, Any] = {
                "left": len(self.turn_deck),
                "turned": [cards.to_str(c) for c in self.turned],
            }
            if seat == ALL:
                td["order"] = [cards.to_str(c) for c in reversed(self.turn_deck)]
            out["turn_deck"] = td
        if self.coin >= 0:
            out["coin"] = seat_name(self.coin)
        out["terminal"] = self.phase == OVER
        return out

    def render(self, seat: Viewer = None) -> str:
        n = self.num_players
        g = self.grid
        sym = cards.SUIT_SYMBOLS[self.suit]
        if self.phase == OVER:
            head = f"Lonely Face — game over after {self.turns} turns"
        else:
            how = "rolled" if self.die else f"turned {cards.to_display(self.turn_card)}"
            head = (
                f"Lonely Face — turn {self.turns + 1}: {seat_name(self.cur)} {how}, turn suit {sym}"
            )
        lines = [head, "     a    b    c    d"]
        for r in range(4):
            row = "".join(f"{cards.to_display(c) if c else '·':>5}" for c in g[r * 4 : r * 4 + 4])
            lines.append(f"{r + 1} {row}")
        lines.append(
            f"main deck {len(self.deck)}"
            + ("" if self.die else f", turn deck {len(self.turn_deck)}")
            + f", dry turns {self.streak}/{n}, quiet turns {self.quiet}/{self.stall}"
        )
        if self.phase == CHOOSE:
            pairs = ", ".join(self.action_to_string(self.cur, a) for a in self._legal)
            lines.append(f"New pairs, take one (L7): {pairs}")
        for s in range(n):
            mark = ">" if s == seat else " "
            hand = " ".join(
                c if c == cards.HIDDEN else cards.to_display(cards.parse(c))
                for c in self._hand_view(s, seat)
            )
            lines.append(
                f"{mark} {seat_name(s):>3} {self.points[s]:>4} pts {self.npairs[s]:>3} pairs  hand: {hand}"
            )
        if self.phase == OVER:
            lines.append("Winner: " + ", ".join(seat_name(w) for w in self.winners()))
            if self.coin >= 0:
                lines.append(f"(decided by a coin flip: {seat_name(self.coin)})")
        return "\n".join(lines)

    # ----------------------------------------------------------- hidden info
    def _unseen(self, s: int) -> list[int]:
        """Slots of seat s's hand whose card the other seats have not seen."""
        known = self.known[s]
        return [i for i, c in enumerate(self.hands[s]) if c not in known]

    def determinize(self, seat: int, rng: random.Random) -> LonelyFaceState:
        """Resample the main deck, the unseen cards of the other hands, the turn deck's rest.

        The other hands keep the cards everyone saw go in (``known``), and the resampled
        cards respect what the L9 end test and passes revealed (``forbid``/``musts``).
        The sample is a function of what ``seat`` knows and of ``rng`` only: the unseen
        cards are pooled in sorted order, other hands are laid out known cards first
        (where a hidden card sits in a hand is hidden too), and when random tries fail
        (very tight constraints) a complete search over the same public facts decides.
        """
        d = self.clone()
        d._reseed(rng)
        n = self.num_players
        others = [s for s in range(n) if s != seat]
        counts = {s: len(self.hands[s]) - len(self.known[s]) for s in others}
        pool = list(self.deck)
        for s in others:
            pool += [self.hands[s][i] for i in self._unseen(s)]
        pool.sort()
        chosen = _sample_hands(pool, others, counts, self.forbid, self.musts, rng)
        if chosen is None:
            chosen = _construct_hands(pool, others, counts, self.forbid, self.musts, rng)
        used = {c for s in others for c in chosen[s]}
        rest = [c for c in pool if c not in used]
        std_shuffle(rng, rest)
        for s in others:
            d.hands[s] = [*self.known[s], *chosen[s]]
        d.deck = rest
        d._dealt = None  # the real deal is not the sample's (its start draws stay: public)
        d._setup = None
        if not self.die:
            d.turn_deck.sort()
            std_shuffle(rng, d.turn_deck)
            if d._shuffle_at >= 0:  # the history's shuffle line must not keep the real order
                order = d.turned + d.turn_deck[::-1]
                d.history[d._shuffle_at] = (CHANCE, "shuffle " + cards.format_many(order))
        if d.phase == PLAY and d.cur != seat:
            d._gen_legal()
        return d

    def redact_history_entry(self, index: int, actor: int, text: str, viewer: Viewer) -> str:
        """A shuffle line shows the cards turned from it so far (all of them for an old shuffle)."""
        if (
            viewer == ALL
            or actor != CHANCE
            or not text.startswith("shuffle ")
            or index != self._shuffle_at
        ):
            return text
        words = text.split()[1:]
        shown = len(self.turned)
        return "shuffle " + " ".join(w if k < shown else cards.HIDDEN for k, w in enumerate(words))

    def redact_setup(self, setup: dict[str, Any], viewer: Viewer) -> dict[str, Any]:
        """Other hands: a dealt card shows once it has left the hand (everyone saw it go);
        the main deck: the cards drawn so far; the turn deck: the cards turned so far."""
        if viewer == ALL:
            return setup
        out = dict(setup)
        hands = []
        for s, hand in enumerate(setup["hands"]):
            if s == viewer:
                hands.append(list(hand))
                continue
            unseen = {self.hands[s][i] for i in self._unseen(s)}
            hands.append([c if cards.parse(c) not in unseen else cards.HIDDEN for c in hand])
        out["hands"] = hands
        drawn = self._deck_start - len(self.deck)
        out["main_deck"] = [
            c if k < drawn else cards.HIDDEN for k, c in enumerate(setup["main_deck"])
        ]
        if "turn_deck" in setup and self._shuffle_at < 0:
            shown = len(self.turned)
            out["turn_deck"] = [
                c if k < shown else cards.HIDDEN for k, c in enumerate(setup["turn_deck"])
            ]
        return out

    # ------------------------------------------------------------- scores
    def scores(self) -> list[float]:
        return [float(p) for p in self.points]

    def winners(self) -> list[int]:
        """L11: one winner; a tie on points and pairs is settled by the recorded coin flip."""
        if self.phase != OVER:
            return []
        tied = self._tied_leaders()
        return tied if len(tied) == 1 else [self.coin]

    def check_invariants(self) -> None:
        n = self.num_players
        seen: list[int] = [c for c in self.grid if c]
        for s in range(n):
            assert len(self.hands[s]) == 3, f"{seat_name(s)} holds {len(self.hands[s])} cards"
            seen += self.hands[s]
            seen += self.piles[s]
            for k in self.known[s]:
                assert k in self.hands[s], "a known hand card is not in the hand"
        seen += self.deck
        assert len(seen) == 52 and set(seen) == DECK_SET, "main-deck cards are lost or doubled"
        if self.deck:
            assert all(self.grid), "an empty cell while the main deck has cards (L8)"
        for u in range(4):
            assert self.suits >> (u << 4) & FULL == sum(
                1 << i for i, c in enumerate(self.grid) if c and c >> 4 == u
            )
        assert self.occ == sum(1 << i for i, c in enumerate(self.grid) if c)
        assert self.fmask == sum(1 << i for i, c in enumerate(self.grid) if c and cards.is_face(c))
        if not self.die:
            both = self.turn_deck + self.turned
            assert len(both) == 52 and set(both) == DECK_SET, "turn-deck cards are lost or doubled"
        for s in range(n):
            pile = self.piles[s]
            assert len(pile) % 2 == 0
            pts = sum(pair_points(pile[k], pile[k + 1]) for k in range(0, len(pile), 2))
            assert all(is_pair(pile[k], pile[k + 1]) for k in range(0, len(pile), 2))
            assert pts == self.points[s] and len(pile) // 2 == self.npairs[s], (
                "scores do not recount"
            )
            unseen = [self.hands[s][i] for i in self._unseen(s)]
            assert not any(1 << c & self.forbid[s] for c in unseen), (
                "a hand breaks what the table learnt"
            )
            for m in self.musts[s]:
                assert any(1 << c & m for c in unseen), "a hand breaks what the table learnt"
        assert self.streak <= self.quiet
        if self.phase == OVER:
            assert self.streak >= n or self.quiet >= self.stall
            assert (len(self._tied_leaders()) > 1) == (self.coin >= 0)
        else:
            assert self.streak < n and self.quiet < self.stall
            assert self._acting == (self.cur,)
            for a in self._legal:
                assert self.action_to_string(self.cur, a)


# ---------------------------------------------------------------------- helpers
def _index_of(items: list[int], c: int) -> int:
    """Where card ``c`` is in a hand-sized list, -1 if absent (a native loop when
    compiled: ``list.index`` and ``in`` are generic calls, slow for three items)."""
    for k in range(len(items)):
        if items[k] == c:
            return k
    return -1


def _append_picked(out: list[T], items: list[T], mask: int) -> None:
    """Append ``items[i]`` for every bit i set in the 16-bit ``mask``, in order.

    Generic on purpose: compiled, the items then pass as the objects they are (the
    table's ints, made once), where a ``list[int]`` loop would unbox and box each one.
    The set bits come from a table by byte: no test of every clear bit.
    """
    for i in BITS8[mask & 255]:
        out.append(items[i])
    for i in BITS8[mask >> 8 & 255]:
        out.append(items[i + 8])


# Moves of cards as the objects they are (generic on purpose, as _append_picked: compiled,
# the same moves on ``list[int]`` would unbox every card and box it again).
def _append_two(out: list[T], items: list[T], i: int, j: int) -> None:
    """Append ``items[i]`` and ``items[j]`` to ``out``."""
    out.append(items[i])
    out.append(items[j])


def _exchange(a: list[T], i: int, b: list[T], j: int) -> None:
    """Exchange ``a[i]`` and ``b[j]``."""
    a[i], b[j] = b[j], a[i]


def _pop_into(src: list[T], dst: list[T], i: int) -> T:
    """Take the last item of ``src`` and put it at ``dst[i]``; return it."""
    item = src.pop()
    dst[i] = item
    return item


def _pop_onto(src: list[T], dst: list[T]) -> T:
    """Take the last item of ``src`` and append it to ``dst``; return it."""
    item = src.pop()
    dst.append(item)
    return item


def _suit_cells(u: int, cells: i64) -> i64:
    """The cell mask ``cells`` moved to suit u's 16 bits of :attr:`LonelyFaceState.suits`."""
    return cells << (u << 4)


def _across_suits(cells: int) -> i64:
    """A 16-bit cell mask repeated in all four suits' fields of :attr:`LonelyFaceState.suits`
    (computed, not a literal: compiled, a ``Final[i64]`` made so is a native word)."""
    return cells * 0x0001_0001_0001_0001


# Bit a of ``m & m >> k & _APART_k``: cells a and a + k both hold a card of the class m
# marks (one suit's cells, or the face cards). The masks keep the cells a whose cell
# a + k lies in the grid at that offset (same row for 2; down-left for 3, down-right
# for 5, two rows down for 8), in every suit's field: so no bit of one suit's field
# meets another's, and none reaches the word's sign bit.
_APART2: Final[i64] = _across_suits(0x3333)
_APART3: Final[i64] = _across_suits(0x0EEE)
_APART5: Final[i64] = _across_suits(0x0777)
_APART8: Final[i64] = _across_suits(0x00FF)


def _pairing_flips(m: i64) -> i64:
    """The edges (laid out as ``_takes``: horizontal in bits 0–15, vertical above) whose
    flip would make a new pair of two cards that ``m`` puts in one class (L7, L9): ``m``
    is :attr:`LonelyFaceState.suits` (four suits' fields) or the face-card mask.

    Bit-parallel, the test of every flip at once: a flip moves each card of the edge to
    the other cell, next to that cell's other neighbours, at offset 2, 3, 5 or 8 from
    it. For the horizontal edge (x, x+1): x+1's card meets x-1 (offset 2), x-4 (5) and
    x+4 (3); x's card meets x+2 (2), x-3 (3) and x+5 (5). For the vertical edge
    (x, x+4): x+4's card meets x-4 (8), x-1 (5) and x+1 (3); x's card meets x+8 (8),
    x+3 (3) and x+5 (5). Only legal flips count, so the caller masks the result.
    """
    p2 = m & m >> 2 & _APART2
    p3 = m & m >> 3 & _APART3
    p5 = m & m >> 5 & _APART5
    p8 = m & m >> 8 & _APART8
    # (every shift below keeps a bit inside its suit's field)
    h = p2 << 1 | p5 << 4 | p3 >> 1 | p2 | p3 << 3 | p5
    v = p8 << 4 | p5 << 1 | p3 >> 1 | p8 | p3 | p5
    h |= h >> 32  # the four suits' fields folded into the low 16 bits
    h |= h >> 16
    v |= v >> 32
    v |= v >> 16
    return h & RIGHT | (v & DOWN) << 16


def _with_take(new: list[int], t: int) -> list[int]:
    """The new pairs' take actions ``new`` with take action ``t`` (a new pair) added.

    The first one is a shared one-item list (most moves that make a pair make one, and
    a legal list is never changed: nothing is made or freed for it); the second makes
    a fresh list, in order (as ``sort`` would leave it); a third is appended (sorted
    at the end). ``new`` starts as the shared empty list.
    """
    if new is _EMPTY:
        return _TAKE_ALONE[t - TAKE]
    if len(new) == 1:
        first = new[0]
        return [first, t] if first < t else [t, first]
    new.append(t)
    return new


def _draws_text(draws: list[dict[int, int]]) -> list[dict[str, str]]:
    """L3's start draws as a setup and a view write them: per round, seat → card."""
    return [{seat_name(s): cards.to_str(c) for s, c in sorted(rnd.items())} for rnd in draws]


def _tied_highest(rnd: dict[int, int]) -> list[int]:
    best = 0
    tied: list[int] = []
    for s, c in rnd.items():
        h = HIGH[c]
        if h > best:
            best = h
            tied = [s]
        elif h == best:
            tied.append(s)
    if len(tied) > 1:
        tied.sort()
    return tied


def _sample_hands(
    pool: list[int],
    others: list[int],
    counts: Mapping[int, int],
    forbid: list[int],
    musts: list[list[int]],
    rng: random.Random,
) -> dict[int, list[int]] | None:
    """``counts[s]`` unseen hand cards for each of ``others`` from ``pool`` (sorted), respecting
    each seat's ``forbid`` mask and ``musts`` masks; None if random tries keep failing (very
    tight constraints). Every input is public, so the result depends on them and ``rng`` only."""
    if not any(forbid[s] or musts[s] for s in others):
        shuffled = pool.copy()
        std_shuffle(rng, shuffled)
        out: dict[int, list[int]] = {}
        k = 0
        for s in others:
            out[s] = shuffled[k : k + counts[s]]
            k += counts[s]
        return out
    order = sorted(others, key=lambda s: -(bin(forbid[s]).count("1") + 13 * len(musts[s])))
    for _ in range(100):
        remaining = pool.copy()
        out = {}
        for s in order:
            k = counts[s]
            allowed = [c for c in remaining if not 1 << c & forbid[s]]
            got = None
            if len(allowed) >= k:
                for _ in range(20):
                    pick = rng.sample(allowed, k)
                    if all(any(1 << c & m for c in pick) for m in musts[s]):
                        got = pick
                        break
            if got is None:
                break
            out[s] = got
            remaining = [c for c in remaining if c not in got]
        else:
            return out
    return None


def _construct_hands(
    pool: list[int],
    others: list[int],
    counts: Mapping[int, int],
    forbid: list[int],
    musts: list[list[int]],
    rng: random.Random,
) -> dict[int, list[int]]:
    """The fallback of :func:`_sample_hands`: a complete search, so it finds hands whenever
    some fit (the real ones do), from the same public facts and ``rng``.

    Cards that every constraint treats alike form one class; the search chooses how many
    cards of each class every seat gets (few choices, failures memoised), then deals the
    cards of each class at random.
    """
    masks = [forbid[s] for s in others] + [m for s in others for m in musts[s]]
    by_key: dict[tuple[bool, ...], list[int]] = {}
    for c in pool:  # pool is sorted, so classes and their order are too
        by_key.setdefault(tuple(bool(1 << c & m) for m in masks), []).append(c)
    groups = list(by_key.values())
    options: dict[int, list[tuple[int, ...]]] = {}
    for s in others:
        ok = [i for i, g in enumerate(groups) if not 1 << g[0] & forbid[s]]
        opts = [
            combo
            for combo in combinations_with_replacement(ok, counts[s])
            if all(any(1 << groups[i][0] & m for i in combo) for m in musts[s])
        ]
        std_shuffle(rng, opts)
        options[s] = opts
    failed: set[tuple[int, tuple[int, ...]]] = set()
    plan: list[tuple[int, ...]] = []

    def search(pos: int, avail: tuple[int, ...]) -> bool:
        if pos == len(others):
            return True
        if (pos, avail) in failed:
            return False
        for combo in options[others[pos]]:
            left = list(avail)
            for i in combo:
                left[i] -= 1
            if all(left[i] >= 0 for i in combo) and search(pos + 1, tuple(left)):
                plan.append(combo)
                return True
        failed.add((pos, avail))
        return False

    if not search(0, tuple(len(g) for g in groups)):
        raise AssertionError("no hands fit what the table learnt (the real ones should)")
    plan.reverse()
    for g in groups:
        std_shuffle(rng, g)
    return {s: [groups[i].pop() for i in combo] for s, combo in zip(others, plan, strict=True)}


def _grid_cells(raw: Any) -> Any:
    """The grid as the flat list of 16 cells: given so, or by cell name
    (``{"a1": "7H", "c2": "KS"}``, a cell left out is empty, ``--``)."""
    if not isinstance(raw, Mapping):
        return raw
    cells = [_EMPTY_CELL] * CELLS
    for name, value in raw.items():
        key = str(name).strip().lower()
        if key not in CELL_OF:
            raise SetupError(
                f"grid: {excerpt(name, 20)!r} is not a cell (cells are a1 … d4: column a–d, row 1–4)"
            )
        if not isinstance(value, str):
            raise SetupError(f'grid: cell {key} holds a card such as "7H", not {excerpt(value)}')
        cells[CELL_OF[key]] = value
    return cells


def _card_list(raw: Any, label: str, allow_empty: bool = False) -> list[int]:
    """Cards given as a list of strings (or one space-separated string); ``--`` an empty cell."""
    if isinstance(raw, str):
        raw = raw.split()
    if not isinstance(raw, list) or not all(isinstance(t, str) for t in raw):
        raise SetupError(f'{label} is a list of cards such as ["KH", "7S"]')
    out = []
    for t in raw:
        if allow_empty and t.strip() == _EMPTY_CELL:
            out.append(0)
            continue
        try:
            out.append(cards.parse(t))
        except cards.CardError as exc:
            extra = " (an empty cell is --)" if allow_empty else ""
            raise SetupError(f"{label}: {exc}{extra}") from None
    return out


def _seat_of(raw: Any, n: int, label: str) -> int:
    if not isinstance(raw, str):
        raise SetupError(f'{label} is a seat name such as "p1"')
    try:
        return seat_index(raw, n)
    except ValueError as exc:
        raise SetupError(f"{label}: {exc}") from None


def _check_draws(raw: Any, n: int, first: int) -> list[dict[int, int]]:
    """L3: round 1 every seat draws; then the seats tied for highest draw again; the last
    round has a single highest card, whose seat is ``first``."""
    if not isinstance(raw, list) or not raw:
        raise SetupError(
            'start_draws is a list of draw rounds such as [{"p1": "9H", "p2": "KS"}] (L3)'
        )
    drawing = list(range(n))
    used: set[int] = set()
    draws: list[dict[int, int]] = []
    for k, rnd_raw in enumerate(raw):
        label = f"start_draws round {k + 1}"
        if not isinstance(rnd_raw, Mapping):
            raise SetupError(f'{label} is an object of seat → card, e.g. {{"p1": "9H"}}')
        rnd: dict[int, int] = {}
        for name, text in rnd_raw.items():
            s = _seat_of(name, n, label)
            if not isinstance(text, str):
                raise SetupError(f'{label}: {name}\'s card is written like "9H"')
            try:
                c = cards.parse(text)
            except cards.CardError as exc:
                raise SetupError(f"{label}: {exc}") from None
            if c not in DECK_SET:
                raise SetupError(f"{label}: {text} is not a card of a standard deck")
            if c in used:
                raise SetupError(
                    f"{label}: {cards.to_str(c)} was already drawn (drawn cards are set aside)"
                )
            used.add(c)
            rnd[s] = c
        want = ", ".join(seat_name(s) for s in drawing)
        if sorted(rnd) != drawing:
            who = "every seat draws" if k == 0 else "the seats tied for highest draw again"
            raise SetupError(
                f"{label}: {who} ({want}), not {', '.join(seat_name(s) for s in sorted(rnd))}"
            )
        draws.append(rnd)
        drawing = _tied_highest(rnd)
        if len(drawing) == 1:
            if k != len(raw) - 1:
                raise SetupError(
                    f"{label} already has a single highest card: no more rounds follow"
                )
            if drawing[0] != first:
                raise SetupError(
                    f"first_player is {seat_name(first)}, but {seat_name(drawing[0])} drew the highest card (L3)"
                )
            return draws
    tied = ", ".join(seat_name(s) for s in drawing)
    raise SetupError(f"the start draws end in a tie ({tied}): the tied seats draw again (L3)")
