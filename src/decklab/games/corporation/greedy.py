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

from decklab.engine.chance import std_choice
from decklab.games.corporation.state import MEMORY, NEAR_TIE, CorporationState, greedy_choices

__all__ = ["MEMORY", "NEAR_TIE", "greedy_action", "greedy_choices"]


def greedy_action(state: CorporationState, seat: int, rng: random.Random) -> int:
    """The value to play for ``seat``: the best expected points under the table model.

    Reads only public fields (rounds, locked values, Corporations, scores) and the
    seat's own legal values.
    """
    near = greedy_choices(state, seat)
    return near[0] if len(near) == 1 else std_choice(rng, near)
