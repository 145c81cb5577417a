"""Façade told as it happens: each reveal's bids, who took what, ties; each tableau's groups.

Everything here reads views only (see :mod:`decklab.engine.story`): the bids of
a reveal are public in ``last_reveal`` once turned up, so nothing hidden is told.
"""

from __future__ import annotations

from typing import Any

from decklab import cards
from decklab.engine.story import Moment
from decklab.games.facade.scoring import can_join, group_kind, group_score

_WORTH = {cards.ACE: 1, cards.JACK: 2, cards.QUEEN: 4, cards.KING: 4}
"""F2: what each bid card adds to a bid."""


def _worth(text: str) -> int:
    return _WORTH[cards.parse(text) & 15]


def narrate(moment: Moment) -> list[str]:
    before, after = moment.before, moment.after
    out: list[str] = []
    if before["step"] == "bidding" and before["bids"] and not after["bids"]:
        out.extend(reveal_sentences(before["supply"], after["last_reveal"]))
    if after["phase"] > before["phase"]:
        supply = " ".join(after["supply"])
        out.append(
            f"Phase {after['phase']} of {after['phases']}: the supply is {supply} "
            f"({after['draw_pile']} cards left in the draw pile)."
        )
    if after["terminal"] and not before["terminal"]:
        if after["discarded"]:
            out.append("Left in the supply and discarded: " + " ".join(after["discarded"]) + ".")
        scores = ", ".join(f"{seat} {points}" for seat, points in after["scores"].items())
        out.append(f"The game is over. Scores: {scores}.")
    elif moment.action.startswith("place"):
        out.extend(_placed(before, after, moment.actor))
    return out


def reveal_sentences(supply: list[str], reveal: dict[str, Any]) -> list[str]:
    """F6 told card by card: who bid what on it, and who took it or why nobody did."""
    taken = {t["card"]: t["by"] for t in reveal["taken"]}
    out = ["The bids are turned up."]
    for target in supply:
        bids: dict[str, list[str]] = {}
        for bid in reveal["bids"]:
            if bid["on"] == target:
                bids.setdefault(bid["by"], []).append(bid["card"])
        if not bids:
            out.append(f"{target}: no bids; it stays in the supply.")
            continue
        totals = {seat: sum(_worth(c) for c in used) for seat, used in bids.items()}
        said = ", ".join(f"{seat} {'+'.join(used)} ({totals[seat]})" for seat, used in bids.items())
        if target in taken:
            out.append(f"{target}: {said} — {taken[target]} takes it.")
        else:
            best = max(totals.values())
            tied = [seat for seat, t in totals.items() if t == best]
            out.append(
                f"{target}: {said} — a tie at {best} between {' and '.join(tied)}; "
                "it stays in the supply."
            )
    return out


def _placed(before: dict[str, Any], after: dict[str, Any], seat: str) -> list[str]:
    """Say when a placement completes a group or spoils one (the score moves by F9)."""
    gain = after["scores"][seat] - before["scores"][seat]
    groups_before = before["tableaux"][seat]
    for j, group in enumerate(after["tableaux"][seat], 1):
        old = groups_before[j - 1] if j <= len(groups_before) else []
        if group != old and len(group) >= 3:
            kind = group_kind(cards.parse_many(group))
            if kind != "incomplete":
                return [f"{seat}'s g{j} is now a complete {kind} ({gain:+d})."]
    return []


def score_rows(view: dict[str, Any]) -> dict[str, list[tuple[str, float]]]:
    """F9 group by group: complete sets and sequences score, incomplete groups cost."""
    out: dict[str, list[tuple[str, float]]] = {}
    for seat, groups in view["tableaux"].items():
        house = cards.parse("2" + view["house_suits"][seat]) >> 4
        rows: list[tuple[str, float]] = []
        for j, group in enumerate(groups, 1):
            parsed = cards.parse_many(group)
            kind = group_kind(parsed)
            if kind == "sequence" and parsed[0] >> 4 == house:
                kind = "house sequence"
            rows.append((f"g{j} {' '.join(group)}: {kind}", group_score(parsed, house)))
        out[seat] = rows or [("no groups", 0)]
    return out


def explain_action(view: dict[str, Any], action: str) -> str | None:
    """A bid or a placement in the player's terms: what it is worth and what it is for."""
    words = action.split()
    seat = view.get("seat")
    if seat is None or len(words) != 3:
        return None
    groups = [cards.parse_many(g) for g in view["tableaux"][seat]]
    house = cards.parse("2" + view["house_suits"][seat]) >> 4
    if words[0] == "bid":
        target = cards.parse(words[2])
        fits = [j for j, g in enumerate(groups, 1) if can_join(g, target)]
        why = f"puts your {words[1]} (worth {_worth(words[1])}) on {words[2]}"
        if fits:
            j = fits[0]
            g = groups[j - 1]
            kind = "set" if len(g) > 1 and g[0] & 15 == g[1] & 15 else "sequence"
            if len(g) == 1:
                kind = "set" if g[0] & 15 == target & 15 else "sequence"
            suit = cards.SUIT_NAMES[target >> 4]
            what = f"{suit} sequence" if kind == "sequence" else f"set of {words[2][0]}s"
            if kind == "sequence" and target >> 4 == house:
                what = f"house {what}"
            why += f", for your {what} in g{j}"
        return why
    if words[0] == "place":
        card = cards.parse(words[1])
        if words[2] == "new":
            return f"starts a new group with {words[1]} (−1 until it is complete)"
        j = int(words[2][1:])
        old = groups[j - 1]
        new = [*old, card]
        gain = group_score(new, house) - group_score(old, house)
        kind = group_kind(new)
        done = f"completes a {kind}" if kind != "incomplete" else "keeps the group possible"
        return f"{words[1]} into g{j} {done} ({gain:+d} now)"
    return None
