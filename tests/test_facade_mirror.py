"""Façade at 2: the expert decides the mirror image of a position exactly as the position.

All-expert tables of two gave p1 56% of 800 games (docs/strength.md, *Façade at 2*),
while the rules treat the seats alike: the first bidder is drawn each game (F4) and the
house suits are a relabelling (F1). Two mirrors of a position, built by replaying its
history on a mirrored setup:

* the **seat mirror** swaps p1 and p2 with everything they hold (hands, bids, won cards,
  tableaux, points, the first bidder, the history's actors) and the house suits, so that
  each *player* keeps its suit: ``house_suits=HC`` becomes ``CH``, and seat 1 - s of the
  mirror is exactly where seat s of the position is;
* the **suit mirror** keeps the seats and swaps hearts and clubs on every card (HC
  becomes CH), which moves the house suits' card and suit indices (hearts 1, clubs 3);
  both together map a default (HC) game onto another default game, the symmetry that
  makes a fair table fair.

At each mirror the seat that stands where the deciding seat stood must get the same
greedy ratings (what the search's prior, opponent model and top-k cut read), the same
determinizations from the same random source, the same returns at the search's cut-off
and at the end, and, from an expert with the same seed, the same root statistics and
move. The seat mirror is exact as it is. The suit mirror is exact once the
determinization's draw pile, sorted by card number before it is shuffled (so that the
sample never depends on the hidden order), is sorted by the mirrored numbers: the same
random permutation then lands on the mirrored cards. That changes which card a random
draw names, never how likely a deal is (a uniform shuffle of any order is uniform), so
it is a relabelling, not a correction (:class:`Relabelled`).

Every comparison is exact, and was so before these tests: the first 100 arena games of
the recorded run of seed 2026 (its deal and agent seeds, compiled build, p1 57.5 wins)
each replayed seat-mirrored move for move, and so did whole games on the code of both
recorded runs (commits 341bb66 and a14b1dd). The expert has no seat or suit rule at two
players; the tests below keep it so. The last tests plant a seat rule and check that the
comparison catches it.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Self, cast

import pytest

from decklab import cards
from decklab.bots import make_agent
from decklab.bots.expert import ExpertAgent
from decklab.bots.ismcts import GUIDED
from decklab.bots.search import SearchAgent, Tree
from decklab.engine.state import seat_name
from decklab.games.facade import greedy
from decklab.games.facade.state import BIDDING, PLACE_BASE, PLACING, FacadeState
from decklab.lab.loop import play_game

Swap = Callable[[int], int]

_SUITS = {cards.HEARTS: cards.CLUBS, cards.CLUBS: cards.HEARTS}


def swap_suit(c: int) -> int:
    """The card with hearts and clubs swapped (any other card unchanged)."""
    return (_SUITS.get(c >> 4, c >> 4) << 4) | (c & 15)


def swap_action(action: int) -> int:
    """A bid or placement with its card's hearts and clubs swapped (bid card k, group kept)."""
    if action < PLACE_BASE:
        return (action >> 7) << 7 | swap_suit(action & 127)
    rest = action - PLACE_BASE
    return PLACE_BASE + (swap_suit(rest >> 6) << 6) + (rest & 63)


def same(x: int) -> int:
    return x


def other(seat: int) -> int:
    return 1 - seat


class Mirror:
    """One mirror: where a seat, a card and an action of the position go."""

    def __init__(self, name: str, seat: Swap, card: Swap, action: Swap) -> None:
        self.name = name
        self.seat = seat
        self.card = card
        self.action = action

    def text(self, words: str) -> str:
        """An action's text in the mirror (``bid KH 9D`` → ``bid KC 9D`` when suits swap)."""
        return words.translate(str.maketrans("HC", "CH")) if self.card is swap_suit else words

    def of(self, state: FacadeState, cls: type[FacadeState] = FacadeState) -> FacadeState:
        """The mirror image of ``state`` (a game of ``cls``): its setup mirrored, its history
        replayed mirrored. Each player keeps its house suit."""
        n = state.num_players
        house = [""] * n
        for s in range(n):
            suit = (
                state.house[s] if self.card is same else _SUITS.get(state.house[s], state.house[s])
            )
            house[self.seat(s)] = cards.SUIT_LETTERS[suit]
        mirror = cls.from_setup(
            n,
            {"house_suits": "".join(house)},
            {
                "draw_pile": [cards.to_str(self.card(c)) for c in state.deck],
                "first_bidder": seat_name(self.seat(state.first)),
            },
        )
        for seat, action in state.history:
            mirror.apply(self.seat(seat), self.action(action))
        return mirror


