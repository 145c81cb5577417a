"""docs/strength/lf_peek.py measures the ceiling of inference about Lonely Face's other
hand: its determinization must keep exactly what it says it keeps (the other hands; with
``hands,deck`` the deck's order too) and resample the rest, or the ceiling it reports is
a different quantity. It patches the interpreted state class, so the checks run in a
pure-build subprocess on either build."""

from __future__ import annotations

import json
import subprocess

from pure_scripts import run_pure

CHECK = """
import json, random, lf_peek
from decklab.engine.registry import get_game
from decklab.games.lonely_face.state import LonelyFaceState
fair = LonelyFaceState.determinize
out = {}
for name, keep in (("fair", None), ("hands", False), ("hands,deck", True)):
    if keep is not None:
        LonelyFaceState.determinize = lf_peek.peeking(keep)
    rows = []
    for deal in range(6):
        s = get_game("lonely-face").new(2, seed=deal)
        rng = random.Random(deal)
        for _ in range(deal):  # a few moves in, so hands and deck have changed
            seat = s.to_act()[0]
            s.apply(seat, s.legal_actions(seat)[0])
        d = s.determinize(s.to_act()[0], rng)
        other = 1 - s.to_act()[0]
        rows.append([d.hands[other] == s.hands[other], d.deck == s.deck,
                     sorted(d.deck) == sorted(s.deck), d.turn_deck == s.turn_deck,
                     d.grid == s.grid, d.hands[1 - other] == s.hands[1 - other]])
    out[name] = rows
print(json.dumps(out))
"""


def _run(code: str, *args: str) -> subprocess.CompletedProcess[str]:
    return run_pure("lf_peek.py", code, *args)


def test_peeking_keeps_what_it_says_and_resamples_the_rest() -> None:
    done = _run(CHECK)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    for name, rows in out.items():
        other_hand, deck, deck_cards, turn_deck, grid, own_hand = map(list, zip(*rows, strict=True))
        assert all(grid) and all(own_hand), name  # what everyone sees
        # the coming turn suits are resampled by every kind (a few may come out equal)
        assert not all(turn_deck), name
        if name == "fair":
            assert not any(other_hand) and not any(deck), "the fair sample kept a secret"
        elif name == "hands":
            assert all(other_hand) and all(deck_cards) and not any(deck), rows
        else:
            assert all(other_hand) and all(deck), rows


def test_the_script_refuses_a_bad_knowledge_and_plays_a_deal() -> None:
    bad = _run("", "hand", "0", "1", "x=expert")
    assert bad.returncode != 0 and "KNOW is 'hands' or 'hands,deck'" in bad.stderr
    done = _run("", "hands", "0", "1", "x=expert:iters=12")
    assert done.returncode == 0, done.stderr
    row = json.loads(done.stdout)
    assert row["deal"] == 0 and 0.0 <= row["x"] <= 2.0 and "x_mg" in row
