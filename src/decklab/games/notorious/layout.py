"""Notorious laid out as on a real table (built from ``view`` only).

Each player's space holds the cards played in front of it this game, in the
order they came, face up or face down, each labelled with its round (``tb``
for a tie-break card); selecting a space selects that seat as the target.
The viewer's hand (and a card drawn from the pack in a tie-break) lies at the
bottom, the undealt pack beside it.
"""

from __future__ import annotations

from typing import Any

from decklab.engine.layout import Card, Row, Table, Zone, card, pile, seat_names, you, yours


def _front_card(entry: dict[str, Any]) -> Card:
    label = "tb" if entry.get("tiebreak") else f"r{entry.get('round', '')}"
    return card(entry["card"], up=bool(entry["up"]), key="", label=label)


WORDS = (("up", "face up"), ("down", "face down"))
"""How the last word of a move reads on the table's buttons (a seat's two halves)."""


def table(view: dict[str, Any]) -> Table:
    me = view.get("seat")
    seats = seat_names(view, "totals")
    to_act = set(view["to_act"])
    tied = set(view["tied"])
    spaces: list[Zone] = []
    for seat in seats:
        front = tuple(_front_card(e) for e in view["in_front"][seat])
        note = f"total {view['totals'][seat]} · bonus {view['bonus'][seat]}"
        if view["game_scores"]:
            note += f" · game {view['game_scores'][seat]}"
        if seat in tied and not view["terminal"]:
            note += " · tied"
        spaces.append(
            Zone(
                f"{seat} ({view['hand_counts'][seat]} in hand)" + (" — you" if seat == me else ""),
                front,
                "row",
                key=seat,
                owner=seat,
                note=note,
                highlight=seat in to_act,
            )
        )
    per_row = 4 if len(spaces) > 5 else 5
    rows = [
        Row(
            tuple(spaces[i : i + per_row]),
            title="In front of each player" if i == 0 else "",
            arrange="ring",  # the seats around a table where an interface draws one
        )
        for i in range(0, len(spaces), per_row)
    ]
    bottom: list[Zone] = [pile("Pack", view["pack_count"], key="", note="undealt")]
    if me in seats and "hand" in view:
        bottom.insert(
            0, Zone(yours("hand", me, me), tuple(card(c) for c in view["hand"]), "row", owner=me)
        )
        if view.get("drawn"):
            bottom.insert(
                1,
                Zone(
                    "Drawn from the pack", (card(view["drawn"], highlight=True),), "row", owner=me
                ),
            )
    rows.append(Row(tuple(bottom), title=you(me, me) if me in seats else "", owner=me))
    return Table("Notorious", tuple(rows), _status(view), me, _facts(view), WORDS)


def _status(view: dict[str, Any]) -> str:
    if view["terminal"]:
        totals = ", ".join(f"{s} {v}" for s, v in view["totals"].items())
        return f"Match over — {totals}."
    who = ", ".join(view["to_act"])
    head = f"Game {view['match_game']}/{view['games']}"
    if view["phase"] == "play":
        return (
            f"{head}, round {view['round']}/{view['rounds']}: {who} to play a card "
            "in front of a player, face up or face down."
        )
    tied = ", ".join(view["tied"])
    return f"{head}, tie-break between {tied}: {who} to give a card to another tied player."


def _facts(view: dict[str, Any]) -> tuple[str, ...]:
    facts = [f"lead-off {view['lead_off']}"]
    for past in view["past_games"]:
        scores = " ".join(f"{s}={v}" for s, v in past["game_scores"].items())
        out = ", ".join(past["disqualified"]) or "nobody"
        facts.append(f"game {past['game']}: {scores}; out: {out}")
    return tuple(facts)