SEATS = Mirror("seats", other, same, same)
SUITS = Mirror("suits", same, swap_suit, swap_action)
BOTH = Mirror("seats and suits", other, swap_suit, swap_action)
MIRRORS = [SEATS, SUITS, BOTH]


class Relabelled(FacadeState):
    """Façade whose determinization shuffles the draw pile from the order of the *other*
    suit numbering (hearts and clubs swapped), with the same random draws.

    ``determinize`` sorts the unseen pile by card number, then shuffles it: under the suit
    mirror the same permutation then lands on different cards, a relabelling of the random
    source that leaves every deal exactly as likely. Played on a suit-mirrored game, this
    makes the sample the mirror of the original's sample, so that the two searches can be
    compared draw for draw.
    """

    __module__ = "decklab.games.facade.state"  # the game's own greedy, expert: gamecode.py

    def determinize(self, seat: int, rng: random.Random) -> Self:
        d = cast(Self, super().determinize(seat, rng))
        natural = sorted(self.pile)
        mirrored = sorted(self.pile, key=swap_suit)
        at = {c: i for i, c in enumerate(natural)}
        d.pile = [mirrored[at[c]] for c in d.pile]
        dealt = len(self.deck) - len(self.pile)
        d.deck = self.deck[:dealt] + tuple(reversed(d.pile))
        return d


def mirror_class(mirror: Mirror, cls: type[FacadeState] = FacadeState) -> type[FacadeState]:
    """The class the mirror is played with: :class:`Relabelled` where suits swap."""
    if mirror.card is same:
        return cls
    if cls is FacadeState:
        return Relabelled
    return type(f"Relabelled{cls.__name__}", (cls,), {"determinize": Relabelled.determinize})


def positions(seeds: range, every: int, cls: type[FacadeState] = FacadeState) -> list[FacadeState]:
    """Every ``every``-th decision with a choice in greedy games of two (default options)."""
    out = []
    for seed in seeds:
        state = cls.new(2, {}, seed=seed)
        rng = random.Random(seed)
        i = 0
        while not state.is_terminal():
            seat = state.to_act()[0]
            if len(state.legal_actions(seat)) > 1:
                if i % every == 0:
                    out.append(state.clone())
                i += 1
            state.apply(seat, greedy.greedy_action(state, seat, rng))
    return out


POSITIONS = positions(range(3), 1)
"""Every decision of three greedy games: bids with and without face-down bids, placements."""


def test_f4_the_positions_cover_every_kind_of_decision() -> None:
    firsts = {p.first for p in POSITIONS}
    modes = {p.mode for p in POSITIONS}
    assert firsts == {0, 1} and modes == {BIDDING, PLACING}
    assert any(p.mode == BIDDING and any(s != p.actor for s, _, _ in p.bids) for p in POSITIONS)
    assert {p.actor for p in POSITIONS} == {0, 1}


@pytest.mark.parametrize("mirror", MIRRORS, ids=lambda m: m.name)
def test_f1_f4_the_mirror_is_the_same_position_seen_from_the_other_side(mirror: Mirror) -> None:
    """The replayed mirror is legal at every step and holds every field mirrored."""
    m, c = mirror.seat, mirror.card
    for state in POSITIONS[::7]:
        image = mirror.of(state)
        image.check_invariants()
        assert image.to_act() == tuple(m(s) for s in state.to_act())
        assert image.first == m(state.first)
        for s in range(2):
            t = m(s)
            assert image.house[t] == (state.house[s] if c is same else _SUITS[state.house[s]])
            assert image.hands[t] == state.hands[s]
            assert image.points[t] == state.points[s]
            assert image.won[t] == [c(x) for x in state.won[s]]
            assert image.groups[t] == [tuple(c(x) for x in g) for g in state.groups[s]]
        assert image.supply == [c(x) for x in state.supply]
        assert image.bids == [(m(s), k, c(x)) for s, k, x in state.bids]
        assert image.last_taken == [(c(x), m(w)) for x, w in state.last_taken]
        assert image.pile == [c(x) for x in state.pile]
        seat = state.to_act()[0]
        legal = state.legal_actions(seat)
        assert image.legal_actions(m(seat)) == [mirror.action(a) for a in legal]


