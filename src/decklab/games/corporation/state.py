"""Corporation's rules (RULINGS.md P1–P9) on the generic engine.

Every seat chooses a value at the same time; the engine sees this as every seat
being to act at once, each ``apply`` recording one face-down choice, and the
last choice of the round revealing them all and resolving the round.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, Final

from mypy_extensions import mypyc_attr

from decklab.engine.chance import std_choice
from decklab.engine.errors import IllegalAction, SetupError
from decklab.engine.info import GameInfo, Option
from decklab.engine.state import ALL, GameState, Viewer, seat_name
from decklab.games.corporation.rewards import DEFAULT, RewardFn, check_reward, reward_function

_VALUE_TEXT: Final = {1: "A"}
_HANDS: Final[dict[int, list[list[int]]]] = {}
"""By top value: ``[lock]`` → the values 1..top but ``lock`` (0: none), shared read-only."""
_SEATS: Final[list[tuple[int, ...]]] = [tuple(range(n)) for n in range(11)]


def _hands(top: int) -> list[list[int]]:
    got = _HANDS.get(top)
    if got is None:
        got = _HANDS[top] = [[v for v in range(1, top + 1) if v != lock] for lock in range(top + 1)]
    return got


def _default_target(n: int) -> int:
    """2n² (P7)"""
    return 2 * n * n


def _default_top(n: int) -> int:
    """n, the number of players (P1)"""
    return n


INFO: Final = GameInfo(
    name="corporation",
    title="Corporation",
    version=1,
    min_players=4,
    max_players=10,
    default_players=5,
    summary="Everyone plays a card at once: lone cards score, matching cards form "
    "Corporations that pay off big next round if all members stick together.",
    simultaneous=True,
    hidden_information=True,
    score_unit="points",
    options=(
        Option(
            "target",
            "score that ends the game after the round it is reached (P7)",
            int,
            default=_default_target,
            minimum=1,
        ),
        Option(
            "max_rounds",
            "the game also ends after this many rounds (P7)",
            int,
            default=200,
            minimum=1,
            maximum=100_000,
        ),
        Option(
            "top_value",
            "every hand holds the values 1..top_value (P1)",
            int,
            default=_default_top,
            minimum=2,
            maximum=13,
        ),
        Option(
            "reward",
            "the reward formula of a Corporation that sticks together (P5): 'standard' is "
            "value × members; installed plugins add others (games/corporation/rewards.py)",
            str,
            default=DEFAULT,
            check=check_reward,
        ),
    ),
)


@mypyc_attr(allow_interpreted_subclasses=True)  # a variant's class (engine/registry.py)
class CorporationState(GameState):
    """A game of Corporation between ``num_players`` seats."""

    info = INFO
    static_setup = True

    top: int
    target: int
    max_rounds: int
    round: int
    points: list[int]
    locked: list[int]
    """The value lying face up in front of each seat (0 if none): unplayable this round (P2, P4)."""
    corporations: list[tuple[int, tuple[int, ...]]]
    """Corporations formed last round, as (value, members): candidates for rewards (P5)."""
    choices: list[int]
    """This round's face-down choices, 0 where a seat has not chosen yet."""
    rounds: list[tuple[int, ...]]
    """Every revealed round, each seat's value: public knowledge."""
    reward: RewardFn
    """Each member's reward for a Corporation that stuck together on a value (P5; rewards.py)."""
    _waiting: tuple[int, ...]
    _legal: list[list[int]]
    _round_start: int
    _over: bool
    _model: TableModel | None
    """The opponent model's public counts and greedy's choices for this history
    (:class:`TableModel`): the same for every seat and every clone with this history."""

    # ------------------------------------------------------------- set-up
    def _init_fields(self) -> None:
        n = self.num_players
        self.top = self.options["top_value"]
        self.target = self.options["target"]
        self.max_rounds = self.options["max_rounds"]
        self.reward = reward_function(self.options["reward"])
        self.round = 1
        self.points = [0] * n
        self.locked = [0] * n
        self.corporations = []
        self.choices = [0] * n
        self.rounds = []
        self._round_start = 0
        self._over = False
        self._model = None
        self._start_round()

    def _deal(self) -> None:
        """Nothing is shuffled: every hand is 1..top_value (P1)."""

    def _load_setup(self, setup: Mapping[str, Any]) -> None:
        if setup:
            raise SetupError(
                "Corporation has nothing to set up: every hand holds 1..top_value; "
                f"the setup must be {{}}, not one with {', '.join(sorted(setup))}"
            )

    def export_setup(self) -> dict[str, Any]:
        return {}

    def clone(self) -> CorporationState:
        c = self._clone_base()
        c.top = self.top
        c.target = self.target
        c.max_rounds = self.max_rounds
        c.reward = self.reward
        c.round = self.round
        c.points = self.points.copy()
        c.locked = self.locked.copy()
        c.corporations = self.corporations  # replaced, never mutated
        c.choices = self.choices.copy()
        c.rounds = self.rounds.copy()
        c._waiting = self._waiting
        c._legal = self._legal  # rebuilt, never mutated
        c._round_start = self._round_start
        c._over = self._over
        c._model = self._model  # counted from the history, which the clone shares
        return c

    def _start_round(self) -> None:
        hands = _hands(self.top)  # the lists are shared: legal_actions' are read-only
        self._legal = [hands[lock] for lock in self.locked]
        self._waiting = _SEATS[self.num_players]
        self._round_start = len(self.history)

    # -------------------------------------------------------------- turns
    def to_act(self) -> tuple[int, ...]:
        return self._waiting

    def is_terminal(self) -> bool:
        return self._over

    def legal_actions(self, seat: int) -> list[int]:
        if self.choices[seat] or self._over:
            return []
        return self._legal[seat]

    def hand(self, seat: int) -> list[int]:
        """The values ``seat`` holds this round, chosen or not: all but the one face up (P1, P2).

        Public, unlike its choice; the list is shared, read-only.
        """
        return self._legal[seat]

    def apply(self, seat: int, action: int) -> None:
        # Inlined check (hot path): a seat still to choose, a value it holds.
        if (
            self._over
            or not 0 <= seat < self.num_players
            or self.choices[seat]
            or action not in self._legal[seat]
        ):
            raise self.illegal(seat, action)
        self.history.append((seat, action))
        self._apply(seat, action)

    def _apply(self, seat: int, action: int) -> None:
        self.choices[seat] = action
        waiting = self._waiting
        if waiting[0] == seat:  # choices usually come in seat order
            self._waiting = waiting[1:]
        else:
            self._waiting = tuple([s for s in waiting if s != seat])
        if not self._waiting:
            self._resolve()

    def _resolve(self) -> None:
        """Reveal and score the round: rewards (P5), profits (P3), new Corporations (P4, P6)."""
        n = self.num_players
        played = self.choices
        count = [0] * (self.top + 1)  # how many seats played each value
        for v in played:
            count[v] = count[v] + 1  # (not ``+=`` on an item: compiled, that is a generic call)
        points = self.points
        for _, members in self.corporations:
            v = played[members[0]]
            size = len(members)
            if count[v] == size and all(played[m] == v for m in members):
                gain = self.reward(v, size)
                for m in members:
                    points[m] = points[m] + gain
        new_corps: list[tuple[int, tuple[int, ...]]] = []
        locked = [0] * n
        for v in range(1, self.top + 1):  # in order of value
            k = count[v]
            if k == 1:
                s = played.index(v)
                points[s] = points[s] + v
            elif k:
                seats = tuple([s for s in range(n) if played[s] == v])
                new_corps.append((v, seats))
                for s in seats:
                    locked[s] = v
        self.rounds.append(tuple(played))
        self.corporations = new_corps
        self.locked = locked
        self.choices = [0] * n
        best = points[0]
        for p in points:
            if p > best:
                best = p
        if best >= self.target or self.round >= self.max_rounds:
            self._over = True
            self._waiting = ()
            self._legal = [[] for _ in range(self.num_players)]
            return
        self.round += 1
        self._start_round()

    # -------------------------------------------------------- action text
    def action_to_string(self, seat: int, action: int) -> str:
        return f"play {action}"

    def parse_action(self, seat: int, text: str) -> int:
        words = text.strip().lower().split()
        if len(words) == 1 and (words[0].isdigit() or words[0] == "a"):
            words = ["play", *words]
        if len(words) != 2 or words[0] != "play":
            raise IllegalAction(
                seat_name(seat), text, "write 'play V', V a value such as 3 (or A for 1)"
            )
        raw = words[1]
        value = 1 if raw == "a" else int(raw) if raw.isdigit() else 0
        if not 1 <= value <= self.top:
            raise IllegalAction(seat_name(seat), text, f"values run from 1 to {self.top}")
        if value not in self.legal_actions(seat):
            raise self.illegal(seat, value)
        return value

    def explain_not_to_act(self, seat: int) -> str:
        return "it has already chosen this round"

    def explain_illegal(self, seat: int, text: str) -> str:
        value = text.split()[-1]
        if value.isdigit() and int(value) == self.locked[seat]:
            return f"its {value} lies face up in front of it, in a Corporation, this round (P2)"
        if value.isdigit() and not 1 <= int(value) <= self.top:
            return f"values run from 1 to {self.top}"
        return super().explain_illegal(seat, text)

    def describe_action(self, seat: int, action: int) -> str:
        return f"{seat_name(seat)} puts a card face down."

    # -------------------------------------------------------------- views
    def view(self, seat: Viewer) -> dict[str, Any]:
        n = self.num_players
        out: dict[str, Any] = {
            "game": self.info.name,
            "round": self.round,
            "target": self.target,
            "max_rounds": self.max_rounds,
            "top_value": self.top,
            "reward": self.options["reward"],
            "scores": {seat_name(s): self.points[s] for s in range(n)},
            "in_front": {seat_name(s): self.locked[s] or None for s in range(n)},
            "corporations": [
                {"value": v, "members": [seat_name(m) for m in members]}
                for v, members in self.corporations
            ],
            "chosen": {seat_name(s): bool(self.choices[s]) for s in range(n)},
            "rounds": [{seat_name(s): v for s, v in enumerate(r)} for r in self.rounds],
            "to_act": [seat_name(s) for s in self._waiting],
            "terminal": self._over,
        }
        if seat == ALL:
            out["choices"] = {seat_name(s): self.choices[s] or None for s in range(n)}
        elif seat is not None:
            out["seat"] = seat_name(seat)
            out["my_choice"] = self.choices[seat] or None
            out["hand"] = [v for v in range(1, self.top + 1) if v != self.locked[seat]]
        return out

    def render(self, seat: Viewer = None) -> str:
        n = self.num_players
        lines = [f"Corporation — round {self.round}, target {self.target}"]
        if self.corporations:
            corps = "; ".join(
                f"{v}: {', '.join(seat_name(m) for m in members)}"
                for v, members in self.corporations
            )
            lines.append(f"Corporations from last round: {corps}")
        if self.rounds:
            last = " ".join(f"{seat_name(s)}={v}" for s, v in enumerate(self.rounds[-1]))
            lines.append(f"Last reveal: {last}")
        for s in range(n):
            mark = ">" if s == seat else " "
            front = f"face up: {self.locked[s]}" if self.locked[s] else "face up: —"
            if self.choices[s]:
                shown = str(self.choices[s]) if seat in (s, ALL) else "??"
                status = f"chose {shown}"
            else:
                status = "to choose" if not self._over else ""
            lines.append(f"{mark} {seat_name(s):>3}  {self.points[s]:>4} pts  {front:<12} {status}")
        if self._over:
            lines.append("Game over. Winners: " + ", ".join(seat_name(w) for w in self.winners()))
        return "\n".join(lines)

    def determinize(self, seat: int, rng: random.Random) -> CorporationState:
        """Other seats' face-down choices this round are redrawn from the greedy model.

        A search models the seats still to choose by the game's greedy player
        (``expert``: ISMCTS with it as prior and model of the other seats). The
        seats that already chose must be believed to play the same way, or only
        the first seat to choose plans against realistic opponents: drawn
        uniformly, an all-expert table of four gave p1 37% of the wins and the
        others about 20% each (issue 20). So each hidden choice is drawn as
        greedy would draw it (its best value, near-equal ones at random), from
        public fields only; the true choice is never read.
        """
        d = self.clone()
        d._reseed(rng)
        for s in range(self.num_players):
            if s != seat and d.choices[s]:
                near = greedy_choices(self, s)
                d.choices[s] = near[0] if len(near) == 1 else std_choice(rng, near)
        d.history = [
            (actor, d.choices[actor] if i >= self._round_start and actor >= 0 else a)
            for i, (actor, a) in enumerate(d.history)
        ]
        return d

    def undo_barrier(self, seat: int) -> int:
        """Within a round nothing is revealed (choices are face down, P2), so a seat may
        take back its choice until the round is revealed; never across a reveal."""
        return self._round_start

    def redact_history_entry(self, index: int, actor: int, text: str, viewer: Viewer) -> str:
        if (
            index >= self._round_start
            and not self._over
            and actor >= 0
            and actor != viewer
            and viewer != ALL
        ):
            return "play ??"
        return text

    # ------------------------------------------------------------- scores
    def scores(self) -> list[float]:
        return list(self.points)

    def check_invariants(self) -> None:
        n = self.num_players
        assert len(self.rounds) == self.round - (0 if self._over else 1)
        # Recount every score from the public rounds (P3, P5).
        points = [0] * n
        prev: list[tuple[int, tuple[int, ...]]] = []
        for played in self.rounds:
            groups: dict[int, list[int]] = {}
            for s, v in enumerate(played):
                groups.setdefault(v, []).append(s)
            for _, members in prev:
                v = played[members[0]]
                if all(played[m] == v for m in members) and len(groups[v]) == len(members):
                    for m in members:
                        points[m] += self.reward(v, len(members))
            prev = []
            for v, seats in sorted(groups.items()):
                if len(seats) == 1:
                    points[seats[0]] += v
                else:
                    prev.append((v, tuple(seats)))
        assert points == self.points, (points, self.points)
        for s in range(n):
            assert self.choices[s] == 0 or self.choices[s] != self.locked[s]


