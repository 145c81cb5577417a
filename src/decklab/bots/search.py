"""The Monte Carlo tree search shared by ``ismcts``, ``pimc`` and ``cheat``.

The three agents differ only in where each iteration's state comes from:

- ``ismcts`` samples a fresh determinization for the observer every iteration
  and grows one tree over all of them (Single-Observer ISMCTS, Cowling, Powley
  & Whitehouse 2012), so a node stands for an information set, not a state;
- ``pimc`` grows one tree per fixed determinization (determinized UCT);
- ``cheat`` grows one tree on the true state.

One tree node holds two kinds of edges:

- *one seat to act*: edges keyed by ``(seat, action)``. Selection is UCB1 over
  the children whose actions are legal in this iteration's state, with the
  *availability* count in place of the parent's visits (a child that is
  seldom legal is not starved of exploration by a parent it rarely shares);
  one untried legal action is expanded per iteration.
- *several seats to act at once* (a simultaneous round): decoupled selection.
  Each acting seat has its own bandit at the node and picks without seeing the
  others' picks; the choices are applied seat by seat; the child is keyed by
  the joint choice. The bandit is regret matching with uniform exploration
  ``gamma`` and importance-weighted (outcome-sampling) regret estimates
  (Lanctot et al. 2013; Lisý et al. 2013). Its *average* strategy is what the
  agent plays at a simultaneous root, sampled, never the argmax: a
  deterministic choice in a simultaneous round can be read and punished.

Chance is no node: it happens inside ``apply`` from the state's seeded source,
which every determinization reseeds, so the tree averages over it.
"""

from __future__ import annotations

import math
import random
import time
from abc import abstractmethod
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar, Final

from mypy_extensions import mypyc_attr

from decklab.bots.base import Agent, Hint, Param
from decklab.bots.explain import explained_search
from decklab.bots.greedy import best_first, game_estimate, game_greedy, game_values
from decklab.engine.state import GameState, seat_name

RolloutPolicy = Callable[[GameState, random.Random], None]
"""Plays a state (in place) to its end."""


class Bandit:
    """Regret matching for one seat at one simultaneous node.

    Regret matching (rather than Exp3) because its average strategy converges to
    equilibrium in two-player zero-sum simultaneous games and, in practice, does
    so faster and with less tuning than Exp3 (Lanctot et al. 2013, Goofspiel).
    The average is *linear* (visit t weighs t), as in linear CFR: the early,
    near-uniform strategies fade, which helps at the small budgets bots play
    with (Corporation, 4 seats, 200 iterations, 160 games each against random
    seats: 35% wins with the linear average, 33% with the plain one, 31% with
    the visit distribution; close to the noise, never worse).
    Actions are slots added as they are first seen legal, so the set may differ
    between determinizations.
    """

    __slots__ = (
        "actions",
        "count",
        "index",
        "regret",
        "reward",
        "strategy_sum",
        "t",
        "total",
        "updates",
    )

    def __init__(self) -> None:
        self.t = 0
        self.total = 0.0
        self.updates = 0
        self.index: dict[int, int] = {}
        self.actions: list[int] = []
        self.regret: list[float] = []
        self.strategy_sum: list[float] = []
        self.reward: list[float] = []
        self.count: list[int] = []

    def _slot(self, action: int) -> int:
        slot = self.index.get(action)
        if slot is None:
            slot = self.index[action] = len(self.actions)
            self.actions.append(action)
            self.regret.append(0.0)
            self.strategy_sum.append(0.0)
            self.reward.append(0.0)
            self.count.append(0)
        return slot

    def favour(self, action: int, regret: float) -> None:
        """Start with ``regret`` on ``action``: regret matching plays it until others earn more."""
        self.regret[self._slot(action)] = regret

    def select(
        self, legal: list[int], gamma: float, rng: random.Random
    ) -> tuple[int, list[int], list[float], list[float]]:
        """Pick among ``legal``: (position in legal, slots, sampling probabilities, strategy)."""
        slots = [self._slot(a) for a in legal]
        regret = self.regret
        positive = [r if r > 0.0 else 0.0 for r in (regret[s] for s in slots)]
        total = sum(positive)
        k = len(slots)
        strategy = [p / total for p in positive] if total > 0.0 else [1.0 / k] * k
        sums = self.strategy_sum
        self.t += 1
        weight = float(self.t)
        for s, p in zip(slots, strategy, strict=True):
            sums[s] += weight * p
        mix = [(1.0 - gamma) * p + gamma / k for p in strategy]
        x = rng.random()
        pick = -1
        acc = 0.0
        for i, p in enumerate(mix):
            if p > 0.0:
                pick = i  # rounding can leave x just above the sum: take the last possible
                acc += p
                if x < acc:
                    break
        return pick, slots, mix, strategy

    def update(
        self,
        slots: list[int],
        pick: int,
        mix: list[float],
        strategy: list[float],
        reward: float,
    ) -> None:
        """Add each slot's sampled regret: its estimated reward minus the strategy's.

        The estimate of an action's reward is its running mean (a baseline) plus,
        for the action taken, the importance-weighted surprise ``(r - mean) / q``.
        It is unbiased like the plain ``r / q`` of outcome sampling, with far less
        variance once the means settle (the control variate of VR-MCCFR,
        Schmid et al. 2019), which matters at a few hundred iterations.
        """
        unseen = self.total / self.updates if self.updates else 0.0
        counts = self.count
        rewards = self.reward
        estimates = [rewards[s] / counts[s] if counts[s] else unseen for s in slots]
        estimates[pick] += (reward - estimates[pick]) / mix[pick]
        value = math.fsum(p * e for p, e in zip(strategy, estimates, strict=True))
        regrets = self.regret
        for s, e in zip(slots, estimates, strict=True):
            regrets[s] += e - value
        chosen = slots[pick]
        rewards[chosen] += reward
        counts[chosen] += 1
        self.updates += 1
        self.total += reward


