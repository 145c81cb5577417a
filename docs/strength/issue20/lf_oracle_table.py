"""Oracle table: positions of greedy games at n players; for greedy's top K candidates,
the win share by R paired fair rollouts (determinize from the seat's view, greedy to the end)."""
import json, random, sys
from decklab.bots import make_agent
from decklab.engine.registry import get_game
from decklab.games.lonely_face.greedy import greedy_action, action_values
from decklab.games.lonely_face.state import CHOOSE

cls = get_game("lonely-face")

def positions(n, count, base):
    greedy = make_agent("greedy:seed=5")
    out = []; g = 0
    while len(out) < count:
        st = cls.new(n, seed=base + g); rng = random.Random(base + g)
        while not st.is_terminal():
            seat = st.to_act()[0]
            if len(st.legal_actions(seat)) > 1 and rng.random() < 0.15:
                out.append(st.clone())
            st.apply(seat, greedy.choose(st, seat))
        g += 1
    return out[:count]

def value(st, seat, action, seeds):
    tot = 0.0
    for sd in seeds:
        r = random.Random(sd)
        w = st.determinize(seat, r)
        w.apply(seat, action)
        while not w.is_terminal():
            s = w.to_act()[0]
            w.apply(s, greedy_action(w, s, r))
        tot += w.utilities()[seat]
    return tot / len(seeds)

if __name__ == "__main__":
    n, count, R, K, base = (int(x) for x in sys.argv[1:6])
    rows = []
    for i, st in enumerate(positions(n, count, base)):
        seat = st.to_act()[0]
        vals = action_values(st, seat, random.Random(0))
        legal = st.legal_actions(seat)
        cands = list(legal) if st.phase == CHOOSE else sorted(legal, key=lambda a: -vals[a])[:K]
        seeds = [random.Random(base * 31 + i * 7919 + k).getrandbits(64) for k in range(R)]
        rows.append({a: value(st, seat, a, seeds) for a in cands})
        if i % 20 == 0:
            print(i, file=sys.stderr, flush=True)
    json.dump([{str(a): v for a, v in r.items()} for r in rows], open(f"/tmp/lf-oracle-table-{n}-{base}.json", "w"))