@pytest.mark.parametrize("mirror", MIRRORS, ids=lambda m: m.name)
def test_f4_greedy_ratings_are_the_same_at_the_mirror(mirror: Mirror) -> None:
    """The search's prior, opponent model, top-k cut and rollouts read these: equal, not close."""
    for state in POSITIONS:
        image = mirror.of(state)
        seat = state.to_act()[0]
        values = greedy.action_values(state, seat, random.Random(0))
        mirrored = greedy.action_values(image, mirror.seat(seat), random.Random(0))
        assert mirrored == {mirror.action(a): v for a, v in values.items()}
        assert list(mirrored) == [mirror.action(a) for a in values]  # the tie order too
        move = greedy.greedy_action(state, seat, random.Random(0))
        assert greedy.greedy_action(image, mirror.seat(seat), random.Random(0)) == mirror.action(
            move
        )
        scores = greedy.expected_scores(state)
        assert greedy.expected_scores(image) == [scores[mirror.seat(s)] for s in range(2)]


@pytest.mark.parametrize("mirror", MIRRORS, ids=lambda m: m.name)
def test_f4_determinizations_from_one_seed_are_mirrors(mirror: Mirror) -> None:
    """The same draws resample the same pile permutation and the same face-down bid cards;
    under the seat mirror the two samples are mirrors outright."""
    m, c = mirror.seat, mirror.card
    for state in POSITIONS[::3]:
        image = mirror.of(state)
        seat = state.to_act()[0]
        for r in range(3):
            source, mirrored_source = random.Random(r), random.Random(r)
            d = state.determinize(seat, source)
            e = image.determinize(m(seat), mirrored_source)
            assert source.getstate() == mirrored_source.getstate()  # as many draws
            assert e.bids == [(m(s), k, c(x)) for s, k, x in d.bids]
            assert e.hands == [d.hands[m(s)] for s in range(2)]
            assert e.history == [(m(s), mirror.action(a)) for s, a in d.history]
            if c is same:
                assert e.pile == d.pile and e.deck == d.deck
            else:  # the same permutation of the sorted pile (see the module docstring)
                order = sorted(state.pile)
                shuffled = [order.index(x) for x in d.pile]
                assert e.pile == [sorted(image.pile)[i] for i in shuffled]
                twin = mirror.of(state, mirror_class(mirror))
                relabelled = twin.determinize(m(seat), random.Random(r))
                assert relabelled.deck == tuple(c(x) for x in d.deck)


def guided_tree(state: FacadeState, observer: int) -> Tree:
    """A tree of the expert's search (GUIDED) for ``observer``."""
    agent = make_agent(f"ismcts:{','.join(f'{k}={v}' for k, v in GUIDED.items())},seed=1")
    assert isinstance(agent, SearchAgent)
    rollout, _ = agent.rollout_policy(state, observer)
    return agent.new_tree(rollout, observer)


@pytest.mark.parametrize("mirror", MIRRORS, ids=lambda m: m.name)
def test_f4_rollouts_and_their_returns_are_mirrors(mirror: Mirror) -> None:
    """The greedy rollout cut off after ``depth`` moves, the cut-off's squashed margins
    (``Tree.evaluate``, on the observer's scale) and a finished game's blended returns
    (``Tree.with_margin``): each seat's number is its mirror seat's."""
    m = mirror.seat
    for state in POSITIONS[::5]:
        image = mirror.of(state, mirror_class(mirror))
        seat = state.to_act()[0]
        tree, mirrored_tree = guided_tree(state, seat), guided_tree(image, m(seat))
        for r in range(2):
            d = state.determinize(seat, random.Random(r))
            e = image.determinize(m(seat), random.Random(r))
            tree.rollout(d, random.Random(r))
            mirrored_tree.rollout(e, random.Random(r))
            assert e.history == [(m(s), mirror.action(a)) for s, a in d.history]
            if d.is_terminal():
                rewards = tree.with_margin(d, d.utilities())
                mirrored = mirrored_tree.with_margin(e, e.utilities())
            else:
                rewards, mirrored = tree.evaluate(d), mirrored_tree.evaluate(e)
            assert mirrored == [rewards[m(s)] for s in range(2)]
        assert (mirrored_tree.cut_sum, mirrored_tree.margin_sum) == (tree.cut_sum, tree.margin_sum)


