"""docs/strength/cabin_peek.py splits the Cabin expert's distance from the clairvoyant bound
into what the bound knows (the piles' order) and how the expert judges moves. Its sampler
must keep exactly the piles it says (the split, the sea's order, the cabin's, every card)
and deal the rest afresh, or the split it reports is of something else. It patches the
interpreted expert, so the checks run in a pure-build subprocess on either build."""

from __future__ import annotations

import json
import subprocess

from pure_scripts import run_pure

CHECK = """
import json, random, cabin_peek
from decklab.games.cabin import expert
from decklab.games.cabin.state import CabinState
out = {}
for text in ("nothing", "split", "sea", "cabin", "sea,cabin", "all"):
    know = cabin_peek.parse_know(text)
    rows = []
    for deal in range(8):
        s = CabinState.new(1, seed=deal)
        for _ in range(deal * 3):  # a few moves in: piles drawn from, cards taken
            s.apply(0, s.legal_actions(0)[-1])
        fair = expert.Sampler(s.view(0))
        truth = cabin_peek.true_deal(s, fair.phase)
        sea, cabin, beach = cabin_peek.PeekingSampler(fair, s, know).deal(random.Random(deal))
        rows.append([sea == truth[0], sorted(sea) == sorted(truth[0]), cabin == truth[1],
                     sorted(cabin) == sorted(truth[1]), beach == truth[2],
                     sorted(beach) == sorted(truth[2]), len(sea) == len(truth[0])])
    out[text] = rows
print(json.dumps(out))
"""


def _run(code: str, *args: str) -> subprocess.CompletedProcess[str]:
    return run_pure("cabin_peek.py", code, *args)


def test_peeking_keeps_what_it_says_and_deals_the_rest_afresh() -> None:
    done = _run(CHECK)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    for name, rows in out.items():
        sea, sea_set, cabin, cabin_set, beach, beach_set, sizes = map(list, zip(*rows, strict=True))
        assert all(sizes) and all(beach_set), name  # the beach holds the unseen faces
        if name == "nothing":
            # the fair deal: neither order kept, and the split between sea and cabin drawn
            assert not all(sea) and not all(cabin) and not all(sea_set), name
        elif name == "split":
            assert all(sea_set) and all(cabin_set) and not all(sea) and not all(cabin), name
        elif name == "sea":
            assert all(sea) and all(cabin_set) and not all(cabin), name
        elif name == "cabin":
            assert all(cabin) and all(sea_set) and not all(sea), name
        else:
            assert all(sea) and all(cabin), name
        if name == "all":
            assert all(beach), name
        else:
            assert not all(beach), name


def test_the_script_refuses_a_bad_knowledge_and_knowing_nothing_is_the_expert() -> None:
    bad = _run("", "deck", "0", "1")
    assert bad.returncode != 0 and "KNOW is nothing, all, or a comma list" in bad.stderr
    done = _run("", "nothing", "0", "2")
    assert done.returncode == 0, done.stderr
    for line in done.stdout.splitlines():
        row = json.loads(line)
        assert row["score"] == row["expert"], row  # the page's record of the expert
