"""Hints that explain (decklab.bots.explain and each game's hints.py): in the game's
words, what the chosen move does and how much better it is than the next best; from
the seat's view only, so never a card the seat cannot see."""

from __future__ import annotations

import json
import random
import re

import pytest

from decklab.bots import make_agent
from decklab.bots.base import Hint
from decklab.bots.explain import explained, runner_up
from decklab.engine import story
from decklab.engine.gamecode import game_function
from decklab.engine.registry import get_game
from decklab.engine.state import GameState

GAMES = [("facade", 2), ("lonely-face", 2), ("cabin", 1), ("corporation", 4), ("notorious", 4)]
SPEC = "expert:seed=5,iters=16,samples=3"
SEARCHES = ["ismcts:seed=5,iters=24", "pimc:seed=5,iters=24,dets=3"]
"""Plain searches a person may ask for hints (``hint_spec`` is any agent): explained alike."""
HINTERS = [SPEC, *SEARCHES]
CASES = [(g, n, spec) for g, n in GAMES for spec in HINTERS]
CASE_IDS = [f"{g}-{spec.split(':')[0]}" for g, _, spec in CASES]
CARD = re.compile(r"\b(?:10|[2-9TJQKA])[CDHS]\b")


def _decisions(game: str, n: int, count: int) -> list[tuple[GameState, int]]:
    cls = get_game(game)
    rng = random.Random(4)
    state = cls.new(n, {}, seed=9)
    found: list[tuple[GameState, int]] = []
    step = 0
    while len(found) < count:
        if state.is_terminal():
            state = cls.new(n, {}, seed=100 + step)
        seat = state.to_act()[0]
        legal = state.legal_actions(seat)
        if len(legal) > 1 and step % 3 == 0:
            found.append((state.clone(), seat))
        state.apply(seat, rng.choice(legal))
        step += 1
    return found


@pytest.mark.parametrize(("game", "n", "spec"), CASES, ids=CASE_IDS)
def test_explanations_name_the_move_and_the_runner_up_difference(
    game: str, n: int, spec: str
) -> None:
    describe = game_function(get_game(game), "hints", "describe")
    assert describe is not None and game_function(get_game(game), "hints", "explain")
    with_runner_up = 0
    for state, seat in _decisions(game, n, 6):
        hint = make_agent(spec).hint(state, seat)
        assert make_agent(spec).choose(state, seat) == hint.action  # playing skips the words
        said = hint.explanation
        assert said and not said.startswith(f"plays {hint.text}"), said  # the game's own words
        # the move's specifics: a card, cell, pile or value of its own notation
        specifics = [w for w in hint.text.split()[1:] if w not in ("up", "down", "new")]
        assert any(w in said for w in specifics), (hint.text, said)
        if hint.runner_up:
            with_runner_up += 1
            phrase = str(describe(state.view(seat), hint.runner_up))
            assert phrase in said, (phrase, said)
            assert hint.margin is not None
            assert re.search(r"\d+(\.\d)? \w|\d+% |as good as|as many", said), said
        # the terminal tells the same words, the figures one step away
        told = story.explain_hint(state, seat, hint)
        assert told.sentence == said and told.figures.startswith(hint.reason)
        if hint.runner_up:
            assert f"Next best: {hint.runner_up} (" in told.figures, told.figures
    assert with_runner_up >= 3


OTHERS = ["greedy:seed=5", "casual:seed=5", "fast:seed=5", "cheat:seed=5,iters=16"]