class Node:
    """A tree node; ``visits``/``total``/``avail`` describe the edge that leads into it."""

    __slots__ = ("allowed", "avail", "bandits", "favoured", "joint", "kids", "total", "visits")

    def __init__(self) -> None:
        self.kids: dict[int, dict[int, Node]] = {}
        self.favoured: dict[int, int] | None = None
        """seat → the prior policy's action here (set on the node's first expansion)."""
        self.allowed: dict[int, frozenset[int]] | None = None
        """seat → the actions the game's own ranking put in its top k here (``topk``)."""
        """seat → action → child (one seat to act)."""
        self.joint: dict[tuple[int, ...], Node] = {}
        """joint choice (seat, action, seat, action, …) → child (simultaneous round)."""
        self.bandits: dict[int, Bandit] = {}
        self.visits = 0
        self.avail = 0
        self.total = 0.0


def follow(kids: dict[int, Node], action: int) -> tuple[Node, bool]:
    """The child for ``action`` and whether it is new (then already counted available once)."""
    child = kids.get(action)
    if child is None:
        child = kids[action] = Node()
        child.avail = 1
        return child, True
    return child, False


def random_rollout(state: GameState, rng: random.Random) -> None:
    """Uniformly random legal actions to the end: cheap, unbiased, and knows no game."""
    rand = rng.random
    while True:
        acting = state.to_act()
        if not acting:
            return
        seat = acting[0]
        legal = state.legal_actions(seat)
        state.apply(seat, legal[int(rand() * len(legal))])


def policy_rollout(choose: Callable[[GameState, int, random.Random], int]) -> RolloutPolicy:
    """A rollout that lets ``choose`` (a game's greedy player) act for every seat."""

    def rollout(state: GameState, rng: random.Random) -> None:
        while True:
            acting = state.to_act()
            if not acting:
                return
            seat = acting[0]
            state.apply(seat, choose(state, seat, rng))

    return rollout


def guided_rollout(
    choose: Callable[[GameState, int, random.Random], int] | None,
    share: float = 0.0,
    first: int = 0,
    depth: int = 0,
) -> RolloutPolicy:
    """``choose`` for the first ``first`` moves, then for a ``share`` of them, else uniform.

    A game's rule-based player is a far better model of the other seats than
    uniform play, but one of its moves costs tens of random ones. ``depth``
    (when not 0) stops the rollout after that many moves, for the tree to
    evaluate the unfinished game by its scores (:meth:`Tree.evaluate`):
    a few good moves and an estimate instead of many poor ones to the end.
    """

    def rollout(state: GameState, rng: random.Random) -> None:
        rand = rng.random
        done = 0
        while True:
            acting = state.to_act()
            if not acting or (depth and done >= depth):
                return
            seat = acting[0]
            if choose is not None and (done < first or (share > 0.0 and rand() < share)):
                state.apply(seat, choose(state, seat, rng))
            else:
                legal = state.legal_actions(seat)
                state.apply(seat, legal[int(rand() * len(legal))])
            done += 1

    return rollout


ChooseFn = Callable[[GameState, int, random.Random], int]
"""A rollout player: the move for a seat in a state."""


def lookahead_player(
    values: Callable[[GameState, int, random.Random], dict[int, float]],
    estimate: Callable[[GameState], list[float]],
    k: int,
) -> ChooseFn:
    """The best of the game's ``k`` best-rated moves, judged one move ahead by its estimate.

    Each candidate (the ``k`` moves ``values`` rates highest) is played on a copy
    and the copy is judged by the game's ``expected_scores``: the seat's estimated
    margin over the best other seat; a tie keeps the better-rated move. Why: the
    searching seat will play its later moves by search, not by the rating alone,
    and a rollout that plays them by the rating alone values its root moves as a
    rule-based player's future would.
    """

    def play(state: GameState, seat: int, rng: random.Random) -> int:
        rated = values(state, seat, rng)
        if len(rated) == 1:
            return next(iter(rated))
        ranked = sorted(rated, key=lambda a: (-rated[a], a))[:k]
        best = ranked[0]
        best_score = -math.inf
        for action in ranked:
            child = state.clone()
            child.apply(seat, action)
            if child.to_act():
                scores = estimate(child)
            else:
                scores = [float(x) for x in child.scores()]
            score = Tree.margins(child, scores)[seat]
            if score > best_score + 1e-9:
                best, best_score = action, score
        return best

    return play


def per_seat(choose: ChooseFn, own: ChooseFn, me: int) -> ChooseFn:
    """``own`` for seat ``me``, ``choose`` for every other seat: a rollout player per seat."""

    def play(state: GameState, seat: int, rng: random.Random) -> int:
        return own(state, seat, rng) if seat == me else choose(state, seat, rng)

    return play


