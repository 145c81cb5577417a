"""Notorious's rules (RULINGS.md N1–N10) on the generic engine.

A match is ``games`` games; a game is ``rounds`` rounds in which every seat, in
turn from the lead-off, plays one hand card in front of any seat, face up or
face down (N3). After the last round the face-down cards are turned, face-up
cards pay their bonus (N4), and the single highest game score is disqualified
(N6). A shared highest score is broken by the tie-break of N7, one decision per
card placed.

Action encoding (small ints, built from per-player-count tables):

* ``play CARD pN up|down`` is ``card << 5 | target << 1 | down`` (below 2048);
* ``give CARD pN`` (tie-break, N7) is ``4096 | card << 4 | target``.

Several copies of a card exist with two decks (N1), but an action names a card,
not a copy, so two legal actions never share a string.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence
from typing import Any, Final, cast

from mypy_extensions import mypyc_attr

from decklab import cards
from decklab.engine.chance import Rng, std_shuffle
from decklab.engine.errors import IllegalAction, OptionError, SetupError, excerpt
from decklab.engine.info import GameInfo, Option
from decklab.engine.shorthand import DeckPiles, complete_tokens, is_rest, remaining
from decklab.engine.state import (
    ALL,
    CHANCE,
    GameState,
    Viewer,
    normalize_action_text,
    seat_index,
    seat_name,
)

PLAY: Final = 0
TIEBREAK: Final = 1
OVER: Final = 2
_PHASE_NAMES: Final = ("play", "tiebreak", "over")
GIVE: Final = 4096
"""Tie-break actions start here; play actions stay below 2048."""

_TEXT: Final = [""] * 64
"""K1 text of every card int (empty for ints that are no card of a standard deck)."""
_VALUE: Final = [0] * 64
"""N5 face value: A=1, 2–10 as numbered, J/Q/K=10."""
_CARD_BY_TEXT: Final[dict[str, int]] = {}
for _c in cards.deck():
    _TEXT[_c] = cards.to_str(_c)
    _VALUE[_c] = min(cards.rank_of(_c), 10)
    _CARD_BY_TEXT[_TEXT[_c]] = _c
_FACE_WORDS: Final = ("up", "down")


def _decks(n: int) -> int:
    """N1: one 52-card deck up to 7 players, two shuffled together for 8 or more."""
    return 1 if n <= 7 else 2


def _deck_size(n: int) -> int:
    return 52 * _decks(n)


_DECKS: Final = (cards.deck(), cards.deck() * 2)
_SORTED_DECKS: Final = (sorted(_DECKS[0]), sorted(_DECKS[1]))


def _full_deck(n: int) -> list[int]:
    """A fresh copy of the deck(s) for ``n`` players, in the fixed order of cards.deck()."""
    return _DECKS[_decks(n) - 1].copy()


def _check_hand_size(value: int, n: int) -> str | None:
    size = _deck_size(n)
    if value * n > size:
        return (
            f"{n} players × {value} cards do not fit in the {size}-card deck "
            f"(at most {size // n} cards each)"
        )
    return None


INFO: Final = GameInfo(
    name="notorious",
    title="Notorious",
    version=1,
    min_players=3,
    max_players=10,
    default_players=4,
    summary="Play cards in front of yourself or others, face up for bonus points or face "
    "down to hide them: the highest game score is wiped out, so stay just below the top.",
    simultaneous=False,
    hidden_information=True,
    score_unit="points",
    options=(
        Option("games", "games in the match (N2)", int, default=5, minimum=1, maximum=1000),
        Option("rounds", "rounds in a game, one card each (N2, N4)", int, default=5, minimum=1),
        Option(
            "hand_size",
            "cards dealt to each player per game (N2); at least rounds, and all hands must "
            "fit in the deck",
            int,
            default=7,
            minimum=1,
            check=_check_hand_size,
        ),
        Option(
            "lead_off",
            "lead-off player of the first game (N8; default: drawn at random)",
            "seat",
            default=None,
            nullable=True,
        ),
    ),
)


class _Tables:
    """Per-player-count tables, built once: the hot path only indexes them."""

    __slots__ = ("entries", "n", "next", "one_deck", "orders", "play", "seat")

    def __init__(self, n: int) -> None:
        self.n = n
        self.one_deck: bool = _decks(n) == 1  # every card once (N1): no copies in a hand
        self.play: list[list[int]] = [
            [(c << 5) | (t << 1) | d for t in range(n) for d in (0, 1)] for c in range(64)
        ]
        self.seat: list[tuple[int, ...]] = [(s,) for s in range(n)]
        self.next: list[int] = [(s + 1) % n for s in range(n)]
        self.orders: list[list[int]] = [[(lead + k) % n for k in range(n)] for lead in range(n)]
        # The history's ``(seat, action)`` entry of every play action, built once: tuples
        # are immutable, so a play appends a shared one instead of allocating (and later
        # freeing) its own, a few per cent of a random playout. Typed ``object`` so that
        # compiled code passes the tuple on as it is (as ``tuple[int, int]`` mypyc would
        # unpack it into a C struct and build a new tuple to append).
        self.entries: list[list[object]] = [[None] * 2048 for _ in range(n)]
        for c in set(cards.deck()):
            for a in self.play[c]:
                for s in range(n):
                    self.entries[s][a] = (s, a)

    def __reduce__(self) -> tuple[Any, tuple[int]]:
        # A pickled state (an adapter's serialization) shares the tables of its count.
        return (_tables, (self.n,))


_TABLES: Final[dict[int, _Tables]] = {}


def _tables(n: int) -> _Tables:
    t = _TABLES.get(n)
    if t is None:
        t = _TABLES[n] = _Tables(n)
    return t


Give = tuple[int, int, int, bool]
"""A tie-break card: (giver, card, receiver, came from the pack)."""
Past = tuple[
    int, tuple[int, ...], tuple[Give, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...]
]
"""A finished game: (lead-off, plays, tie-break cards, bonus, game scores, disqualified)."""


@mypyc_attr(allow_interpreted_subclasses=True)  # a variant's class (engine/registry.py)
class NotoriousState(GameState):
    """A match of Notorious between ``num_players`` seats."""

    info = INFO
    static_setup = True

    games: int
    rounds: int
    hand_size: int
    game: int
    """The game being played, 1-based."""
    round: int
    turn: int
    """Cards played so far in this round."""
    lead: int
    actor: int
    phase: int
    hands: list[list[int]]
    """Each seat's hand, kept sorted (copies of a card sit side by side)."""
    plays: list[int]
    """This game's play actions in order: play k is by order[k % n], in round k // n + 1."""
    gscore: list[int]
    """This game's score of each seat: everything in front of it (N5), tie-break cards included."""
    bonus: list[int]
    """This game's bonus of each seat so far (N4)."""
    totals: list[int]
    pack: list[int]
    """The undealt pack, top card LAST (so a draw is a pop)."""
    tied: list[int]
    """The seats of the current tie-break pass, in turn order from the lead-off (N7)."""
    tb_pos: int
    gives: list[Give]
    drawn: int
    """A pack card the tie-break actor drew and must give, or -1 (N7)."""
    past: list[Past]
    order: list[int]
    _tbl: _Tables
    _to_act: tuple[int, ...]
    _legal: list[int] | None
    _seat_legal: list[list[int] | None]
    """Per seat, its play actions with its hand as it is now (None: not built yet). A play
    drops one card's run of actions from its list: no rebuild from the whole hand."""
    _game_start: int
    _bonus_now: int
    _n2: int
    _first_lead: int
    _first_deck: list[int]
    _past_decks: dict[tuple[int, int], tuple[Past, object, list[int], int]]
    """Per (seat, id of a finished game's entry in ``past``): that entry, the deck as
    written when it was cached (the object), the deck that determinize writes for it, and
    where it is written (-1: the setup, else its shuffle line's history index). Shared by
    clones: a hit needs the very same entry and written deck, so it stays true."""

    # ------------------------------------------------------------- set-up
    def _init_fields(self) -> None:
        n = self.num_players
        self.games = self.options["games"]
        self.rounds = self.options["rounds"]
        self.hand_size = self.options["hand_size"]
        if self.hand_size < self.rounds:
            raise OptionError(
                f"option hand_size={self.hand_size} is below rounds={self.rounds}: "
                "every round plays one card from hand"
            )
        self._tbl = _tables(n)
        self._n2 = 2 * n
        self.game = 1
        self.totals = [0] * n
        self.past = []
        self._first_lead = 0
        self._first_deck = []
        self._past_decks = {}

    def _deal(self) -> None:
        """Lead-off drawn at random unless the options name one (N8), then a shuffled deck (N2)."""
        opt = self.options["lead_off"]
        lead = self.rng.below(self.num_players) if opt is None else int(opt[1:]) - 1
        deck = _full_deck(self.num_players)
        self.rng.shuffle(deck)
        self._first_lead = lead
        self._first_deck = deck
        self._start_game(lead, deck)

    def setup_decks(self) -> Sequence[DeckPiles]:
        """The first game's deck (or its hands and pack): ``...`` completes it."""
        return (DeckPiles(tuple(_full_deck(self.num_players)), ("deck", "hands", "pack")),)

    def _load_setup(self, setup: Mapping[str, Any]) -> None:
        n = self.num_players
        unknown = set(setup) - {"lead_off", "deck", "hands", "pack"}
        if unknown:
            raise SetupError(
                f"unknown setup key(s) {', '.join(sorted(map(str, unknown)))}: "
                "a Notorious setup has 'lead_off' and 'deck' (or 'hands' and 'pack')"
            )
        opt = self.options["lead_off"]
        raw_lead = setup.get("lead_off", opt)
        if raw_lead is None:
            raise SetupError(
                "the setup needs 'lead_off' (e.g. \"p1\") unless the lead_off option names one"
            )
        try:
            lead = seat_index(str(raw_lead), n)
        except ValueError as exc:
            raise SetupError(f"setup lead_off: {exc}") from None
        if opt is not None and int(opt[1:]) - 1 != lead:
            raise SetupError(f"setup lead_off {raw_lead} contradicts the option lead_off={opt}")
        if "hands" in setup or "pack" in setup:
            if "deck" in setup:
                raise SetupError(
                    "give the first deal as 'deck', or as 'hands' and 'pack', not both"
                )
            try:
                deck = self._deal_deck(lead, setup.get("hands"), setup.get("pack", ""))
            except ValueError as exc:
                raise SetupError(f"setup: {exc}") from None
            self._first_lead = lead
            self._first_deck = deck
            self._start_game(lead, deck)
            return
        if "deck" not in setup:
            raise SetupError("the setup needs 'deck': the first game's deck, top card first")
        raw = setup["deck"]
        tokens = raw.split() if isinstance(raw, str) else raw
        if not isinstance(tokens, list):
            raise SetupError(
                "setup deck: write the cards as one string ('7H 2C …') or a list of strings"
            )
        deck = []
        for tok in tokens:
            card = _CARD_BY_TEXT.get(str(tok).strip().upper().replace("10", "T", 1))
            if card is None:
                raise SetupError(
                    f"setup deck: {tok!r} is not a card of a standard deck (e.g. 7H, TS)"
                )
            deck.append(card)
        problem = _deck_problem(deck, n)
        if problem:
            raise SetupError(f"setup deck: {problem}")
        self._first_lead = lead
        self._first_deck = deck
        self._start_game(lead, deck)

    def export_setup(self) -> dict[str, Any]:
        return {
            "lead_off": seat_name(self._first_lead),
            "deck": " ".join([_TEXT[c] for c in self._first_deck]),
        }

    def _start_game(self, lead: int, deck: list[int]) -> None:
        """Deal ``deck`` (top card first) one card at a time round the table from the lead-off."""
        n = self.num_players
        h = self.hand_size
        dealt = n * h
        hands: list[list[int]] = [[]] * n
        for k in range(n):
            hand = deck[k:dealt:n]
            hand.sort()
            hands[(lead + k) % n] = hand
        self.hands = hands
        pack = deck[dealt:]
        pack.reverse()
        self.pack = pack
        self.lead = lead
        self.actor = lead
        self.order = self._tbl.orders[lead]
        self.phase = PLAY
        self.round = 1
        self.turn = 0
        self.plays = []
        self.gscore = [0] * n
        self.bonus = [0] * n
        self.tied = []
        self.tb_pos = 0
        self.gives = []
        self.drawn = -1
        self._bonus_now = self.rounds
        self._game_start = len(self.history)
        self._to_act = self._tbl.seat[lead]
        self._legal = None
        self._seat_legal = [None] * n

    def clone(self) -> NotoriousState:
        c = self._clone_base()
        c.games = self.games
        c.rounds = self.rounds
        c.hand_size = self.hand_size
        c.game = self.game
        c.round = self.round
        c.turn = self.turn
        c.lead = self.lead
        c.actor = self.actor
        c.phase = self.phase
        c.hands = [h.copy() for h in self.hands]
        c.plays = self.plays.copy()
        c.gscore = self.gscore.copy()
        c.bonus = self.bonus.copy()
        c.totals = self.totals.copy()
        c.pack = self.pack.copy()
        c.tied = self.tied  # replaced, never mutated
        c.tb_pos = self.tb_pos
        c.gives = self.gives.copy()
        c.drawn = self.drawn
        c.past = self.past.copy()
        c.order = self.order  # shared table
        c._tbl = self._tbl
        c._to_act = self._to_act
        c._legal = self._legal  # rebuilt, never mutated
        c._seat_legal = self._seat_legal.copy()  # the lists are replaced, never mutated
        c._game_start = self._game_start
        c._bonus_now = self._bonus_now
        c._n2 = self._n2
        c._first_lead = self._first_lead
        c._first_deck = self._first_deck  # never mutated
        c._past_decks = self._past_decks  # shared cache, see its docstring
        return c

    # -------------------------------------------------------------- turns
    def to_act(self) -> tuple[int, ...]:
        return self._to_act

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def legal_actions(self, seat: int) -> list[int]:
        if seat != self.actor:  # (actor is -1 once the match is over)
            return []
        if self.phase == PLAY:
            # A new actor at every decision: the per-seat lists are the cache.
            legal = self._seat_legal[seat]
            if legal is None:
                legal = self._seat_legal[seat] = self._play_actions(seat)
            return legal
        if self.phase == OVER:
            return []
        legal = self._legal
        if legal is None:
            legal = self._legal = self._give_actions()
        return legal

    def _play_actions(self, seat: int) -> list[int]:
        """N3: every distinct card of the hand, in front of every seat, up or down."""
        table = self._tbl.play
        legal: list[int] = []
        prev = -1
        for c in self.hands[seat]:
            if c != prev:  # a second copy (N1) gives the same actions
                legal += table[c]
                prev = c
        return legal

    def _give_actions(self) -> list[int]:
        """N7: the drawn card, else every distinct card of the hand, onto another tied seat."""
        seat = self.actor
        targets = [t for t in self.tied if t != seat]
        if self.drawn >= 0:
            choices = [self.drawn]
        else:
            choices = sorted(set(self.hands[seat]))
        return [GIVE | (c << 4) | t for c in choices for t in targets]

    def apply(self, seat: int, action: int) -> None:
        # Inlined check (hot path): the seat to act, a card it holds, a real seat as target.
        if self.phase == PLAY:
            if seat == self.actor and 0 <= action < 2048 and (action & 31) < self._n2:
                i = _index(self.hands[seat], action >> 5)
                if i >= 0:
                    self.history.append(cast(Any, self._tbl.entries[seat][action]))
                    self._play_at(seat, action, i)
                    return
        elif self.phase == TIEBREAK and seat == self.actor and action in self.legal_actions(seat):
            self.history.append((seat, action))
            self._give(seat, action)
            return
        raise self.illegal(seat, action)

    def _apply(self, seat: int, action: int) -> None:
        if action < GIVE:
            self._play(seat, action)
        else:
            self._give(seat, action)

    def _play(self, seat: int, action: int) -> None:
        self._play_at(seat, action, _index(self.hands[seat], action >> 5))

    def _play_at(self, seat: int, action: int, i: int) -> None:
        """N3: the card (at ``i`` in the hand, its first copy) goes in front of its
        target; a face-up card earns its bonus now (N4)."""
        card = action >> 5
        target = (action >> 1) & 15
        hand = self.hands[seat]
        hand.pop(i)
        legal = self._seat_legal[seat]
        if legal is not None:
            if self.round == self.rounds:
                # The seat's last play of the game: its list is not asked for again.
                self._seat_legal[seat] = None
            elif i == len(hand) or hand[i] != card:  # (with two decks, a copy may remain)
                # The hand is sorted, each distinct card has a run of 2n actions
                # (_play_actions), and the card's run comes after those of the distinct
                # cards before it: with one deck, the i cards before it.
                d = i
                if not self._tbl.one_deck:
                    d = 0
                    prev = -1
                    for k in range(i):
                        c = hand[k]
                        if c != prev:
                            d += 1
                            prev = c
                w = self._n2
                # The lists are shared with clones and callers, so the old one is left as
                # it was: the first or last run is cut by one slice, another by one copy
                # and an in-place cut (both cheaper compiled than two slices joined).
                if d == 0:
                    cut = legal[w:]
                elif (d + 1) * w == len(legal):
                    cut = legal[: d * w]
                else:
                    cut = legal.copy()
                    del cut[d * w : (d + 1) * w]
                self._seat_legal[seat] = cut
        self.plays.append(action)
        # (``lst[i] = lst[i] + v``, not ``lst[i] += v``: compiled, the latter is a generic call)
        gscore = self.gscore
        gscore[target] = gscore[target] + _VALUE[card]
        if not action & 1:
            bonus = self.bonus
            bonus[target] = bonus[target] + self._bonus_now
        turn = self.turn + 1
        if turn < self.num_players:
            self.turn = turn
        elif self.round < self.rounds:
            self.turn = 0
            self.round += 1
            self._bonus_now -= 1
        else:
            self.turn = 0
            self._end_rounds()
            return
        tbl = self._tbl
        actor = self.actor = tbl.next[seat]
        self._to_act = tbl.seat[actor]

    def _end_rounds(self) -> None:
        """After the last round: bonus to the match totals (N4), reveal, find the highest (N6)."""
        totals = self.totals
        for s, b in enumerate(self.bonus):
            totals[s] = totals[s] + b
        self.phase = TIEBREAK
        top = self._highest()
        if len(top) == 1:
            self._finish_game(top)
            return
        self.tied = top
        self.tb_pos = 0
        self._next_giver()

    def _highest(self) -> list[int]:
        """The seats with the highest game score, in turn order from the lead-off."""
        g = self.gscore
        best = g[0]
        for v in g:
            if v > best:
                best = v
        return [s for s in self.order if g[s] == best]

    def _next_giver(self) -> None:
        """The next tied seat places a card (N7): from hand, else the top of the pack.

        A seat whose hand is empty draws the pack's top card (it sees it, then
        chooses where it goes). If the pack is empty then, the tie-break stops:
        everyone tied for the highest score at that moment is disqualified.
        """
        seat = self.tied[self.tb_pos]
        if not self.hands[seat]:
            if not self.pack:
                self._finish_game(self._highest())
                return
            self.drawn = self.pack.pop()
        self.actor = seat
        self._to_act = self._tbl.seat[seat]
        self._legal = None

    def _give(self, seat: int, action: int) -> None:
        """N7: one tie-break card, face up, onto another tied seat's game score."""
        card = (action >> 4) & 63
        target = action & 15
        from_pack = self.drawn >= 0
        if from_pack:
            self.drawn = -1
        else:
            self.hands[seat].remove(card)
            self._seat_legal[seat] = None
        self.gives.append((seat, card, target, from_pack))
        gscore = self.gscore
        gscore[target] = gscore[target] + _VALUE[card]
        self._legal = None
        self.tb_pos += 1
        if self.tb_pos < len(self.tied):
            self._next_giver()
            return
        top = self._highest()  # a subset of the pass's tied seats: only their scores rose
        if len(top) == 1:
            self._finish_game(top)
            return
        self.tied = top
        self.tb_pos = 0
        self._next_giver()

    def _finish_game(self, dq: list[int]) -> None:
        """N6: everyone not disqualified adds the game score; N8: the next lead-off; N2: deal."""
        totals = self.totals
        g = self.gscore
        for s in range(self.num_players):
            if s not in dq:
                totals[s] = totals[s] + g[s]
        self.past.append(
            (
                self.lead,
                tuple(self.plays),
                tuple(self.gives),
                tuple(self.bonus),
                tuple(g),
                tuple(dq),
            )
        )
        self.tied = []
        self.drawn = -1
        self._legal = None
        if self.game >= self.games:
            self.phase = OVER
            self._to_act = ()
            self.actor = -1
            return
        self.game += 1
        lead = dq[0]
        deck = self._chance(
            "shuffle",
            self._draw_deck,
            lambda d: _format_deal(lead, d),
            lambda text: self._parse_deal(text, lead),
        )
        self._start_game(lead, deck)

    def _draw_deck(self, rng: Rng) -> list[int]:
        deck = _full_deck(self.num_players)
        rng.shuffle(deck)
        return deck

    def _parse_deal(self, text: str, lead: int) -> list[int]:
        """A later game's deal as a chance line writes it (docs/notation/notorious.md):
        ``lead=pN`` (checked: the disqualified seat, N8), then the deck top first, or
        each seat's hand as ``pN=C,C,…`` then the pack; a final ``...`` completes it."""
        tokens = text.split()
        if tokens and tokens[0].lower().startswith("lead="):
            named = tokens.pop(0)[5:]
            try:
                said = seat_index(named, self.num_players)
            except ValueError as exc:
                raise ValueError(f"lead={excerpt(named, 12)}: {exc}") from None
            if said != lead:
                raise ValueError(
                    f"the next game's lead-off is {seat_name(lead)} (N8: the disqualified "
                    f"seat, first from the old lead-off), not {seat_name(said)}"
                )
        if any(_HAND_TOKEN.match(t) for t in tokens):
            hands = {}
            pack = []
            for t in tokens:
                m = _HAND_TOKEN.match(t)
                if m:
                    hands[m.group(1)] = m.group(2).replace(",", " ")
                else:
                    pack.append(t)
            return self._deal_deck(lead, hands, " ".join(pack))
        return self._parse_deck(
            " ".join(complete_tokens(tokens, _full_deck(self.num_players), "shuffle"))
        )

    def _deal_deck(self, lead: int, hands: Any, pack: Any) -> list[int]:
        """The deck (top first) that deals ``hands`` (seat → cards) from ``lead`` one card
        at a time round the table (N2), followed by ``pack`` (top first; a final
        ``...`` is every card not placed, in canonical order). Saves computing the
        interleaving by hand; ValueError naming what is wrong."""
        n, size = self.num_players, self.hand_size
        if not isinstance(hands, Mapping):
            raise ValueError('hands is an object of seat → cards, e.g. {"p1": "7H 2C 9S"}')
        by_seat: dict[int, list[int]] = {}
        for name, raw in hands.items():
            seat = seat_index(str(name), n)
            tokens = raw.split() if isinstance(raw, str) else raw
            if not isinstance(tokens, list) or not all(isinstance(t, str) for t in tokens):
                raise ValueError(
                    f'the hand of {seat_name(seat)} is a string of cards such as "7H 2C"'
                )
            hand = [self._card(t) for t in tokens]
            if len(hand) != size:
                raise ValueError(
                    f"{seat_name(seat)}'s hand has {len(hand)} cards; hand_size is {size} (N2)"
                )
            by_seat[seat] = hand
        missing = [seat_name(s) for s in range(n) if s not in by_seat]
        if missing:
            raise ValueError(f"no hand given for {', '.join(missing)}")
        if not isinstance(pack, str | list):
            raise ValueError("pack is a string of cards, top first")
        pack_tokens = pack.split() if isinstance(pack, str) else [str(t) for t in pack]
        placed = [c for h in by_seat.values() for c in h]
        if pack_tokens and is_rest(pack_tokens[-1]):
            head = [self._card(t) for t in pack_tokens[:-1]]
            rest = remaining(_full_deck(n), placed + head)
            pack_cards = head + rest
        else:
            pack_cards = [self._card(t) for t in pack_tokens]
        deck = [0] * (n * size)
        for k in range(n):
            hand = by_seat[(lead + k) % n]
            for j in range(size):
                deck[k + n * j] = hand[j]
        deck += pack_cards
        problem = _deck_problem(deck, n)
        if problem:
            raise ValueError(problem)
        return deck

    @staticmethod
    def _card(token: str) -> int:
        card = _CARD_BY_TEXT.get(str(token).strip().upper().replace("10", "T", 1))
        if card is None:
            raise ValueError(
                f"{excerpt(token, 12)!r} is not a card of a standard deck (e.g. 7H, TS)"
            )
        return card

    def _parse_deck(self, text: str) -> list[int]:
        deck = []
        for tok in text.split():
            card = _CARD_BY_TEXT.get(tok.upper().replace("10", "T", 1))
            if card is None:
                raise ValueError(f"{tok!r} is not a card of a standard deck")
            deck.append(card)
        problem = _deck_problem(deck, self.num_players)
        if problem:
            raise ValueError(problem)
        return deck

    # -------------------------------------------------------- action text
    def action_to_string(self, seat: int, action: int) -> str:
        if 0 <= action < 2048:
            card = action >> 5
            target = (action >> 1) & 15
            if _TEXT[card] and target < self.num_players:
                return f"play {_TEXT[card]} {seat_name(target)} {_FACE_WORDS[action & 1]}"
        elif GIVE <= action < GIVE + 1024:
            card = (action >> 4) & 63
            target = action & 15
            if _TEXT[card] and target < self.num_players:
                return f"give {_TEXT[card]} {seat_name(target)}"
        return f"#{action}"

    def parse_action(self, seat: int, text: str) -> int:
        wanted = normalize_action_text(text)
        words = wanted.split()
        if not words:
            raise IllegalAction(seat_name(seat), text, "empty action")
        action = -1
        card = _CARD_BY_TEXT.get(words[1], -1) if len(words) > 1 else -1
        target = -1
        if len(words) > 2:
            try:
                target = seat_index(words[2], self.num_players)
            except ValueError:
                target = -1
        if words[0] == "play" and len(words) == 4 and words[3] in _FACE_WORDS:
            if card >= 0 and target >= 0:
                action = (card << 5) | (target << 1) | _FACE_WORDS.index(words[3])
        elif words[0] == "give" and len(words) == 3:
            if card >= 0 and target >= 0:
                action = GIVE | (card << 4) | target
        else:
            raise IllegalAction(
                seat_name(seat),
                text,
                "write 'play CARD pN up' or 'play CARD pN down' (e.g. play 7H p3 down), "
                "or in a tie-break 'give CARD pN'",
            )
        if action < 0 or action not in self.legal_actions(seat):
            raise self.illegal(seat, wanted)
        return action

    def explain_illegal(self, seat: int, text: str) -> str:
        words = text.split()
        verb = "play" if self.phase == PLAY else "give"
        if not words or words[0] != verb:
            if self.phase == PLAY:
                where = f"it is round {self.round} of game {self.game}"
                if words and words[0] == "give":
                    return f"'give' is for the tie-break after the last round (N7); {where}: 'play CARD pN up|down'"
                return f"{where}: play a card, e.g. 'play CARD pN up'"
            return "the rounds are over and the tie-break is on (N7): 'give CARD pN'"
        if len(words) < 3:
            return super().explain_illegal(seat, text)
        card = _CARD_BY_TEXT.get(words[1], -1)
        if card < 0:
            return f"{words[1]!r} is not a card of a standard deck"
        try:
            target = seat_index(words[2], self.num_players)
        except ValueError as exc:
            return str(exc)
        if self.phase == TIEBREAK:
            if self.drawn >= 0 and card != self.drawn:
                return f"{seat_name(seat)} drew {_TEXT[self.drawn]} from the pack and must give that card"
            if self.drawn < 0 and card not in self.hands[seat]:
                return f"{seat_name(seat)} holds no {words[1]}"
            if target == seat:
                return "a tie-break card goes onto another tied player's score, not one's own (N7)"
            if target not in self.tied:
                tied = ", ".join(seat_name(t) for t in self.tied)
                return f"{seat_name(target)} is not tied for the highest score (tied: {tied}) (N7)"
        elif card not in self.hands[seat]:
            return f"{seat_name(seat)} holds no {words[1]}"
        return super().explain_illegal(seat, text)

    def describe_action(self, seat: int, action: int) -> str:
        text = self.action_to_string(seat, action)
        words = text.split()
        if words[0] == "play" and words[3] == "down":
            return f"{seat_name(seat)} plays a card face down in front of {words[2]}."
        if words[0] == "play":
            return f"{seat_name(seat)} plays {words[1]} face up in front of {words[2]}."
        if words[0] == "give":
            return f"{seat_name(seat)} puts {words[1]} onto {words[2]}'s score (tie-break)."
        return super().describe_action(seat, action)

    # -------------------------------------------------------------- views
    def _fronts(self, viewer: Viewer) -> dict[str, list[dict[str, Any]]]:
        """What lies in front of each seat this game, as ``viewer`` sees it (N3)."""
        n = self.num_players
        revealed = self.phase != PLAY or viewer == ALL
        out: list[list[dict[str, Any]]] = [[] for _ in range(n)]
        order = self.order
        for k, a in enumerate(self.plays):
            by = order[k % n]
            down = a & 1
            shown = _TEXT[a >> 5] if not down or revealed or viewer == by else cards.HIDDEN
            out[(a >> 1) & 15].append(
                {"card": shown, "up": not down, "round": k // n + 1, "by": seat_name(by)}
            )
        for by, card, to, from_pack in self.gives:
            out[to].append(
                {
                    "card": _TEXT[card],
                    "up": True,
                    "tiebreak": True,
                    "by": seat_name(by),
                    "from": "pack" if from_pack else "hand",
                }
            )
        return {seat_name(s): out[s] for s in range(n)}

    def _past_view(self) -> list[dict[str, Any]]:
        n = self.num_players
        games = []
        for i, (lead, plays, gives, bonus, g, dq) in enumerate(self.past):
            fronts: list[list[dict[str, Any]]] = [[] for _ in range(n)]
            for k, a in enumerate(plays):
                fronts[(a >> 1) & 15].append(
                    {
                        "card": _TEXT[a >> 5],
                        "up": not a & 1,
                        "round": k // n + 1,
                        "by": seat_name((lead + k) % n),
                    }
                )
            for by, card, to, from_pack in gives:
                fronts[to].append(
                    {
                        "card": _TEXT[card],
                        "up": True,
                        "tiebreak": True,
                        "by": seat_name(by),
                        "from": "pack" if from_pack else "hand",
                    }
                )
            games.append(
                {
                    "game": i + 1,
                    "lead_off": seat_name(lead),
                    "in_front": {seat_name(s): fronts[s] for s in range(n)},
                    "bonus": {seat_name(s): bonus[s] for s in range(n)},
                    "game_scores": {seat_name(s): g[s] for s in range(n)},
                    "disqualified": [seat_name(s) for s in dq],
                }
            )
        return games

    def view(self, seat: Viewer) -> dict[str, Any]:
        n = self.num_players
        out: dict[str, Any] = {
            "game": "notorious",
            "match_game": self.game,
            "games": self.games,
            "round": self.round if self.phase == PLAY else None,
            "rounds": self.rounds,
            "phase": _PHASE_NAMES[self.phase],
            "lead_off": seat_name(self.lead),
            "to_act": [seat_name(s) for s in self._to_act],
            "totals": {seat_name(s): self.totals[s] for s in range(n)},
            "hand_counts": {seat_name(s): len(self.hands[s]) for s in range(n)},
            "pack_count": len(self.pack),
            "in_front": self._fronts(seat),
            "bonus": {seat_name(s): self.bonus[s] for s in range(n)},
            "game_scores": (
                {seat_name(s): self.gscore[s] for s in range(n)} if self.phase != PLAY else None
            ),
            "tied": [seat_name(s) for s in self.tied],
            "drawn_by": seat_name(self.actor) if self.drawn >= 0 else None,
            "past_games": self._past_view(),
            "terminal": self.phase == OVER,
        }
        if seat == ALL:
            out["hands"] = {seat_name(s): [_TEXT[c] for c in self.hands[s]] for s in range(n)}
            out["pack"] = [_TEXT[c] for c in reversed(self.pack)]
            out["drawn"] = _TEXT[self.drawn] if self.drawn >= 0 else None
        elif seat is not None:
            out["seat"] = seat_name(seat)
            out["hand"] = [_TEXT[c] for c in self.hands[seat]]
            out["drawn"] = _TEXT[self.drawn] if self.drawn >= 0 and self.actor == seat else None
        return out

    def render(self, seat: Viewer = None) -> str:
        n = self.num_players
        v = self.view(seat)
        if self.phase == OVER:
            head = f"Notorious — match over after {self.games} game(s)"
        elif self.phase == PLAY:
            head = f"Notorious — game {self.game}/{self.games}, round {self.round}/{self.rounds}"
        else:
            tied = ", ".join(v["tied"])
            head = f"Notorious — game {self.game}/{self.games}, tie-break between {tied} (N7)"
        lines = [head, f"lead-off {v['lead_off']}, pack {v['pack_count']} cards"]
        for s in range(n):
            name = seat_name(s)
            mark = ">" if s == seat else " "
            front = " ".join(
                (e["card"] if e["up"] else f"[{e['card']}]") + ("*" if e.get("tiebreak") else "")
                for e in v["in_front"][name]
            )
            score = f" game {self.gscore[s]:>3}" if self.phase != PLAY else ""
            lines.append(
                f"{mark} {name:>3} total {self.totals[s]:>4}{score}  hand {len(self.hands[s])}"
                f"  in front: {front or '—'}"
            )
        if seat == ALL:
            for s in range(n):
                lines.append(f"  {seat_name(s)} hand: {' '.join(v['hands'][seat_name(s)]) or '—'}")
        elif seat is not None:
            lines.append(f"Your hand: {' '.join(v['hand']) or '—'}")
            if v["drawn"]:
                lines.append(f"You drew {v['drawn']} from the pack: give it to a tied player.")
        if v["drawn_by"] and not v["drawn"]:
            lines.append(f"{v['drawn_by']} drew a card from the pack and must give it.")
        for past in v["past_games"]:
            scores = " ".join(f"{k}={g}" for k, g in past["game_scores"].items())
            lines.append(
                f"game {past['game']}: scores {scores}; disqualified {', '.join(past['disqualified'])}"
            )
        lines.append("[X] face down, X* tie-break card")
        if self.phase == OVER:
            lines.append("Match over. Winners: " + ", ".join(seat_name(w) for w in self.winners()))
        else:
            lines.append(f"To act: {', '.join(v['to_act'])}")
        return "\n".join(lines)

    # ------------------------------------------------------ hidden information
    def determinize(self, seat: int, rng: random.Random) -> NotoriousState:
        """Resample other seats' hands, their unrevealed face-down cards, a pack card
        another seat drew, and the pack order, all from the cards ``seat`` has not seen.

        The sample is a function of what ``seat`` knows and of ``rng`` only: the unseen
        cards are pooled in sorted order before the shuffle, and every deal written in the
        sample (setup, shuffle lines) is rebuilt from the sample and the public facts.
        """
        d = self.clone()
        d._reseed(rng)
        n = self.num_players
        hidden_plays: list[int] = []  # indices into plays
        if self.phase == PLAY:
            order = self.order
            hidden_plays = [k for k, a in enumerate(self.plays) if a & 1 and order[k % n] != seat]
        other_draw = self.drawn >= 0 and self.actor != seat
        pool: list[int] = []
        for s in range(n):
            if s != seat:
                pool += self.hands[s]
        pool += [self.plays[k] >> 5 for k in hidden_plays]
        if other_draw:
            pool.append(self.drawn)
        pool += self.pack
        # Sorted first: the sample must not depend on where the unseen cards really are.
        pool.sort()
        std_shuffle(rng, pool)
        i = 0
        for s in range(n):
            if s != seat:
                size = len(self.hands[s])
                hand = pool[i : i + size]
                hand.sort()
                d.hands[s] = hand
                i += size
        for k in hidden_plays:
            old = self.plays[k]
            new_card = pool[i]
            i += 1
            target = (old >> 1) & 15
            d.gscore[target] += _VALUE[new_card] - _VALUE[old >> 5]
            new = (new_card << 5) | (old & 31)
            d.plays[k] = new
            d.history[self._game_start + k] = (d.history[self._game_start + k][0], new)
        if other_draw:
            d.drawn = pool[i]
            i += 1
        d.pack = pool[i:]
        d._legal = None
        d._seat_legal = [None] * n
        # The deals as written (the first in the setup, later ones in the history's
        # shuffle lines) must agree with the new cards and say no more than ``seat``
        # knows: the current game's deck is rebuilt from the sample, finished games'
        # decks from what was revealed in them (see _past_deck).
        now = d._deck_now()
        if self.game == 1:
            d._first_deck = now
        else:
            d.history[self._game_start - 1] = (CHANCE, "shuffle " + _format_deal(self.lead, now))
            for g in range(self.game - 1):
                deck, at = self._past_deck(seat, g)
                if at < 0:
                    d._first_deck = deck
                else:
                    d.history[at] = (CHANCE, "shuffle " + _format_deal(self.past[g][0], deck))
        return d

    def _past_deck(self, seat: int, g: int) -> tuple[list[int], int]:
        """For finished game ``g`` (0-based): a deck (top first) that deals what was revealed
        in it and ``seat``'s own hand as dealt, with every card ``seat`` never saw (other
        seats' unplayed cards, the pack) in sorted order, and where the deck is written
        (-1 for the setup, else the index of its shuffle line in the history).

        Those cards cannot matter any more, so they are not resampled but written in a
        fixed order, a function of what ``seat`` knows only, and cached.
        """
        entry = self.past[g]
        key = (seat, id(entry))
        hit = self._past_decks.get(key)
        if hit is not None and hit[0] is entry:
            at = hit[3]
            if (self._first_deck if at < 0 else self.history[at][1]) is hit[1]:
                return hit[2], at
        source: object
        if g == 0:
            at = -1
            source = true = self._first_deck
        else:
            at = [i for i, (actor, _) in enumerate(self.history) if actor == CHANCE][g - 1]
            source = self.history[at][1]
            true = [_CARD_BY_TEXT[w] for w in self.history[at][1].split()[1:] if "=" not in w]
        lead, plays, gives = entry[0], entry[1], entry[2]
        n = self.num_players
        size = n * self.hand_size
        order = self._tbl.orders[lead]
        dealt: list[list[int]] = [[] for _ in range(n)]
        for k, a in enumerate(plays):
            dealt[order[k % n]].append(a >> 5)
        drawn: list[int] = []
        for by, card, _to, from_pack in gives:
            (drawn if from_pack else dealt[by]).append(card)
        own = [true[i] for i in range((seat - lead) % n, size, n)]
        for c in dealt[seat]:
            own.remove(c)
        own.sort()
        dealt[seat] += own
        counts = [0] * 64
        for c in _DECKS[_decks(n) - 1]:
            counts[c] += 1
        for hand in dealt:
            for c in hand:
                counts[c] -= 1
        for c in drawn:
            counts[c] -= 1
        unseen = [c for c in range(64) for _ in range(counts[c])]  # sorted
        i = 0
        for s in order:
            if s != seat:
                k = self.hand_size - len(dealt[s])
                dealt[s] += unseen[i : i + k]
                i += k
        deck = [dealt[order[j % n]][j // n] for j in range(size)] + drawn + unseen[i:]
        self._past_decks[key] = (entry, source, deck, at)
        return deck, at

    def _deck_now(self) -> list[int]:
        """A deck order (top first) that deals this game's cards as they are now."""
        n = self.num_players
        order = self.order
        dealt: list[list[int]] = [[] for _ in range(n)]
        for k, a in enumerate(self.plays):
            dealt[order[k % n]].append(a >> 5)
        drawn: list[int] = []
        for by, card, _to, from_pack in self.gives:
            (drawn if from_pack else dealt[by]).append(card)
        if self.drawn >= 0:
            drawn.append(self.drawn)
        for s in range(n):
            dealt[s] += self.hands[s]
        deck = [dealt[order[i % n]][i // n] for i in range(n * self.hand_size)]
        return deck + drawn + self.pack[::-1]

    def redact_history_entry(self, index: int, actor: int, text: str, viewer: Viewer) -> str:
        if viewer == ALL:
            return text
        if actor == CHANCE:
            label, _, body = text.partition(" ")
            lead = body.split(" ", 1)[0]
            public = f"{lead} " if lead.startswith("lead=") else ""  # the lead-off is public
            return f"{label} {public}{cards.HIDDEN}"
        if (
            actor != viewer
            and self.phase == PLAY
            and index >= self._game_start
            and text.endswith(" down")
        ):
            words = text.split()
            words[1] = cards.HIDDEN
            return " ".join(words)
        return text

    def redact_setup(self, setup: dict[str, Any], viewer: Viewer) -> dict[str, Any]:
        """The first deal as ``viewer`` saw it: its own dealt cards in place, the rest ``??``."""
        if viewer == ALL:
            return setup
        n = self.num_players
        tokens = str(setup.get("deck", "")).split()
        lead = seat_index(str(setup.get("lead_off", "p1")), n)
        dealt = n * self.hand_size
        shown = [
            t if viewer is not None and i < dealt and (lead + i) % n == viewer else cards.HIDDEN
            for i, t in enumerate(tokens)
        ]
        out = dict(setup)
        out["deck"] = " ".join(shown)
        return out

    # ------------------------------------------------------------- scores
    def scores(self) -> list[float]:
        """Match totals: every game's bonus, plus game scores where not disqualified (N4, N6)."""
        return [float(t) for t in self.totals]

    def check_invariants(self) -> None:
        n = self.num_players
        # Every card in exactly one place.
        here = [c for h in self.hands for c in h]
        here += [a >> 5 for a in self.plays]
        here += [g[1] for g in self.gives]
        here += self.pack
        if self.drawn >= 0:
            here.append(self.drawn)
        assert sorted(here) == _SORTED_DECKS[_decks(n) - 1], "cards lost or duplicated"
        # Game score and bonus from scratch (N4, N5).
        g = [0] * n
        b = [0] * n
        for k, a in enumerate(self.plays):
            t = (a >> 1) & 15
            g[t] += _VALUE[a >> 5]
            if not a & 1:
                b[t] += self.rounds - k // n
        for _by, card, to, _fp in self.gives:
            g[to] += _VALUE[card]
        assert g == self.gscore, (g, self.gscore)
        assert b == self.bonus, (b, self.bonus)
        # Hand sizes: everyone plays one card a round; tie-break cards from hand (N7).
        played = [0] * n
        for k in range(len(self.plays)):
            played[self.order[k % n]] += 1
        for by, _card, _to, from_pack in self.gives:
            played[by] += 0 if from_pack else 1
        for s in range(n):
            assert len(self.hands[s]) == self.hand_size - played[s]
            assert self.hands[s] == sorted(self.hands[s])
        if self.phase == PLAY:
            assert len(self.plays) == (self.round - 1) * n + self.turn
            assert self.actor == self.order[self.turn]
        # Match totals from the finished games (N4, N6).
        totals = [0] * n
        for _lead, _plays, _gives, bonus, gs, dq in self.past:
            for s in range(n):
                totals[s] += bonus[s] + (0 if s in dq else gs[s])
        assert len(self.past) == self.game - (0 if self.phase == OVER else 1)
        if self.phase == TIEBREAK:
            totals = [t + x for t, x in zip(totals, self.bonus, strict=True)]
            assert self.actor in self.tied
            assert self.drawn < 0 or not self.hands[self.actor]
        assert totals == self.totals, (totals, self.totals)


def _index(hand: list[int], card: int) -> int:
    """Where ``card`` first is in ``hand``, or -1: compiled, a loop on native ints is
    several times cheaper than ``in`` and ``index`` (generic comparisons of objects)."""
    for i in range(len(hand)):
        if hand[i] == card:
            return i
    return -1


_HAND_TOKEN = re.compile(r"^(p\d+)=(\S+)$", re.IGNORECASE)
"""A seat's hand in a deal line: ``p2=7H,2C,9S``."""


def _format_deal(lead: int, deck: list[int]) -> str:
    """A later game's deal as its shuffle line writes it: the lead-off, then the deck."""
    return f"lead={seat_name(lead)} {_format_deck(deck)}"


def _format_deck(deck: list[int]) -> str:
    return " ".join([_TEXT[c] for c in deck])


def _deck_problem(deck: list[int], n: int) -> str | None:
    """Why ``deck`` is not a permutation of the deck(s) for ``n`` players (N1), or None."""
    size = _deck_size(n)
    copies = _decks(n)
    counts = [0] * 64
    for c in deck:
        counts[c] += 1
    extra = [_TEXT[c] for c in range(64) if counts[c] > copies]
    missing = [_TEXT[c] for c in range(64) if _TEXT[c] and counts[c] < copies]
    if len(deck) != size and not extra:
        return f"{len(deck)} cards, not {size} ({copies} deck(s) of 52 for {n} players, N1)"
    if extra or missing:
        return (
            f"not {copies} full deck(s): too many {' '.join(extra) or '-'}; "
            f"missing {' '.join(missing) or '-'}"
        )
    return None
