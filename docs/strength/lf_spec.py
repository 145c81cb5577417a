"""Lonely Face: agent specs against greedy on the same deals, one JSON line a deal.

    python docs/strength/lf_spec.py FIRST COUNT NAME=SPEC [NAME=SPEC ...]

Like ``lf_pair.py``, for any agent spec (``expert``, ``ismcts:iters=192,...``). Each
deal (seed FIRST, FIRST+1, ...) is played twice per spec, the spec in p1 then in p2,
against ``greedy``, seeds per deal and seat, so that two specs meet the same deals
and two runs over other deals can be pooled. A line gives per spec its wins (0-2, a
shared win counting 1/k), its score margin over greedy summed over the two games,
and its CPU milliseconds per decision (``process_time`` around ``choose``).
"""

from __future__ import annotations

import json
import sys
import time

from decklab.bots import make_agent
from decklab.engine.registry import get_game


def main() -> None:
    cls = get_game("lonely-face")
    first, count = int(sys.argv[1]), int(sys.argv[2])
    specs = dict(item.split("=", 1) for item in sys.argv[3:])
    for deal in range(first, first + count):
        row: dict[str, float] = {"deal": deal}
        for name, spec in specs.items():
            wins = cpu = margin = 0.0
            decisions = 0
            for me in (0, 1):
                state = cls.new(2, seed=deal)
                seed = deal * 2 + me
                mine = f"{spec}{',' if ':' in spec else ':'}seed={seed}"
                agents = [make_agent(mine if s == me else f"greedy:seed={seed}") for s in range(2)]
                while not state.is_terminal():
                    seat = state.to_act()[0]
                    start = time.process_time()
                    action = agents[seat].choose(state, seat)
                    if seat == me:
                        cpu += time.process_time() - start
                        decisions += 1
                    state.apply(seat, action)
                scores = state.scores()
                margin += scores[me] - scores[1 - me]
                winners = state.winners()
                wins += 1.0 / len(winners) if me in winners else 0.0
            row[name] = wins
            row[name + "_mg"] = margin
            row[name + "_ms"] = round(1000 * cpu / max(decisions, 1), 2)
        print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