def in_simultaneous_round(state: GameState) -> bool:
    """Whether the seats to act choose at once: several to act, or a game of simultaneous rounds.

    In a game of simultaneous rounds the engine still takes the choices one seat
    at a time, so the last seat to choose finds itself alone to act. It must
    decide the way the others did (a mixed strategy of the decoupled bandits),
    not as a seat alone at a sequential node (UCB or sequential halving and the
    best move): with the others' hidden choices believed to follow the greedy
    model, the sharper one-seat decision gave the last of four expert seats 53%
    of the wins (issue 20).
    """
    return len(state.to_act()) > 1 or state.info.simultaneous


class Tree:
    """One search tree and the iteration that grows it."""

    __slots__ = (
        "bias",
        "c",
        "chosen",
        "cut_seen",
        "cut_sum",
        "estimate",
        "gamma",
        "iterations",
        "margin",
        "margin_seen",
        "margin_sum",
        "model",
        "observer",
        "prior",
        "rng",
        "rollout",
        "root",
        "topk",
        "values",
        "widen",
    )

    def __init__(
        self,
        rng: random.Random,
        c: float,
        gamma: float,
        rollout: RolloutPolicy,
        prior: Callable[[GameState, int, random.Random], int] | None = None,
        bias: float = 0.0,
        margin: float = 0.0,
        widen: float = 0.0,
        observer: int = -1,
        model: float = 0.0,
        topk: int = 0,
        values: Callable[[GameState, int, random.Random], dict[int, float]] | None = None,
        estimate: Callable[[GameState], list[float]] | None = None,
    ) -> None:
        self.root = Node()
        self.chosen: int | None = None
        """The decision when the caller picked it (sequential halving, the race), not the visit counts."""
        self.topk = topk if values is not None else 0
        self.values = values
        self.estimate = estimate
        self.widen = widen
        self.observer = observer
        self.model = model
        self.margin = margin
        self.margin_sum = 0.0
        self.margin_seen = 0
        self.cut_sum = 0.0
        self.cut_seen = 0
        self.rng = rng
        self.c = c
        self.gamma = gamma
        self.rollout = rollout
        self.prior = prior
        self.bias = bias
        self.iterations = 0

    def iterate(self, state: GameState, force: int | None = None) -> None:
        """Select, expand, roll out and back up once, consuming ``state`` (a private copy).

        ``force`` is the observer's action at the root for this iteration, chosen
        by the caller (sequential halving, the race) instead of by UCB.
        """
        rng = self.rng
        c = self.c
        log = math.log
        sqrt = math.sqrt
        node = self.root
        widen = self.widen
        line: list[tuple[Node, int]] = []
        bandit_line: list[tuple[Bandit, int, list[int], list[float], list[float], int]] = []
        while True:
            acting = state.to_act()
            if not acting:
                break
            if len(acting) == 1 and not state.info.simultaneous:
                seat = acting[0]
                kids = node.kids.get(seat)
                if kids is None:
                    kids = node.kids[seat] = {}
                if (
                    seat != self.observer
                    and self.prior is not None
                    and self.model > 0.0
                    and (self.model >= 1.0 or rng.random() < self.model)
                ):
                    # Opponent modelling: this seat plays the prior's move (for this
                    # deal), not a move of its own search.
                    action = self.prior(state, seat, rng)
                    state.apply(seat, action)
                    child, new = follow(kids, action)
                    if not new:
                        child.avail += 1
                    line.append((child, seat))
                    if new:
                        break
                    node = child
                    continue
                legal = state.legal_actions(seat)
                if self.topk:
                    if node.allowed is None:
                        node.allowed = {}
                    allowed = node.allowed.get(seat)
                    if allowed is None:
                        assert self.values is not None
                        ranked = self.values(state, seat, rng)
                        top = best_first(state, seat, list(ranked), ranked.__getitem__)[: self.topk]
                        allowed = node.allowed[seat] = frozenset(top)
                    legal = [a for a in legal if a in allowed] or legal
                if force is not None and node is self.root:
                    for a in legal:
                        known = kids.get(a)
                        if known is not None:
                            known.avail += 1
                    state.apply(seat, force)
                    child, new = follow(kids, force)
                    line.append((child, seat))
                    if new:
                        break
                    node = child
                    continue
                favoured = -1
                if self.prior is not None:
                    if node.favoured is None:
                        node.favoured = {}
                    got = node.favoured.get(seat)
                    if got is None:
                        got = node.favoured[seat] = self.prior(state, seat, rng)
                    favoured = got
                untried = [a for a in legal if a not in kids]
                candidates = legal
                if untried and widen > 0.0:
                    tried = [a for a in legal if a in kids]
                    if tried and len(tried) >= widen * sqrt(sum(kids[a].visits for a in tried)):
                        untried = []  # progressive widening: not yet another child here
                        candidates = tried
                if untried:
                    if favoured in untried:
                        action = favoured
                    else:
                        action = untried[int(rng.random() * len(untried))]
                    child = kids[action] = Node()
                    for a in legal:
                        known = kids.get(a)
                        if known is not None:
                            known.avail += 1
                    state.apply(seat, action)
                    line.append((child, seat))
                    break
                best: Node | None = None
                best_action = candidates[0]
                best_value = -math.inf
                for a in candidates:
                    child = kids[a]
                    child.avail += 1
                    value = child.total / child.visits + c * sqrt(log(child.avail) / child.visits)
                    if a == favoured:
                        value += self.bias / (child.visits + 1)
                    if value > best_value:
                        best_value = value
                        best = child
                        best_action = a
                assert best is not None
                state.apply(seat, best_action)
                line.append((best, seat))
                node = best
            else:
                key: list[int] = []
                modelled: dict[int, int] = {}
                if self.model > 0.0 and self.prior is not None:
                    # Opponent modelling: the other seats play the prior's choice
                    # (asked before any choice is applied) with probability ``model``.
                    for seat in acting:
                        if (
                            seat != self.observer
                            and rng.random() < self.model
                            and state.legal_actions(seat)
                        ):
                            modelled[seat] = self.prior(state, seat, rng)
                if self.prior is not None and any(s not in node.bandits for s in acting):
                    # Seed each new bandit with the prior's choice, all asked before any
                    # seat's choice is applied, so that none sees another's.
                    for seat in acting:
                        if seat not in node.bandits and state.legal_actions(seat):
                            fresh = node.bandits[seat] = Bandit()
                            fresh.favour(self.prior(state, seat, rng), self.bias)
                for seat in acting:
                    legal = state.legal_actions(seat)
                    if not legal:  # a game where one choice settles another's: skip it
                        continue
                    forced = modelled.get(seat)
                    if forced is not None:
                        state.apply(seat, forced)
                        key.append(seat)
                        key.append(forced)
                        continue
                    bandit = node.bandits.get(seat)
                    if bandit is None:
                        bandit = node.bandits[seat] = Bandit()
                    pick, slots, mix, strategy = bandit.select(legal, self.gamma, rng)
                    bandit_line.append((bandit, pick, slots, mix, strategy, seat))
                    state.apply(seat, legal[pick])
                    key.append(seat)
                    key.append(legal[pick])
                joint = tuple(key)
                following = node.joint.get(joint)
                if following is None:
                    node.joint[joint] = Node()
                    break
                node = following
        if state.to_act():
            self.rollout(state, rng)
        if state.to_act() and state.num_players > 1:
            rewards = self.evaluate(state)
        else:
            rewards = state.utilities()
            if self.margin > 0.0 and len(rewards) > 1:
                rewards = self.with_margin(state, rewards)
        for child, seat in line:
            child.visits += 1
            child.total += rewards[seat]
        for bandit, pick, slots, mix, strategy, seat in bandit_line:
            bandit.update(slots, pick, mix, strategy, rewards[seat])
        self.iterations += 1

    def evaluate(self, state: GameState) -> list[float]:
        """An unfinished game (a truncated rollout): each seat's squashed score margin.

        The margin over the best other seat, through tanh on the scale of the
        margins seen at this tree's cut-offs, in [0, 1]: 0.5 for level, towards
        1 for a clear lead. A rough guess of the win share, and a generic one:
        it reads nothing but ``scores()``.
        """
        margins = self.margins(state, self.estimate(state) if self.estimate else None)
        self.cut_sum += abs(margins[self.scale_seat()])
        self.cut_seen += 1
        scale = self.cut_sum / self.cut_seen or 1.0
        return [squash(m, scale) for m in margins]

    def scale_seat(self) -> int:
        """The seat whose margins set the squashing scale: the tree's own (its observer).

        It was p1's in every tree: at a table of more than two, p1's margins in another
        seat's tree have little to do with that seat's own (Corporation at 5, sampled
        cut-offs: a mean |margin| of 0.7 to 3.7 for p1 against 7 to 22 for the seat
        searching), so p1's search squashed on its own scale and every other seat's on
        a much sharper one: one seat searched differently from the rest by its number
        (issue 20). At two seats the two margins are equal and opposite, so nothing
        changed there. A tree with no observer keeps p1's.
        """
        return self.observer if self.observer >= 0 else 0

    @staticmethod
    def margins(state: GameState, scores: list[float] | None = None) -> list[float]:
        """Each seat's score minus the best other seat's (negated where lower is better).

        ``scores`` replaces the state's own where the game can estimate the final
        scores of an unfinished game (its ``expected_scores``).
        """
        if scores is None:
            scores = [float(x) for x in state.scores()]
        sign = -1.0 if state.info.lower_is_better else 1.0
        n = len(scores)
        out = []
        for s in range(n):
            best_other = max(sign * scores[t] for t in range(n) if t != s)
            out.append(sign * scores[s] - best_other)
        return out

    def with_margin(self, state: GameState, rewards: list[float]) -> list[float]:
        """Blend each seat's win share with its score margin over the best other seat.

        Win shares saturate: when every line wins (or every line loses) search
        cannot tell a safe move from a careless one, and it picks among them at
        random. The margin, squashed to [0, 1] on the scale of the margins this
        tree has seen, keeps a gradient there. The scale adapts, so no game's
        score unit is named here.
        """
        margins = self.margins(state)
        self.margin_sum += abs(margins[self.scale_seat()])
        self.margin_seen += 1
        scale = self.margin_sum / self.margin_seen or 1.0
        w = self.margin
        return [(1.0 - w) * r + w * squash(m, scale) for r, m in zip(rewards, margins, strict=True)]


