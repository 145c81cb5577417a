"""The story of a game: what happened, in sentences a person reads, as one seat may know it.

Every interface (the terminal table, the line mode, the web server and the
browser) needs the same three things beyond the table itself, and none of them
may name a game:

- :func:`narrate` — the sentences that tell what happened between two
  consecutive states (one action and the chance it caused): the action, and
  what it revealed (bids turned up, a round resolved, a game's end, a card
  drawn or sunk). A game whose consequences need telling can also mark a
  moment worth stopping at (:func:`summary`: the end of a game within a match).
- :func:`score_breakdown` — each seat's score taken apart into labelled rows,
  JSON-ready, for an end-of-game screen.
- :func:`explain_hint` — a hint's reason in the player's own terms ("keeps your
  9H for the hearts sequence; expected +1.4 points over the next best"), with
  the search figures kept apart for whoever asks for them. A hint that carries
  its own ``explanation`` (``decklab.bots.explain``, from the game's ``hints.py``)
  is told in those words.

A game provides its part in ``decklab.games.<package>.story`` (found from where
its state class is defined, the way ``greedy.py`` and ``layout.py`` are found),
with any of these functions:

``narrate(moment: Moment) -> list[str]``
    sentences that follow the action's own sentence;
``summary(moment: Moment) -> list[str] | None``
    the lines of a summary screen when ``moment`` ends a stage worth pausing at;
``score_rows(view: dict) -> dict[str, list[tuple[str, float]]]``
    per seat name, (label, points) rows that add up to the seat's score;
``explain_action(view: dict, action: str) -> str | None``
    why a move is good, in the player's terms, from what the seat sees.

**The hooks see only views.** A :class:`Moment` holds ``view(viewer)`` before
and after, the history lines in between as ``viewer`` may read them
(``redact_history_entry``), and the engine's public sentence for the action
(``describe_action``, which games write to be public). So a story can never
tell a card the viewer cannot see: whatever it says follows from what the
viewer's own view already shows. The generic tests check it differentially
(two states differing only in hidden cards narrate identically).

Sentences write cards in K1 notation (``KH``); an interface may draw them with
symbols. Viewers are as everywhere: a seat, ``None`` for a spectator, ``ALL``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from decklab.engine.gamecode import game_function
from decklab.engine.state import ALL, CHANCE, GameState, Viewer, seat_name


class Hint(Protocol):
    """What :func:`explain_hint` reads of a bot's hint (``decklab.bots.base.Hint``);
    a protocol, so that the engine does not depend on the bots layer."""

    @property
    def text(self) -> str: ...
    @property
    def reason(self) -> str: ...
    @property
    def values(self) -> dict[str, float]: ...
    @property
    def visits(self) -> dict[str, int]: ...
    @property
    def policy(self) -> dict[str, float]: ...


@dataclass(frozen=True)
class Move:
    """One history line as the viewer may read it: ``actor`` is ``p1``… or ``chance``."""

    actor: str
    text: str


@dataclass(frozen=True)
class Moment:
    """What a story hook is given: the viewer's views around one action, and nothing else."""

    before: dict[str, Any]
    after: dict[str, Any]
    moves: tuple[Move, ...]
    """The action's line first, then the chance lines it drew (redacted for the viewer)."""
    said: str
    """The engine's public sentence for the action (``describe_action``)."""
    viewer: str | None
    """``p1``…, ``None`` for a spectator, ``"all"`` for the analyst's view."""

    @property
    def actor(self) -> str:
        return self.moves[0].actor if self.moves else ""

    @property
    def action(self) -> str:
        return self.moves[0].text if self.moves else ""


def _hook(cls: type[GameState], function: str) -> Callable[..., Any] | None:
    """``decklab.games.<package>.story.<function>`` for the game of ``cls``, or None."""
    return game_function(cls, "story", function)


def _viewer_name(viewer: Viewer) -> str | None:
    if viewer is None:
        return None
    return "all" if viewer == ALL else seat_name(viewer)


ViewOf = Callable[[GameState, Viewer], dict[str, Any]]
"""How a caller that already holds views hands them over: ``view_of(state, viewer)``
must equal ``state.view(viewer)`` (the server keeps each state's views, made once)."""


def _own_view(state: GameState, viewer: Viewer) -> dict[str, Any]:
    return state.view(viewer)


def moment(
    before: GameState, after: GameState, viewer: Viewer, view_of: ViewOf = _own_view
) -> Moment:
    """The :class:`Moment` between ``before`` and ``after`` (``after`` = ``before`` plus
    one action and the chance it drew), as ``viewer`` may know it. ``view_of`` gives
    the views (by default made afresh); hooks only read them."""
    start = len(before.history)
    new = after.history[start:]
    moves = []
    said = ""
    for offset, (actor, action) in enumerate(new):
        index = start + offset
        if actor == CHANCE:
            text = str(action)
        else:
            text = before.action_to_string(actor, action) if offset == 0 else str(action)
            if offset == 0:
                said = before.describe_action(actor, action)
        if viewer != ALL:
            text = after.redact_history_entry(index, actor, text, viewer)
        moves.append(Move(seat_name(actor), text))
    return Moment(
        view_of(before, viewer), view_of(after, viewer), tuple(moves), said, _viewer_name(viewer)
    )


def narrate(
    before: GameState, after: GameState, viewer: Viewer, view_of: ViewOf = _own_view
) -> list[str]:
    """The sentences that tell ``viewer`` what happened from ``before`` to ``after``
    (``view_of``: as for :func:`moment`)."""
    m = moment(before, after, viewer, view_of)
    lines = [m.said] if m.said else []
    hook = _hook(type(after), "narrate")
    if hook is not None:
        lines.extend(hook(m))
    elif after.is_terminal() and not before.is_terminal():
        lines.append(final_scores_sentence(after))
    return lines


