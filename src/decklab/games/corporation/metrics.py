"""Corporation's notable events for the lab (``decklab.lab.hooks``): what the designers asked.

Counted from the public rounds of a finished game: how often Corporations form,
how often one pays off next round (P5: every member plays the same value again,
and nobody else does) or is broken, and whether the round cap ended the game
rather than the target (P7).
"""

from __future__ import annotations

from decklab.engine.state import GameState


def events(state: GameState) -> dict[str, int]:
    rounds: list[tuple[int, ...]] = getattr(state, "rounds", [])
    return count_events(rounds, state.scores(), int(state.options["target"]))


def count_events(rounds: list[tuple[int, ...]], scores: list[float], target: int) -> dict[str, int]:
    """The counters from the rounds played, the final scores and the target.

    Apart from :func:`events` so that hand-worked rounds can be checked without a
    state (on the compiled build a state argument must be a real one). Called once
    per game of a million-game run, so it is kept lean: a round without a repeated
    value (most rounds) is skipped after one set().
    """
    formed = paid = broken = betrayed = crowded = 0
    last = len(rounds) - 1
    for r, played in enumerate(rounds):
        seats = len(played)
        values = set(played)
        if len(values) == seats:
            continue
        for value in values:
            size = played.count(value)
            if size < 2:
                continue
            formed += 1
            if r == last:
                continue  # formed in the last round: never put to the test
            following = rounds[r + 1]
            members = [seat for seat in range(seats) if played[seat] == value]
            v = following[members[0]]
            same = all(following[m] == v for m in members)
            # paid: every member plays the same value again, and nobody else does
            if same and following.count(v) == size:
                paid += 1
            else:
                broken += 1
                betrayed += int(not same)  # a member played another value
                crowded += int(same)  # all kept faith, but another seat joined them
    return {
        "rounds": len(rounds),
        "corporations_formed": formed,
        "corporations_paid": paid,
        "corporations_broken": broken,
        "corporations_betrayed": betrayed,
        "corporations_crowded": crowded,
        "round_cap_reached": int(max(scores) < target),
    }
