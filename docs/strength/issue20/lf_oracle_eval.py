"""Score judge variants against the oracle table: mean oracle win share of the chosen move."""
import json, random, sys, importlib
sys.path.insert(0, str(__import__("pathlib").Path(__file__).parent))
from lf_oracle_table import positions
from decklab.bots import make_agent
import decklab.games.lonely_face.fast as F
from decklab.games.lonely_face.greedy import action_values, HAND_WORTH

n, count, base = (int(x) for x in sys.argv[1:4])
variants = sys.argv[4:]
table = json.load(open(f"/tmp/lf-oracle-table-{n}-{base}.json"))
states = positions(n, count, base)[:len(table)]

def setv(spec):
    kv = dict(x.split("=") for x in spec.split(",") if x)
    F.MU = float(kv.get("mu", "nan")); F.W = float(kv.get("w", "1")); F.LEAD = float(kv.get("lead", "1"))
    F._X.clear(); F._X.update(kv)
    own = list(HAND_WORTH)
    for c in range(64):
        if HAND_WORTH[c] == 0.3 and "face" in kv: own[c] = float(kv["face"])
        if HAND_WORTH[c] == 0.1 and "heart" in kv: own[c] = float(kv["heart"])
        if HAND_WORTH[c] == -0.1 and "spade" in kv: own[c] = float(kv["spade"])
    F.OWN[:] = own
    return kv

def score(choose):
    got = 0.0; best = 0.0; miss = 0
    for st, row in zip(states, table):
        seat = st.to_act()[0]
        a = choose(st, seat)
        if str(a) not in row: miss += 1; continue
        got += row[str(a)]; best += max(row.values())
    k = len(table) - miss
    return got / k, (best - got) / k, miss

def greedy_choose(st, seat):
    v = action_values(st, seat, random.Random(0)); m = max(v.values())
    return min(a for a in v if v[a] >= m - 1e-9)  # note: ties broken by lowest action

print("greedy(lowest tie)", score(greedy_choose))
for spec in variants:
    if spec.startswith("agent:"):
        ag = make_agent(spec[6:] + ",seed=1" if ":" in spec[6:] else spec[6:] + ":seed=1")
        print(spec, score(lambda st, s: ag.choose(st, s)), flush=True); continue
    kv = setv(spec)
    samples = int(kv.get("samples", "1"))
    def ch(st, seat):
        d = st.determinize(seat, random.Random(1))
        v = F.action_values(d, seat, random.Random(1), samples)
        return max(v, key=lambda a: v[a])
    print(spec or "judge", score(ch), flush=True)