# ------------------------------------------------------------ the table model
# What each seat is expected to play, from public play only. The rule-based
# player (greedy.py, where the heuristics are described) plays its best value;
# ``determinize`` draws the other seats' face-down choices from it, so that a
# search believes the seats that already chose played as it expects the seats
# still to choose to play (issue 20). It lives here, not in greedy.py, because
# the state uses it and greedy.py imports the state (no import circles).

MEMORY: Final = 12
"""Rounds of history an opponent model looks at: recent habits, cheap to count."""
NEAR_TIE: Final = 0.05
"""Values within this fraction of the best are equally good: split them at random."""


def _focal(top: int, lock: int) -> int:
    """The value a Corporation's members meet on without talking: the highest they all hold.

    All members of a Corporation have the same value face up (``lock``), so they
    hold the same values; the highest is what a greedy partner plays anyway.
    """
    return top if lock != top else top - 1


def _loyalty(state: CorporationState, seat: int) -> float:
    """How likely ``seat`` is to meet its Corporation on the focal value (0 … 1).

    Counted from the public rounds: each time the seat was in a Corporation, did it
    play the focal value the next round? The rate is smoothed and the chance level
    of a random player taken off, so a random partner counts as nearly disloyal.
    """
    hits, times = _loyalty_counts(state.rounds, state.top, seat)
    return _loyalty_rate(state.top, hits, times)


