"""Lonely Face's part of inferred beliefs (``bots/beliefs.py``): the others' past
decisions as they would have been in a sampled world.

The search weighs a determinization by how likely the other seats' observed moves are
under the opponent model; that needs the position each of them decided in, with the
hidden hands of *that* world. Lonely Face can rebuild it: every hand card the others
have not seen was dealt at the start (a card that enters a hand from the grid is seen
going in), the main deck's drawn cards and the turned turn-deck cards are public, and
the rest of both decks does not change any past position. So the seat's redacted
opening deal, with its hidden slots filled from the sampled world, replayed through
the public history (chance lines forced, as ``engine/records.py`` does), passes
through exactly the sampled world's past decision points.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Iterator
from typing import Any

from decklab import cards
from decklab.engine.chance import std_shuffle
from decklab.engine.state import CHANCE
from decklab.games.lonely_face.state import LonelyFaceState


def _filled(public: list[str], fill: list[int]) -> list[str]:
    """``public`` with its hidden entries replaced, in order, by the cards of ``fill``."""
    out = list(public)
    slots = [i for i, c in enumerate(out) if c == cards.HIDDEN]
    if len(slots) != len(fill):
        raise ValueError("the sampled world does not match the seat's view of the deal")
    for i, c in zip(slots, fill, strict=True):
        out[i] = cards.to_str(c)
    return out


def world_setup(state: LonelyFaceState, world: LonelyFaceState, seat: int) -> dict[str, Any]:
    """The opening deal of ``world`` (a determinization of ``state`` for ``seat``): what
    ``seat`` saw of the true deal, its hidden cards taken from the sample. Reads of the
    true state only its redacted setup, so nothing hidden passes into the result."""
    dealt = state.initial_setup
    if dealt is None:
        raise ValueError("a state without a known deal (itself a sample) has no history to weigh")
    public = state.redact_setup(dealt, seat)
    setup = dict(public)
    hands = []
    for s, hand in enumerate(public["hands"]):
        unseen = [c for c in world.hands[s] if c not in world.known[s]] if s != seat else []
        hands.append(_filled(hand, sorted(unseen)))
    setup["hands"] = hands
    setup["main_deck"] = _filled(public["main_deck"], world.deck[::-1])
    if "turn_deck" in public:
        # (after a reshuffle the whole opening turn deck has been turned: nothing hidden)
        rest = [] if world._shuffle_at >= 0 else world.turn_deck[::-1]
        setup["turn_deck"] = _filled(public["turn_deck"], rest)
    return setup


def past_decisions(
    state: LonelyFaceState, world: LonelyFaceState, seat: int
) -> Iterator[tuple[LonelyFaceState, int, int]]:
    """``(position, actor, action)`` for every past move of a seat other than ``seat``,
    the position as it was in ``world``. The position is one replay state, moved on
    after each yield: read it before asking for the next."""
    replay = LonelyFaceState.from_setup(
        state.num_players, state.options, world_setup(state, world, seat)
    )
    replay._forced = deque(str(text) for actor, text in world.history if actor == CHANCE)
    replay._strict_chance = True
    for actor, action in world.history:
        if actor == CHANCE:
            continue
        if actor != seat:
            yield replay, actor, int(action)
        replay.apply(actor, int(action))


def redraw_unweighed(world: LonelyFaceState, seat: int, rng: random.Random) -> None:
    """Shuffle again what the weight does not depend on: the order of the main deck's rest
    and of the turn deck's unturned cards (future chance, no past decision saw it). A
    pool of K weighed worlds then still gives the search fresh futures each iteration."""
    std_shuffle(rng, world.deck)
    if not world.die:
        std_shuffle(rng, world.turn_deck)
        if world._shuffle_at >= 0:  # keep the history's shuffle line in step with the deck
            order = world.turned + world.turn_deck[::-1]
            world.history[world._shuffle_at] = (CHANCE, "shuffle " + cards.format_many(order))
