"""Corporation's notable events for the lab (``decklab.lab.hooks``): what the designers asked.

Counted from the public rounds of a finished game: how often Corporations form,
how often one pays off next round (P5: every member plays the same value again,
and nobody else does) or is broken, and whether the round cap ended the game
rather than the target (P7).
"""

from __future__ import annotations

from decklab.engine.state import GameState


def events(state: GameState) -> dict[str, int]:
    rounds: list[tuple[int, ...]] = list(getattr(state, "rounds", []))
    formed = paid = broken = betrayed = crowded = 0
    for r, played in enumerate(rounds):
        groups: dict[int, list[int]] = {}
        for seat, value in enumerate(played):
            groups.setdefault(value, []).append(seat)
        corps = [members for members in groups.values() if len(members) > 1]
        formed += len(corps)
        if r + 1 >= len(rounds):
            continue  # formed in the last round: never put to the test
        following = rounds[r + 1]
        for members in corps:
            v = following[members[0]]
            same = all(following[m] == v for m in members)
            alone = sum(1 for x in following if x == v) == len(members)
            if same and alone:
                paid += 1
            else:
                broken += 1
                betrayed += int(not same)
                crowded += int(same)
    target = int(state.options["target"])
    return {
        "rounds": len(rounds),
        "corporations_formed": formed,
        "corporations_paid": paid,
        "corporations_broken": broken,
        "corporations_betrayed": betrayed,
        "corporations_crowded": crowded,
        "round_cap_reached": int(max(state.scores()) < target),
    }
