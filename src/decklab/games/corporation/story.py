"""Corporation told as it happens: each round's reveal, the Corporations formed, who
stuck together and who defected, and what everyone scored (P3–P6).

Reads views only: a round's cards are public once it is revealed (``rounds``).
"""

from __future__ import annotations

from typing import Any

from decklab.engine.story import Moment
from decklab.games.corporation.rewards import DEFAULT, RewardFn, reward_function, standard


def reward_of(view: dict[str, Any]) -> RewardFn:
    """The game's reward formula (P5), named in its view (rewards.py)."""
    return reward_function(str(view.get("reward", DEFAULT)))


def _value(v: int) -> str:
    return "A" if v == 1 else str(v)


def _names(seats: list[str]) -> str:
    return seats[0] if len(seats) == 1 else ", ".join(seats[:-1]) + " and " + seats[-1]


def round_points(
    played: dict[str, int], corporations: list[dict[str, Any]], reward: RewardFn = standard
) -> dict[str, list[tuple[str, int]]]:
    """What each seat scores in a revealed round and why: a lone card (P3), a reward
    for a Corporation that stuck together (P5), nothing for a card shared (P4)."""
    by_value: dict[int, list[str]] = {}
    for seat, v in played.items():
        by_value.setdefault(v, []).append(seat)
    out: dict[str, list[tuple[str, int]]] = {seat: [] for seat in played}
    for corp in corporations:
        members = corp["members"]
        v = played[members[0]]
        if all(played[m] == v for m in members) and len(by_value[v]) == len(members):
            for m in members:
                out[m].append(
                    (
                        f"Corporation of {_value(corp['value'])}s stuck on {v}",
                        reward(v, len(members)),
                    )
                )
    for v, seats in by_value.items():
        if len(seats) == 1:
            out[seats[0]].append((f"lone {_value(v)}", v))
    return out


def narrate(moment: Moment) -> list[str]:
    before, after = moment.before, moment.after
    if len(after["rounds"]) <= len(before["rounds"]):
        return []
    played: dict[str, int] = after["rounds"][-1]
    number = len(after["rounds"])
    out = [
        f"Round {number} revealed: "
        + ", ".join(f"{seat} {_value(v)}" for seat, v in played.items())
        + "."
    ]
    for corp in before["corporations"]:
        out.append(_fate(corp, played, reward_of(after)))
    points = round_points(played, before["corporations"], reward_of(after))
    for corp in after["corporations"] if not after["terminal"] else _formed(played):
        members = corp["members"]
        out.append(
            f"{_names(members)} form a Corporation of {_value(corp['value'])}s "
            "(those cards stay face up this round; no points yet)."
        )
    gains = [f"{seat} +{sum(p for _, p in rows)}" for seat, rows in points.items() if rows]
    out.append("Points: " + (", ".join(gains) if gains else "nobody scores") + ".")
    if after["terminal"]:
        scores = ", ".join(f"{seat} {p}" for seat, p in after["scores"].items())
        out.append(f"The game is over. Scores: {scores}.")
    return out


def _formed(played: dict[str, int]) -> list[dict[str, Any]]:
    by_value: dict[int, list[str]] = {}
    for seat, v in played.items():
        by_value.setdefault(v, []).append(seat)
    return [
        {"value": v, "members": seats} for v, seats in sorted(by_value.items()) if len(seats) > 1
    ]


def _fate(corp: dict[str, Any], played: dict[str, int], reward: RewardFn) -> str:
    """P5: did last round's Corporation stick together (all on one value, nobody else)?"""
    members: list[str] = corp["members"]
    name = f"The Corporation of {_value(corp['value'])}s ({_names(members)})"
    values = [played[m] for m in members]
    v = values[0]
    outsiders = [s for s, x in played.items() if x == v and s not in members]
    if all(x == v for x in values) and not outsiders:
        return f"{name} stuck together on {_value(v)}: +{reward(v, len(members))} each."
    if all(x == v for x in values):
        return (
            f"{name} stuck together on {_value(v)}, but {_names(outsiders)} played it too: "
            "no reward."
        )
    counts: dict[int, int] = {}
    for x in values:
        counts[x] = counts.get(x, 0) + 1
    most = max(counts.values())
    if most == 1:
        each = ", ".join(f"{m} played {_value(played[m])}" for m in members)
        return f"{name} broke up: {each}."
    kept = next(x for x, c in counts.items() if c == most)
    defectors = [m for m in members if played[m] != kept]
    return (
        f"{name} broke up: {_names(defectors)} defected "
        f"({', '.join(_value(played[m]) for m in defectors)} instead of {_value(kept)})."
    )


def score_rows(view: dict[str, Any]) -> dict[str, list[tuple[str, float]]]:
    """Round by round, what each seat scored and why (rounds that scored nothing are left out)."""
    out: dict[str, list[tuple[str, float]]] = {seat: [] for seat in view["scores"]}
    corporations: list[dict[str, Any]] = []
    reward = reward_of(view)
    for number, played in enumerate(view["rounds"], 1):
        for seat, rows in round_points(played, corporations, reward).items():
            for label, points in rows:
                out[seat].append((f"round {number}: {label}", points))
        corporations = _formed(played)
    return {seat: rows or [("nothing scored", 0)] for seat, rows in out.items()}


def explain_action(view: dict[str, Any], action: str) -> str | None:
    words = action.split()
    if len(words) != 2 or not words[1].isdigit():
        return None
    v = int(words[1])
    seat = view.get("seat")
    mine = [c for c in view["corporations"] if seat in c["members"]]
    if mine:
        partners = [m for m in mine[0]["members"] if m != seat]
        return (
            f"plays {_value(v)}: if {_names(partners)} play{'s' if len(partners) == 1 else ''} "
            f"it too and nobody else does, your Corporation earns "
            f"{reward_of(view)(v, len(mine[0]['members']))} each"
        )
    return f"plays {_value(v)}: worth {v} if nobody else plays it"