def squash(margin: float, scale: float) -> float:
    """A score margin in [0, 1] through tanh on ``scale`` (the mean absolute margin seen):
    0.5 for level, towards 1 for a clear lead. A rough, generic guess of the win share
    (no game's unit is named); :mod:`decklab.bots.fast` judges its rollouts by it too."""
    return 0.5 + 0.5 * math.tanh(margin / scale)


@dataclass
class RootStats:
    """What search learnt about the observer's root actions."""

    visits: dict[int, int]
    means: dict[int, float]
    policy: dict[int, float]
    """The average strategy at a simultaneous root (empty at a one-seat root)."""
    simultaneous: bool


def root_stats(trees: list[Tree], seat: int, legal: list[int], simultaneous: bool) -> RootStats:
    """Sum the root statistics of several trees (one for ismcts/cheat, k for pimc)."""
    visits = dict.fromkeys(legal, 0)
    totals = dict.fromkeys(legal, 0.0)
    weights = dict.fromkeys(legal, 0.0)
    for tree in trees:
        root = tree.root
        if simultaneous:
            bandit = root.bandits.get(seat)
            if bandit is None:
                continue
            for a in legal:
                slot = bandit.index.get(a)
                if slot is not None:
                    visits[a] += bandit.count[slot]
                    totals[a] += bandit.reward[slot]
                    weights[a] += bandit.strategy_sum[slot]
        else:
            kids = root.kids.get(seat, {})
            for a in legal:
                child = kids.get(a)
                if child is not None:
                    visits[a] += child.visits
                    totals[a] += child.total
    means = {a: totals[a] / visits[a] if visits[a] else 0.0 for a in legal}
    policy: dict[int, float] = {}
    if simultaneous:
        weight = sum(weights.values())
        policy = (
            {a: w / weight for a, w in weights.items()}
            if weight > 0
            else dict.fromkeys(legal, 1.0 / len(legal))
        )
    return RootStats(visits, means, policy, simultaneous)


