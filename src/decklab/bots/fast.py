"""The ``fast`` agent: a cheap lookahead with the same beliefs as search, for volume.

The design lab needs thousands of games by players better than ``greedy``, and
``expert`` (ISMCTS at 192 iterations, or the Cabin's sampled-deal solver) costs
seconds a game. ``fast`` spends about a twentieth of that:

1. the game's own ranking (``action_values``) keeps its ``topk`` best moves, or
   every legal move where the game ranks none (the greedy move first);
2. each candidate is played on the *same* ``dets`` deals sampled from what the
   seat may know (``state.determinize``), each followed by the *same* random
   stream (common random numbers), so that the luck of the deal cancels out of
   the comparison as in the expert's sequential halving;
3. after the candidate, every seat plays the game's greedy move for ``depth``
   moves (to the end in a one-seat game), and the position is judged by the
   seat's score margin over the best other seat, from the game's
   ``expected_scores`` where it has one, squashed on the scale of the margins
   seen in this decision; a finished game counts its win share too.

The best mean wins; a tie keeps the move the game's own ranking prefers. In a
simultaneous round the other seats still to choose are asked for their greedy
choice before the candidate is applied, so that the model of them never reads
the seat's own choice. With ``plan=2`` the seat's own next decision inside each
rollout is not greedy's but the best of its candidates (a plan of two moves).

A game may say more in ``games/<name>/fast.py``: ``settings(players)``, other
values of these parameters for a table size (those given in the spec win); and
``action_values(state, seat, rng, samples)``, a judge of its own, asked instead
of the rollouts on a sampled deal, as a game's ``expert.action_values`` is where
there is one (the Cabin) on ``samples`` deals. Nothing here names a game: the
knowledge comes from the game's folder through :func:`game_function`, and the
agent only ever hands it determinizations, never the true state.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass, fields, replace
from typing import Any, Final, cast

from decklab.bots.base import SEED, Agent, Hint, Param, make_rng, parse_params
from decklab.bots.explain import explained
from decklab.bots.greedy import GreedyAgent, best_first, game_estimate, game_greedy, game_values
from decklab.bots.registry import register_agent
from decklab.bots.search import Tree, squash
from decklab.bots.streams import SeededOnUse
from decklab.engine.gamecode import game_function
from decklab.engine.state import GameState, seat_name

SettingsFn = Callable[[int], dict[str, object]]
"""``settings(players) -> {param: value}``: a game's own settings for ``fast`` at a table size."""


def game_settings(cls: type[GameState], players: int) -> dict[str, object]:
    """The game's own ``settings(players)`` from ``games/<name>/fast.py``, or none.

    One configuration does not suit every game: where a game's measurements favour
    other values of the generic parameters (fewer deals where the rollouts are
    costly, a two-move plan where one move cannot see a trap), its folder says so,
    and no game is named here. A parameter given in the agent's spec wins.
    """
    fn = cast(SettingsFn | None, game_function(cls, "fast", "settings"))
    return dict(fn(players)) if fn is not None else {}


def game_judge(cls: type[GameState]) -> Callable[..., object] | None:
    """``action_values(state, seat, rng, samples)`` from the game's ``fast`` module, else
    from its ``expert`` module, else None."""
    own = game_function(cls, "fast", "action_values")
    return own or game_function(cls, "expert", "action_values")


WIN_WEIGHT: Final = 0.3
"""Share of a finished game's value that is its win share (the rest is the squashed margin),
as the expert's ``margin=0.7``: a safe win is told from a narrow one."""


@dataclass(frozen=True)
class FastSettings:
    """The agent's parameters (the spec's, described in ``_PARAMS``), with their defaults.

    One record, so that a game's own settings and the spec's are laid over the defaults
    in one step, and the spec's schema takes its defaults from here.
    """

    dets: int = 4
    topk: int = 3
    depth: int = 4
    samples: int = 1
    z: float = 0.0
    value: str = "squashed"
    plan: int = 1


DEFAULT: Final = FastSettings()
_NAMES: Final = frozenset(f.name for f in fields(FastSettings))


