"""A rule-based Corporation player: what a thoughtful first-time player would do.

Every value is scored by the points it is expected to bring this round, under a
simple model of what the other seats will play, and the best one is played
(near-equal ones are split at random, so a table of greedy players does not
lock into one pattern). The heuristics, and why:

* **Read the table, not the cards.** Everything used is public (P2–P6): the
  revealed rounds, the values lying face up (unplayable, P2) and last round's
  Corporations. No other seat's face-down choice of this round is ever read.
* **Each opponent plays like it has played.** Its chance of playing a value is
  its recent frequency of that value (last rounds, smoothed towards uniform),
  over the values it may play now. A seat that always plays high is avoided,
  and a value an opponent cannot play (its face-up card) is safer.
* **Profit is value × chance to be alone.** A value scores only if nobody else
  plays it (P3), so a 5 that two opponents like may be worth less than a 3.
* **Stay with the Corporation when rewards are likely.** Members of last round's
  Corporation are expected to meet again on the obvious value, the highest one
  they all still hold; how likely each member is to do so is learnt from how
  often it stayed before (a random player rarely does). The reward (P5) is
  v × members if all members and nobody else play v.
* **Defect when ahead near the end.** A reward pays every member the same, so
  when the game is about to end and a partner is the seat to beat, the shared
  reward is discounted by how much it also lifts the rival.
"""

from __future__ import annotations

import random
from typing import Final

from decklab.engine.chance import std_choice
from decklab.games.corporation.state import CorporationState

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
    rounds = state.rounds
    top = state.top
    hits = 0
    times = 0
    start = max(1, len(rounds) - 3 * MEMORY)
    for r in range(start, len(rounds)):
        before = rounds[r - 1]
        lock = before[seat]
        if sum(1 for v in before if v == lock) < 2:
            continue
        times += 1
        if rounds[r][seat] == _focal(top, lock):
            hits += 1
    if top <= 2:
        return 1.0  # one value left to play: staying is all it can do
    chance = 1.0 / (top - 1)
    rate = (hits + 1.0) / (times + 2.0)
    return max(0.0, (rate - chance) / (1.0 - chance))


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


def greedy_action(state: CorporationState, seat: int, rng: random.Random) -> int:
    """The value to play for ``seat``: the best expected points under the table model.

    Reads only public fields (rounds, locked values, Corporations, scores) and the
    seat's own legal values.
    """
    near = greedy_choices(state, seat)
    return near[0] if len(near) == 1 else std_choice(rng, near)


def greedy_choices(state: CorporationState, seat: int) -> list[int]:
    """The values greedy splits at random for ``seat`` (one, unless some are near-equal).

    Apart from ``greedy_action``'s draw among them, this is the whole model: the
    state's ``determinize`` draws another seat's face-down choice from it, so that
    a search believes the seats that already chose played as it expects the seats
    still to choose to play. It reads only public fields and never the seat's own
    face-down choice, so it may be asked about a seat that has already chosen: the
    answer is the same as before it chose.
    """
    legal = state.hand(seat)
    if len(legal) == 1:
        return list(legal)
    n = state.num_players
    top = state.top
    others = [o for o in range(n) if o != seat]
    probs = {o: _habits(state, o) for o in others}

    # Last round's Corporations (public): members lean towards their focal value.
    my_corp: tuple[int, ...] = ()
    my_focal = 0
    for value, members in state.corporations:
        focal = _focal(top, value)
        if seat in members:
            my_corp, my_focal = members, focal
        for m in members:
            if m == seat:
                continue
            stay = _loyalty(state, m)
            mixed = [(1.0 - stay) * x for x in probs[m]]
            mixed[focal] += stay
            probs[m] = mixed

    # Near the end a shared reward helps the rival partner as much as it helps us.
    points = state.points
    near_end = max(points) + 2 * top >= state.target
    discount = 1.0
    if near_end and my_corp:
        best_outside = max((points[o] for o in others if o not in my_corp), default=-1)
        best_partner = max(points[m] for m in my_corp if m != seat)
        if best_partner >= best_outside:
            discount = 0.25

    values: list[tuple[float, int]] = []
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
            ev += discount * v * len(my_corp) * together
        values.append((ev, v))
    best = max(ev for ev, _ in values)
    return [v for ev, v in values if ev >= best * (1.0 - NEAR_TIE)]