def sample_policy(policy: dict[int, float], rng: random.Random) -> int:
    """Draw an action from a mixed strategy (deterministic given ``rng``)."""
    x = rng.random()
    acc = 0.0
    last = next(iter(policy))
    for action, p in policy.items():
        acc += p
        last = action
        if x < acc:
            return action
    return last


def purified(policy: dict[int, float], share: float) -> dict[int, float]:
    """``policy`` without the moves below ``share`` of the likeliest one, renormalised.

    Regret matching's average strategy keeps a little weight on every move it
    explored; at a few hundred iterations that residue is noise, and sampling
    it now and then throws games away. Thresholding (Ganzfried & Sandholm
    2012) keeps the mix among the moves that earned their weight.
    """
    top = max(policy.values())
    kept = {a: p for a, p in policy.items() if p >= share * top}
    total = sum(kept.values())
    return {a: p / total for a, p in kept.items()}


def most_visited(stats: RootStats) -> int:
    """The robust child: most visits, then best mean; the first legal action on a full tie."""
    return max(stats.visits, key=lambda a: (stats.visits[a], stats.means[a]))


@dataclass(frozen=True)
class Budget:
    """Stop after ``iters`` iterations or ``seconds`` of wall time, whichever comes first."""

    iters: int | None
    seconds: float | None

    def describe(self) -> str:
        parts = []
        if self.iters is not None:
            parts.append(f"{self.iters} iterations")
        if self.seconds is not None:
            parts.append(f"{self.seconds:g} s")
        return " or ".join(parts)


def run_budget(
    budget: Budget, step: Callable[[int], None], share: float = 1.0, minimum: int = 1
) -> int:
    """Call ``step(i)`` until the budget (scaled by ``share``) is spent; return the count."""
    iters = None if budget.iters is None else max(minimum, round(budget.iters * share))
    deadline = None if budget.seconds is None else time.perf_counter() + budget.seconds * share
    done = 0
    while True:
        if iters is not None and done >= iters:
            break
        if deadline is not None and done >= minimum and time.perf_counter() >= deadline:
            break
        step(done)
        done += 1
    return done


SEARCH_PARAMS: Final[tuple[Param, ...]] = (
    Param("time", float, None, "seconds of search per decision", minimum=0.001),
    Param("iters", int, None, "iterations per decision (default 1000 if no time)", minimum=1),
    Param("c", float, 0.7, "UCB exploration constant", minimum=0.0),
    Param(
        "gamma",
        float,
        0.1,
        "uniform exploration of regret matching in simultaneous rounds",
        minimum=0.0,
        maximum=1.0,
    ),
    Param(
        "rollout",
        str,
        "random",
        "rollout policy: uniform, the game's greedy player, or a mix of the two",
        choices=("random", "greedy", "mixed"),
    ),
    Param("mix", float, 0.1, "share of greedy moves in a mixed rollout", minimum=0.0, maximum=1.0),
    Param("first", int, 0, "greedy moves at the start of a mixed rollout", minimum=0),
    Param(
        "depth",
        int,
        0,
        "rollout moves before the game is cut off and judged by the game's estimate of the "
        "final scores, or the scores so far (0: to the end)",
        minimum=0,
    ),
    Param(
        "prior",
        str,
        "none",
        "greedy: try the game's greedy move first at each node and favour it",
        choices=("none", "greedy"),
    ),
    Param("bias", float, 1.0, "weight of the prior move's progressive bias", minimum=0.0),
    Param(
        "widen",
        float,
        0.0,
        "progressive widening: at most widen*sqrt(visits) children at a node (0: off)",
        minimum=0.0,
    ),
    Param(
        "margin",
        float,
        0.0,
        "weight of the score margin in the reward (the rest is the win share)",
        minimum=0.0,
        maximum=1.0,
    ),
    Param(
        "model",
        float,
        0.0,
        "in the tree the other seats play the prior's move (with prior=greedy) with this "
        "probability, else they search",
        minimum=0.0,
        maximum=1.0,
    ),
    Param(
        "purify",
        float,
        0.0,
        "at a simultaneous root, drop moves played less than this share of the likeliest one",
        minimum=0.0,
        maximum=1.0,
    ),
    Param(
        "topk",
        int,
        0,
        "search only the k moves the game's own ranking likes best at a node (0: all)",
        minimum=0,
    ),
    Param(
        "look",
        int,
        0,
        "in greedy rollouts the searching seat plays the best of the game's top `look` moves "
        "judged one move ahead by its estimate (0: greedy, like every seat)",
        minimum=0,
    ),
)
DEFAULT_ITERS: Final = 1000