class FastAgent(Agent):
    """A few candidate moves, a few shared sampled deals, short greedy rollouts."""

    name = "fast"

    def __init__(self, seed: int | None = None, **given: Any) -> None:
        """``given``: the parameters the spec names (:class:`FastSettings`' fields); they win
        over a game's own settings, the defaults fill the rest."""
        self.rng = make_rng(seed)
        self.given: Final = dict(given)
        self.settings = FastSettings(**given)
        """The parameters in use: ``given``, then the game's own at this table size, then
        the defaults (see :meth:`_tune`)."""
        self.fallback = GreedyAgent(seed)
        self._tuned_for: tuple[type[GameState], int] | None = None

    def _tune(self, state: GameState) -> None:
        """Take the game's own settings (``games/<name>/fast.py``: ``settings(players)``)
        for every parameter not given explicitly; the defaults for the rest."""
        key = (type(state), state.num_players)
        if key == self._tuned_for:
            return
        self._tuned_for = key
        own = game_settings(type(state), state.num_players)
        known = {name: value for name, value in own.items() if name in _NAMES}  # others: ignored
        self.settings = replace(DEFAULT, **{**known, **self.given})

    def reseed(self, seed: int) -> None:
        self.rng.seed(seed)
        self.fallback.reseed(seed)

    def choose(self, state: GameState, seat: int) -> int:
        """The move alone: the same as :meth:`hint`'s, without the words (cheaper)."""
        legal = list(state.legal_actions(seat))
        if len(legal) == 1:
            return legal[0]
        return self._decide(state, seat, legal)[0]

    def candidates(
        self, sample: GameState, seat: int, legal: list[int], rng: random.Random | None = None
    ) -> list[int]:
        """The moves worth a look, best first by the game's own ranking (or greedy's move first)."""
        rng = self.rng if rng is None else rng
        values_fn = game_values(type(sample))
        if values_fn is not None:
            ranked = values_fn(sample, seat, rng)
            order = best_first(sample, seat, legal, lambda a: ranked.get(a, -math.inf))
            return order[: self.settings.topk] if self.settings.topk else order
        greedy = game_greedy(type(sample))
        assert greedy is not None
        first = greedy(sample, seat, rng)
        return [first, *(a for a in legal if a != first)]

    def hint(self, state: GameState, seat: int) -> Hint:
        legal = list(state.legal_actions(seat))
        if not legal:
            raise ValueError(f"{seat_name(seat)} has nothing to do now")
        if len(legal) == 1:
            only = legal[0]
            return Hint(only, state.action_to_string(seat, only), "the only legal action")
        action, moves, values, said = self._decide(state, seat, legal, words=True)
        if said is not None:  # greedy chose
            return said
        if len(moves) == 1 and values:  # the game's own judge chose
            return self._expert_hint(state, seat, action, values)
        text = {a: state.action_to_string(seat, a) for a in moves}
        if len(moves) == 1:  # the ranking kept one
            return Hint(moves[0], text[moves[0]], "the only move the game's ranking keeps")
        settings = self.settings
        solo = state.num_players == 1
        depth = 0 if solo else settings.depth
        sign = -1.0 if state.info.lower_is_better else 1.0
        unit = state.info.score_unit
        if solo:
            what = f"expected {sign * values[action]:.2f} {unit}"
        else:
            what = f"value {values[action]:.2f} (0–1)"
        reason = (
            f"fast: {len(moves)} candidate moves, each played on the same {settings.dets} sampled "
            f"deals followed by "
            + ("greedy play to the end" if not depth else f"{depth} greedy moves")
            + (" (its own next move planned too)" if settings.plan > 1 else "")
            + f"; {text[action]} came out best ({what})"
        )
        hint = Hint(action, text[action], reason, values={text[a]: values[a] for a in moves})
        # values: the score alone (negated where lower is better), the plain margin, or
        # the squashed margin in [0, 1] (said, like a search's rewards, as games won)
        in_units = solo or settings.value == "margin"
        return explained(state, seat, hint, unit=unit if in_units else "", lower_is_better=False)

    def _decide(
        self, state: GameState, seat: int, legal: list[int], words: bool = False
    ) -> tuple[int, list[int], dict[int, float], Hint | None]:
        """The move, the candidates and their values (the game's judge: one candidate
        and that judge's values); where greedy chose instead, its hint (with ``words``)."""
        self._tune(state)
        expert = game_judge(type(state))
        if expert is not None:
            action, raw = self._ask_expert(state, seat, legal, expert, words)
            if isinstance(action, Hint):
                return action.action, [], {}, action
            return action, [action], raw, None
        greedy = game_greedy(type(state))
        if greedy is None:
            if words:
                said = self.fallback.hint(state, seat)
                return said.action, [], {}, said
            return self.fallback.choose(state, seat), [], {}, None
        rng = self.rng
        first = state.determinize(seat, rng)
        moves = self.candidates(first, seat, legal)
        if len(moves) == 1:
            return moves[0], moves, {}, None
        solo = state.num_players == 1
        depth = 0 if solo else self.settings.depth
        plans = self.settings.plan - 1
        estimate = game_estimate(type(state))
        sign = -1.0 if state.info.lower_is_better else 1.0
        margins: dict[int, list[float]] = {a: [] for a in moves}
        wins: dict[int, list[float]] = {a: [] for a in moves}
        for i in range(self.settings.dets):
            sample = first if i == 0 else state.determinize(seat, rng)
            stream = rng.getrandbits(64)
            others = self._committed_others(sample, seat, stream, greedy)
            for action in moves:
                trial = sample.clone()
                local = SeededOnUse(stream)
                trial.apply(seat, action)
                for other, choice in others:
                    if other in trial.to_act() and choice in trial.legal_actions(other):
                        trial.apply(other, choice)
                margin, win = self._roll(
                    trial, seat, local, greedy, depth or -1, plans, estimate, sign, solo
                )
                margins[action].append(margin)
                wins[action].append(win)
        per = self._per_deal(moves, margins, wins, solo)
        values = {a: math.fsum(per[a]) / len(per[a]) for a in moves}
        return self.pick(moves, per), moves, values, None

    def _roll(
        self,
        trial: GameState,
        seat: int,
        local: random.Random,
        greedy: Callable[[GameState, int, random.Random], int],
        left: int,
        plans: int,
        estimate: Callable[[GameState], list[float]] | None,
        sign: float,
        solo: bool,
    ) -> tuple[float, float]:
        """Greedy play for ``left`` moves (-1: to the end), then (margin, win share or -1).

        With ``plans`` left, the seat's own next decision in the rollout is not
        greedy's but the best of its candidates, each played on (a clone of) the
        same rollout with the same random stream: a plan of two own moves, such
        as stepping aside one round to spoil the others' arrangement the next,
        which one greedy move after the candidate cannot find. The best is the
        highest margin (then the win share).
        """
        while left:
            acting = trial.to_act()
            if not acting:
                break
            if plans > 0 and seat in acting:
                legal = list(trial.legal_actions(seat))
                if len(legal) > 1:
                    seed = local.getrandbits(64)
                    best: tuple[float, float] | None = None
                    for move in self.candidates(trial, seat, legal, SeededOnUse(seed)):
                        branch = trial.clone()
                        branch.apply(seat, move)
                        got = self._roll(
                            branch,
                            seat,
                            SeededOnUse(seed),
                            greedy,
                            left - 1 if left > 0 else -1,
                            plans - 1,
                            estimate,
                            sign,
                            solo,
                        )
                        if best is None or got > best:
                            best = got
                    assert best is not None
                    return best
            mover = acting[0]
            trial.apply(mover, greedy(trial, mover, local))
            left -= 1
        finished = not trial.to_act()
        if solo:
            scores = trial.scores() if finished or estimate is None else estimate(trial)
            return sign * float(scores[seat]), 0.0
        guess = None if finished or estimate is None else estimate(trial)
        return Tree.margins(trial, guess)[seat], (trial.utilities()[seat] if finished else -1.0)

    def _ask_expert(
        self,
        state: GameState,
        seat: int,
        legal: list[int],
        expert: Callable[..., object],
        words: bool,
    ) -> tuple[int | Hint, dict[int, float]]:
        """The game's own judge, on ``samples`` sampled deals instead of its default many.

        A game that ships an expert (``games/<name>/expert.py``) knows how to judge
        a move on a sampled deal better than a greedy rollout does; its cost is
        the number of deals, so fewer deals make it cheap. A game may ship a
        cheaper judge for ``fast`` alone (``games/<name>/fast.py``, the same
        ``action_values``). An empty answer: greedy's move (its hint, with ``words``).
        """
        sample = state.determinize(seat, self.rng)
        raw = cast("dict[int, float]", expert(sample, seat, self.rng, self.settings.samples))
        if not raw:
            return (
                self.fallback.hint(state, seat) if words else self.fallback.choose(state, seat)
            ), {}
        sign = 1.0 if state.info.lower_is_better else -1.0
        return min(raw, key=lambda a: (sign * raw[a], legal.index(a))), raw

    def _expert_hint(self, state: GameState, seat: int, action: int, raw: dict[int, float]) -> Hint:
        """The words for a move the game's own judge chose."""
        text = state.action_to_string(seat, action)
        samples = self.settings.samples
        reason = (
            f"fast: {state.info.title}'s own judge on {samples} sampled "
            f"deal{'s' if samples > 1 else ''} ({raw[action]:.2f} "
            f"{state.info.score_unit} expected)"
        )
        values = {state.action_to_string(seat, a): float(v) for a, v in raw.items()}
        hint = Hint(action, text, reason, values=values)
        return explained(state, seat, hint, lower_is_better=state.info.lower_is_better)

    def _committed_others(
        self,
        sample: GameState,
        seat: int,
        stream: int,
        greedy: object,
    ) -> list[tuple[int, int]]:
        """In a simultaneous round: the other seats' greedy choices, asked before the seat's.

        Asked on the sample as it is, so that the model of the others never sees
        the candidate; the same for every candidate (common random numbers).
        """
        waiting = [s for s in sample.to_act() if s != seat]
        if not waiting or not (len(sample.to_act()) > 1 or sample.info.simultaneous):
            return []
        assert callable(greedy)
        local = SeededOnUse(stream ^ 0x5DEECE66D)
        return [(s, int(greedy(sample, s, local))) for s in waiting if sample.legal_actions(s)]

    def _per_deal(
        self,
        moves: list[int],
        margins: dict[int, list[float]],
        wins: dict[int, list[float]],
        solo: bool,
    ) -> dict[int, list[float]]:
        """Each candidate's value on each sampled deal: the score alone, else a squashed margin.

        Several seats: the margin through ``tanh`` on the mean absolute margin of
        this decision's samples (so no game's unit is named), in [0, 1], blended
        with the win share where the game ended; or the plain margin (``value=margin``).
        """
        if solo:
            return margins
        if self.settings.value == "margin":
            return margins
        seen = [abs(m) for a in moves for m in margins[a]]
        scale = math.fsum(seen) / len(seen) or 1.0
        out: dict[int, list[float]] = {}
        for a in moves:
            row = []
            for m, w in zip(margins[a], wins[a], strict=True):
                squashed = squash(m, scale)
                row.append(squashed if w < 0.0 else WIN_WEIGHT * w + (1.0 - WIN_WEIGHT) * squashed)
            out[a] = row
        return out

    def pick(self, moves: list[int], per: dict[int, list[float]]) -> int:
        """The best mean, but the game's favourite unless another beats it with evidence.

        A move replaces the favourite (``moves[0]``) only if its mean paired
        difference over the shared deals exceeds ``z`` standard errors: with a
        handful of deals, most differences are the luck of the deal, and the
        game's own ranking is the better guess then.
        """
        top = moves[0]
        best, best_mean = top, math.fsum(per[top]) / len(per[top])
        n = len(per[top])
        for a in moves[1:]:
            diffs = [x - y for x, y in zip(per[a], per[top], strict=True)]
            mean = math.fsum(diffs) / n
            if n > 1 and self.settings.z > 0.0:
                var = math.fsum((d - mean) ** 2 for d in diffs) / (n - 1)
                if mean <= self.settings.z * math.sqrt(var / n):
                    continue
            elif mean <= 0.0:
                continue
            total = mean + math.fsum(per[top]) / n
            if total > best_mean:
                best, best_mean = a, total
        return best


