"""Equally rated moves are kept in the game's own tie order, the same for every seat.

Bots keep the first few moves of the game's ranking (the search's ``topk``, the fast
bot's candidates, the beginner's best three). Notorious's moves name the seat a card
goes to, and ties once kept the game's order, i.e. by seat number, a rule that tells
seats apart by their numbers (all-expert tables of three leaned to p3, 38.4% of 800
games; issue 20). The rule is now Notorious's ``tie_order``, its greedy player's own
tie-break: turn order from the deciding seat. Games without a ``tie_order`` keep
exactly the order they had.
"""

from __future__ import annotations

import random

import pytest

from decklab.bots.greedy import best_first, game_greedy, game_tie_order, game_values
from decklab.engine.registry import get_game
from decklab.games.notorious import greedy
from decklab.games.notorious.state import PLAY, NotoriousState

TOPK = 4


def positions(game: str, players: int, games: int) -> list[tuple[object, int]]:
    """Decision points of greedy games with more than ``TOPK`` legal moves, as the seat
    to act sees them (a determinization), with that seat."""
    cls = get_game(game)
    choose = game_greedy(cls)
    assert choose is not None
    out = []
    for seed in range(games):
        rng = random.Random(seed)
        state = cls.new(players, seed=seed)
        steps = 0
        while not state.is_terminal() and steps < 300:
            steps += 1
            seat = state.to_act()[0]
            if len(state.legal_actions(seat)) > TOPK:
                out.append((state.determinize(seat, rng), seat))
            state.apply(seat, choose(state, seat, rng))
    return out


def offset(action: int, seat: int, players: int) -> int:
    """How far the seat a card is played in front of lies from ``seat``, in turn order."""
    return (((action >> 1) & 15) - seat) % players


@pytest.mark.parametrize("players", [3, 4, 7])
def test_N3_kept_ties_go_to_the_nearest_seats_in_turn_order_from_every_seat(players: int) -> None:
    """Where equally rated moves straddle the cut, no dropped one goes to a seat nearer in
    turn order (from the deciding seat) than a kept one: the rule every seat follows."""
    crossing = {seat: 0 for seat in range(players)}
    for state, seat in positions("notorious", players, 30):
        assert isinstance(state, NotoriousState)
        if state.phase != PLAY:
            continue
        values = greedy.action_values(state, seat, random.Random(0))
        ranked = best_first(state, seat, list(values), values.__getitem__)
        edge = values[ranked[TOPK - 1]]
        if values[ranked[TOPK]] != edge:
            continue  # no tie across the cut
        crossing[seat] += 1

        kept = [offset(a, seat, players) for a in ranked[:TOPK] if values[a] == edge]
        dropped = [offset(a, seat, players) for a in ranked[TOPK:] if values[a] == edge]
        assert max(kept) <= min(dropped), (seat, kept, dropped)
    assert all(count >= 10 for count in crossing.values()), crossing


def test_N7_the_tie_order_is_the_greedy_players_own_tie_break() -> None:
    """Among moves of equal value greedy plays the first of ``tie_order``: one rule, not two."""
    seen = 0
    for state, seat in positions("notorious", 4, 20):
        assert isinstance(state, NotoriousState)
        values = greedy.action_values(state, seat, random.Random(0))
        legal = state.legal_actions(seat)
        best = max(values.values())
        tied = [a for a in legal if values[a] == best]
        if len(tied) > 1:
            seen += 1
            first = greedy.tie_order(state, seat, tied)[0]
            assert greedy.best_of(values, legal, seat, state.num_players) == first
    assert seen >= 5


@pytest.mark.parametrize(
    ("game", "players"), [("facade", 2), ("facade", 4), ("lonely-face", 2), ("lonely-face", 4)]
)
def test_games_without_a_tie_order_keep_the_order_they_had(game: str, players: int) -> None:
    """The recorded measurements of these games stay valid: the same moves survive the cut."""
    cls = get_game(game)
    assert game_tie_order(cls) is None
    values_fn = game_values(cls)
    assert values_fn is not None
    compared = 0
    for state, seat in positions(game, players, 6):
        assert hasattr(state, "legal_actions")
        ranked = values_fn(state, seat, random.Random(1))  # type: ignore[arg-type]
        before = sorted(ranked, key=ranked.__getitem__, reverse=True)
        assert best_first(state, seat, list(ranked), ranked.__getitem__) == before  # type: ignore[arg-type]
        compared += 1
    assert compared >= 20
