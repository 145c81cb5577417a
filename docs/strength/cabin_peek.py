"""The Cabin: what the expert would score if it knew part of what the bound knows.

    DECKLAB_PURE=1 PYTHONPATH=src python docs/strength/cabin_peek.py KNOW FIRST COUNT

KNOW names what the expert is given besides its view, comma-separated:

- ``nothing``: the expert as it is (a check: the same scores as the page's record);
- ``split``: which hidden number cards are in the sea and which in the cabin, not the order;
- ``sea``: the sea's order (and so the split);
- ``cabin``: the cabin's order (and so the split);
- ``sea,cabin``: both orders; only the beach's hidden face cards are sampled;
- ``all``: every card: each sampled deal is the true one, so the expert judges each move
  by the bound (and, once the sea is empty, the search) on the real deal.

One JSON line a deal: ``deal``, ``know``, ``score``, and for pairing ``bound`` and
``expert`` from the page's record of the expert as it is (``runs/cabin-bound-0-1999.json``,
deals 0-1999). Deal N is ``CabinState.new(1, seed=N)``
played by ``expert:seed=N``, as ``cabin_deals.py`` plays it.

Why: the issue asks for a fair expert within 3.0 squid points of the clairvoyant bound,
and the expert is about 6 above it. The gap has two parts: what the bound knows and no
fair player can (the order of the sea and the cabin), and how well the player judges
moves with what it knows. Giving the same judge more to know measures the first part;
``all`` measures the second, the judge's own distance from the bound on a known deal.
A measuring tool, not a player: it reads the true state, so it runs on the pure build
only (a compiled class's methods cannot be replaced), and no agent name reaches it.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

from decklab.bots import make_agent
from decklab.engine.chance import std_shuffle
from decklab.games.cabin import expert
from decklab.games.cabin.state import CabinState

HERE = Path(__file__).resolve().parent
KINDS = ("split", "sea", "cabin", "beach")
Deal = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]


def parse_know(text: str) -> frozenset[str]:
    """KNOW as a set: ``all`` is every pile's order, ``nothing`` none."""
    if text == "nothing":
        return frozenset()
    if text == "all":
        return frozenset({"sea", "cabin", "beach"})
    parts = frozenset(p.strip() for p in text.split(","))
    if not parts or not parts <= set(KINDS):
        raise SystemExit(f"KNOW is nothing, all, or a comma list of {', '.join(KINDS)}: {text!r}")
    return parts


def true_deal(state: CabinState, phase: str) -> Deal:
    """The real (sea, cabin, beach), top first, as the sampler lays a deal out."""
    sea = ([state.pending] if phase == "sea" else []) + state.sea[::-1]
    return tuple(sea), tuple(state.cabin[::-1]), tuple(state.beach[::-1])


class PeekingSampler:
    """The fair sampler's deal with the known piles put back as they truly are.

    With the sea's or the cabin's order known, or the split, each of the two piles holds
    its true cards and only their order is drawn; the beach's hidden cards are faces
    whichever is known, so its order alone is drawn unless ``beach`` is known.
    """

    def __init__(self, fair: expert.Sampler, state: CabinState, know: frozenset[str]) -> None:
        self.fair = fair
        self.phase = fair.phase
        self.pending = fair.pending
        self.deep = fair.deep
        self.truth = true_deal(state, fair.phase)
        self.know = know

    def deal(self, rng: random.Random) -> Deal:
        sampled = self.fair.deal(rng)
        if not self.know:
            return sampled
        sea_t, cabin_t, beach_t = self.truth
        if {"sea", "cabin", "split"} & self.know:
            head = 1 if self.phase == "sea" else 0  # the drawn card is known to all
            rest = list(sea_t[head:])
            if "sea" not in self.know:
                rest.sort()
                std_shuffle(rng, rest)
            sea = (*sea_t[:head], *rest)
            cabin = list(cabin_t)
            if "cabin" not in self.know:
                cabin.sort()
                std_shuffle(rng, cabin)
            sampled = (tuple(sea), tuple(cabin), sampled[2])
        if "beach" in self.know:
            sampled = (sampled[0], sampled[1], beach_t)
        return sampled


TRUTH: list[CabinState] = []
"""The game being played: the expert is handed a determinized sample of it (the generic
expert's first step), so the truth to peek at is kept here by :func:`play`."""


def peeking(know: frozenset[str]) -> None:
    """Make every expert decision sample through :class:`PeekingSampler`."""
    if not str(expert.__file__).endswith(".py"):
        raise SystemExit("cabin_peek.py needs the pure build: run it with DECKLAB_PURE=1")
    fair_init = expert.Decision.__init__

    def init(self: expert.Decision, state: CabinState, seat: int) -> None:
        fair_init(self, state, seat)
        self.sampler = PeekingSampler(self.sampler, TRUTH[-1], know)  # type: ignore[assignment]

    expert.Decision.__init__ = init  # type: ignore[method-assign]


def play(deal: int) -> int:
    state = CabinState.new(1, seed=deal)
    TRUTH[:] = [state]
    agent = make_agent(f"expert:seed={deal}")
    while not state.is_terminal():
        state.apply(0, agent.choose(state, 0))
    return int(state.scores()[0])


def main() -> None:
    if len(sys.argv) != 4:
        raise SystemExit(__doc__.split("\n\n")[1])
    know_text, first, count = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    know = parse_know(know_text)
    peeking(know)
    known: dict[int, dict[str, Any]] = {}
    record = json.loads((HERE / "runs" / "cabin-bound-0-1999.json").read_text(encoding="utf-8"))
    for row in record["result"]["rows"]:
        known[int(row["deal"])] = row
    for deal in range(first, first + count):
        score = play(deal)
        row = known.get(deal, {})
        line = {"deal": deal, "know": know_text, "score": score}
        line |= {"bound": row.get("clairvoyant"), "expert": row.get("expert")}
        print(json.dumps(line), flush=True)


if __name__ == "__main__":
    main()