def summary(before: GameState, after: GameState, viewer: Viewer) -> list[str] | None:
    """The lines of a summary screen if ``after`` ends a stage worth pausing at, else None."""
    hook = _hook(type(after), "summary")
    if hook is None:
        return None
    found = hook(moment(before, after, viewer))
    return list(found) if found else None


def final_scores_sentence(state: GameState) -> str:
    result = state.result()
    scores = ", ".join(f"{k} {v:g}" for k, v in result["scores"].items())
    winners = " and ".join(result["winners"]) or "nobody"
    return f"The game is over. Scores: {scores}. {winners} {'wins' if len(result['winners']) == 1 else 'win'}."


# ---------------------------------------------------------------- scores
def score_breakdown(
    state: GameState, viewer: Viewer, view: dict[str, Any] | None = None
) -> dict[str, Any]:
    """Each seat's score in labelled rows, JSON-ready::

        {"unit": "points", "lower_is_better": false,
         "seats": {"p1": {"rows": [{"label": "g1 4H 5H 6H: house sequence", "points": 3}],
                          "total": 3}}}

    Rows come from the game's ``score_rows(view)`` (from ``viewer``'s view only);
    a game without one gets one row per seat, its score. ``view``, when the caller
    holds it already, is ``state.view(viewer)``.
    """
    if view is None:
        view = state.view(viewer)
    scores = state.result()["scores"]
    hook = _hook(type(state), "score_rows")
    rows: Mapping[str, list[tuple[str, float]]] = hook(view) if hook is not None else {}
    seats: dict[str, Any] = {}
    for name, total in scores.items():
        mine = rows.get(name) or [("score", total)]
        seats[name] = {
            "rows": [{"label": label, "points": _plain(points)} for label, points in mine],
            "total": total,
        }
    return {
        "unit": state.info.score_unit,
        "lower_is_better": state.info.lower_is_better,
        "seats": seats,
    }


def breakdown_lines(breakdown: Mapping[str, Any]) -> list[str]:
    """The breakdown as lines of text, for a log or the line mode."""
    out = []
    unit = breakdown["unit"]
    for name, seat in breakdown["seats"].items():
        out.append(f"{name}: {seat['total']:g} {unit}")
        for row in seat["rows"]:
            out.append(f"   {row['points']:+g}  {row['label']}")
    return out


def solo_result(score: float, unit: str, deal: int | None, best: float | None) -> str:
    """A solo game's result as one sentence: ``17 squid points — deal 42; your best on
    this deal: 12``."""
    text = f"{score:g} {unit}"
    if deal is not None:
        text += f" — deal {deal}"
    if best is not None:
        text += f"; your best on this deal: {best:g}"
    return text


def _plain(value: float) -> float:
    return int(value) if float(value).is_integer() else value


# ----------------------------------------------------------------- hints
@dataclass(frozen=True)
class HintText:
    """A hint for a person: ``sentence`` in their terms, ``figures`` the search's own words."""

    action: str
    sentence: str
    figures: str


def explain_hint(state: GameState, seat: int, hint: Hint) -> HintText:
    """Turn a bot's hint (:class:`~decklab.bots.base.Hint`) into words for the player at ``seat``.

    The game's ``explain_action(view, action)`` says why, from the seat's view; the
    figures the bot compared say by how much: in the game's units when the bot
    rated moves in them (a game's own expert or the lookahead), as a share of
    sampled games won when a search rated them by reward.
    """
    explained = str(getattr(hint, "explanation", "") or "")
    if explained:  # the bot's own explanation (decklab.bots.explain): the game's words, runner-up
        return HintText(hint.text, explained, _figures(hint))
    view = state.view(seat)
    parts = []
    hook = _hook(type(state), "explain_action")
    if hook is not None:
        why = hook(view, hint.text)
        if why:
            parts.append(why)
    margin = _margin(state, hint)
    if margin:
        parts.append(margin)
    sentence = "; ".join(parts) if parts else hint.reason
    return HintText(hint.text, sentence, hint.reason)


def _figures(hint: Hint) -> str:
    """The bot's own figures, and the runner-up's difference in plain numbers."""
    runner = str(getattr(hint, "runner_up", "") or "")
    margin = getattr(hint, "margin", None)
    if not runner or not isinstance(margin, float | int):
        return hint.reason
    unit = str(getattr(hint, "unit", "") or "")
    by = f"{margin:+.2f} {unit}" if unit else f"{margin:+.1%} of sampled games won"
    return f"{hint.reason}. Next best: {runner} ({by})"


def _margin(state: GameState, hint: Hint) -> str:
    values = hint.values
    if len(values) < 2 or hint.text not in values:
        return ""
    best = values[hint.text]
    others = [v for k, v in values.items() if k != hint.text]
    if hint.policy and hint.text in hint.policy:
        share = hint.policy[hint.text]
        return f"a mixed strategy in a round played at once: drawn with probability {share:.0%}"
    if hint.visits:
        # Search means are rewards in [0, 1]: the share of sampled games won.
        runner = max(others)
        return f"wins {best:.0%} of the sampled games, against {runner:.0%} for the next best"
    # Values in the game's units; the hinted move is the best in whichever direction
    # the bot counted (fewer squid points, more points), so the margin is the gap to
    # the nearest other move on that side.
    unit = state.info.score_unit
    if best >= max(others):
        return f"expected {best - max(others):+.1f} {unit} over the next best"
    fewer = min(others) - best
    return f"expected {fewer:.1f} {unit} fewer than the next best"
