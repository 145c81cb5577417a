"""Notorious's notable events for the lab (``decklab.lab.hooks``): what the designers asked.

Read from the finished games of the match (``past``): how often the tie-break
of N7 was needed, how many seats were disqualified (N6: the single highest game
score; several when the pack ran out in a tie-break), whether a seat that won
the match had been disqualified in some game, and whether the seat that led off
the first game won (N8: the lead-off passes to the left each game).
"""

from __future__ import annotations

from decklab.engine.state import GameState


def events(state: GameState) -> dict[str, int]:
    past = list(getattr(state, "past", []))
    winners = set(state.winners())
    tiebreaks = sum(1 for game in past if game[2])
    disqualified = sum(len(game[5]) for game in past)
    several = sum(1 for game in past if len(game[5]) > 1)
    winner_dq = sum(1 for game in past if winners & set(game[5]))
    first_lead = past[0][0] if past else -1
    return {
        "tiebreak_games": tiebreaks,
        "disqualified_seats": disqualified,
        "games_with_several_disqualified": several,
        "winner_disqualified_games": winner_dq,
        "first_lead_off_won": int(first_lead in winners),
    }
