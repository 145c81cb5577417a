"""Lonely Face: what the expert would win if it knew part of what it cannot see.

    python docs/strength/lf_peek.py KNOW FIRST COUNT NAME=SPEC [NAME=SPEC ...]

KNOW is ``hands`` (the other hands are known, the main deck's order and the coming turn
suits are sampled) or ``hands,deck`` (only the coming turn suits are sampled). The rest
is ``lf_spec.py``: the same deals, seeds and JSON lines, so a line of this script pairs
with the same deal's line of ``lf_spec.py``.

Why: the issue asks for a fair expert at 70% against greedy. The expert's only handle on
what it does not see is inference about the other hand from greedy's moves; a search
that is *given* the other hand is the ceiling of every such inference, and one that is
also given the deck's order leaves only the turn suits unknown. If the first is short of
70%, no belief model gets the expert there. A measuring tool, not a player: it reads the
true state, so it runs on the pure build only (``DECKLAB_PURE=1``: a compiled class's
methods cannot be replaced), and no agent name reaches it.
"""

from __future__ import annotations

import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import lf_spec

from decklab.engine.chance import std_shuffle
from decklab.games.lonely_face.state import PLAY, LonelyFaceState


def peeking(keep_deck: bool):  # type: ignore[no-untyped-def]
    """A ``determinize`` that keeps the other hands (and the deck's order if asked) as
    they are, and resamples the rest as the fair one does."""

    def determinize(self: LonelyFaceState, seat: int, rng: random.Random) -> LonelyFaceState:
        d = self.clone()
        d._reseed(rng)
        if not keep_deck:
            rest = sorted(self.deck)
            std_shuffle(rng, rest)
            d.deck = rest
        d._dealt = None
        d._setup = None
        if not self.die:
            d.turn_deck.sort()
            std_shuffle(rng, d.turn_deck)
        if d.phase == PLAY and d.cur != seat:
            d._gen_legal()
        return d

    return determinize


def main() -> None:
    know = sys.argv[1]
    if know not in ("hands", "hands,deck"):
        raise SystemExit(f"KNOW is 'hands' or 'hands,deck', not {know!r}")
    if not str(sys.modules[LonelyFaceState.__module__].__file__).endswith(".py"):
        raise SystemExit("lf_peek.py needs the pure build: run it with DECKLAB_PURE=1")
    LonelyFaceState.determinize = peeking(keep_deck=know == "hands,deck")  # type: ignore[method-assign]
    sys.argv = [sys.argv[0], *sys.argv[2:]]
    lf_spec.main()


if __name__ == "__main__":
    main()