def budget_from(params: dict[str, object]) -> Budget:
    iters = params["iters"]
    seconds = params["time"]
    assert iters is None or isinstance(iters, int)
    assert seconds is None or isinstance(seconds, float)
    if iters is None and seconds is None:
        iters = DEFAULT_ITERS
    return Budget(iters, seconds)


RACE_Z: Final = 2.0
"""How many standard errors below the leader a move's paired mean difference must lie
to be dropped from a race: about a 2% chance of dropping a move that is as good."""
RACE_MIN_DEALS: Final = 6
"""Deals every move plays before any is dropped (a standard error needs a few)."""


def race_moves(
    moves: list[int],
    play: Callable[[int, int], float],
    iters: int | None,
    out_of_time: Callable[[], bool] | None = None,
    z: float = RACE_Z,
    min_deals: int = RACE_MIN_DEALS,
) -> int:
    """The move with the best mean reward on shared deals, raced within ``iters`` plays.

    ``play(deal, move)`` plays ``move`` on deal number ``deal`` and returns its reward;
    every move still in the race plays every deal, so any two of them are compared
    on the same deals (paired), which cancels the luck of the deal. After each deal
    (from ``min_deals`` on) a move is dropped when the leader's mean advantage over
    it exceeds ``z`` standard errors of the paired differences. The race ends when
    one move is left, the budget of plays is spent, or ``out_of_time()``. Ties keep
    the order of ``moves`` (the game's own preference first).
    """
    if len(moves) <= 1:
        return moves[0]
    alive = list(moves)
    rewards: dict[int, list[float]] = {m: [] for m in moves}
    limit = iters if iters is not None else 1 << 30
    used = 0
    deal = 0
    while len(alive) > 1 and used + len(alive) <= max(limit, len(alive)):
        for move in alive:
            rewards[move].append(play(deal, move))
        used += len(alive)
        deal += 1
        if deal >= min_deals:
            alive = _survivors(alive, rewards, deal, z)
        if out_of_time is not None and out_of_time():
            break
    return max(alive, key=lambda m: (math.fsum(rewards[m][-deal:]), -moves.index(m)))


def _survivors(
    alive: list[int], rewards: dict[int, list[float]], deals: int, z: float
) -> list[int]:
    """The moves not clearly worse than the leader over the last ``deals`` deals (all shared)."""
    sums = {m: math.fsum(rewards[m][-deals:]) for m in alive}
    leader = max(alive, key=lambda m: (sums[m], -alive.index(m)))
    best = rewards[leader][-deals:]
    kept = []
    for move in alive:
        if move == leader:
            kept.append(move)
            continue
        diffs = [b - r for b, r in zip(best, rewards[move][-deals:], strict=True)]
        mean = math.fsum(diffs) / deals
        var = math.fsum((d - mean) ** 2 for d in diffs) / (deals - 1)
        if mean <= 0.0 or mean * mean * deals <= z * z * var:
            kept.append(move)
    return kept


ROOT_PARAM: Final = Param(
    "root",
    str,
    "ucb",
    "how the root's moves share the budget: UCB, sequential halving on shared deals, or a "
    "race on shared deals that drops a move only when it is clearly worse",
    choices=("ucb", "halving", "race"),
)
"""The root option of the agents that offer it (``ismcts``, ``cheat``; :meth:`SearchAgent.root_decision`)."""


