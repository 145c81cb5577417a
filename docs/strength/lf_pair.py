"""Lonely Face: guided ISMCTS variants against greedy on the same deals, one JSON line a deal.

    python docs/strength/lf_pair.py FIRST COUNT "name:iters:root;name:iters:root"

Each deal (seed FIRST, FIRST+1, ...) is played twice per variant, the variant in
p1 then in p2, against ``greedy``; a line gives each variant's wins (0-2, a
shared win counting 1/k) and its CPU seconds per decision (``process_time``
around ``choose``). Lines are printed as deals finish, so a run can be read (and
pooled with another over other deals) before it ends.
"""

from __future__ import annotations

import json
import sys
import time

from decklab.bots import make_agent
from decklab.engine.registry import get_game

G = "rollout=greedy,depth=8,prior=greedy,model=1,topk=4,margin=0.7,purify=0.5,gamma=0.3"


def main() -> None:
    cls = get_game("lonely-face")
    specs = {}
    for item in sys.argv[3].split(";"):
        name, iters, root = item.split(":")
        specs[name] = f"ismcts:iters={iters},root={root},{G}"
    first, count = int(sys.argv[1]), int(sys.argv[2])
    for deal in range(first, first + count):
        row: dict[str, float] = {"deal": deal}
        for name, spec in specs.items():
            wins = cpu = 0.0
            decisions = 0
            for me in (0, 1):
                state = cls.new(2, seed=deal)
                seed = deal * 2 + me
                agents = [
                    make_agent(f"{spec},seed={seed}" if s == me else f"greedy:seed={seed}")
                    for s in range(2)
                ]
                while not state.is_terminal():
                    seat = state.to_act()[0]
                    start = time.process_time()
                    action = agents[seat].choose(state, seat)
                    if seat == me:
                        cpu += time.process_time() - start
                        decisions += 1
                    state.apply(seat, action)
                winners = state.winners()
                wins += 1.0 / len(winners) if me in winners else 0.0
            row[name] = wins
            row[name + "_cpu"] = cpu / max(decisions, 1)
            row[name + "_n"] = decisions
        print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
