"""Goofspiel on decklab's generic engine, written outside decklab.

Rules (the classic game): every player holds the values 1…``cards``; a prize
deck of the same values is shuffled face down. Each round the top prize is
turned face up, every player bids one of their cards at once, face down, and
the bids are revealed: the single highest bid takes the prize (its value in
points); if the highest bid is shared, the prize is discarded. Bid cards are
spent. After ``cards`` rounds the most points wins (shared when equal).

What is hidden: the order of the prizes not yet turned, and the bids of the
round in progress. Hands are public (every spent card was revealed), so a bid
card stays in its owner's hand until the reveal: the hands shown never tell a
face-down bid.

The prize deck is dealt as the setup (``{"prizes": [...]}``, top first); a
seat's copy of a record shows only the prizes turned so far.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from decklab.engine.chance import std_choice, std_shuffle
from decklab.engine.errors import IllegalAction, SetupError
from decklab.engine.info import GameInfo, Option
from decklab.engine.state import ALL, GameState, Viewer, seat_name

HIDDEN = "??"

INFO = GameInfo(
    name="goofspiel",
    title="Goofspiel",
    version=1,
    min_players=2,
    max_players=10,
    default_players=2,
    summary="Everyone bids a card at once for the prize turned up: the single highest "
    "bid takes it, a tie throws it away. Spend your cards well.",
    simultaneous=True,
    hidden_information=True,
    score_unit="prize points",
    options=(Option("cards", "values per hand and in the prize deck (1…cards)", int, 13, 1, 13),),
)


class GoofspielState(GameState):
    """A game of Goofspiel between ``num_players`` seats."""

    info = INFO
    static_setup = True

    cards: int
    prizes: list[int]
    """The prize deck in the order it is turned (top first): hidden beyond ``turn``."""
    turn: int
    """How many prizes have been turned (the current one is ``prizes[turn - 1]``)."""
    hands: list[list[int]]
    bids: list[int]
    """This round's face-down bids, 0 where a seat has not bid yet."""
    points: list[int]
    won: list[list[int]]
    discarded: list[int]
    rounds: list[tuple[int, tuple[int, ...]]]
    """Every revealed round: (prize, each seat's bid). Public."""
    _round_start: int
    _waiting: tuple[int, ...]

    # ------------------------------------------------------------- set-up
    def _init_fields(self) -> None:
        n = self.num_players
        self.cards = int(self.options["cards"])
        self.prizes = []
        self.turn = 0
        self.hands = [list(range(1, self.cards + 1)) for _ in range(n)]
        self.bids = [0] * n
        self.points = [0] * n
        self.won = [[] for _ in range(n)]
        self.discarded = []
        self.rounds = []
        self._round_start = 0
        self._waiting = ()

    def _deal(self) -> None:
        prizes = list(range(1, self.cards + 1))
        self.rng.shuffle(prizes)
        self.prizes = prizes
        self._next_round()

    def _load_setup(self, setup: Mapping[str, Any]) -> None:
        extra = set(setup) - {"prizes"}
        if extra:
            raise SetupError(f"a Goofspiel setup has only 'prizes', not {', '.join(sorted(extra))}")
        raw = setup.get("prizes")
        if not isinstance(raw, list) or not all(
            isinstance(v, int) and not isinstance(v, bool) for v in raw
        ):
            raise SetupError("'prizes' is the list of prize values, top first, e.g. [3, 1, 2]")
        if sorted(raw) != list(range(1, self.cards + 1)):
            raise SetupError(f"'prizes' must hold each value 1…{self.cards} once")
        self.prizes = list(raw)
        self._next_round()

    def export_setup(self) -> dict[str, Any]:
        return {"prizes": list(self.prizes)}

    def redact_setup(self, setup: dict[str, Any], viewer: Viewer) -> dict[str, Any]:
        if viewer == ALL:
            return setup
        prizes = setup.get("prizes", [])
        return {"prizes": [v if i < self.turn else HIDDEN for i, v in enumerate(prizes)]}

    def clone(self) -> GoofspielState:
        c = self._clone_base()
        c.cards = self.cards
        c.prizes = self.prizes.copy()
        c.turn = self.turn
        c.hands = [h.copy() for h in self.hands]
        c.bids = self.bids.copy()
        c.points = self.points.copy()
        c.won = [w.copy() for w in self.won]
        c.discarded = self.discarded.copy()
        c.rounds = self.rounds.copy()
        c._round_start = self._round_start
        c._waiting = self._waiting
        return c

    def _next_round(self) -> None:
        if self.turn >= self.cards:
            self._waiting = ()
            return
        self.turn += 1
        self._waiting = tuple(range(self.num_players))
        self._round_start = len(self.history)

    # -------------------------------------------------------------- turns
    @property
    def prize(self) -> int | None:
        """The prize being bid for, None once the game is over."""
        return self.prizes[self.turn - 1] if self._waiting else None

    def to_act(self) -> tuple[int, ...]:
        return self._waiting

    def legal_actions(self, seat: int) -> list[int]:
        if seat not in self._waiting:
            return []
        return self.hands[seat]

    def _apply(self, seat: int, action: int) -> None:
        self.bids[seat] = action
        self._waiting = tuple(s for s in self._waiting if s != seat)
        if not self._waiting:
            self._reveal()

    def _reveal(self) -> None:
        bids = self.bids
        prize = self.prizes[self.turn - 1]
        best = max(bids)
        top = [s for s, b in enumerate(bids) if b == best]
        if len(top) == 1:
            self.points[top[0]] += prize
            self.won[top[0]].append(prize)
        else:
            self.discarded.append(prize)
        for s, b in enumerate(bids):
            self.hands[s].remove(b)
        self.rounds.append((prize, tuple(bids)))
        self.bids = [0] * self.num_players
        self._next_round()

    # -------------------------------------------------------- action text
    def action_to_string(self, seat: int, action: int) -> str:
        return f"bid {action}"

    def parse_action(self, seat: int, text: str) -> int:
        words = text.strip().lower().split()
        if len(words) == 1:
            words = ["bid", *words]
        if len(words) != 2 or words[0] != "bid" or not words[1].isdigit():
            raise IllegalAction(seat_name(seat), text, "write 'bid V', V one of your values")
        value = int(words[1])
        if value not in self.legal_actions(seat):
            raise self.illegal(seat, f"bid {value}")
        return value

    def explain_not_to_act(self, seat: int) -> str:
        return "it has already bid this round"

    def describe_action(self, seat: int, action: int) -> str:
        return f"{seat_name(seat)} bids a card face down."

    def undo_barrier(self, seat: int) -> int:
        """Nothing is revealed within a round: a bid may be taken back until the reveal."""
        return self._round_start

    def redact_history_entry(self, index: int, actor: int, text: str, viewer: Viewer) -> str:
        hidden = self._waiting and actor >= 0 and actor != viewer and viewer != ALL
        if index >= self._round_start and hidden:
            return "bid ??"
        return text

    # -------------------------------------------------------------- views
    def view(self, seat: Viewer) -> dict[str, Any]:
        n = self.num_players
        names = [seat_name(s) for s in range(n)]
        out: dict[str, Any] = {
            "game": self.info.name,
            "cards": self.cards,
            "round": self.turn,
            "prize": self.prize,
            "prizes_left": self.cards - self.turn,
            "scores": {names[s]: self.points[s] for s in range(n)},
            "won": {names[s]: list(self.won[s]) for s in range(n)},
            "hands": {names[s]: list(self.hands[s]) for s in range(n)},
            "discarded": list(self.discarded),
            "rounds": [
                {"prize": p, "bids": {names[s]: b for s, b in enumerate(bids)}}
                for p, bids in self.rounds
            ],
            "chosen": {names[s]: bool(self.bids[s]) for s in range(n)},
            "to_act": [names[s] for s in self._waiting],
            "terminal": not self._waiting,
        }
        if seat == ALL:
            out["bids"] = {names[s]: self.bids[s] or None for s in range(n)}
            out["upcoming"] = self.prizes[self.turn :]
        elif seat is not None:
            out["seat"] = names[seat]
            out["my_bid"] = self.bids[seat] or None
        return out

    def render(self, seat: Viewer = None) -> str:
        lines = [f"Goofspiel — round {self.turn} of {self.cards}"]
        if self.prize is not None:
            lines.append(f"Prize: {self.prize}   ({self.cards - self.turn} more to come)")
        if self.rounds:
            p, bids = self.rounds[-1]
            shown = " ".join(f"{seat_name(s)}={b}" for s, b in enumerate(bids))
            lines.append(f"Last round: prize {p}, bids {shown}")
        for s in range(self.num_players):
            mark = ">" if s == seat else " "
            if self.bids[s]:
                status = f"bid {self.bids[s] if seat in (s, ALL) else HIDDEN}"
            else:
                status = "to bid" if self._waiting else ""
            hand = " ".join(map(str, self.hands[s]))
            lines.append(
                f"{mark} {seat_name(s):>3} {self.points[s]:>4} pts  {status:<8} hand: {hand}"
            )
        if not self._waiting:
            lines.append("Game over. Winners: " + ", ".join(seat_name(w) for w in self.winners()))
        return "\n".join(lines)

    def determinize(self, seat: int, rng: random.Random) -> GoofspielState:
        """The prizes not yet turned are reshuffled, and every other seat's face-down bid
        of this round is redrawn from its (public) hand; the true ones are never read."""
        d = self.clone()
        d._reseed(rng)
        rest = sorted(d.prizes[d.turn :])  # from what the seat knows, not their true order
        std_shuffle(rng, rest)
        d.prizes[d.turn :] = rest
        for s in range(self.num_players):
            if s != seat and d.bids[s]:
                d.bids[s] = std_choice(rng, d.hands[s])
        d.history = [
            (actor, d.bids[actor] if i >= self._round_start and actor >= 0 else a)
            for i, (actor, a) in enumerate(d.history)
        ]
        return d

    # ------------------------------------------------------------- scores
    def scores(self) -> list[float]:
        return [float(p) for p in self.points]

    def check_invariants(self) -> None:
        n = self.num_players
        assert sorted(self.prizes) == list(range(1, self.cards + 1))
        assert len(self.rounds) == self.turn - (1 if self._waiting else 0)
        points = [0] * n
        spent: list[list[int]] = [[] for _ in range(n)]
        for prize, bids in self.rounds:
            best = max(bids)
            top = [s for s, b in enumerate(bids) if b == best]
            if len(top) == 1:
                points[top[0]] += prize
            for s, b in enumerate(bids):
                spent[s].append(b)
        assert points == self.points, (points, self.points)
        for s in range(n):
            # every value is in exactly one place: the hand or spent
            assert sorted(spent[s] + self.hands[s]) == list(range(1, self.cards + 1))
            assert self.bids[s] == 0 or self.bids[s] in self.hands[s]
        won = sorted(v for w in self.won for v in w) + self.discarded
        assert sorted(won) == sorted(p for p, _ in self.rounds)
