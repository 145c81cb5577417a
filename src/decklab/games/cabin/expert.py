"""The strongest fair player of The Cabin by the Sea: sampled deals, solved clairvoyantly.

It knows only what the seat sees (the view). For each decision it deals the hidden
cards out afresh ``samples`` times, consistent with the view (C1 fixes which kinds
each face-down pile still holds), and on each sampled deal asks the clairvoyant
solver how each choice would turn out; then it plays the choice with the lowest
mean. This is perfect-information Monte Carlo: a sample's verdict is clairvoyant,
so it over-rates choices that only pay off if you know the order of the sea and
the cabin; averaging over many samples tempers that.

Each choice on each sample is judged by the solver's admissible bound after the
move (the per-suit, per-pile relaxation: what can still be saved if each pile's
cards of a suit only had to climb that suit's stacks in the pile's own order),
and, with ``nodes`` > 0, by that many nodes of the solver's search on top. On 40
deals the extra search did not beat more samples for the same time, so while the
sea lasts the default spends the second on samples; once the sea is empty the
bound cannot tell the piles apart, and the search decides (``TAKE_NODES``). The
samples are built from the view alone (sorted before shuffling), so two states
that differ only in hidden cards get the same samples from the same ``rng``, and
so the same choice.
"""

from __future__ import annotations

import random
from typing import Any, Final

from decklab import cards
from decklab.engine.chance import std_shuffle
from decklab.games.cabin.solver import (
    K_BEACH,
    K_BUILD,
    K_CABIN,
    K_DEEP,
    K_DUMP,
    K_PLACE,
    K_SINK,
    K_TBEACH,
    K_TCABIN,
    P_TIGHT,
    Node,
    Search,
    SearchLimit,
    root_moves,
)
from decklab.games.cabin.state import (
    _HIGH,
    _KIND,
    ANCHOR,
    ANCHOR_BEACH,
    ANCHOR_CABIN,
    DUMP,
    NEW,
    TAKE,
    TAKE_BEACH,
    TAKE_CABIN,
    TAKE_DEEP,
    CabinState,
)

SAMPLES: Final = 24
"""Sampled deals per decision: about half a second of CPU a game (40 samples did not
do better on 40 deals, 8 did a little worse)."""
NODES: Final = 0
"""Solver nodes per choice and sample on top of the bound (0: the bound alone) while the
sea lasts."""
TAKE_NODES: Final = 5000
"""Solver nodes per choice and sample once the sea is empty (C4's take phase). There the
bound cannot choose: it ignores the order in which cards come from different piles, so
taking from the deep sea, the beach or the cabin first is often the same to it, and the
expert took the first legal one by a tie in 100 of its 610 decisions on deals 0–9.
The endgame is small, so the search mostly finishes and the choice follows the
sampled deals' exact values: on deals 200–599 that saved 0.31 squid points a deal
(0.19–0.42, paired with the bound-only expert; issue 20), at 5 ms a decision on
average, the slowest 0.11 s (compiled)."""

_KIND_ACTION: Final = {
    K_CABIN: ANCHOR_CABIN,
    K_BEACH: ANCHOR_BEACH,
    K_DUMP: DUMP,
    K_SINK: ANCHOR,
    K_DEEP: TAKE_DEEP,
    K_TBEACH: TAKE_BEACH,
    K_TCABIN: TAKE_CABIN,
}
_KINDS: Final = ("aces", "numbers", "faces")


def _keys(view: dict[str, Any]) -> list[int]:
    """The engine's stack keys from the view: a lone ace counts low, else the top as built."""
    keys = []
    for pile in view["stacks"].values():
        top = cards.parse(pile[-1])
        keys.append(top if len(pile) == 1 else _HIGH[top])
    return keys


class Sampler:
    """Deals the cards the seat cannot see, consistently with its view."""

    def __init__(self, view: dict[str, Any]) -> None:
        known: set[int] = set()
        for pile in view["stacks"].values():
            known.update(cards.parse(t) for t in pile)
        self.deep = tuple(cards.parse(t) for t in reversed(view["deep"]))
        self.seen_beach = tuple(cards.parse(t) for t in view["beach"]["seen"])
        known.update(self.deep)
        known.update(self.seen_beach)
        known.update(cards.parse(t) for t in view["squid"])
        self.pending = cards.parse(view["card"]) if view["card"] else -1
        if self.pending >= 0:
            known.add(self.pending)
        hidden = sorted(set(cards.deck()) - known)
        self.pools: list[list[int]] = [[], [], []]
        for c in hidden:
            self.pools[_KIND[c]].append(c)
        unseen = view["unseen"]
        self.counts = {
            pile: [unseen[pile][k] for k in _KINDS] for pile in ("cabin", "sea", "beach")
        }
        self.phase = view["phase"]

    def deal(self, rng: random.Random) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
        """A sampled (sea, cabin, beach), each in the order the cards come off."""
        pools = [p.copy() for p in self.pools]
        for p in pools:
            std_shuffle(rng, p)
        out = {}
        for pile in ("cabin", "sea", "beach"):
            got = []
            for kind, n in enumerate(self.counts[pile]):
                got.extend(pools[kind][-n:] if n else [])
                del pools[kind][len(pools[kind]) - n :]
            std_shuffle(rng, got)
            out[pile] = got
        sea = ([self.pending] if self.phase == "sea" else []) + out["sea"]
        return tuple(sea), tuple(out["cabin"]), self.seen_beach + tuple(out["beach"])