@mypyc_attr(allow_interpreted_subclasses=True)
class SearchAgent(Agent):
    """An agent that searches on each decision; subclasses say where iterations start."""

    method: ClassVar[str] = "search"
    root_deals: ClassVar[str] = "shared sampled deals"
    """What the root's moves share under ``root=halving`` or ``race``, for the reason."""

    def __init__(
        self,
        budget: Budget,
        c: float = 0.7,
        gamma: float = 0.1,
        rollout: str = "random",
        seed: int | None = None,
        mix: float = 0.1,
        first: int = 0,
        prior: str = "none",
        bias: float = 1.0,
        margin: float = 0.0,
        depth: int = 0,
        widen: float = 0.0,
        model: float = 0.0,
        purify: float = 0.0,
        topk: int = 0,
        look: int = 0,
    ) -> None:
        self.topk = topk
        self.look = look
        """The searching seat's rollout moves: the best of the top ``look`` one move ahead (0: greedy)."""
        self._values_fn: Callable[[GameState, int, random.Random], dict[int, float]] | None = None
        self._estimate_fn: Callable[[GameState], list[float]] | None = None
        self.model = model
        self.purify = purify
        self.margin = margin
        self.depth = depth
        self.widen = widen
        self.budget = budget
        self.c = c
        self.gamma = gamma
        self.rollout = rollout
        self.rng = random.Random(seed)
        self.mix = mix
        self.first = first
        self.prior = prior
        self.bias = bias
        self._prior_fn: Callable[[GameState, int, random.Random], int] | None = None
        self.root = "ucb"
        """How the root's moves share the budget: ``ucb``, ``halving`` or ``race``
        (:meth:`root_decision`; set by the from_params of the agents with ``ROOT_PARAM``)."""

    @staticmethod
    def common_args(params: dict[str, Any]) -> dict[str, Any]:
        """The keyword arguments every search agent takes, from parsed parameters."""
        return {
            "budget": budget_from(params),
            **{
                k: params[k]
                for k in (
                    "c",
                    "gamma",
                    "rollout",
                    "seed",
                    "mix",
                    "first",
                    "prior",
                    "bias",
                    "margin",
                    "depth",
                    "widen",
                    "model",
                    "purify",
                    "topk",
                    "look",
                )
            },
        }

    @classmethod
    def from_params(cls, params: dict[str, Any]) -> SearchAgent:
        return cls(**cls.common_args(params))

    @abstractmethod
    def search(self, state: GameState, seat: int, rollout: RolloutPolicy) -> tuple[list[Tree], str]:
        """Grow the trees for ``seat``'s decision; return them and a phrase for the reason."""

    def new_tree(self, rollout: RolloutPolicy, observer: int = -1) -> Tree:
        return Tree(
            self.rng,
            self.c,
            self.gamma,
            rollout,
            self._prior_fn,
            self.bias,
            self.margin,
            self.widen,
            observer,
            self.model,
            self.topk,
            self._values_fn,
            self._estimate_fn,
        )

    def rollout_policy(self, state: GameState, seat: int = -1) -> tuple[RolloutPolicy, str]:
        """The rollout policy for this game, and a note when greedy was asked for but is missing.

        With ``look`` (and a game that rates moves and estimates scores), ``seat``, the
        searching one, plays its own rollout moves by :func:`lookahead_player`, the
        other seats by the game's greedy player.
        """
        rule_based = game_greedy(type(state))
        self._prior_fn = rule_based if self.prior == "greedy" else None
        self._values_fn = game_values(type(state)) if self.topk else None
        self._estimate_fn = game_estimate(type(state))
        note = ""
        if self._prior_fn is not None:
            note = ", greedy move tried first"
            if self.model > 0.0:
                share = "" if self.model >= 1.0 else f" {self.model:.0%} of the time"
                note += f", the other seats playing greedy moves in the tree{share}"
        if self._values_fn is not None:
            note += f", the game's top {self.topk} moves searched"
        depth = self.depth if state.num_players > 1 else 0
        cut = f", cut off after {depth} moves" if depth else ""
        if self.rollout in ("greedy", "mixed") and rule_based is None:
            return guided_rollout(None, depth=depth), (
                f"{note}, random rollouts{cut} "
                f"({state.info.title} has no rule-based player for {self.rollout} ones)"
            )
        if self.rollout == "greedy":
            assert rule_based is not None
            values = game_values(type(state))
            if self.look and seat >= 0 and values is not None and self._estimate_fn is not None:
                own = lookahead_player(values, self._estimate_fn, self.look)
                rule_based = per_seat(rule_based, own, seat)
                note += f", its own rollout moves the best of the top {self.look} a move ahead"
            if not depth:
                return policy_rollout(rule_based), f"{note}, greedy rollouts"
            return guided_rollout(rule_based, 1.0, depth=depth), f"{note}, greedy rollouts{cut}"
        if self.rollout == "mixed":
            return guided_rollout(rule_based, self.mix, self.first, depth), (
                f"{note}, mixed rollouts ({self.first} greedy moves first, "
                f"then {self.mix:.0%} greedy){cut}"
            )
        if depth:
            return guided_rollout(None, depth=depth), f"{note}, random rollouts{cut}"
        return random_rollout, note

    def choose(self, state: GameState, seat: int) -> int:
        return self.searched(state, seat).action  # playing needs no words (up to 1 ms)

    def hint(self, state: GameState, seat: int) -> Hint:
        """The search's move, explained in the game's words beside the runner-up."""
        return explained_search(state, seat, self.searched(state, seat))

    def searched(self, state: GameState, seat: int) -> Hint:
        """The search's move and root statistics, unexplained (what :meth:`choose` plays)."""
        legal = list(state.legal_actions(seat))
        if not legal:
            raise ValueError(f"{seat_name(seat)} has nothing to do now")
        if len(legal) == 1:
            only = legal[0]
            return Hint(only, state.action_to_string(seat, only), "the only legal action")
        simultaneous = in_simultaneous_round(state)
        rollout, note = self.rollout_policy(state, seat)
        trees, how = self.search(state, seat, rollout)
        iterations = sum(t.iterations for t in trees)
        stats = root_stats(trees, seat, legal, simultaneous)
        text = {a: state.action_to_string(seat, a) for a in legal}
        if simultaneous:
            if self.purify > 0.0:
                stats.policy = purified(stats.policy, self.purify)
            action = sample_policy(stats.policy, self.rng)
            reason = (
                f"{self.method}: {iterations} iterations {how}{note}; in a simultaneous round "
                f"it plays a mixed strategy (decoupled regret matching) and drew "
                f"{text[action]} (probability {stats.policy[action]:.0%}, "
                f"mean reward {stats.means[action]:.2f})"
            )
        elif len(trees) == 1 and trees[0].chosen is not None:
            action = trees[0].chosen
            reason = (
                f"{self.method}: {iterations} iterations {how}{note}; {text[action]} came out "
                f"best (mean reward {stats.means[action]:.2f} over {stats.visits[action]} deals)"
            )
        else:
            action = most_visited(stats)
            reason = (
                f"{self.method}: {iterations} iterations {how}{note}; {text[action]} was "
                f"tried most ({stats.visits[action]} times, mean reward {stats.means[action]:.2f})"
            )
        return Hint(
            action,
            text[action],
            reason,
            values={text[a]: stats.means[a] for a in legal},
            visits={text[a]: stats.visits[a] for a in legal},
            policy={text[a]: p for a, p in stats.policy.items()},
        )

    def root_decision(self, state: GameState, seat: int, tree: Tree) -> str | None:
        """Decide the root by :attr:`root` (``halving``, ``race``) where the seat acts alone,
        setting ``tree.chosen``; the phrase for the reason, or None to search by UCB."""
        if self.root == "halving" and not in_simultaneous_round(state):
            return self.halving(state, seat, tree)
        if self.root == "race" and not in_simultaneous_round(state):
            return self.race(state, seat, tree)
        return None

    def root_sample(self, state: GameState, seat: int) -> GameState:
        """The state the game's own ranking orders the root's moves on (:meth:`candidates`):
        a determinization, as the fair agents see it; ``cheat`` gives the true state."""
        return state.determinize(seat, self.rng)

    def root_worlds(self, state: GameState, seat: int) -> Callable[[], GameState]:
        """Where the deals the root's moves share come from (:meth:`halving`, :meth:`race`):
        fresh determinizations here; ``ismcts`` weighs them by its beliefs, ``cheat`` plays
        the true state. Each call is a state the caller may change."""
        rng = self.rng
        return lambda: state.determinize(seat, rng)

    def candidates(self, state: GameState, seat: int) -> list[int]:
        """The root moves to compare: the game's top ``topk`` where it ranks moves, else all.

        Ranked best first, so that a tie keeps the move the game's own player prefers.
        """
        legal = list(state.legal_actions(seat))
        if self._values_fn is None or not self.topk:
            if self._prior_fn is not None:
                first = self._prior_fn(self.root_sample(state, seat), seat, self.rng)
                legal.remove(first)
                legal.insert(0, first)
            return legal
        values = self._values_fn(self.root_sample(state, seat), seat, self.rng)
        return sorted(legal, key=lambda a: -values.get(a, -math.inf))[: self.topk]

    def halving(self, state: GameState, seat: int, tree: Tree) -> str:
        """Sequential halving over the root moves on shared deals; sets ``tree.chosen``.

        Each round gets an equal share of the budget but plays every remaining
        move at least once, so without ``topk`` a root with many moves spends
        more than the budget: pair it with ``topk`` (the report does).
        """
        rng = self.rng
        draw = self.root_worlds(state, seat)
        alive = self.candidates(state, seat)
        rounds = max(1, math.ceil(math.log2(len(alive))))
        kids = tree.root.kids
        for _ in range(rounds):
            if len(alive) == 1:
                break
            group = list(alive)
            shared: list[Any] = [None, 0]

            def step(i: int, group: list[int] = group, shared: list[Any] = shared) -> None:
                slot = i % len(group)
                if slot == 0:
                    shared[0] = draw()
                    shared[1] = rng.getrandbits(64)
                tree.rng = random.Random(shared[1])
                tree.iterate(shared[0].clone(), force=group[slot])

            run_budget(self.budget, step, share=1.0 / rounds, minimum=len(group))
            tree.rng = rng

            def mean(a: int) -> float:
                child = kids.get(seat, {}).get(a)
                return child.total / child.visits if child is not None and child.visits else -1.0

            ranked = sorted(alive, key=lambda a: -mean(a))  # stable: ties keep the prior order
            alive = ranked[: math.ceil(len(alive) / 2)]
        tree.chosen = alive[0]
        return f"by sequential halving on {self.root_deals}"

    def race(self, state: GameState, seat: int, tree: Tree) -> str:
        """Race the root moves on shared deals; drop one only when it is clearly worse.

        Sequential halving drops half the moves after a fixed share of the budget,
        however close they were (issue 20: at 48 iterations a move was gone after
        6 deals, and twice the expert played a move whose mean was below one it had
        dropped). Here every move still in the race is played on each new sampled
        deal, with the same random stream, and a move is dropped only when its
        paired difference from the leader is clearly negative
        (:func:`race_moves`). Clear decisions end early; close ones get every deal
        the budget allows, and the final choice compares moves on the same deals.
        Sets ``tree.chosen``.
        """
        rng = self.rng
        draw = self.root_worlds(state, seat)
        kids = tree.root.kids
        shared: list[Any] = [None]

        def play(deal: int, move: int) -> float:
            if shared[0] is None or shared[0][0] != deal:
                shared[0] = (deal, draw(), rng.getrandbits(64))
            child = kids.get(seat, {}).get(move)
            before = child.total if child is not None else 0.0
            tree.rng = random.Random(shared[0][2])
            tree.iterate(shared[0][1].clone(), force=move)
            tree.rng = rng
            return kids[seat][move].total - before

        budget = self.budget
        deadline = None if budget.seconds is None else time.perf_counter() + budget.seconds
        tree.chosen = race_moves(
            self.candidates(state, seat),
            play,
            budget.iters,
            (lambda: time.perf_counter() >= deadline) if deadline is not None else None,
        )
        return f"by a race on {self.root_deals} (a move dropped only when clearly worse)"