@pytest.mark.parametrize("spec", OTHERS, ids=[s.split(":")[0] for s in OTHERS])
@pytest.mark.parametrize(("game", "n"), GAMES, ids=[g for g, _ in GAMES])
def test_every_agent_that_gives_hints_explains_them(game: str, n: int, spec: str) -> None:
    """Any agent may be the hint agent (``hint_spec``): each says what its move does in the
    game's words, and the next best where it compared moves (greedy: where the game rates
    its moves); and a hint never changes the move the agent plays."""
    explain = game_function(get_game(game), "hints", "explain")
    assert explain is not None
    for state, seat in _decisions(game, n, 3):
        hint = make_agent(spec).hint(state, seat)
        words = explain(state.view(seat), hint.text, hint.runner_up or None)
        assert words and str(hint.explanation).startswith(str(words)), hint
        if hint.runner_up:
            assert hint.margin is not None and hint.runner_up in [
                state.action_to_string(seat, a) for a in state.legal_actions(seat)
            ]
        assert make_agent(spec).choose(state, seat) == hint.action
        # a hint leaves the agent's later moves as they were
        asked, plain = make_agent(spec), make_agent(spec)
        asked.hint(state, seat)
        plain.choose(state, seat)
        after = state.clone()
        after.apply(seat, hint.action)
        if after.to_act() and not after.is_terminal():
            nxt = after.to_act()[0]
            assert asked.choose(after, nxt) == plain.choose(after, nxt)


@pytest.mark.parametrize(("game", "n", "spec"), CASES, ids=CASE_IDS)
def test_an_explanation_never_names_a_card_the_seat_cannot_see(
    game: str, n: int, spec: str
) -> None:
    """Differential: the true deal and another deal that differs only in the cards this
    seat cannot see give the same explanation (same seed); and every card named is in
    the seat's view."""
    for index, (state, seat) in enumerate(_decisions(game, n, 5)):
        other = state.determinize(seat, random.Random(index))
        assert other.view(seat) == state.view(seat)
        one = make_agent(spec).hint(state, seat)
        two = make_agent(spec).hint(other, seat)
        assert one.explanation and one.explanation == two.explanation
        visible = json.dumps(state.view(seat))
        for card in CARD.findall(one.explanation):
            assert card in visible, (card, one.explanation)


def test_the_cabin_says_why_not_only_the_expected_figure() -> None:
    """The Cabin's reason was generic ("the best expected result on deals sampled…")."""
    for state, seat in _decisions("cabin", 1, 4):
        hint = make_agent(SPEC).hint(state, seat)
        assert "deals sampled" not in hint.explanation
        assert "squid" in hint.explanation or "deep sea" in hint.explanation
        assert "deals sampled" in hint.reason  # the figures stay, one step away


def test_the_runner_up_is_the_next_best_in_the_values_direction() -> None:
    values = {"a": 3.0, "b": 5.0, "c": 4.0}
    assert runner_up(values, "b", lower_is_better=False) == ("c", 1.0)
    assert runner_up(values, "a", lower_is_better=True) == ("c", 1.0)
    assert runner_up({"a": 1.0}, "a", lower_is_better=False) is None
    # a search: the move it looked at most after the chosen one, not an early dropout's lucky mean
    visits = {"a": 10, "b": 10, "c": 2}
    assert runner_up({"a": 0.5, "b": 0.4, "c": 0.9}, "a", False, visits) == (
        "b",
        pytest.approx(0.1),
    )


def test_a_hint_from_a_search_says_sampled_games_and_a_game_unit_otherwise() -> None:
    state = get_game("cabin").new(1, {}, seed=3)
    legal = state.legal_actions(0)
    texts = [state.action_to_string(0, a) for a in legal]
    base = Hint(legal[0], texts[0], "r", values={texts[0]: 3.0, texts[1]: 4.5})
    units = explained(state, 0, base, lower_is_better=True)
    assert "1.5 squid points fewer than" in units.explanation
    assert units.runner_up == texts[1] and units.margin == pytest.approx(1.5)
    search = Hint(legal[0], texts[0], "r", values={texts[0]: 0.6, texts[1]: 0.5})
    shares = explained(state, 0, search, unit="", lower_is_better=False)
    assert "wins 10 more of every 100 sampled games than" in shares.explanation
