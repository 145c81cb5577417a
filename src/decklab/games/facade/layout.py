"""Façade laid out as on a real table (built from ``view`` only).

The draw pile and the supply across the middle, each supply card with the bid
cards lying on it (face down, each labelled with its bidder; one's own bids are
known to oneself); then each player's space: bid cards in hand, won cards still
to place, and the tableau of groups g1, g2, … (the viewer's own groups are
selectable, with an empty place for a new group while placing).
"""

from __future__ import annotations

from typing import Any

from decklab.engine.layout import (
    Card,
    Row,
    Table,
    Zone,
    back,
    blank,
    card,
    display,
    pile,
    seat_names,
    suit_symbol,
    you,
)


def table(view: dict[str, Any]) -> Table:
    me = view.get("seat")
    to_act = set(view["to_act"])
    seats = seat_names(view, "scores")
    # A bid lies face down on its supply card; selecting it selects that supply card.
    bids_on: dict[str, list[Card]] = {c: [] for c in view["supply"]}
    for bid in view["bids"]:
        known, on = bid["card"], bid["on"]
        bids_on.setdefault(on, []).append(
            card(known, up=False, key=on, label=bid["by"])
            if known != "??"
            else back(bid["by"], key=on)
        )
    bidding = view["step"] == "bidding"
    supply = [
        Zone(
            display(c),
            (card(c, highlight=True), *bids_on[c]),
            "column",
            key=c,
            note=f"{len(bids_on[c])} bid{'s' if len(bids_on[c]) != 1 else ''}" if bidding else "",
        )
        for c in view["supply"]
    ]
    middle = Row(
        (pile("Draw pile", view["draw_pile"], key=""), *supply),
        title=f"Phase {view['phase']}/{view['phases']} — {view['step']}",
    )
    rows = [middle]
    revealed = _last_reveal(view)
    if revealed is not None:
        rows.append(revealed)
    order = ([me] if me in seats else []) + [s for s in seats if s != me]
    for seat in order:
        rows.append(_seat_row(view, seat, seat == me, seat in to_act))
    return Table(
        "Façade",
        tuple(rows),
        _status(view),
        me,
        _facts(view),
    )


def _seat_row(view: dict[str, Any], seat: str, mine: bool, acting: bool) -> Row:
    house = view["house_suits"][seat]
    zones: list[Zone] = []
    if mine and "hand" in view:
        hand = tuple(card(c) for c in view["hand"])
    else:
        hand = tuple(back() for _ in range(view["bid_cards_left"][seat]))
    zones.append(Zone("Bid cards", hand, "fan", owner=seat, note=f"house {suit_symbol(house)}"))
    won = view["to_place"][seat]
    if won:
        zones.append(
            Zone(
                "To place",
                tuple(card(c, key=None if mine else "") for c in won),
                "row",
                owner=seat,
                highlight=acting,
            )
        )
    for j, group in enumerate(view["tableaux"][seat], 1):
        name = f"g{j}"
        zones.append(
            Zone(
                name,
                tuple(card(c, key=name if mine else "") for c in group),
                "fan",
                key=name if mine else None,
                owner=seat,
            )
        )
    if mine and won:
        zones.append(Zone("new group", (blank(key="new"),), "row", key="new", owner=seat))
    score = view["scores"][seat]
    title = you(seat, view.get("seat"), f"{seat} {suit_symbol(house)} — {score} pts")
    return Row(tuple(zones), title=title, owner=seat, highlight=acting)


def _last_reveal(view: dict[str, Any]) -> Row | None:
    """The bids of the last reveal, face up, while the cards they won are placed.

    Without it the bids would go from face down to gone in one frame; shown, an
    interface can turn them over where everyone sees them (and the web client's
    motion does).
    """
    if view["step"] != "placing" or not view["last_reveal"]["bids"]:
        return None
    taken = {t["card"]: t["by"] for t in view["last_reveal"]["taken"]}
    on: dict[str, list[Card]] = {}
    for bid in view["last_reveal"]["bids"]:
        on.setdefault(bid["on"], []).append(card(bid["card"], label=bid["by"]))
    zones = tuple(
        Zone(
            f"{display(c)} → {taken[c]}" if c in taken else display(c),
            tuple(bids),
            "fan",
        )
        for c, bids in on.items()
    )
    return Row(zones, title="Last reveal: the bids turned up")


def _status(view: dict[str, Any]) -> str:
    if view["terminal"]:
        scores = ", ".join(f"{s} {v}" for s, v in view["scores"].items())
        return f"Game over — {scores}."
    who = ", ".join(view["to_act"])
    if view["step"] == "bidding":
        return f"{who} to bid: put a bid card face down on a supply card."
    return f"{who} to place won cards: start a new group or join one of your groups."


def _facts(view: dict[str, Any]) -> tuple[str, ...]:
    facts = [f"first bidder {view['first_bidder']}"]
    taken = view["last_reveal"]["taken"]
    if taken:
        facts.append("last reveal: " + ", ".join(f"{display(t['card'])}→{t['by']}" for t in taken))
    if view["discarded"]:
        facts.append("discarded: " + " ".join(display(c) for c in view["discarded"]))
    return tuple(facts)