_PARAMS: Final = (
    SEED,
    Param(
        "dets",
        int,
        DEFAULT.dets,
        "sampled deals per decision, shared by every candidate",
        minimum=1,
    ),
    Param(
        "topk",
        int,
        DEFAULT.topk,
        "candidate moves: the game's top k by its own ranking (0: all)",
        minimum=0,
    ),
    Param(
        "depth",
        int,
        DEFAULT.depth,
        "greedy moves after each candidate before the position is judged (0: to the end)",
        minimum=0,
    ),
    Param(
        "samples",
        int,
        DEFAULT.samples,
        "where the game ships an expert of its own: the sampled deals it judges on",
        minimum=1,
    ),
    Param(
        "z",
        float,
        DEFAULT.z,
        "a move replaces the game's favourite only if better by this many standard errors",
        minimum=0.0,
    ),
    Param(
        "value",
        str,
        DEFAULT.value,
        "how a position is judged: the squashed score margin (with the win share), or the margin",
        choices=("squashed", "margin"),
    ),
    Param(
        "plan",
        int,
        DEFAULT.plan,
        "own moves planned: 2 tries each of its next move's candidates in every rollout too",
        minimum=1,
        maximum=2,
    ),
)


def _make(params: dict[str, str]) -> Agent:
    got = parse_params("fast", params, _PARAMS)
    return FastAgent(got["seed"], **{name: got[name] for name in params if name != "seed"})


register_agent(
    "fast",
    _make,
    "a cheap lookahead for volume: the game's top moves on a few shared sampled deals, "
    "short greedy rollouts",
    params=_PARAMS,
)