def _loyalty_rate(top: int, hits: int, times: int) -> float:
    """:func:`_loyalty` from its counts: smoothed, less the chance level."""
    if top <= 2:
        return 1.0  # one value left to play: staying is all it can do
    chance = 1.0 / (top - 1)
    rate = (hits + 1.0) / (times + 2.0)
    return max(0.0, (rate - chance) / (1.0 - chance))


def _loyalty_counts(rounds: list[tuple[int, ...]], top: int, seat: int) -> tuple[int, int]:
    """(times ``seat`` met its Corporation on the focal value, times it was in one) over
    the last ``3 * MEMORY`` rounds."""
    hits = 0
    times = 0
    for r in range(max(1, len(rounds) - 3 * MEMORY), len(rounds)):
        hit, time = _loyal_in(rounds, r, top, seat)
        hits += hit
        times += time
    return hits, times


def _loyal_in(rounds: list[tuple[int, ...]], r: int, top: int, seat: int) -> tuple[int, int]:
    """Round ``r``'s part of :func:`_loyalty_counts`: (1, 1), (0, 1) or, if ``seat`` was
    in no Corporation the round before, (0, 0)."""
    before = rounds[r - 1]
    lock = before[seat]
    if sum(1 for v in before if v == lock) < 2:
        return 0, 0
    return (1 if rounds[r][seat] == _focal(top, lock) else 0), 1


