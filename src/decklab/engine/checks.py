"""Generic checks every game must pass, written once (ARCHITECTURE.md, 'tests for free').

They use only the game interface, so the test suite runs them over every
registered game and player count; a new game gets them without writing a line.
"""

from __future__ import annotations

import json
import random
from typing import Any

from decklab.engine import records
from decklab.engine.state import ALL, GameState


def canonical(obj: Any) -> str:
    """Byte-stable JSON, the form in which views are compared and sent."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def random_playout(
    state: GameState,
    rng: random.Random,
    check_every: int = 1,
    max_steps: int = 100_000,
) -> int:
    """Play uniformly random legal actions to the end, checking invariants on the way.

    Returns the number of decisions made. Fails if the game does not end.
    """
    steps = 0
    while not state.is_terminal():
        for seat in state.to_act():
            legal = state.legal_actions(seat)
            assert legal, f"seat {seat} must act but has no legal action"
            assert len(set(legal)) == len(legal), "legal actions repeat"
            state.apply(seat, rng.choice(legal))
            steps += 1
            if check_every and steps % check_every == 0:
                state.check_invariants()
            break  # to_act may change after every action
        assert steps < max_steps, "the game did not end"
    state.check_invariants()
    for seat in range(state.num_players):
        assert state.legal_actions(seat) == [], "a terminal state offers actions"
    return steps


def check_record_roundtrip(state: GameState) -> None:
    """play → record → replay gives the identical state, history and result."""
    record = records.make_record(state)
    text = records.dumps(record)
    again, applied = records.replay(json.loads(text))
    assert applied == len(record["actions"]) == len(state.history)  # lines, chance included
    assert canonical(again.view(ALL)) == canonical(state.view(ALL))
    assert again.history == state.history
    assert again.scores() == state.scores()
    assert again.result() == state.result()
    # A seeded record without chance lines or setup rebuilds the same game too.
    if state.seed is not None:
        seeded = {k: v for k, v in record.items() if k not in ("setup",)}
        seeded["seed"] = state.seed
        seeded["actions"] = [a for a in record["actions"] if not a.startswith("chance ")]
        again2, _ = records.replay(seeded)
        assert canonical(again2.view(ALL)) == canonical(state.view(ALL))


def check_no_leak(state: GameState, rng: random.Random, samples: int = 8) -> bool:
    """Each seat's view is byte-identical across states that differ only in what it cannot see.

    The other states come from ``determinize``; the check also asserts that the
    sample is consistent (same view, same legal actions). Returns whether any
    sample changed hidden information (games with hidden information should).
    """
    changed = False
    full = canonical(state.view(ALL))
    for seat in range(state.num_players):
        mine = canonical(state.view(seat))
        legal = state.legal_actions(seat)
        for _ in range(samples):
            other = state.determinize(seat, rng)
            assert canonical(other.view(seat)) == mine, f"p{seat + 1}'s view differs in a sample"
            assert other.legal_actions(seat) == legal, f"p{seat + 1}'s legal actions differ"
            assert other.to_act() == state.to_act()
            other.check_invariants()
            if canonical(other.view(ALL)) != full:
                changed = True
            # The sample is a real state: it can be played on to the end.
            random_playout(other.clone(), rng, check_every=0)
    spectator = canonical(state.view(None))
    for seat in range(state.num_players):
        other = state.determinize(seat, rng)
        assert canonical(other.view(None)) == spectator, "the spectator view leaks a hidden card"
    return changed


def check_illegal_changes_nothing(state: GameState, rng: random.Random) -> None:
    """An illegal action raises with a clear message and leaves the state as it was."""
    from decklab.engine.errors import IllegalAction

    before = canonical(state.view(ALL))
    history = list(state.history)
    acting = state.to_act()
    probes: list[tuple[int, int]] = []
    for seat in range(state.num_players):
        legal = set(state.legal_actions(seat))
        bad = next(a for a in range(10_000) if a not in legal)
        probes.append((seat, bad))
        if seat not in acting and state.legal_actions(acting[0] if acting else seat):
            probes.append((seat, state.legal_actions(acting[0])[0]) if acting else (seat, 0))
    for seat, action in probes:
        if action in state.legal_actions(seat):
            continue
        try:
            state.apply(seat, action)
        except IllegalAction as exc:
            assert f"p{seat + 1}" in str(exc)
        else:
            raise AssertionError(f"illegal action {action} for seat {seat} was accepted")
        assert canonical(state.view(ALL)) == before
        assert state.history == history
    for seat in acting:
        for text in ("", "nonsense words", "play ZZ"):
            try:
                state.parse_action(seat, text)
            except IllegalAction:
                pass
            else:
                raise AssertionError(f"{text!r} parsed as an action")
    assert canonical(state.view(ALL)) == before


def check_action_strings(state: GameState) -> None:
    """Every legal action's string is unique and parses back to the same action."""
    for seat in state.to_act():
        seen: dict[str, int] = {}
        for action in state.legal_actions(seat):
            text = state.action_to_string(seat, action)
            assert text not in seen, f"two actions share the text {text!r}"
            seen[text] = action
            assert state.parse_action(seat, text) == action
            assert state.parse_action(seat, text.upper()) == action


def _card_tokens(obj: Any) -> set[str]:
    from decklab import cards

    text = canonical(obj).replace('"', " ").replace(",", " ").replace("[", " ").replace("]", " ")
    text = text.replace("{", " ").replace("}", " ").replace(":", " ")
    # A view repeats the same few tokens many times: parse each distinct one once.
    return {
        cards.to_str(cards.parse(t))
        for t in set(text.split())
        if len(t) <= 3 and cards.is_card_text(t)
    }


def check_redacted_record(state: GameState) -> None:
    """A seat's copy of the record names no card that the seat has never been shown.

    The cards a seat was shown are collected from its view after every step of the
    game; any other card in its copy of the record would be a leak.
    """
    from collections import deque

    from decklab.engine.state import CHANCE

    assert state.initial_setup is not None
    for seat in [None, *range(state.num_players)]:
        walk = type(state).from_setup(state.num_players, state.options, state.initial_setup)
        walk._forced = deque(text for actor, text in state.history if actor == CHANCE)
        walk._strict_chance = True
        seen = _card_tokens(walk.view(seat))
        for actor, action in state.history:
            if actor == CHANCE:
                continue
            walk.history.append((actor, action))
            walk._apply(actor, action)
            seen |= _card_tokens(walk.view(seat))
        copy = records.make_record(state, viewer=seat, date="-")
        shown = _card_tokens({"setup": copy["setup"], "actions": copy["actions"]})
        leaked = shown - seen
        assert not leaked, f"the record copy for {seat} names unseen cards {sorted(leaked)}"
        assert len(copy["actions"]) == len(state.history)


def check_determinize_depends_only_on_view(state: GameState, seed: int = 0) -> None:
    """``determinize(seat, rng)`` is a function of what the seat may know and of ``rng``.

    Two states that differ only in cards the seat cannot see must give the same
    sample for the same random seed; otherwise a bot seeded the same way would
    behave differently depending on the hidden cards, which is a leak.
    """
    for seat in range(state.num_players):
        other = state.determinize(seat, random.Random(seed + 1000))
        a = state.determinize(seat, random.Random(seed))
        b = other.determinize(seat, random.Random(seed))
        assert canonical(a.view(ALL)) == canonical(b.view(ALL)), (
            f"p{seat + 1}'s determinization depends on cards it cannot see"
        )
        assert a.history == b.history
        assert a.rng.s == b.rng.s