def _evaluate(search: Search, child: Node, budget: int) -> int:
    """A lower bound on the child's best score, raised by up to ``budget`` nodes of search
    (exact when the search finishes)."""
    if not child.rem:
        return 0
    low = search.quick_bound(child)
    search.limit = search.nodes + budget
    try:
        while True:
            v = search.search(child, low + 1)
            if v <= low:
                return low
            low = v
    except SearchLimit:
        return max(low, search.quick_bound(child))


class Decision:
    """What a judge of one decision reads, once: the seat's view, its sampler of deals, the
    stacks' keys, the card being placed (or -1) and the tightest stack to build on. Both
    the expert and ``fast`` (``games/cabin/fast.py``) judge moves on sampled deals from it,
    so both name the solver's moves as the same legal actions."""

    def __init__(self, state: CabinState, seat: int) -> None:
        self.state = state
        view = state.view(seat)
        self.sampler = Sampler(view)
        self.keys = _keys(view)
        self.placing = self.sampler.pending if self.sampler.phase == "place" else -1
        self.legal = state.legal_actions(seat)
        keys = self.keys
        self.tight = max((a for a in self.legal if a < NEW), key=lambda a: keys[a], default=-1)

    def search(self, rng: random.Random) -> tuple[Search, Node]:
        """The solver on one deal sampled from the view, and its root."""
        sea, cabin, beach = self.sampler.deal(rng)
        state = self.state
        search = Search(sea, cabin, beach, self.sampler.deep, state.max_stacks, state.beach_dump)
        return search, search.root(self.keys, self.placing)

    def moves(self, search: Search, node: Node, prune: bool) -> list[tuple[int, int, Node]]:
        """The solver's moves at the root as (legal action, squid points it costs, child)."""
        named: list[tuple[int, int, Node]] = []
        for code, cost, child in root_moves(search, node, self.placing, prune=prune):
            kind, place = divmod(code, 4)
            if kind in (K_BUILD, K_PLACE):
                action = self.tight if place == P_TIGHT else NEW
            else:
                action = _KIND_ACTION[kind]
            named.append((action, cost, child))
        return named


def budget(state: CabinState) -> int:
    """Solver nodes per choice and sample at ``state``: :data:`TAKE_NODES` once the sea is
    empty, else :data:`NODES`."""
    return TAKE_NODES if state.phase == TAKE else NODES


def action_values(
    state: CabinState,
    seat: int,
    rng: random.Random,
    samples: int = SAMPLES,
    nodes: int | None = None,
) -> dict[int, float]:
    """Each worthwhile legal action's mean squid points still to lose (over sampled deals),
    with ``nodes`` solver nodes per choice and sample (None: :func:`budget`).

    Builds on a stack other than the tightest are left out: they are never better.
    """
    if nodes is None:
        nodes = budget(state)
    decision = Decision(state, seat)
    totals: dict[int, float] = {}
    for _ in range(samples):
        search, node = decision.search(rng)
        best: dict[int, int] = {}
        for action, cost, child in decision.moves(search, node, prune=False):
            value = cost + _evaluate(search, child, nodes)
            if value < best.get(action, 1 << 30):
                best[action] = value
        for action, value in best.items():
            totals[action] = totals.get(action, 0.0) + value
    return {a: v / samples for a, v in totals.items() if a in decision.legal}


def expert_action(
    state: CabinState,
    seat: int,
    rng: random.Random,
    samples: int = SAMPLES,
    nodes: int | None = None,
) -> int:
    """The action with the fewest expected squid points, judged on ``samples`` sampled deals
    that each get ``nodes`` solver nodes per choice (None: :func:`budget`). Uses only what
    ``seat`` sees."""
    legal = state.legal_actions(seat)
    if len(legal) == 1:
        return legal[0]
    values = action_values(state, seat, rng, samples, nodes)
    if not values:
        return legal[0]
    return min(values, key=lambda a: (values[a], legal.index(a)))