def _habits(state: CorporationState, seat: int) -> list[float]:
    """``seat``'s chance of playing each value this round (index = value), from its recent play."""
    top = state.top
    counts = [0.0] + [1.0] * top  # smoothing: one imagined play of every value
    for played in state.rounds[-MEMORY:]:
        counts[played[seat]] += 1.0
    lock = state.locked[seat]  # public: the value face up in front of it (P2, P4)
    if lock:
        counts[lock] = 0.0
    total = sum(counts)
    return [c / total for c in counts]


class TableModel:
    """What the opponent model reads of one public history, counted once: every seat's
    habits, loyalties (-1 until asked), the play it leans to (None until asked) and
    greedy choices (None until asked).

    Everything in it is a function of the revealed rounds alone and of the rules it was
    made under (the reward, the top value and the target, kept with it: a clone given
    another reward counts afresh), so it is shared by every state with that history: by
    clones, and, through ``after`` (the model of each round revealed next, by its
    values), by the states a search reaches along the same rounds in different
    iterations. Why: a search asks greedy about every seat of every position it visits;
    counted afresh each time, the same counts took most of an 8-player all-expert
    search's time, and three in four of the models it made were for a history it had
    counted before. A model made as the successor of another takes over its loyalty
    counts and adds one round to them, instead of counting the last ``3 * MEMORY``
    rounds again; the counts are whole numbers, so the rates come out exactly as
    counted afresh. Callers read its lists and never change them.
    """

    def __init__(self, state: CorporationState, before: TableModel | None = None) -> None:
        n = state.num_players
        self.rounds = len(state.rounds)
        self.reward = state.reward
        self.top = state.top
        self.target = state.target
        self.habits = [_habits(state, s) for s in range(n)]
        self.loyalty = [-1.0] * n
        self.counts: list[tuple[int, int]] | None = None
        if before is not None and before.counts is not None:
            self.counts = _next_counts(before.counts, state.rounds, state.top)
        self.leaning: list[list[float]] | None = None
        self.choices: list[list[int] | None] = [None] * n
        self.after: dict[tuple[int, ...], TableModel] = {}

    def __reduce__(self) -> tuple[Any, tuple[()]]:
        # A cache, not part of the game: a pickled or deep-copied state (sent to a
        # worker process, saved by an adapter) leaves it behind and counts afresh, rather
        # than carrying every history a search reached from it (``after``).
        return (_no_model, ())

    def loyal(self, state: CorporationState, seat: int) -> float:
        """``seat``'s :func:`_loyalty`, from the kept counts."""
        stay = self.loyalty[seat]
        if stay < 0.0:
            if self.counts is None:
                self.counts = [
                    _loyalty_counts(state.rounds, state.top, s) for s in range(state.num_players)
                ]
            hits, times = self.counts[seat]
            stay = self.loyalty[seat] = _loyalty_rate(state.top, hits, times)
        return stay

    def leanings(self, state: CorporationState) -> list[list[float]]:
        """Each seat's chances of playing each value as the others see them: its habits,
        leaning to its focal value as far as it is loyal if it was in a Corporation
        last round. The same whoever asks, so made once."""
        if self.leaning is None:
            top = state.top
            probs = list(self.habits)
            for value, members in state.corporations:
                focal = _focal(top, value)
                for m in members:
                    stay = self.loyal(state, m)
                    mixed = [(1.0 - stay) * x for x in probs[m]]
                    mixed[focal] += stay
                    probs[m] = mixed
            self.leaning = probs
        return self.leaning


