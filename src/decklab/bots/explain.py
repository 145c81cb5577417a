"""Hints that explain: what a move keeps or builds, and what the next best move gives instead.

A bot's hint carries the numbers it compared (``Hint.values``, by action text).
This module reads the best other move from them (the *runner-up*) and asks the
game, in its own folder, to say in its own words what the chosen move does:
``decklab.games.<package>.hints`` provides

``explain(view: dict, action: str, alternative: str | None) -> str | None``
    what ``action`` keeps or builds ("keeps 9H for the hearts run");
``describe(view: dict, action: str) -> str``
    a move as a phrase that follows "than" ("taking the 7C pair").

**Both read only the seat's view**, never a state: whatever they say follows from
what the seat already sees, so an explanation cannot tell a hidden card (the
hints tests check it by swapping hidden cards). The difference between the two
moves is said here, generically: in the game's units when the bot rated moves in
them (a game's own expert, a greedy lookahead), else as a share of sampled games.

Every agent that can be asked for a hint (``hint_spec`` in the terminal and the
server is any agent spec) explains its own: it alone knows what its values
mean. The search agents (``ismcts``, ``pimc``, ``cheat``) call
:func:`explained_search` (in ``SearchAgent.hint``, their shared base), ``fast``
and ``greedy`` :func:`explained` with their units, and ``expert`` and the levels
are built from those.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import replace
from typing import Any, cast

from decklab.bots.base import Hint
from decklab.engine.gamecode import game_function
from decklab.engine.state import GameState

ExplainFn = Callable[[dict[str, Any], str, "str | None"], "str | None"]
DescribeFn = Callable[[dict[str, Any], str], str]


def runner_up(
    values: dict[str, float],
    chosen: str,
    lower_is_better: bool,
    visits: dict[str, int] | None = None,
) -> tuple[str, float] | None:
    """The next best move after ``chosen`` and how much better ``chosen`` was rated.

    The difference is positive when ``chosen`` is the better (fewer, where lower is
    better); None when the bot compared no other move. With ``visits`` (a search),
    the runner-up is the other move the search looked at most, ties by value: a move
    dropped early (sequential halving) has a mean over a few deals only, and its
    luck must not make it look better than the move that outlasted it.
    """
    if chosen not in values:
        return None
    sign = -1.0 if lower_is_better else 1.0
    seen = visits or {}
    others = [
        (k, v)
        for k, v in values.items()
        if k != chosen and math.isfinite(v) and (not seen or seen.get(k, 0) > 0)
    ]
    if not others:
        return None
    best_other, value = max(others, key=lambda kv: (seen.get(kv[0], 0), sign * kv[1]))
    return best_other, sign * (values[chosen] - value)


def _difference(diff: float, unit: str, lower_is_better: bool) -> str:
    if not unit:  # rewards in [0, 1]: the share of sampled games won
        if abs(diff) < 0.005:
            return "about as good as"
        # Said as a count in 100: "48% more" read as a relative gain, which it is not.
        more = "more" if diff > 0 else "fewer"
        return f"wins {max(1, round(abs(diff) * 100))} {more} of every 100 sampled games than"
    if abs(diff) < 0.05:
        return f"as many {unit} as"
    if lower_is_better:
        return f"{abs(diff):.1f} {unit} {'fewer' if diff > 0 else 'more'} than"
    return f"{abs(diff):.1f} {unit} {'better' if diff > 0 else 'worse'} than"


def explanation(
    state: GameState,
    seat: int,
    action: str,
    alternative: tuple[str, float] | None,
    *,
    unit: str,
    lower_is_better: bool,
) -> str:
    """The sentence: the game's words for ``action``, then the runner-up's difference."""
    view = state.view(seat)
    explain = cast("ExplainFn | None", game_function(type(state), "hints", "explain"))
    describe = cast("DescribeFn | None", game_function(type(state), "hints", "describe"))
    other = alternative[0] if alternative else None
    parts = []
    why = explain(view, action, other) if explain is not None else None
    parts.append(why or f"plays {action}")
    if alternative is not None:
        phrase = describe(view, other) if describe is not None and other else other
        parts.append(f"{_difference(alternative[1], unit, lower_is_better)} {phrase}")
    return "; ".join(parts)


def explained(
    state: GameState, seat: int, hint: Hint, *, unit: str | None = None, lower_is_better: bool
) -> Hint:
    """``hint`` with its runner-up and explanation filled in from its own values.

    ``unit``: the unit the values are in (the game's ``score_unit`` by default), or
    ``""`` for rewards in [0, 1]; ``lower_is_better``: their direction.
    """
    if unit is None:
        unit = state.info.score_unit
    second = runner_up(hint.values, hint.text, lower_is_better, hint.visits)
    text = explanation(state, seat, hint.text, second, unit=unit, lower_is_better=lower_is_better)
    if hint.policy and hint.text in hint.policy:
        text += (
            f" (in a round played at once it mixes its moves: this one drawn with "
            f"probability {hint.policy[hint.text]:.0%})"
        )
    return replace(
        hint,
        explanation=text,
        runner_up=second[0] if second else "",
        margin=second[1] if second else None,
        unit=unit,
    )


def explained_search(state: GameState, seat: int, hint: Hint) -> Hint:
    """A search agent's hint explained: its values are mean rewards in [0, 1], higher better.

    The runner-up is the other move the search looked at most (its ``visits``), and
    the difference is said as a share of sampled games won.
    """
    return explained(state, seat, hint, unit="", lower_is_better=False)
