"""Corporation's notable events for the lab (``decklab.lab.hooks``): what the designers asked.

Counted from the public rounds of a finished game: how often Corporations form,
how often one pays off next round (P5: every member plays the same value again,
and nobody else does) or is broken, and whether the round cap ended the game
rather than the target (P7); and whether a single payout decided the game (the
designers' worry that "rewards skyrocket").
"""

from __future__ import annotations

from decklab.engine.state import GameState
from decklab.games.corporation.rewards import RewardFn, standard


def events(state: GameState) -> dict[str, int]:
    rounds: list[tuple[int, ...]] = getattr(state, "rounds", [])
    reward: RewardFn = getattr(state, "reward", standard)
    return count_events(rounds, state.scores(), int(state.options["target"]), reward)


def _winners(points: list[float]) -> list[int]:
    best = max(points)
    return [s for s, p in enumerate(points) if p == best]


def count_events(
    rounds: list[tuple[int, ...]],
    scores: list[float],
    target: int,
    reward: RewardFn = standard,
) -> dict[str, int]:
    """The counters from the rounds played, the final scores, the target and the reward rule.

    A *payout* is what one Corporation that stuck together paid its members (P5:
    ``reward(value, members)`` each). ``largest_payout`` is the most one payout gave each
    of its members in the game; ``payout_decided`` is 1 when taking a single payout away
    from its members' final scores would change who won (the winners, ties included).
    That is a counterfactual on the final scores only: it does not replay the game, which
    without the payout might have gone on longer; it answers "did one Corporation's payout
    make the difference", the designers' worry that rewards skyrocket.

    Apart from :func:`events` so that hand-worked rounds can be checked without a
    state (on the compiled build a state argument must be a real one). Called once
    per game of a million-game run, so it is kept lean: a round without a repeated
    value (most rounds) is skipped after one set().
    """
    formed = paid = broken = betrayed = crowded = 0
    payouts: list[tuple[int, list[int]]] = []  # (each member's gain, the members)
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
                payouts.append((reward(v, size), members))
            else:
                broken += 1
                betrayed += int(not same)  # a member played another value
                crowded += int(same)  # all kept faith, but another seat joined them
    largest = decided = 0
    if payouts:
        won = _winners(scores)
        for gain, members in payouts:
            largest = max(largest, gain)
            if not decided:
                without = list(scores)
                for m in members:
                    without[m] -= gain
                decided = int(_winners(without) != won)
    return {
        "rounds": len(rounds),
        "corporations_formed": formed,
        "corporations_paid": paid,
        "corporations_broken": broken,
        "corporations_betrayed": betrayed,
        "corporations_crowded": crowded,
        "round_cap_reached": int(max(scores) < target),
        "largest_payout": largest,
        "payout_decided": decided,
    }