def _no_model() -> None:
    """What a pickled :class:`TableModel` comes back as: nothing kept."""
    return None


def _next_counts(
    counts: list[tuple[int, int]], rounds: list[tuple[int, ...]], top: int
) -> list[tuple[int, int]]:
    """The loyalty counts one round on: the newest round in, the one that fell out of the
    window (if any) out."""
    newest = len(rounds) - 1
    oldest = newest - 3 * MEMORY
    out = []
    for seat, (hits, times) in enumerate(counts):
        if newest >= 1:
            hit, time = _loyal_in(rounds, newest, top, seat)
            hits += hit
            times += time
        if oldest >= 1:
            hit, time = _loyal_in(rounds, oldest, top, seat)
            hits -= hit
            times -= time
        out.append((hits, times))
    return out


def _memo(state: CorporationState) -> TableModel:
    """The model of ``state``'s history: kept, the next round's of the kept one, or new."""
    key = len(state.rounds)
    memo = state._model
    if memo is not None and (
        memo.reward is not state.reward or memo.top != state.top or memo.target != state.target
    ):
        memo = None  # a clone given other rules (a variant's reward): not this model's game
    if memo is not None and memo.rounds == key:
        return memo
    if memo is not None and memo.rounds == key - 1:
        # A round revealed since: its successor, if another state already counted it.
        last = state.rounds[-1]
        nxt = memo.after.get(last)
        if nxt is None:
            nxt = memo.after[last] = TableModel(state, memo)
        state._model = nxt
        return nxt
    memo = state._model = TableModel(state)
    return memo


