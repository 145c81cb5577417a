"""Beliefs inferred from the others' moves (``bots/beliefs.py``, Lonely Face's ``beliefs.py``).

A uniform determinization deals the opponent any hand its moves leave possible; the
weighted sampler should believe what the moves say (distribution), never contradict
the seat's view (consistency), never read a hidden card (no leak), and change nothing
when off (default).
"""

from __future__ import annotations

import random

from decklab import cards
from decklab.bots.beliefs import BeliefSampler, game_decisions, world_source
from decklab.bots.registry import make_agent
from decklab.games.lonely_face.state import LonelyFaceState
from test_lonely_face import QUIET, build, make_setup, with_cells

HEART_FACES = {"JH", "QH", "KH"}


def after_opponent_move(p2_hand: str, hide_deeper: bool = False) -> LonelyFaceState:
    """p2 moves first on a hearts turn, and plays its greedy move; then it is p1's turn.

    The grid has a king of spades beside hearts: a heart face card in p2's hand would
    have made a face pair (3 points) by a swap, which greedy plays whenever it can. A
    p2 without one flips instead, and that flip says "no heart face card here".
    """
    grid = with_cells(QUIET, b1="KS")
    setup = make_setup(grid, ["AC AD 9S", p2_hand], turn="KH 2C", first=1)
    if hide_deeper:  # p2's first two cards change places with the bottom of the main deck
        hand, deck = setup["hands"][1], setup["main_deck"]
        hand[0], deck[-1] = deck[-1], hand[0]
        hand[1], deck[-2] = deck[-2], hand[1]
        assert not {"JH", "QH", "KH"} & set(hand), "keep the observed move the same"
    state = build(setup)
    greedy = make_agent("greedy:seed=3")
    while state.to_act() == (1,):  # its move, and the pair it then takes if it made one
        state.apply(1, greedy.choose(state, 1))
    assert state.to_act() == (0,)
    return state


def heart_face_share(worlds: list[LonelyFaceState]) -> float:
    """The share of ``worlds`` where p2 holds a heart face card it was not seen to take."""
    hits = 0
    for w in worlds:
        hidden = [c for c in w.hands[1] if c not in w.known[1]]
        hits += any(cards.to_str(c) in HEART_FACES for c in hidden)
    return hits / len(worlds)


def test_lonely_face_has_past_decisions() -> None:
    assert game_decisions(LonelyFaceState) is not None


def test_the_opponent_move_moves_the_belief() -> None:
    """(a) The opponent flipped where a heart face card would have made a face pair:
    uniform sampling gives it one about a quarter of the time; the weighted sampler
    must give it one at most half as often (it is about e^-3 as likely per world)."""
    state = after_opponent_move("TD AS TC")
    uniform = [state.determinize(0, random.Random(i)) for i in range(400)]
    sampler = BeliefSampler(state, 0, 400, random.Random(7))
    drawn = [sampler.draw() for _ in range(400)]
    u = heart_face_share(uniform)
    b = heart_face_share(drawn)
    assert u > 0.15, u  # the test has something to detect
    assert b < 0.5 * u, (u, b)


def test_every_sampled_world_agrees_with_the_view() -> None:
    """(b) Weighted or not, a world shows the seat exactly what it sees."""
    rng = random.Random(1)
    for seed in range(4):
        state = LonelyFaceState.new(2, seed=seed)
        greedy = make_agent("greedy:seed=1")
        while not state.is_terminal() and len(state.history) < 12 + 6 * seed:
            seat = state.to_act()[0]
            state.apply(seat, greedy.choose(state, seat))
        if state.is_terminal():
            continue
        seat = state.to_act()[0]
        sampler = BeliefSampler(state, seat, 24, rng)
        for _ in range(24):
            world = sampler.draw()
            assert world.view(seat) == state.view(seat)
            world.check_invariants()


def test_the_sampler_reads_no_hidden_card() -> None:
    """(c) Two true deals that differ only in p2's hidden cards (both without a heart face
    card, so p2's greedy move is the same flip): the same samples and weights."""
    a = after_opponent_move("TD AS TC")
    b = after_opponent_move("TD AS TC", hide_deeper=True)
    assert a.hands[1] != b.hands[1]
    assert a.view(0) == b.view(0)
    sa = BeliefSampler(a, 0, 60, random.Random(5))
    sb = BeliefSampler(b, 0, 60, random.Random(5))
    assert sa.log_weights == sb.log_weights
    assert [w.hands for w in sa.worlds] == [w.hands for w in sb.worlds]
    assert len(set(sa.log_weights)) > 1  # the weights do differ between worlds


def test_off_by_default_changes_nothing() -> None:
    """(d) ``belief=0`` (the default) draws the very determinizations it always drew, and
    the expert's moves are the same as with the parameter left out."""
    state = after_opponent_move("TD AS TC")
    plain = state.determinize(0, random.Random(9))
    sourced = world_source(state, 0, random.Random(9), 0)()
    assert plain.hands == sourced.hands and plain.deck == sourced.deck
    for spec in ("expert:seed=4,iters=24", "ismcts:seed=4,iters=24,rollout=greedy"):
        base = make_agent(spec).choose(state, 0)
        assert make_agent(spec + ",belief=0").choose(state, 0) == base


def test_beliefs_change_the_search() -> None:
    """The parameter reaches the search: with beliefs on, the worlds differ."""
    state = after_opponent_move("TD AS TC")
    agent = make_agent("ismcts:seed=4,iters=8,belief=16")
    agent.choose(state, 0)  # runs; the weighted source is used and then dropped
    assert getattr(agent, "draw_world", None) is None


def test_a_sample_without_a_deal_keeps_uniform_beliefs() -> None:
    """A state with no known deal (itself a sample) has no history to weigh: every world
    weighs the same, and they are the determinizations the seat would have drawn."""
    sample = after_opponent_move("TD AS TC").determinize(0, random.Random(2))
    assert sample.initial_setup is None
    sampler = BeliefSampler(sample, 0, 8, random.Random(3))
    assert sampler.log_weights == [0.0] * 8
    assert sampler.worlds[0].hands == sample.determinize(0, random.Random(3)).hands


def test_a_drawn_world_gets_a_fresh_future() -> None:
    """From a pool of one world, every draw keeps its hands and gets the decks' unseen
    order anew (else a search would see only K futures)."""
    state = after_opponent_move("TD AS TC")
    sampler = BeliefSampler(state, 0, 1, random.Random(4))
    draws = [sampler.draw() for _ in range(3)]
    assert all(isinstance(d, LonelyFaceState) for d in draws)
    worlds = [d for d in draws if isinstance(d, LonelyFaceState)]
    assert all(w.hands == worlds[0].hands for w in worlds)
    assert len({tuple(w.deck) for w in worlds}) == 3
    assert len({tuple(w.turn_deck) for w in worlds}) == 3
    assert all(w.view(0) == state.view(0) for w in worlds)
