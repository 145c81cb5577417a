"""The Cabin by the Sea laid out as on a real table (built from ``view`` only).

Top band: the sea and the cabin face down, the beach (face cards, only the
top shows), the deep sea (all known) and the squid's pile. Then the card in
play, then the cabin's stacks s1…s8 as columns, with empty places for the
stacks that may still be started (clicking one selects ``new``).
"""

from __future__ import annotations

from typing import Any

from decklab.engine.layout import Card, Row, Table, Zone, back, blank, card, display, pile, zone

_FROM = {"sea": "the sea", "cabin": "the cabin", "beach": "the beach", "deep": "the deep sea"}


def _unseen(counts: dict[str, int]) -> str:
    parts = [f"{n} {kind}" for kind, n in counts.items() if n]
    return ", ".join(parts)


def table(view: dict[str, Any]) -> Table:
    unseen = view["unseen"]
    phase = view["phase"]
    beach = view["beach"]
    # The beach, bottom first: unseen cards under the seen ones (top card last, on top).
    beach_cards: list[Card] = [back()] if beach["hidden"] else []
    beach_cards += [card(t) for t in reversed(beach["seen"])]
    piles = Row(
        (
            pile("Sea", view["sea"], key="sea", note=_unseen(unseen["sea"])),
            pile(
                "Cabin",
                view["cabin"],
                key="cabin",
                note=_unseen(unseen["cabin"]),
                highlight=phase == "take" and view["cabin"] > 0,
            ),
            Zone(
                "Beach",
                tuple(beach_cards),
                "fan",
                key="beach",
                count=beach["count"],
                note=f"{beach['hidden']} unseen under" if beach["hidden"] else "",
                highlight=phase == "take" and beach["count"] > 0,
            ),
            zone(
                "Deep sea",
                list(reversed(view["deep"])),
                spread="fan",
                key="deep",
                count=len(view["deep"]),
                highlight=phase == "take" and bool(view["deep"]),
            ),
            zone(
                "Squid",
                list(reversed(view["squid"])),
                spread="fan",
                count=len(view["squid"]),
                note=f"{view['squid_points']} points",
            ),
        ),
        title="The shore",
    )
    rows = [piles]
    if view["card"]:
        where = _FROM.get(view["card_from"] or "", "")
        title = "Sea card" if phase == "sea" else f"Taken from {where}"
        rows.append(
            Row((Zone(title, (card(view["card"], highlight=True),), "row", highlight=True),))
        )
    stacks: list[Zone] = []
    for name, stack in view["stacks"].items():
        stacks.append(zone(name, stack, spread="column", key=name))
    free = view["stacks_allowed"] - len(view["stacks"])
    for _ in range(free):
        stacks.append(Zone("new", (blank(key="new"),), "column", key="new"))
    rows.append(Row(tuple(stacks), title=f"The cabin: {view['stacks_allowed']} stacks"))
    return Table(
        "The Cabin by the Sea",
        tuple(rows),
        _status(view),
        view.get("seat"),
        (
            f"squid points: {view['squid_points']}",
            f"sea {view['sea']} · cabin {view['cabin']} · beach {beach['count']}",
        ),
    )


def _status(view: dict[str, Any]) -> str:
    phase = view["phase"]
    shown = display(view["card"] or "")
    if view["terminal"]:
        points = view["squid_points"]
        return "Game over: a perfect game!" if points == 0 else f"Game over: {points} squid points."
    if phase == "sea":
        return f"The sea washes up {shown}: build it, or anchor it and take from the cabin or the beach."
    if phase == "place":
        return f"Build {shown}, taken from {_FROM.get(view['card_from'] or '', 'a pile')}."
    return "The sea is empty: take the top card of the deep sea, the beach or the cabin."
