"""How often the first player can remove a pair on Lonely Face's first turn, with the
rules' deal and with ``opening=no_pairs``: the check of why clearing the opening grid of
pairs does not remove the first player's edge.

    python docs/findings/lonely_face_first_turn.py [DEALS]      (default 600; seconds)

A first turn removes a pair if a take is legal (L5c) or some flip or swap makes a new
pair, which must then be taken (L7). Deals from seed 1000 up, the same with and without
the option (the option keeps the first player and the turn deck, so the first turn's
suit is the same too).
"""

from __future__ import annotations

import sys

from decklab.games.lonely_face.state import CHOOSE, LonelyFaceState
from decklab.lab.stats import wilson


def can_remove_a_pair(state: LonelyFaceState) -> bool:
    seat = state.to_act()[0]
    for action in state.legal_actions(seat):
        if state.action_to_string(seat, action).startswith("take"):
            return True
        after = state.clone()
        after.apply(seat, action)
        if after.phase == CHOOSE:
            return True
    return False


def main() -> None:
    deals = int(sys.argv[1]) if len(sys.argv) > 1 else 600
    print("| players | opening | first turns that can remove a pair (95%) |\n|---|---|---|")
    for n in (2, 3, 4):
        for opening in ("deal", "no_pairs"):
            k = sum(
                can_remove_a_pair(LonelyFaceState.new(n, {"opening": opening}, seed=1000 + i))
                for i in range(deals)
            )
            low, high = wilson(k, deals)
            print(
                f"| {n} | {opening} | {k}/{deals}, {100 * k / deals:.1f}% ({100 * low:.1f}–{100 * high:.1f}%) |"
            )


if __name__ == "__main__":
    main()
