"""Notorious's notable events for the lab (``decklab.lab.hooks``): what the designers asked.

Read from the finished games of the match (``past``): how often the tie-break
of N7 was needed, how many seats were disqualified (N6: the single highest game
score; several when the pack ran out in a tie-break), whether a seat that won
the match had been disqualified in some game, and whether the seat that led off
the first game won.

The lead-off of every later game is the seat disqualified in the game before
(N8), so "does leading off pay?" is asked of every game, not only the first:
how often the lead-off seat is disqualified again, how often it gains the most
points of the game, and how many points it gains (``lead_off_points`` against
``points``, everything every seat gained: a fair share is ``points / n``).
"Who profits from a disqualification?" is asked of the match: how often the
seat leading the match before a game is the one disqualified in it
(``leader_disqualified``, games 2 on), and in how many games a seat that went on
to win the match had the best score that counted (the highest game score left
once the disqualified are out: ``winner_best_counted_games``).
"""

from __future__ import annotations

from typing import Any

from decklab.engine.state import GameState


def events(state: GameState) -> dict[str, int]:
    return count_events(list(getattr(state, "past", [])), state.num_players, state.winners())


def count_events(past: list[Any], n: int, match_winners: list[int]) -> dict[str, int]:
    """The counters from the match's finished games (``past``) and its winners.

    Apart from :func:`events` so that hand-worked matches can be checked without a
    state (on the compiled build a state argument must be a real one).
    """
    winners = set(match_winners)
    tiebreaks = sum(1 for game in past if game[2])
    disqualified = sum(len(game[5]) for game in past)
    several = sum(1 for game in past if len(game[5]) > 1)
    winner_dq = sum(1 for game in past if winners & set(game[5]))
    first_lead = past[0][0] if past else -1
    totals = [0] * n
    lead_dq = lead_top = lead_points = points = leader_dq = winner_best = 0
    for lead, _plays, _gives, bonus, gscore, dq in past:
        if any(totals) and set(dq) & {s for s in range(n) if totals[s] == max(totals)}:
            leader_dq += 1
        gains = [bonus[s] + (0 if s in dq else gscore[s]) for s in range(n)]
        counted = [gscore[s] for s in range(n) if s not in dq]
        if counted and winners & {s for s in range(n) if s not in dq and gscore[s] == max(counted)}:
            winner_best += 1
        lead_dq += int(lead in dq)
        lead_top += int(gains[lead] == max(gains))
        lead_points += gains[lead]
        points += sum(gains)
        totals = [t + g for t, g in zip(totals, gains, strict=True)]
    return {
        "tiebreak_games": tiebreaks,
        "disqualified_seats": disqualified,
        "games_with_several_disqualified": several,
        "winner_disqualified_games": winner_dq,
        "first_lead_off_won": int(first_lead in winners),
        "lead_off_disqualified": lead_dq,
        "lead_off_top_gain": lead_top,
        "lead_off_points": lead_points,
        "points": points,
        "leader_disqualified": leader_dq,
        "winner_best_counted_games": winner_best,
    }
