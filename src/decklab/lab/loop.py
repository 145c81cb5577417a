"""One game played to its end by seated agents: the innermost loop of the lab's runner.

It is a module of its own so that the compiled build (``decklab._native``) can
compile it: a random game of Corporation takes a few tenths of a millisecond, and
the interpreter's share of this loop (the calls to the state, the clock, the
score trace) was a good part of that. It is plain typed Python and gives the
same games on both builds.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from decklab.bots.base import Agent
from decklab.engine.state import GameState


def play_game(
    state: GameState, agents: Sequence[Agent], record_trace: bool
) -> tuple[list[int], int, list[list[float]], list[float]]:
    """Play ``state`` to its end, ``agents[seat]`` choosing for each seat.

    Returns the decisions per seat, the seat that took the first decision (-1
    for none), the score trace (every seat's score after each decision that
    changed a score, when ``record_trace``) and the seconds each seat spent
    choosing.
    """
    n = len(agents)
    moves = [0] * n
    think = [0.0] * n
    trace: list[list[float]] = []
    first = -1
    clock = time.perf_counter
    last = state.scores() if record_trace else []
    while True:
        acting = state.to_act()
        if not acting:
            break
        seat = acting[0]
        if first < 0:
            first = seat
        start = clock()
        action = agents[seat].choose(state, seat)
        think[seat] += clock() - start
        moves[seat] += 1
        state.apply(seat, action)
        if record_trace:
            now = state.scores()
            if now != last:
                trace.append([float(x) for x in now])
                last = now
    return moves, first, trace, think
