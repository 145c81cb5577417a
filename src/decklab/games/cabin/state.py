"""The Cabin by the Sea's rules (RULINGS.md C1–C7) on the generic engine.

A solo patience game. Every choice the rules leave to the player is a decision
(an action of seat p1); what nobody chooses happens inside ``_apply``: turning
the next sea card, losing an unbuildable taken card to the squid pile, and
C3's last case (a sea card that cannot go anywhere sinks to the deep sea).

The whole game is fixed by its deal (C7), so there are no chance lines: the
setup lists every pile in order and the actions name every choice.

Piles are lists of card ints with the *top at the end* (O(1) pop and push);
outside (setups, views) every pile is written top first. Stacks are tuples,
bottom first, replaced when they grow, so ``clone`` copies only flat lists.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from itertools import pairwise
from typing import Any, Final

from mypy_extensions import mypyc_attr

from decklab import cards
from decklab.engine.chance import std_shuffle
from decklab.engine.errors import SetupError
from decklab.engine.info import GameInfo, Option
from decklab.engine.shorthand import DeckPiles
from decklab.engine.state import ALL, GameState, Viewer, seat_name

INFO: Final = GameInfo(
    name="cabin",
    title="The Cabin by the Sea",
    version=1,
    min_players=1,
    max_players=1,
    default_players=1,
    summary="Solo patience: build ascending one-suit stacks from the sea, the cabin and "
    "the beach; every card lost to the squid costs points, lowest total wins (0 is perfect).",
    simultaneous=False,
    hidden_information=True,
    lower_is_better=True,
    score_unit="squid points",
    options=(
        Option(
            "stacks",
            "how many stacks the cabin may have (C2), 1 to 8: 8 by the rules, 7 for the "
            "harder game, fewer for harder still",
            int,
            default=8,
            minimum=1,
            maximum=8,
        ),
        Option(
            "beach_dump",
            "the designer's alternate rule: a revealed sea card may go face up on the beach (C6)",
            bool,
            default=False,
        ),
    ),
)

# ----------------------------------------------------------------- actions
# 0..7 build the pending card on stack s1..s8; the rest are fixed words.
NEW: Final = 8
"""Build the pending card as a new stack."""
ANCHOR_CABIN: Final = 9
"""Send the sea card to the deep sea, take the top of the cabin pile (C3 b)."""
ANCHOR_BEACH: Final = 10
"""Send the sea card to the deep sea, take the top of the beach (C3 b)."""
ANCHOR: Final = 11
"""Send the sea card to the deep sea, nothing to take (C3's last case, only a choice with C6)."""
DUMP: Final = 12
"""Put the sea card face up on top of the beach (C6)."""
TAKE_DEEP: Final = 13
TAKE_BEACH: Final = 14
TAKE_CABIN: Final = 15
"""Once the sea is empty, take the top of the deep sea, the beach or the cabin (C4)."""

_WORDS: Final = {
    NEW: "new",
    ANCHOR_CABIN: "anchor cabin",
    ANCHOR_BEACH: "anchor beach",
    ANCHOR: "anchor",
    DUMP: "dump",
    TAKE_DEEP: "take deep",
    TAKE_BEACH: "take beach",
    TAKE_CABIN: "take cabin",
}

# ------------------------------------------------------------------ phases
SEA: Final = 0
PLACE: Final = 1
TAKE: Final = 2
OVER: Final = 3
_PHASE_NAMES: Final = ("sea", "place", "take", "over")

# Where the pending card came from.
FROM_SEA: Final = 0
FROM_CABIN: Final = 1
FROM_BEACH: Final = 2
FROM_DEEP: Final = 3
_SOURCE_NAMES: Final = ("sea", "cabin", "beach", "deep")

# ---------------------------------------------------------- card tables
# Cards are ``rank | suit << 4``; tables are indexed by the card int.
_POINTS: Final = [0] * 64
"""Squid points of a card (C5): 2 for an ace or a face card, 1 for a number card."""
_HIGH: Final = [0] * 64
"""A card's key when it goes on a stack: the card itself, an ace counting as rank 14 (C2)."""
_KIND: Final = [0] * 64
"""0 ace, 1 number card, 2 face card: what the player knows each pile was dealt."""
for _c in cards.deck():
    _r = _c & 15
    _POINTS[_c] = 2 if _r == 1 or _r >= cards.JACK else 1
    _HIGH[_c] = _c + 13 if _r == 1 else _c
    _KIND[_c] = 0 if _r == 1 else 2 if _r >= cards.JACK else 1
_KIND_NAMES: Final = ("aces", "numbers", "faces")
_DECK: Final = frozenset(cards.deck())

_TAKE_LEGAL: Final[dict[tuple[bool, bool, bool], list[int]]] = {
    (d, b, c): [a for a, ok in ((TAKE_DEEP, d), (TAKE_BEACH, b), (TAKE_CABIN, c)) if ok]
    for d in (False, True)
    for b in (False, True)
    for c in (False, True)
}
"""C4's choices by which of deep sea, beach, cabin are non-empty (shared, never mutated)."""

_ACTING: Final = (0,)
_NOBODY: Final[tuple[int, ...]] = ()
_SETUP_KEYS: Final = ("cabin", "beach", "sea")


def _stack_name(i: int) -> str:
    return f"s{i + 1}"


def _top_first(pile: list[int]) -> list[str]:
    return [cards.to_str(c) for c in reversed(pile)]


_MAX_POINTS: Final = 68
"""Every card in the squid pile: 16 aces and face cards at 2, 36 number cards at 1 (C5)."""


@mypyc_attr(allow_interpreted_subclasses=True)  # a variant's class (engine/registry.py)
class CabinState(GameState):
    """A game of The Cabin by the Sea (one seat, p1)."""

    info = INFO
    static_setup = True

    max_stacks: int
    beach_dump: bool
    cabin: list[int]
    beach: list[int]
    sea: list[int]
    deep: list[int]
    squid: list[int]
    """Every pile top at the end."""
    stacks: list[tuple[int, ...]]
    """The cabin's stacks in creation order (s1, s2, …), each bottom first."""
    keys: list[int]
    """Per stack, its top as a key: the suit in the high bits, the top rank below (ace high 14)."""
    pending: int
    """The revealed sea card (phase SEA) or the taken card to build (phase PLACE), else -1."""
    source: int
    phase: int
    beach_seen: int
    """How many cards at the top of the beach the player has seen in place (C1, C6)."""
    points: int
    _legal: list[int]
    _waiting: tuple[int, ...]
    _dealt: tuple[list[int], list[int], list[int]] | None
    """The deal, cabin, beach and sea top first, for :meth:`export_setup` (None for a sample)."""
    _setup: dict[str, str] | None
    """The deal's text, once written (a new game's setup is read rarely: ``static_setup``)."""

    # ------------------------------------------------------------- set-up
    def _init_fields(self) -> None:
        self.max_stacks = self.options["stacks"]
        self.beach_dump = self.options["beach_dump"]
        self.cabin = []
        self.beach = []
        self.sea = []
        self.deep = []
        self.squid = []
        self.stacks = []
        self.keys = []
        self.pending = -1
        self.source = FROM_SEA
        self.phase = OVER
        self.beach_seen = 0
        self.points = 0
        self._legal = []
        self._waiting = _NOBODY
        self._dealt = None
        self._setup = None

    def _deal(self) -> None:
        """C1: the 4 aces and 12 random number cards in the cabin, the 12 face cards on the
        beach, the other 24 number cards in the sea. Options play no part (C7)."""
        rng = self.rng
        deck = cards.deck()
        aces = [c for c in deck if c & 15 == cards.ACE]
        faces = [c for c in deck if c & 15 >= cards.JACK]
        numbers = [c for c in deck if 2 <= c & 15 <= 10]
        rng.shuffle(numbers)
        cabin = aces + numbers[:12]
        rng.shuffle(cabin)
        rng.shuffle(faces)
        self.cabin = cabin
        self.beach = faces
        self.sea = numbers[12:]
        self._start()

    def setup_decks(self) -> Sequence[DeckPiles]:
        """One deck split between cabin, beach and sea: ``...`` ends one of them."""
        return (DeckPiles(tuple(cards.deck()), _SETUP_KEYS),)

    def _load_setup(self, setup: Mapping[str, Any]) -> None:
        """An explicit deal: ``cabin``, ``beach`` and ``sea``, each top card first.

        Any split of one 52-card deck is accepted (C3 notes that hand-written setups
        may differ from a standard deal); each card must appear exactly once.
        """
        unknown = sorted(set(setup) - set(_SETUP_KEYS))
        if unknown:
            raise SetupError(
                f"unknown setup key(s) {', '.join(unknown)}: a Cabin setup has cabin, beach and sea"
            )
        missing = [k for k in _SETUP_KEYS if k not in setup]
        if missing:
            raise SetupError(
                f"the setup lacks {', '.join(missing)}: give cabin, beach and sea, "
                'each a list of cards top first (an empty pile is "")'
            )
        where: dict[int, str] = {}
        piles: dict[str, list[int]] = {}
        for key in _SETUP_KEYS:
            raw = setup[key]
            if isinstance(raw, str):
                tokens = raw.split()
            elif isinstance(raw, list) and all(isinstance(t, str) for t in raw):
                tokens = list(raw)
            else:
                raise SetupError(
                    f'setup {key} must be a string of cards such as "7H AS KD", top first'
                )
            pile = []
            for token in tokens:
                try:
                    c = cards.parse(token)
                except cards.CardError as exc:
                    raise SetupError(f"setup {key}: {exc}") from None
                if c not in _DECK:
                    raise SetupError(
                        f"setup {key}: {token} is not a card of a standard 52-card deck"
                    )
                if c in where:
                    raise SetupError(
                        f"{cards.to_str(c)} appears twice (in the {where[c]} and the {key}): "
                        "the setup is one 52-card deck"
                    )
                where[c] = key
                pile.append(c)
            piles[key] = pile
        if len(where) != 52:
            lacking = sorted(_DECK - set(where), key=lambda c: (c >> 4, c & 15))
            raise SetupError(
                f"the setup holds {len(where)} cards, not 52: it lacks {cards.format_many(lacking)}"
            )
        self.cabin = piles["cabin"][::-1]
        self.beach = piles["beach"][::-1]
        self.sea = piles["sea"][::-1]
        self._start()

    def _start(self) -> None:
        """Remember the deal, then turn the first sea card."""
        self._dealt = (self.cabin[::-1], self.beach[::-1], self.sea[::-1])
        self.beach_seen = 1 if self.beach else 0
        self._waiting = _ACTING
        self._advance()

    def export_setup(self) -> dict[str, Any]:
        """The deal: ``cabin``, ``beach``, ``sea`` as card strings, top card first."""
        if self._setup is None:
            if self._dealt is None:
                raise ValueError("a determinized sample has no known setup")
            cabin, beach, sea = self._dealt
            self._setup = {
                "cabin": cards.format_many(cabin),
                "beach": cards.format_many(beach),
                "sea": cards.format_many(sea),
            }
        return dict(self._setup)

    def clone(self) -> CabinState:
        c = self._clone_base()
        c.max_stacks = self.max_stacks
        c.beach_dump = self.beach_dump
        c.cabin = self.cabin.copy()
        c.beach = self.beach.copy()
        c.sea = self.sea.copy()
        c.deep = self.deep.copy()
        c.squid = self.squid.copy()
        c.stacks = self.stacks.copy()  # tuples inside: replaced, never mutated
        c.keys = self.keys.copy()
        c.pending = self.pending
        c.source = self.source
        c.phase = self.phase
        c.beach_seen = self.beach_seen
        c.points = self.points
        c._legal = self._legal  # rebuilt, never mutated
        c._waiting = self._waiting
        c._dealt = self._dealt  # never mutated
        c._setup = self._setup
        return c

    # -------------------------------------------------------------- rules
    def _targets(self, c: int) -> list[int]:
        """Where ``c`` may be built (C2): the stacks that take it, then NEW if allowed.

        A stack takes a card of its suit that is higher than its top; an ace counts
        as 14 there (on any card of its suit, closing the stack) and as 1 when it
        starts a stack (so every card of its suit goes on it).
        """
        high = _HIGH[c]
        low = c & ~15
        out = [i for i, k in enumerate(self.keys) if low <= k < high]
        if len(self.keys) < self.max_stacks:
            out.append(NEW)
        return out

    def _build(self, c: int, where: int) -> None:
        if where == NEW:
            self.stacks.append((c,))
            self.keys.append(c)
        else:
            self.stacks[where] = (*self.stacks[where], c)
            self.keys[where] = _HIGH[c]

    def _to_squid(self, c: int) -> None:
        self.squid.append(c)
        self.points += _POINTS[c]

    def _take(self, c: int, source: int) -> None:
        """A taken card must be built if it can be (C3 b, C4); if not, the squid has it."""
        targets = self._targets(c)
        if targets:
            self.pending = c
            self.source = source
            self.phase = PLACE
            self._legal = targets
        else:
            self._to_squid(c)
            self._advance()

    def _advance(self) -> None:
        """Start the next decision: turn a sea card (C3), or take from a pile (C4), or end (C5)."""
        sea = self.sea
        while sea:
            c = sea.pop()
            legal = self._targets(c)
            if not legal and not self.cabin and not self.beach:
                # C3's last case: nothing can be done with it but sink it to the deep
                # sea; with C6 the player may put it on the beach instead.
                if not self.beach_dump:
                    self.deep.append(c)
                    continue
                legal = [ANCHOR, DUMP]
            else:
                if self.cabin:
                    legal.append(ANCHOR_CABIN)
                if self.beach:
                    legal.append(ANCHOR_BEACH)
                if self.beach_dump:
                    legal.append(DUMP)
            self.pending = c
            self.source = FROM_SEA
            self.phase = SEA
            self._legal = legal
            return
        self.pending = -1
        if self.deep or self.beach or self.cabin:
            self.phase = TAKE
            self._legal = _TAKE_LEGAL[bool(self.deep), bool(self.beach), bool(self.cabin)]
        else:
            self.phase = OVER
            self._legal = []
            self._waiting = _NOBODY

    def _pop_beach(self) -> int:
        c = self.beach.pop()
        self.beach_seen -= 1
        if self.beach and not self.beach_seen:
            self.beach_seen = 1  # the new top card lies face up (C1)
        return c

    # -------------------------------------------------------------- turns
    def to_act(self) -> tuple[int, ...]:
        return self._waiting

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def legal_actions(self, seat: int) -> list[int]:
        return self._legal if seat == 0 else []

    def apply(self, seat: int, action: int) -> None:
        # Inlined check (hot path): the only seat, an action of the cached list.
        if seat != 0 or action not in self._legal:
            raise self.illegal(seat, action)
        self.history.append((seat, action))
        self._apply(seat, action)

    def _apply(self, seat: int, action: int) -> None:
        phase = self.phase
        if phase == PLACE or (phase == SEA and action <= NEW):
            self._build(self.pending, action)
            self._advance()
        elif phase == SEA:
            c = self.pending
            self.pending = -1
            if action == DUMP:
                self.beach.append(c)
                self.beach_seen += 1
                self._advance()
                return
            self.deep.append(c)
            if action == ANCHOR_CABIN:
                self._take(self.cabin.pop(), FROM_CABIN)
            elif action == ANCHOR_BEACH:
                self._take(self._pop_beach(), FROM_BEACH)
            else:
                self._advance()
        elif action == TAKE_DEEP:
            self._take(self.deep.pop(), FROM_DEEP)
        elif action == TAKE_BEACH:
            self._take(self._pop_beach(), FROM_BEACH)
        else:
            self._take(self.cabin.pop(), FROM_CABIN)

    # -------------------------------------------------------- action text
    def action_to_string(self, seat: int, action: int) -> str:
        if 0 <= action <= NEW:
            if self.pending < 0:
                raise ValueError("no card to build now")
            where = "new" if action == NEW else _stack_name(action)
            return f"build {cards.to_str(self.pending)} {where}"
        word = _WORDS.get(action)
        if word is None:
            raise ValueError(f"no Cabin action {action}")
        return word

    def explain_illegal(self, seat: int, text: str) -> str:
        """Say what is wrong using only what the player sees: the revealed or taken card,
        the stacks, and which piles are empty."""
        words = text.split()
        verb = words[0] if words else ""
        phase = self.phase
        card = cards.to_str(self.pending) if self.pending >= 0 else ""
        taken = f"the taken card {card} can be built, so it must be (C3, C4): choose where"
        if verb == "build":
            if phase == TAKE:
                return (
                    "the sea is empty: first take a card (take deep, take beach or take cabin; C4)"
                )
            if len(words) != 3:
                return "write build CARD WHERE, e.g. build 7H s2 or build 7H new"
            if words[1] != card:
                return f"the card to build now is {card}, not {words[1]}"
            return self._why_not_there(self.pending, words[2])
        if verb == "anchor":
            if phase == PLACE:
                return taken
            if phase == TAKE:
                return "the sea is empty: take a card instead (C4)"
            if len(words) == 2 and words[1] == "cabin" and not self.cabin:
                return "the cabin pile is empty"
            if len(words) == 2 and words[1] == "beach" and not self.beach:
                return "the beach is empty"
            if len(words) == 1:
                return (
                    "a sea card sinks to the deep sea without a take only when it cannot be "
                    "built and the cabin and the beach are both empty (C3)"
                )
        if verb == "dump":
            if not self.beach_dump:
                return "putting a sea card on the beach needs the beach_dump option (C6)"
            if phase == PLACE:
                return taken
            if phase == TAKE:
                return "the sea is empty: only a revealed sea card may go on the beach (C6)"
        if verb == "take":
            if phase == SEA:
                return (
                    f"the sea still has cards: build the sea card {card}, or anchor it and take "
                    "from the cabin or the beach (C3)"
                )
            if phase == PLACE:
                return taken
            pile = words[1] if len(words) == 2 else ""
            if pile in ("deep", "beach", "cabin"):
                name = {"deep": "the deep sea", "beach": "the beach", "cabin": "the cabin pile"}[
                    pile
                ]
                return f"{name} is empty"
        return super().explain_illegal(seat, text)

    def _why_not_there(self, c: int, where: str) -> str:
        if where == "new":
            return f"all {self.max_stacks} stacks exist, so no new stack can be started (C2)"
        n = len(self.stacks)
        if where.startswith("s") and where[1:].isdigit():
            i = int(where[1:]) - 1
            if not 0 <= i < n:
                return f"there is no stack {where} (the cabin has {n} stack{'s' if n != 1 else ''})"
            stack = self.stacks[i]
            top = cards.to_str(stack[-1])
            if self.keys[i] >> 4 != c >> 4:
                suit = cards.SUIT_NAMES[self.keys[i] >> 4]
                return f"{where} is a stack of {suit}; {cards.to_str(c)} is not (C2)"
            if self.keys[i] & 15 == 14:
                return f"{where} is closed: its ace went on as the highest card (C2)"
            return f"{cards.to_str(c)} is not higher than {where}'s top card {top} (C2)"
        return "build where? write a stack (s1, s2, …) or new"

    def describe_action(self, seat: int, action: int) -> str:
        card = cards.name(self.pending) if self.pending >= 0 else ""
        if 0 <= action < NEW:
            return f"{seat_name(seat)} builds the {card} on stack {_stack_name(action)}."
        if action == NEW:
            return (
                f"{seat_name(seat)} starts stack {_stack_name(len(self.stacks))} with the {card}."
            )
        return {
            ANCHOR_CABIN: f"{seat_name(seat)} sends the {card} to the deep sea and takes from the cabin.",
            ANCHOR_BEACH: f"{seat_name(seat)} sends the {card} to the deep sea and takes from the beach.",
            ANCHOR: f"{seat_name(seat)} lets the {card} sink to the deep sea.",
            DUMP: f"{seat_name(seat)} puts the {card} on the beach.",
            TAKE_DEEP: f"{seat_name(seat)} takes the top card of the deep sea.",
            TAKE_BEACH: f"{seat_name(seat)} takes the top card of the beach.",
            TAKE_CABIN: f"{seat_name(seat)} takes the top card of the cabin pile.",
        }.get(action, super().describe_action(seat, action))

    # -------------------------------------------------------------- views
    def _hidden_beach(self) -> int:
        return len(self.beach) - self.beach_seen

    def _kinds(self, pile: list[int]) -> dict[str, int]:
        counts = [0, 0, 0]
        for c in pile:
            counts[_KIND[c]] += 1
        return dict(zip(_KIND_NAMES, counts, strict=True))

    def view(self, seat: Viewer) -> dict[str, Any]:
        """The table as the player knows it (a spectator knows the same: nothing is private).

        The cabin and the sea are face down: counts only. The beach shows every card the
        player has seen in place on it (its top, and whatever lies under cards dumped on
        it, C6); the deep sea was seen card by card, so all of it is shown. ``unseen``
        says how many aces, number and face cards each pile still hides, which the
        player knows from C1.
        """
        hidden = self._hidden_beach()
        out: dict[str, Any] = {
            "game": "cabin",
            "stacks_allowed": self.max_stacks,
            "beach_dump": self.beach_dump,
            "phase": _PHASE_NAMES[self.phase],
            "card": cards.to_str(self.pending) if self.pending >= 0 else None,
            "card_from": _SOURCE_NAMES[self.source] if self.pending >= 0 else None,
            "stacks": {
                _stack_name(i): [cards.to_str(c) for c in s] for i, s in enumerate(self.stacks)
            },
            "sea": len(self.sea),
            "cabin": len(self.cabin),
            "beach": {
                "count": len(self.beach),
                "seen": _top_first(self.beach[hidden:]),
                "hidden": hidden,
            },
            "deep": _top_first(self.deep),
            "squid": _top_first(self.squid),
            "squid_points": self.points,
            "unseen": {
                "cabin": self._kinds(self.cabin),
                "sea": self._kinds(self.sea),
                "beach": self._kinds(self.beach[:hidden]),
            },
            "to_act": [seat_name(s) for s in self._waiting],
            "terminal": self.phase == OVER,
        }
        if seat == ALL:
            out["all"] = {
                "cabin": _top_first(self.cabin),
                "beach": _top_first(self.beach),
                "sea": _top_first(self.sea),
            }
        elif seat is not None:
            out["seat"] = seat_name(seat)
        return out

    def render(self, seat: Viewer = None) -> str:
        def show(pile: list[int]) -> str:
            return " ".join(cards.to_display(c) for c in reversed(pile)) or "—"

        hidden = self._hidden_beach()
        opts = f"{self.max_stacks} stacks" + (", beach dump" if self.beach_dump else "")
        lines = [f"The Cabin by the Sea ({opts}) — squid points: {self.points}"]
        if seat == ALL:
            lines.append(f"Sea 🌊 ({len(self.sea)}, top first): {show(self.sea)}")
            lines.append(f"Cabin 🏠 ({len(self.cabin)}, top first): {show(self.cabin)}")
            lines.append(f"Beach 🏖 ({len(self.beach)}, top first): {show(self.beach)}")
        else:
            aces = sum(1 for c in self.cabin if c & 15 == cards.ACE)
            lines.append(f"Sea 🌊: {len(self.sea)} face down")
            lines.append(f"Cabin 🏠: {len(self.cabin)} face down ({aces} aces among them)")
            seen = show(self.beach[hidden:])
            lines.append(
                f"Beach 🏖 ({len(self.beach)}): {seen}"
                + (f" over {hidden} unseen" if hidden else "")
            )
        lines.append(f"Deep sea ⚓ (top first): {show(self.deep)}")
        lines.append(f"Squid 🦑: {show(self.squid)}")
        for i, stack in enumerate(self.stacks):
            lines.append(f"  {_stack_name(i)}: {' '.join(cards.to_display(c) for c in stack)}")
        free = self.max_stacks - len(self.stacks)
        lines.append(f"  ({free} new stack{'s' if free != 1 else ''} may still be started)")
        if self.phase == SEA:
            lines.append(f"Sea card: {cards.to_display(self.pending)}")
        elif self.phase == PLACE:
            lines.append(
                f"Build the card taken from the {_SOURCE_NAMES[self.source]}: "
                f"{cards.to_display(self.pending)}"
            )
        elif self.phase == TAKE:
            lines.append("The sea is empty: take from the deep sea, the beach or the cabin.")
        else:
            verdict = "a perfect game!" if self.points == 0 else f"{self.points} squid points."
            lines.append(f"Game over: {verdict}")
        return "\n".join(lines)

    def determinize(self, seat: int, rng: random.Random) -> CabinState:
        """Resample the face-down cards: the cabin, the sea, and the beach under what was seen.

        The player knows how many aces, number and face cards each pile still hides
        (C1: the aces are in the cabin, the face cards on the beach), not which or in
        what order; so each pile keeps its kinds and the cards of each kind are dealt
        out afresh among all hidden places, in a fresh order.
        """
        d = self.clone()
        d._reseed(rng)
        d._dealt = None
        d._setup = None
        hidden = d._hidden_beach()
        segments = [d.cabin, d.sea, d.beach[:hidden]]
        pools: list[list[int]] = [[], [], []]
        for seg in segments:
            for c in seg:
                pools[_KIND[c]].append(c)
        # Sorted first: the sample must depend only on what the player knows (which
        # cards are unseen and how many of each kind each pile hides), never on the
        # true order of the hidden cards.
        for pool in pools:
            pool.sort()
            std_shuffle(rng, pool)
        fresh = []
        for seg in segments:
            kinds = sorted(_KIND[c] for c in seg)
            std_shuffle(rng, kinds)
            fresh.append([pools[k].pop() for k in kinds])
        d.cabin, d.sea = fresh[0], fresh[1]
        d.beach[:hidden] = fresh[2]
        return d

    def redact_setup(self, setup: dict[str, Any], viewer: Viewer) -> dict[str, Any]:
        """The deal with the cards the player has not seen *as of now* written ``??``.

        Piles are only ever taken from the top, so what has been seen of each pile as
        dealt is a run from its top: the sea cards turned, the cabin cards taken, the
        beach cards that have lain face up on top.
        """
        if viewer == ALL:
            return setup
        hidden = {"cabin": len(self.cabin), "sea": len(self.sea), "beach": self._hidden_beach()}
        out: dict[str, Any] = {}
        for key, value in setup.items():
            tokens = value.split() if isinstance(value, str) else list(value)
            keep = len(tokens) - hidden.get(key, len(tokens))
            out[key] = " ".join(tokens[:keep] + [cards.HIDDEN] * (len(tokens) - keep))
        return out

    # ------------------------------------------------------------- scores
    def scores(self) -> list[float]:
        """The squid count so far (C5): final once the game is over. Lower is better."""
        return [float(self.points)]

    def winners(self) -> list[int]:
        """A patience game is won when it is perfect: 0 squid points (C5)."""
        return [0] if self.phase == OVER and self.points == 0 else []

    def utilities(self) -> list[float]:
        """For search: 1 for a perfect game, falling linearly to 0 when all 52 cards
        (68 squid points) are lost, so a search can prefer 3 points to 5."""
        return [1.0 - self.points / _MAX_POINTS]

    def check_invariants(self) -> None:
        places = [self.cabin, self.beach, self.sea, self.deep, self.squid, *self.stacks]
        every = [c for pile in places for c in pile]
        if self.pending >= 0:
            every.append(self.pending)
        assert sorted(every) == sorted(_DECK), "every card must be in exactly one place"
        assert self.points == sum(_POINTS[c] for c in self.squid), "squid points recount"
        assert len(self.stacks) == len(self.keys) <= self.max_stacks
        for stack, key in zip(self.stacks, self.keys, strict=True):
            suit = stack[0] >> 4
            assert all(c >> 4 == suit for c in stack), f"a stack mixes suits: {stack}"
            ranks = [_HIGH[c] & 15 for c in stack]
            if stack[0] & 15 == cards.ACE:
                ranks[0] = 1  # an ace that started the stack counts low (C2)
            assert all(a < b for a, b in pairwise(ranks)), f"not ascending: {stack}"
            assert key == (suit << 4 | ranks[-1])
        assert 0 <= self.beach_seen <= len(self.beach)
        assert (self.beach_seen > 0) == bool(self.beach)
        if self.phase == OVER:
            assert not (self.sea or self.cabin or self.beach or self.deep) and self.pending < 0
            assert self._legal == [] and self._waiting == ()
        else:
            assert self._legal and self._waiting == (0,)
            assert (self.pending >= 0) == (self.phase in (SEA, PLACE))
            assert self.phase != TAKE or not self.sea
            if self.phase == PLACE:
                assert self._legal == self._targets(self.pending)
