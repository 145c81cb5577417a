"""Corporation laid out as on a real table (built from ``view`` only).

The players sit around the table: each seat's space shows its score, the card
lying face up in front of it (its part in a Corporation, which it may not play
this round) and, once it has chosen, its face-down card (one's own is known to
oneself). The middle of the table shows last round's reveal and the standing
Corporations; the viewer's hand (values 1…top, suits do not matter) is at the
bottom.
"""

from __future__ import annotations

from typing import Any

from decklab.engine.layout import Card, Row, Table, Zone, back, card, seat_names, you, yours
from decklab.games.corporation.rewards import DEFAULT, reward_function

PER_ROW = 5


def table(view: dict[str, Any]) -> Table:
    me = view.get("seat")
    seats = seat_names(view, "scores")
    to_act = set(view["to_act"])
    spaces = [_seat_zone(view, s, s == me, s in to_act) for s in seats]
    # Sit the viewer at the bottom, the others around: the first half across the top.
    if me in seats:
        i = seats.index(me)
        spaces = spaces[i + 1 :] + spaces[:i] + [spaces[i]]
    half = (len(spaces) + 1) // 2 if len(spaces) > PER_ROW else len(spaces)
    top, bottom = spaces[:half], spaces[half:]
    # A round table where an interface draws one: the seats around, the reveal in the middle.
    rows = [Row(tuple(top), title="Around the table", arrange="ring")]
    middle: list[Zone] = []
    if view["rounds"]:
        last = view["rounds"][-1]
        middle.append(
            Zone(
                f"Round {view['round'] - (0 if view['terminal'] else 1)} reveal",
                tuple(card(str(v), key="", label=s) for s, v in last.items()),
                "row",
            )
        )
    reward = reward_function(str(view.get("reward", DEFAULT)))
    for corp in view["corporations"]:
        members = corp["members"]
        middle.append(
            Zone(
                f"Corporation at {corp['value']}",
                tuple(card(str(corp["value"]), key="", label=m) for m in members),
                "fan",
                note=f"{reward(corp['value'], len(members))} each if they stick",
            )
        )
    if middle:
        rows.append(Row(tuple(middle), title="Middle of the table", arrange="middle"))
    if bottom:
        rows.append(Row(tuple(bottom), arrange="ring"))
    if me in seats and "hand" in view:
        mine = view.get("my_choice")
        hand = tuple(card(str(v)) for v in view["hand"] if v != mine)
        rows.append(
            Row(
                (Zone(yours("hand", me, me), hand, "row", owner=me, highlight=me in to_act),),
                title=you(me, me),
                owner=me,
            )
        )
    return Table("Corporation", tuple(rows), _status(view), me, _facts(view))


def _seat_zone(view: dict[str, Any], seat: str, mine: bool, acting: bool) -> Zone:
    shown: list[Card] = []
    locked = view["in_front"][seat]
    if locked:
        shown.append(card(str(locked), key="", highlight=True))
    if view["chosen"][seat]:
        choice = view.get("my_choice") if mine else None
        shown.append(card(str(choice), up=False, key="") if choice else back())
    score = view["scores"][seat]
    status = "chosen" if view["chosen"][seat] else ("to choose" if acting else "")
    return Zone(
        you(seat, view.get("seat")),
        tuple(shown),
        "row",
        owner=seat,
        note=f"{score} pts" + (f", {status}" if status else ""),
        highlight=acting,
    )


def _status(view: dict[str, Any]) -> str:
    if view["terminal"]:
        scores = ", ".join(f"{s} {v}" for s, v in view["scores"].items())
        return f"Game over — {scores}."
    who = ", ".join(view["to_act"])
    return f"Round {view['round']}: {who} to choose a card, face down, all at once."


def _facts(view: dict[str, Any]) -> tuple[str, ...]:
    return (f"target {view['target']} · round {view['round']} of at most {view['max_rounds']}",)
