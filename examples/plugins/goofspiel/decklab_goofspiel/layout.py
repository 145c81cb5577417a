"""Goofspiel on a table (built from ``view`` only): the prize in the middle, the seats
around with their score and face-down bid, the viewer's cards at the bottom."""

from __future__ import annotations

from typing import Any

from decklab.engine.layout import Card, Row, Table, Zone, back, card, seat_names


def table(view: dict[str, Any]) -> Table:
    me = view.get("seat")
    seats = seat_names(view, "scores")
    acting = set(view["to_act"])
    spaces = [_seat(view, s, s == me, s in acting) for s in seats]
    if me in seats:
        i = seats.index(me)
        spaces = spaces[i + 1 :] + spaces[:i] + [spaces[i]]
    rows = [Row(tuple(spaces), title="Around the table", arrange="ring")]
    middle = []
    if view["prize"] is not None:
        middle.append(
            Zone(
                "Prize",
                (card(str(view["prize"]), key="", highlight=True),),
                "row",
                note=f"{view['prizes_left']} more face down",
            )
        )
    if view["rounds"]:
        last = view["rounds"][-1]
        middle.append(
            Zone(
                f"Last round: prize {last['prize']}",
                tuple(card(str(b), key="", label=s) for s, b in last["bids"].items()),
                "row",
            )
        )
    if middle:
        rows.append(Row(tuple(middle), title="Middle of the table", arrange="middle"))
    if me in seats:
        mine = view.get("my_bid")
        hand = tuple(card(str(v)) for v in view["hands"][me] if v != mine)
        rows.append(
            Row(
                (Zone("Your cards", hand, "row", owner=me, highlight=me in acting),),
                title=f"{me} (you)",
                owner=me,
            )
        )
    return Table("Goofspiel", tuple(rows), _status(view), me, _facts(view))


def _seat(view: dict[str, Any], seat: str, mine: bool, acting: bool) -> Zone:
    shown: list[Card] = []
    if view["chosen"][seat]:
        bid = view.get("my_bid") if mine else None
        shown.append(card(str(bid), up=False, key="") if bid else back())
    won = view["won"][seat]
    status = "bid" if view["chosen"][seat] else ("to bid" if acting else "")
    return Zone(
        seat + (" (you)" if mine else ""),
        tuple(shown),
        "row",
        owner=seat,
        note=f"{view['scores'][seat]} pts from {len(won)} prizes"
        + (f", {status}" if status else ""),
        highlight=acting,
    )


def _status(view: dict[str, Any]) -> str:
    if view["terminal"]:
        scores = ", ".join(f"{s} {v}" for s, v in view["scores"].items())
        return f"Game over — {scores}."
    return f"Round {view['round']}: {', '.join(view['to_act'])} to bid for the {view['prize']}."


def _facts(view: dict[str, Any]) -> tuple[str, ...]:
    gone = ", ".join(map(str, view["discarded"])) or "none"
    return (f"round {view['round']} of {view['cards']} · prizes thrown away on ties: {gone}",)
