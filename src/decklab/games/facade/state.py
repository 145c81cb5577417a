"""Façade's rules (RULINGS.md F1–F11) on the generic engine.

A phase deals up to four cards into the supply; the players bid on them in turn,
one face-down bid card at a time, until every bid card is down; the bids are
revealed, the single highest bid on each supply card takes it, and the winners
place their won cards one at a time into their tableaux. Nothing is random after
the deal: the draw pile order and the first bidder are the whole setup.

Actions are small ints: a bid is ``k << 7 | card`` (``k`` the bid card's index in
A, J, Q, K); a placement is ``512 + (card << 6) + dest`` (``dest`` 0 for a new
group, ``j`` for the seat's j-th group).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, Final

from mypy_extensions import mypyc_attr

from decklab import cards
from decklab.engine.chance import std_shuffle
from decklab.engine.errors import SetupError
from decklab.engine.info import GameInfo, Option
from decklab.engine.shorthand import DeckPiles
from decklab.engine.state import ALL, GameState, Viewer, seat_index, seat_name
from decklab.games.facade.scoring import can_join, group_score, is_possible

HOUSE_LETTERS: Final = "SHDC"
BID_RANKS: Final = (cards.ACE, cards.JACK, cards.QUEEN, cards.KING)
BID_WORTH: Final = (1, 2, 4, 4)
"""F2: A=1, J=2, Q=4, K=4 — Q and K are worth the same but are different cards."""
FULL_HAND: Final = 0b1111
PHASE_CARDS: Final = 4
PLACE_BASE: Final = 512
NEW_GROUP: Final = 0

_BIT: Final = [
    1 << (9 * (c >> 4) + (c & 15) - 2) if 2 <= c & 15 <= 10 and c >> 4 <= 4 else 0
    for c in range(1 << 7)
]
"""A draw pile card's bit in the card masks below: 45 cards (2–10 of five suits) in bits
0–44, so a mask stays a machine word (compiled, card ints as bit numbers would not)."""
_RANK_MASK: Final = [0] * 16
_SUIT_MASK: Final = [0] * 8
for _s in range(5):
    for _r in range(2, 11):
        _RANK_MASK[_r] |= _BIT[cards.card(_r, _s)]
        _SUIT_MASK[_s] |= _BIT[cards.card(_r, _s)]
_ONE_CARD_ACCEPTS: Final = [
    (_RANK_MASK[c & 15] | _SUIT_MASK[c >> 4]) & ~_BIT[c] if 2 <= c & 15 <= 10 and c >> 4 <= 4 else 0
    for c in range(1 << 7)
]
"""For a one-card group {c}: the mask (see ``_BIT``) of the cards that may join it (F8)."""

_TEXT: Final = [cards.to_str(c) if 1 <= c & 15 <= 13 and c >> 4 <= 4 else "" for c in range(1 << 7)]
"""Card text by card int: export_setup runs for every new game, so it should be cheap."""
_PLAIN_DECK: Final = tuple(cards.deck(cards.STANDARD_SUITS, range(2, 11)))
_STARS_DECK: Final = tuple(cards.deck([*cards.STANDARD_SUITS, cards.STARS], range(2, 11)))

BIDDING: Final = 0
PLACING: Final = 1
OVER: Final = 2
_STEP_NAMES: Final = ("bidding", "placing", "over")
_NO_ACTIONS: Final[list[int]] = []
_ACTING: Final[tuple[tuple[int, ...], ...]] = ((0,), (1,), (2,), (3,), ())
"""to_act by actor, without allocating; actor -1 (game over) is the last entry."""


def _default_house(n: int) -> str:
    """HCDS cut to the player count: hearts, clubs, diamonds, spades by seat (F1)"""
    return "HCDS"[:n]


def _check_house(value: Any, n: int) -> str | None:
    text = str(value).upper()
    if len(text) != n:
        return f"give one house suit letter per seat ({n} letters from S H D C), not {len(text)}"
    for ch in text:
        if ch not in HOUSE_LETTERS:
            return f"{ch!r} is not a house suit (house suits are S H D C; stars cannot be one)"
    if len(set(text)) != n:
        return "two players never share a house suit (F1)"
    return None


INFO: Final = GameInfo(
    name="facade",
    title="Façade",
    version=1,
    min_players=2,
    max_players=4,
    default_players=2,
    summary="Bid face down with your A, J, Q, K on the cards of the supply, then build "
    "sets and sequences with what you win; incomplete groups cost you.",
    simultaneous=False,
    hidden_information=True,
    score_unit="points",
    options=(
        Option(
            "house_suits",
            "each seat's house suit in seat order, letters from S H D C, e.g. HC (F1)",
            str,
            default=_default_house,
            check=_check_house,
        ),
        Option("fifth_suit", "add 2–10 of stars (X, ★) to the draw pile (F3)", bool, default=False),
        Option(
            "first_bidder",
            "the seat that bids first all game; random if not given (F4)",
            "seat",
            default=None,
            nullable=True,
        ),
    ),
)


def _holds(items: list[int], x: int) -> bool:
    """``x in items``: compiled, a loop on native ints (mypyc turns ``any`` of a generator
    into one) is several times cheaper than the generic ``in``, a comparison of objects
    per item."""
    return any(items[i] == x for i in range(len(items)))


def _bid_action(k: int, card: int) -> int:
    return (k << 7) | card


def _place_action(card: int, dest: int) -> int:
    return PLACE_BASE + (card << 6) + dest


@mypyc_attr(allow_interpreted_subclasses=True)  # a variant's class (engine/registry.py)
class FacadeState(GameState):
    """A game of Façade between ``num_players`` seats."""

    info = INFO
    static_setup = True

    house: list[int]
    """Each seat's house suit (F1)."""
    bid_cards: list[tuple[int, ...]]
    """Each seat's four bid cards, A J Q K of its house suit (F2), index k = 0..3."""
    deck: tuple[int, ...]
    """Every card of the draw pile as dealt (F3), first = top: the setup."""
    pile: list[int]
    """The draw pile still to deal; its top is the *last* element (cheap pop)."""
    supply: list[int]
    """Face-up supply cards: leftovers first, then this phase's new cards, in deal order."""
    hands: list[int]
    """Bid cards still in each seat's hand this phase, as a bit mask over k."""
    bids: list[tuple[int, int, int]]
    """This phase's placed bids (seat, k, supply card), in the order placed."""
    last_bids: list[tuple[int, int, int]]
    """The previous reveal's bids: public."""
    last_taken: list[tuple[int, int]]
    """The previous reveal's results: (supply card, winning seat) in supply order."""
    won: list[list[int]]
    """Won cards waiting to be placed (F7), per seat, in supply order."""
    groups: list[list[tuple[int, ...]]]
    """Each seat's tableau: groups in creation order (g1, g2, …), each in placing order."""
    accepts: list[list[int]]
    """Parallel to ``groups``: per group, the mask (a bit per card, ``_BIT``) of the cards
    that may still join it (F8) — the placement test becomes one and."""
    points: list[int]
    """Each seat's F9 total of its tableau as it stands, kept up to date per placement."""
    discard: list[int]
    """Supply cards discarded at the end (F10)."""
    first: int
    phase: int
    step: int
    """Bids placed this phase; the bidder is (first + step) mod n (F4)."""
    mode: int
    actor: int
    _hidden_from: int
    """History index from which bids are still face down (this phase, before its reveal)."""
    _legal: list[int] | None
    _turns: tuple[int, ...]
    """The bidder of each bidding turn of a phase: seat order from the first bidder (F4)."""
    _bid_lists: list[list[int] | None]
    """This phase's bid action lists by hand mask: the supply is fixed while bidding,
    and every seat's hand is four cards k = 0..3, so all seats share them."""

    # ------------------------------------------------------------- set-up
    def _init_fields(self) -> None:
        n = self.num_players
        letters = str(self.options["house_suits"]).upper()
        self.house = [HOUSE_LETTERS.index(ch) for ch in letters]
        self.bid_cards = [tuple(cards.card(r, s) for r in BID_RANKS) for s in self.house]
        self.deck = ()
        self.pile = []
        self.supply = []
        self.hands = [FULL_HAND] * n
        self.bids = []
        self.last_bids = []
        self.last_taken = []
        self.won = [[] for _ in range(n)]
        self.groups = [[] for _ in range(n)]
        self.accepts = [[] for _ in range(n)]
        self.points = [0] * n
        self.discard = []
        self.first = 0
        self.phase = 0
        self.step = 0
        self.mode = BIDDING
        self.actor = 0
        self._hidden_from = 0
        self._legal = None
        self._bid_lists = [None] * 16
        self._turns = ()

    def full_deck(self) -> list[int]:
        """The draw pile's cards (F3): 2–10 of S H D C, and of stars with ``fifth_suit``."""
        return list(_STARS_DECK if self.options["fifth_suit"] else _PLAIN_DECK)

    def _deal(self) -> None:
        order = self.full_deck()
        self.rng.shuffle(order)
        opt = self.options["first_bidder"]
        first = (
            seat_index(opt, self.num_players)
            if opt is not None
            else self.rng.below(self.num_players)
        )
        self._begin(order, first)

    def setup_decks(self) -> Sequence[DeckPiles]:
        """The draw pile is the whole deck: ``...`` completes it (engine/shorthand.py)."""
        return (DeckPiles(tuple(self.full_deck()), ("draw_pile",)),)

    def _load_setup(self, setup: Mapping[str, Any]) -> None:
        unknown = set(setup) - {"draw_pile", "first_bidder"}
        if unknown:
            raise SetupError(
                f"unknown setup key(s) {', '.join(sorted(unknown))} (Façade's setup has draw_pile and first_bidder)"
            )
        if "draw_pile" not in setup:
            raise SetupError("the setup needs draw_pile: every draw pile card, first = top")
        raw = setup["draw_pile"]
        if isinstance(raw, str):
            raw = raw.split()
        if not isinstance(raw, list) or not all(isinstance(t, str) for t in raw):
            raise SetupError('draw_pile is a list of cards such as ["9D", "TH", …], first = top')
        order = []
        for text in raw:
            try:
                order.append(cards.parse(text))
            # ``bad``, not ``exc``: compiled, one name has one type in a function (see below)
            except cards.CardError as bad:
                raise SetupError(f"draw_pile: {bad}") from None
        expected = self.full_deck()
        allowed = set(expected)
        seen: set[int] = set()
        for c in order:
            if c not in allowed:
                raise SetupError(
                    f"draw_pile: {cards.to_str(c)} is not a card of this game's draw pile (F3)"
                )
            if c in seen:
                raise SetupError(f"draw_pile: {cards.to_str(c)} appears twice")
            seen.add(c)
        if len(order) != len(expected):
            raise SetupError(
                f"draw_pile has {len(order)} cards; this game needs all {len(expected)} "
                f"(2–10 of {'S H D C X' if self.options['fifth_suit'] else 'S H D C'}, F3)"
            )
        opt = self.options["first_bidder"]
        given = setup.get("first_bidder")
        if given is None:
            if opt is None:
                raise SetupError(
                    'the setup needs first_bidder (e.g. "p1") unless the options name one'
                )
            given = opt
        if not isinstance(given, str):
            raise SetupError(f'first_bidder is a seat such as "p1", not {given!r}')
        try:
            first = seat_index(given, self.num_players)
        except ValueError as exc:
            raise SetupError(f"first_bidder: {exc}") from None
        if opt is not None and seat_index(opt, self.num_players) != first:
            raise SetupError(f"first_bidder {given} contradicts the option first_bidder={opt}")
        self._begin(order, first)

    def _begin(self, order: list[int], first: int) -> None:
        self.deck = tuple(order)
        self.pile = order[::-1]
        self.first = first
        n = self.num_players
        self._turns = tuple((first + t) % n for t in range(4 * n))
        self._start_phase()

    def export_setup(self) -> dict[str, Any]:
        return {
            "draw_pile": [_TEXT[c] for c in self.deck],
            "first_bidder": seat_name(self.first),
        }

    def clone(self) -> FacadeState:
        c = self._clone_base()
        c.house = self.house  # never mutated
        c.bid_cards = self.bid_cards  # never mutated
        c.deck = self.deck
        c.pile = self.pile.copy()
        c.supply = self.supply.copy()
        c.hands = self.hands.copy()
        c.bids = self.bids.copy()
        c.last_bids = self.last_bids  # replaced, never mutated
        c.last_taken = self.last_taken  # replaced, never mutated
        c.won = [w.copy() for w in self.won]
        c.groups = [g.copy() for g in self.groups]  # groups are tuples
        c.accepts = [a.copy() for a in self.accepts]
        c.points = self.points.copy()
        c.discard = self.discard.copy()
        c.first = self.first
        c.phase = self.phase
        c.step = self.step
        c.mode = self.mode
        c.actor = self.actor
        c._hidden_from = self._hidden_from
        c._legal = self._legal  # rebuilt, never mutated
        c._bid_lists = self._bid_lists  # a function of the supply alone: safe to share
        c._turns = self._turns
        return c

    # -------------------------------------------------------------- phases
    def _start_phase(self) -> None:
        """F3: deal min(4, left) cards into the supply; F2: every hand comes back."""
        pile = self.pile
        for _ in range(min(PHASE_CARDS, len(pile))):
            self.supply.append(pile.pop())
        self.phase += 1
        self.hands = [FULL_HAND] * self.num_players
        self.step = 0
        self.mode = BIDDING
        self.actor = self.first
        self._hidden_from = len(self.history)
        self._legal = None
        self._bid_lists = [None] * 16

    def _reveal(self) -> None:
        """F6: per supply card, each seat's bid is the sum of its bid cards there; the
        single highest bid takes the card; a tie or no bid leaves it in the supply."""
        n = self.num_players
        supply = self.supply
        totals = [0] * (n * len(supply))  # seat s's bid on supply[i] at i * n + s
        for seat, k, c in self.bids:
            at = supply.index(c) * n + seat
            totals[at] = totals[at] + BID_WORTH[k]
        taken: list[tuple[int, int]] = []
        keep: list[int] = []
        for i, c in enumerate(supply):
            best = 0
            winner = -1  # the single highest bidder; -1 no bid, -2 a tie for the highest
            for s in range(n):
                v = totals[i * n + s]
                if v > best:
                    best = v
                    winner = s
                elif v == best and v:
                    winner = -2
            if winner >= 0:
                self.won[winner].append(c)
                taken.append((c, winner))
            else:
                keep.append(c)
        self.supply = keep
        self.last_bids = self.bids
        self.last_taken = taken
        self.bids = []
        self._hidden_from = len(self.history)
        self.mode = PLACING
        self._next_placer()

    def _next_placer(self) -> None:
        """F7: winners place in seat order from the first bidder; then the next phase or the end."""
        n = self.num_players
        for i in range(n):
            s = (self.first + i) % n
            if self.won[s]:
                self.actor = s
                self._legal = None
                return
        if self.pile:
            self._start_phase()
            return
        # F10: the pile is empty and every won card is placed: the game ends.
        self.discard.extend(self.supply)
        self.supply = []
        self.mode = OVER
        self.actor = -1
        self._legal = _NO_ACTIONS

    # -------------------------------------------------------------- turns
    def to_act(self) -> tuple[int, ...]:
        return _ACTING[self.actor]

    def is_terminal(self) -> bool:
        return self.mode == OVER

    def legal_actions(self, seat: int) -> list[int]:
        if seat != self.actor:
            return _NO_ACTIONS
        legal = self._legal
        if legal is None:
            if self.mode == BIDDING:
                # F4/F5: any bid card still in hand, on any supply card.
                legal = self._bid_lists[self.hands[seat]] or self._bid_list(self.hands[seat])
            else:
                legal = self._placements(seat)
            self._legal = legal
        return legal

    def _bid_list(self, hand: int) -> list[int]:
        """The bids of a hand (bit mask over k), built from the one-card lists and kept
        for the phase: the supply does not change while bidding."""
        lists = self._bid_lists
        out: list[int] = []
        for k in range(4):
            if hand >> k & 1:
                one = lists[1 << k]
                if one is None:
                    one = lists[1 << k] = [(k << 7) | c for c in self.supply]
                out += one
        lists[hand] = out
        return out

    def _placements(self, seat: int) -> list[int]:
        """F7/F8: any won card, into a new group or onto a group it keeps possible."""
        accepts = self.accepts[seat]
        out = []
        for c in self.won[seat]:
            base = PLACE_BASE + (c << 6)
            out.append(base)
            bit = _BIT[c]
            for j in range(len(accepts)):
                if accepts[j] & bit:
                    out.append(base + j + 1)
        return out

    def apply(self, seat: int, action: int) -> None:
        # Inlined check (hot path), the same test as membership in legal_actions(seat):
        # a bid card still in hand on a supply card, or a won card into a new group or
        # onto a group whose mask takes it.
        if seat == self.actor and action >= 0:
            if self.mode == BIDDING:
                ok = (
                    action < PLACE_BASE
                    and self.hands[seat] >> (action >> 7) & 1 == 1
                    and _holds(self.supply, action & 127)
                )
            else:  # PLACING (the game is over when actor is -1)
                rest = action - PLACE_BASE
                c = rest >> 6
                dest = rest & 63
                ok = (
                    rest >= 0
                    and _holds(self.won[seat], c)
                    and (
                        dest == NEW_GROUP
                        or (
                            dest <= len(self.accepts[seat])
                            and self.accepts[seat][dest - 1] & _BIT[c] != 0
                        )
                    )
                )
            if ok:
                self.history.append((seat, action))
                self._apply(seat, action)
                return
        raise self.illegal(seat, action)

    def _apply(self, seat: int, action: int) -> None:
        self._legal = None
        if action < PLACE_BASE:
            k = action >> 7
            hands = self.hands
            hands[seat] = hands[seat] & ~(1 << k)
            self.bids.append((seat, k, action & 127))
            step = self.step = self.step + 1
            if step == 4 * self.num_players:
                self._reveal()
            else:
                self.actor = self._turns[step]
            return
        rest = action - PLACE_BASE
        c = rest >> 6
        dest = rest & 63
        self.won[seat].remove(c)
        groups = self.groups[seat]
        points = self.points
        if dest == NEW_GROUP:
            groups.append((c,))
            self.accepts[seat].append(_ONE_CARD_ACCEPTS[c])
            points[seat] = points[seat] - 1
        else:
            j = dest - 1
            old = groups[j]
            new = (*old, c)
            groups[j] = new
            accepts = self.accepts[seat]
            # The group is now a set to be (same rank) or a sequence to be (same suit).
            same = _RANK_MASK[c & 15] if (old[0] & 15) == (c & 15) else _SUIT_MASK[c >> 4]
            accepts[j] = accepts[j] & same & ~_BIT[c]
            if len(new) < 3:
                points[seat] = points[seat] - 1
            else:
                house = self.house[seat]
                points[seat] = points[seat] + group_score(new, house) - group_score(old, house)
        if not self.won[seat]:
            self._next_placer()

    # -------------------------------------------------------- action text
    def action_to_string(self, seat: int, action: int) -> str:
        if 0 <= action < PLACE_BASE:
            c = action & 127
            if not 0 <= seat < self.num_players or c >> 4 > cards.STARS or not 1 <= c & 15 <= 13:
                raise ValueError(f"#{action} is not a Façade action")
            return f"bid {cards.to_str(self.bid_cards[seat][action >> 7])} {cards.to_str(c)}"
        rest = action - PLACE_BASE
        c, dest = rest >> 6, rest & 63
        if rest < 0 or c >> 4 > cards.STARS or not 1 <= c & 15 <= 13:
            raise ValueError(f"#{action} is not a Façade action")
        return f"place {cards.to_str(c)} {'new' if dest == NEW_GROUP else f'g{dest}'}"

    def explain_illegal(self, seat: int, text: str) -> str:
        # Uses only what the seat sees: its own hand, the supply, public tableaux and won cards.
        words = text.split()
        if self.mode == BIDDING:
            if not words or words[0] != "bid" or len(words) != 3:
                example = (
                    f"bid {cards.to_str(self.bid_cards[seat][3])} {cards.to_str(self.supply[0])}"
                )
                return (
                    f"it is the bidding step: write 'bid CARD SUPPLY-CARD', e.g. '{example}' (F4)"
                )
            if not cards.is_card_text(words[1]):
                return f"{words[1]!r} is not a card"
            b = cards.parse(words[1])
            if b not in self.bid_cards[seat]:
                mine = " ".join(cards.to_str(x) for x in self.bid_cards[seat])
                return f"{cards.to_str(b)} is not one of {seat_name(seat)}'s bid cards ({mine}, F2)"
            if not self.hands[seat] >> self.bid_cards[seat].index(b) & 1:
                return f"{cards.to_str(b)} is already placed this phase"
            if not cards.is_card_text(words[2]) or cards.parse(words[2]) not in self.supply:
                shown = " ".join(cards.to_str(x) for x in self.supply)
                return f"{words[2]} is not in the supply (supply: {shown})"
            return super().explain_illegal(seat, text)
        if not words or words[0] != "place" or len(words) != 3:
            return "it is the placing step: write 'place CARD new' or 'place CARD gN' (F7)"
        if not cards.is_card_text(words[1]) or cards.parse(words[1]) not in self.won[seat]:
            mine = " ".join(cards.to_str(x) for x in self.won[seat])
            return f"{words[1]} is not one of {seat_name(seat)}'s won cards to place ({mine})"
        c = cards.parse(words[1])
        dest = words[2]
        groups = self.groups[seat]
        if dest == "new":
            return super().explain_illegal(seat, text)
        if not (dest.startswith("g") and dest[1:].isdigit()):
            return f"the destination is 'new' or a group g1…g{len(groups)}, not {dest!r}"
        j = int(dest[1:])
        if not 1 <= j <= len(groups):
            return f"{seat_name(seat)} has no group {dest} (it has {len(groups)})"
        g = groups[j - 1]
        if not can_join(g, c):
            shown = " ".join(cards.to_str(x) for x in g)
            return (
                f"{cards.to_str(c)} cannot join {dest} ({shown}): a group must stay a possible "
                "set (one rank) or sequence (one suit, different ranks) (F8)"
            )
        return super().explain_illegal(seat, text)

    def describe_action(self, seat: int, action: int) -> str:
        if action < PLACE_BASE:
            return f"{seat_name(seat)} puts a bid card face down on {cards.to_str(action & 127)}."
        rest = action - PLACE_BASE
        c, dest = rest >> 6, rest & 63
        where = "a new group" if dest == NEW_GROUP else f"group g{dest}"
        return f"{seat_name(seat)} places {cards.to_str(c)} into {where}."

    # -------------------------------------------------------------- views
    def _bid_text(self, seat: int, k: int, viewer: Viewer) -> str:
        return cards.to_str(self.bid_cards[seat][k]) if viewer in (seat, ALL) else cards.HIDDEN

    def _hand_cards(self, seat: int) -> list[str]:
        mask = self.hands[seat]
        return [cards.to_str(self.bid_cards[seat][k]) for k in range(4) if mask >> k & 1]

    def view(self, seat: Viewer) -> dict[str, Any]:
        n = self.num_players
        names = [seat_name(s) for s in range(n)]
        out: dict[str, Any] = {
            "game": "facade",
            "phase": self.phase,
            "phases": -(-len(self.deck) // PHASE_CARDS),
            "step": _STEP_NAMES[self.mode],
            "first_bidder": names[self.first],
            "house_suits": {names[s]: cards.SUIT_LETTERS[self.house[s]] for s in range(n)},
            "draw_pile": len(self.pile),
            "supply": [cards.to_str(c) for c in self.supply],
            "bids": [
                {"by": names[s], "card": self._bid_text(s, k, seat), "on": cards.to_str(c)}
                for s, k, c in self.bids
            ],
            "bid_cards_left": {names[s]: self.hands[s].bit_count() for s in range(n)},
            "last_reveal": {
                "bids": [
                    {
                        "by": names[s],
                        "card": cards.to_str(self.bid_cards[s][k]),
                        "on": cards.to_str(c),
                    }
                    for s, k, c in self.last_bids
                ],
                "taken": [{"card": cards.to_str(c), "by": names[w]} for c, w in self.last_taken],
            },
            "to_place": {names[s]: [cards.to_str(c) for c in self.won[s]] for s in range(n)},
            "tableaux": {
                names[s]: [[cards.to_str(c) for c in g] for g in self.groups[s]] for s in range(n)
            },
            "scores": {names[s]: self.points[s] for s in range(n)},
            "discarded": [cards.to_str(c) for c in self.discard],
            "to_act": [names[s] for s in self.to_act()],
            "terminal": self.mode == OVER,
        }
        if seat == ALL:
            out["hands"] = {names[s]: self._hand_cards(s) for s in range(n)}
            out["draw_pile_order"] = [cards.to_str(c) for c in reversed(self.pile)]
        elif seat is not None:
            out["seat"] = names[seat]
            out["hand"] = self._hand_cards(seat)
        return out

    def render(self, seat: Viewer = None) -> str:
        n = self.num_players
        head = f"Façade — phase {self.phase}/{-(-len(self.deck) // PHASE_CARDS)}, {_STEP_NAMES[self.mode]}"
        lines = [head, f"Draw pile: {len(self.pile)} cards; first bidder {seat_name(self.first)}"]
        lines.append("Supply: " + (" ".join(cards.to_display(c) for c in self.supply) or "—"))
        if self.bids:
            shown = ", ".join(
                f"{seat_name(s)} {self._bid_text(s, k, seat)}→{cards.to_str(c)}"
                for s, k, c in self.bids
            )
            lines.append(f"Bids: {shown}")
        if self.last_taken:
            got = ", ".join(f"{cards.to_str(c)}→{seat_name(w)}" for c, w in self.last_taken)
            lines.append(f"Last reveal took: {got}")
        for s in range(n):
            mark = ">" if s == seat else " "
            suit = cards.SUIT_SYMBOLS[self.house[s]]
            if seat in (s, ALL):
                hand = " ".join(self._hand_cards(s)) or "—"
            else:
                hand = f"{self.hands[s].bit_count()} bid cards"
            tableau = "  ".join(
                f"g{j}[" + " ".join(cards.to_display(c) for c in g) + "]"
                for j, g in enumerate(self.groups[s], 1)
            )
            lines.append(f"{mark} {seat_name(s):>3} {suit} {self.points[s]:>4} pts  hand: {hand}")
            if self.won[s]:
                lines.append(f"        to place: {' '.join(cards.to_str(c) for c in self.won[s])}")
            lines.append(f"        tableau: {tableau or '—'}")
        if self.discard:
            lines.append("Discarded: " + " ".join(cards.to_str(c) for c in self.discard))
        if self.mode == OVER:
            lines.append("Game over. Winners: " + ", ".join(seat_name(w) for w in self.winners()))
        return "\n".join(lines)

    def determinize(self, seat: int, rng: random.Random) -> FacadeState:
        """Resample the draw pile order and which bid card of every other seat lies where.

        Every seat holds the same four bid cards each phase, so for another seat any
        assignment of its four cards to its face-down bids (the rest in hand) fits
        what ``seat`` knows; the history is rewritten to match.
        """
        d = self.clone()
        d._reseed(rng)
        # Sorted first, so the sample never depends on the true (hidden) pile order.
        d.pile.sort()
        std_shuffle(rng, d.pile)
        dealt = len(self.deck) - len(self.pile)
        d.deck = self.deck[:dealt] + tuple(reversed(d.pile))
        if self.mode == BIDDING and self.bids:
            n = self.num_players
            new_k: list[list[int]] = []
            for s in range(n):
                perm = [0, 1, 2, 3]
                if s != seat:
                    std_shuffle(rng, perm)
                new_k.append(perm)
            used = [0] * n
            bids = []
            for s, k, c in self.bids:
                if s != seat:
                    k = new_k[s][used[s]]
                    used[s] += 1
                bids.append((s, k, c))
            for s in range(n):
                if s != seat:
                    mask = 0
                    for k in new_k[s][used[s] :]:
                        mask |= 1 << k
                    d.hands[s] = mask
            d.bids = bids
            # The phase's history is exactly its bids, in order.
            start = self._hidden_from
            history = d.history
            for i, (s, k, c) in enumerate(bids):
                history[start + i] = (s, _bid_action(k, c))
            d._legal = None
        return d

    def redact_history_entry(self, index: int, actor: int, text: str, viewer: Viewer) -> str:
        # Bids of this phase stay face down until its reveal (F5); all else is public.
        if (
            index >= self._hidden_from
            and actor >= 0
            and actor != viewer
            and viewer != ALL
            and text.startswith("bid ")
        ):
            return f"bid {cards.HIDDEN} {text.split()[2]}"
        return text

    def redact_setup(self, setup: dict[str, Any], viewer: Viewer) -> dict[str, Any]:
        """The draw pile order is hidden from everyone (F3), except the cards dealt so far."""
        if viewer == ALL:
            return setup
        dealt = len(self.deck) - len(self.pile)
        pile = list(setup.get("draw_pile", []))
        shown = pile[:dealt] + [cards.HIDDEN] * (len(pile) - dealt)
        return {**setup, "draw_pile": shown}

    # ------------------------------------------------------------- scores
    def scores(self) -> list[float]:
        return [float(p) for p in self.points]

    def check_invariants(self) -> None:
        n = self.num_players
        # Every draw pile card is in exactly one place.
        places: list[int] = [*self.pile, *self.supply, *self.discard]
        for s in range(n):
            places.extend(self.won[s])
            for g in self.groups[s]:
                places.extend(g)
        assert sorted(places) == sorted(self.full_deck()), "a card is missing or in two places"
        assert sorted(self.deck) == sorted(self.full_deck())
        # Every bid card is in its owner's hand or on the table, once.
        placed = [0] * n
        for s, k, c in self.bids:
            assert c in self.supply, "a bid lies on a card that is not in the supply"
            assert not self.hands[s] >> k & 1, "a bid card is both in hand and on the table"
            placed[s] += 1
        for s in range(n):
            # In hand or down this phase; after the reveal they wait for the next phase (F2).
            assert self.hands[s].bit_count() + placed[s] == (4 if self.mode == BIDDING else 0)
        # Groups meet F8; scores match a recount (F9).
        deck = self.full_deck()
        in_deck = sum(_BIT[x] for x in deck)
        for s in range(n):
            assert len(self.accepts[s]) == len(self.groups[s])
            for g, acc in zip(self.groups[s], self.accepts[s], strict=True):
                assert is_possible(g), f"group {g} breaks F8"
                # The fast placement masks agree with the reference test of F8.
                want = sum(_BIT[x] for x in deck if x not in g and can_join(g, x))
                assert acc & in_deck & ~sum(_BIT[x] for x in g) == want, (
                    f"accept mask of {g} is wrong"
                )
            recount = sum(group_score(g, self.house[s]) for g in self.groups[s])
            assert recount == self.points[s], (s, recount, self.points[s])
        if self.mode == BIDDING:
            assert len(self.bids) == self.step < 4 * n
            assert self.actor == (self.first + self.step) % n
            assert not any(self.won)
        elif self.mode == PLACING:
            assert not self.bids and self.won[self.actor]
        else:
            assert not self.pile and not self.supply and not any(self.won)
        dealt = len(self.deck) - len(self.pile)
        assert self.phase == -(-dealt // PHASE_CARDS)