def root_view(mirror: Mirror, hint: Any) -> tuple[str, dict[str, float], dict[str, int]]:
    """A hint's move, mean rewards and visits by action text, as the mirror writes them."""
    return (
        mirror.text(hint.text),
        {mirror.text(a): v for a, v in hint.values.items()},
        {mirror.text(a): v for a, v in hint.visits.items()},
    )


def expert_differences(
    mirror: Mirror, states: list[FacadeState], cls: type[FacadeState] = FacadeState
) -> list[str]:
    """Where the expert (same seed) does not decide the mirror as the position: the root's
    move, mean reward per move and visits per move, compared exactly."""
    found = []
    for i, state in enumerate(states):
        image = mirror.of(state, mirror_class(mirror, cls))
        seat = state.to_act()[0]
        hint = ExpertAgent(seed=i).hint(state, seat)
        mirrored = ExpertAgent(seed=i).hint(image, mirror.seat(seat))
        if root_view(mirror, hint) != root_view(SEATS, mirrored):
            found.append(f"position {i} (phase {state.phase}, p{seat + 1}): {hint} vs {mirrored}")
    return found


@pytest.mark.parametrize("mirror", MIRRORS, ids=lambda m: m.name)
def test_f4_expert_mirror_root_statistics_are_the_same(mirror: Mirror) -> None:
    """The expert's search (ISMCTS, GUIDED, 192 iterations, a race at the root) at a position
    and at its mirror, from the same seed: the same move, visits and mean rewards."""
    assert expert_differences(mirror, POSITIONS[::6]) == []


def mirrored_game(mirror: Mirror, deal: int, iters: int) -> tuple[FacadeState, FacadeState]:
    """An all-expert game of two and the game of its mirrored deal, each expert in the
    mirror's seat of its own (so each keeps its seed and its house suit)."""
    state = FacadeState.new(2, {}, seed=deal)
    image = mirror.of(state, mirror_class(mirror))
    seeds = [10 * deal + 1, 10 * deal + 2]
    play_game(state, [ExpertAgent(seed=s, iters=iters) for s in seeds], False)
    play_game(
        image, [ExpertAgent(seed=seeds[mirror.seat(t)], iters=iters) for t in range(2)], False
    )
    return state, image


@pytest.mark.parametrize("mirror", [SEATS, BOTH], ids=lambda m: m.name)
def test_f4_expert_mirror_games_are_the_same_game(mirror: Mirror) -> None:
    """A whole all-expert game (positions only experts reach) against its mirror: move for
    move, and the same player wins. With seats and suits both swapped, the mirror is a
    default game (HC) again: this is the symmetry a fair table needs."""
    state, image = mirrored_game(mirror, 1, 96)
    assert image.history == [(mirror.seat(s), mirror.action(a)) for s, a in state.history]
    assert image.scores() == [state.scores()[mirror.seat(t)] for t in range(2)]


# ---------------------------------------------------------------- the check can fail


class SeatCounted(FacadeState):
    """A planted seat rule: p1's determinizations draw once more from the random source (an
    RNG use whose count depends on the seat number)."""

    __module__ = "decklab.games.facade.state"

    def determinize(self, seat: int, rng: random.Random) -> Self:
        if seat == 0:
            rng.random()
        return cast(Self, super().determinize(seat, rng))


class SeatOrdered(FacadeState):
    """A planted seat rule: p2's moves are listed in reverse, so ties between equally rated
    moves are kept in an order that depends on the seat number."""

    __module__ = "decklab.games.facade.state"

    def legal_actions(self, seat: int) -> list[int]:
        legal = super().legal_actions(seat)
        return legal[::-1] if seat == 1 else legal


@pytest.mark.parametrize("planted", [SeatCounted, SeatOrdered])
def test_f4_expert_mirror_check_catches_a_planted_seat_rule(planted: type[FacadeState]) -> None:
    states = positions(range(1), 4, planted)
    assert expert_differences(SEATS, states, planted), "the mirror check missed a seat rule"
