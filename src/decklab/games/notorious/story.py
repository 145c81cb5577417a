"""Notorious told as it happens: at the end of each game the face-down cards are turned
up, the game scores and bonuses counted, the highest disqualified (N4–N8), with a
summary screen before the next game.

Reads views only: once a game is over its cards are all public (``past_games``,
or ``in_front`` during a tie-break).
"""

from __future__ import annotations

from typing import Any

from decklab.engine.story import Moment


def _names(seats: list[str]) -> str:
    return seats[0] if len(seats) == 1 else ", ".join(seats[:-1]) + " and " + seats[-1]


def turned_up(in_front: dict[str, list[dict[str, Any]]]) -> list[str]:
    """N3's face-down cards, now shown: where each lay and who played it."""
    out = []
    for seat, lying in in_front.items():
        down = [f"{c['card']} (from {c['by']})" for c in lying if not c["up"]]
        if down:
            out.append(f"face down in front of {seat}: {', '.join(down)}")
    if not out:
        return ["No card was played face down."]
    return ["The face-down cards are turned up: " + "; ".join(out) + "."]


def game_end_lines(game: dict[str, Any], totals: dict[str, int], tiebroken: bool) -> list[str]:
    out = [f"Game {game['game']} is over."]
    if not tiebroken:
        out.extend(turned_up(game["in_front"]))
    scores = ", ".join(f"{s} {v}" for s, v in game["game_scores"].items())
    out.append(f"Game scores: {scores}.")
    bonus = ", ".join(f"{s} +{v}" for s, v in game["bonus"].items() if v)
    out.append(f"Bonus for face-up cards: {bonus or 'none'} (N4).")
    dq = game["disqualified"]
    if dq:
        out.append(
            f"{_names(dq)} scored highest and {'is' if len(dq) == 1 else 'are'} "
            "disqualified: no game points this game (N6)."
        )
    out.append("Match totals: " + ", ".join(f"{s} {v}" for s, v in totals.items()) + ".")
    return out


def narrate(moment: Moment) -> list[str]:
    before, after = moment.before, moment.after
    out: list[str] = []
    if before["phase"] == "play" and after["phase"] == "tiebreak":
        out.append(f"Round {before['rounds']} is over.")
        out.extend(turned_up(after["in_front"]))
        scores = ", ".join(f"{s} {v}" for s, v in (after["game_scores"] or {}).items())
        out.append(f"Game scores: {scores}.")
        out.append(f"{_names(after['tied'])} tie for the highest score: they break the tie (N7).")
    if len(after["past_games"]) > len(before["past_games"]):
        game = after["past_games"][-1]
        out.extend(game_end_lines(game, after["totals"], before["phase"] == "tiebreak"))
        if not after["terminal"]:
            out.append(f"Game {after['match_game']} begins; {after['lead_off']} leads off.")
        else:
            out.append("The match is over.")
    return out


def summary(moment: Moment) -> list[str] | None:
    """The end of a game within the match is worth a pause: the next deal hides it."""
    if len(moment.after["past_games"]) > len(moment.before["past_games"]):
        return narrate(moment)
    return None


def score_rows(view: dict[str, Any]) -> dict[str, list[tuple[str, float]]]:
    """Game by game: the bonus (always kept, N4) and the game score (0 if disqualified, N6)."""
    out: dict[str, list[tuple[str, float]]] = {seat: [] for seat in view["totals"]}
    for game in view["past_games"]:
        for seat in out:
            k = game["game"]
            out[seat].append((f"game {k}: bonus", game["bonus"][seat]))
            if seat in game["disqualified"]:
                out[seat].append((f"game {k}: {game['game_scores'][seat]} — disqualified", 0))
            else:
                out[seat].append((f"game {k}: game score", game["game_scores"][seat]))
    return out


def explain_action(view: dict[str, Any], action: str) -> str | None:
    words = action.split()
    seat = view.get("seat")
    if len(words) != 4 or words[0] != "play" or seat is None:
        return None
    card, target, side = words[1], words[2], words[3]
    place = "in front of yourself" if target == seat else f"in front of {target}"
    if side == "up" and view.get("round"):
        bonus = 6 - int(view["round"])
        return f"plays {card} face up {place} (a face-up card earns its owner {bonus} bonus)"
    return f"plays {card} face {side} {place}"