def greedy_choices(state: CorporationState, seat: int) -> list[int]:
    """The values greedy splits at random for ``seat`` (one, unless some are near-equal).

    Apart from ``greedy_action``'s draw among them, this is the whole model: the
    state's ``determinize`` draws another seat's face-down choice from it, so that
    a search believes the seats that already chose played as it expects the seats
    still to choose to play. It reads only public fields and never the seat's own
    face-down choice, so it may be asked about a seat that has already chosen: the
    answer is the same as before it chose.

    Kept for the round with the public counts (read-only for the caller): everything it
    reads changes only when a round is revealed, and a search asks it about the same
    seats of the same round in every iteration (at 8 players, most of the all-expert
    search's time before :class:`TableModel` kept them).
    """
    kept = _memo(state).choices
    near = kept[seat]
    if near is None:
        legal = state.hand(seat)
        if len(legal) == 1:
            near = list(legal)
        else:
            values = greedy_values(state, seat)
            best = max(values.values())
            near = [v for v, ev in values.items() if ev >= best * (1.0 - NEAR_TIE)]
        kept[seat] = near
    return near


def greedy_values(state: CorporationState, seat: int) -> dict[int, float]:
    """Each value ``seat`` may play, with the points greedy expects it to bring this round.

    The table model of :func:`greedy_choices` (public fields only, the same for a seat
    that has already chosen), in the order of the seat's hand: the ratings the
    beginner's noise picks among (``levels.py``), the same for every seat whatever its
    place in the order of choosing.
    """
    legal = state.hand(seat)
    n = state.num_players
    top = state.top
    others = [o for o in range(n) if o != seat]
    probs = _memo(state).leanings(state)

    # Last round's Corporations (public): members lean towards their focal value.
    my_corp: tuple[int, ...] = ()
    my_focal = 0
    for value, members in state.corporations:
        if seat in members:
            my_corp, my_focal = members, _focal(top, value)

    # Near the end a shared reward helps the rival partner as much as it helps us.
    points = state.points
    near_end = max(points) + 2 * top >= state.target
    discount = 1.0
    if near_end and my_corp:
        best_outside = max((points[o] for o in others if o not in my_corp), default=-1)
        best_partner = max(points[m] for m in my_corp if m != seat)
        if best_partner >= best_outside:
            discount = 0.25

    values: dict[int, float] = {}
    for v in legal:
        alone = 1.0
        for o in others:
            alone *= 1.0 - probs[o][v]
        ev = v * alone
        if my_corp and v == my_focal:
            together = 1.0
            for o in others:
                p = probs[o][v]
                together *= p if o in my_corp else 1.0 - p
            ev += discount * state.reward(v, len(my_corp)) * together
        values[v] = ev
    return values
