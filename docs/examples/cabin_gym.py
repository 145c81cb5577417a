"""Train a small agent on the Cabin by the Sea through Gymnasium, then compare it.

    python docs/examples/cabin_gym.py [--minutes 3] [--deals 20] [--no-expert]

The agent is a one-hidden-layer policy network in plain NumPy (752 inputs, 64 tanh
units, 16 masked logits) trained by REINFORCE with a learned baseline and Adam: the
whole game is one episode and its reward is the env's — 1 for a perfect game down
to 0 when all 68 squid points are lost. Only ``gymnasium.make("decklab/cabin-v0")``
is used to train: the observation, the action mask and the reward, nothing of
decklab's own API.

It then plays the same deals (``reset(seed=k)`` for k = 0 … deals-1) as decklab's
``random``, ``greedy`` and ``expert`` players and prints each one's mean squid
points (lower is better) with a 95 % interval. The expert (a solver on sampled
deals) takes seconds a game, hence the modest default of 20 deals.
"""

from __future__ import annotations

import argparse
import math
import time
from typing import Any

import gymnasium
import numpy as np
from rich.console import Console
from rich.progress import Progress
from rich.table import Table

import decklab.interop.gymnasium  # noqa: F401  (registers decklab/cabin-v0)
from decklab.bots import make_agent

ENV_ID = "decklab/cabin-v0"
HIDDEN = 64


class Policy:
    """obs → tanh layer → logits over the fixed action space; illegal actions masked out."""

    def __init__(self, inputs: int, actions: int, rng: np.random.Generator) -> None:
        self.params = {
            "w1": rng.normal(0, 1 / math.sqrt(inputs), (inputs, HIDDEN)),
            "b1": np.zeros(HIDDEN),
            "w2": rng.normal(0, 0.01, (HIDDEN, actions)),
            "b2": np.zeros(actions),
            "v": np.zeros(HIDDEN),  # the baseline: expected reward from the hidden layer
            "vb": np.zeros(1),
        }
        self.m = {k: np.zeros_like(p) for k, p in self.params.items()}
        self.s = {k: np.zeros_like(p) for k, p in self.params.items()}
        self.t = 0

    def forward(self, obs: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray, float]:
        p = self.params
        h = np.tanh(obs @ p["w1"] + p["b1"])
        logits = h @ p["w2"] + p["b2"]
        logits = np.where(mask > 0, logits, -1e9)
        probs = np.exp(logits - logits.max())
        probs /= probs.sum()
        return h, probs, float(h @ p["v"] + p["vb"][0])

    def act(self, obs: dict[str, np.ndarray], rng: np.random.Generator | None) -> int:
        _, probs, _ = self.forward(obs["observation"], obs["action_mask"])
        return int(rng.choice(len(probs), p=probs)) if rng is not None else int(probs.argmax())

    def update(self, episodes: list[tuple[list[Any], float]], lr: float) -> None:
        """One Adam step on the REINFORCE loss with baseline, over a batch of games."""
        p = self.params
        grads = {k: np.zeros_like(v) for k, v in p.items()}
        steps = 0
        for trajectory, reward in episodes:
            for obs, mask, action in trajectory:
                h, probs, value = self.forward(obs, mask)
                advantage = reward - value
                dlogits = -probs * advantage
                dlogits[action] += advantage  # ∇ log π(a) · A, ascent
                dh = (p["w2"] @ dlogits) * (1 - h * h)
                grads["w2"] += np.outer(h, dlogits)
                grads["b2"] += dlogits
                # the baseline regresses on the reward (a small share of the trunk's update)
                dv = advantage
                grads["v"] += h * dv
                grads["vb"] += dv
                dh += 0.1 * p["v"] * dv * (1 - h * h)
                grads["w1"] += np.outer(obs, dh)
                grads["b1"] += dh
                steps += 1
        self.t += 1
        for k in p:
            g = grads[k] / max(1, steps)
            self.m[k] = 0.9 * self.m[k] + 0.1 * g
            self.s[k] = 0.999 * self.s[k] + 0.001 * g * g
            m_hat = self.m[k] / (1 - 0.9**self.t)
            s_hat = self.s[k] / (1 - 0.999**self.t)
            p[k] += lr * m_hat / (np.sqrt(s_hat) + 1e-8)


def train(minutes: float, seed: int, progress: Progress) -> tuple[Policy, int]:
    env = gymnasium.make(ENV_ID)
    rng = np.random.default_rng(seed)
    space = env.observation_space["observation"]
    policy = Policy(space.shape[0], env.action_space.n, rng)
    deadline = time.monotonic() + minutes * 60
    task = progress.add_task("training", total=minutes * 60)
    started = time.monotonic()
    games = 0
    batch: list[tuple[list[Any], float]] = []
    obs, _ = env.reset(seed=10_000 + seed)  # training deals are not the test deals
    while time.monotonic() < deadline:
        trajectory = []
        done = False
        reward = 0.0
        while not done:
            action = policy.act(obs, rng)
            trajectory.append((obs["observation"], obs["action_mask"], action))
            obs, reward, done, _, _ = env.step(action)
        batch.append((trajectory, float(reward)))
        games += 1
        obs, _ = env.reset()
        if len(batch) == 8:
            policy.update(batch, lr=3e-3)
            batch = []
        progress.update(task, completed=time.monotonic() - started)
    return policy, games


def squid_points_of(env: Any, info: dict[str, Any]) -> float:
    return float(next(iter(info["scores"].values())))


def evaluate_policy(policy: Policy, deals: int) -> list[float]:
    env = gymnasium.make(ENV_ID)
    out = []
    for k in range(deals):
        obs, info = env.reset(seed=k)
        done = False
        while not done:
            obs, _, done, _, info = env.step(policy.act(obs, None))
        out.append(squid_points_of(env, info))
    return out


def evaluate_agent(spec: str, deals: int, progress: Progress) -> list[float]:
    """A decklab player on the same deals, through the same env (its state is the deal)."""
    env = gymnasium.make(ENV_ID).unwrapped
    table = env.table
    task = progress.add_task(spec, total=deals)
    out = []
    for k in range(deals):
        agent = make_agent(f"{spec}:seed={k}")
        _, info = env.reset(seed=k)
        done = False
        while not done:
            action = agent.choose(env.state, 0)
            _, _, done, _, info = env.step(table.index_of(action))
        out.append(squid_points_of(env, info))
        progress.advance(task)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--minutes", type=float, default=3.0, help="training time")
    parser.add_argument("--deals", type=int, default=20, help="test deals for every player")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--no-expert", action="store_true", help="skip the slow expert")
    args = parser.parse_args(argv)
    console = Console()
    with Progress(console=console) as progress:
        policy, games = train(args.minutes, args.seed, progress)
        results = {f"trained ({games} games)": evaluate_policy(policy, args.deals)}
        for spec in ["random", "greedy"] + ([] if args.no_expert else ["expert"]):
            results[spec] = evaluate_agent(spec, args.deals, progress)
    table = Table(title=f"The Cabin by the Sea: squid points on the same {args.deals} deals")
    for col in ("player", "mean", "95 % interval", "perfect games"):
        table.add_column(col, justify="left" if col == "player" else "right")
    for name, points in results.items():
        mean = float(np.mean(points))
        half = 1.96 * float(np.std(points, ddof=1)) / math.sqrt(len(points))
        perfect = sum(1 for p in points if p == 0)
        table.add_row(name, f"{mean:.1f}", f"{mean - half:.1f}–{mean + half:.1f}", str(perfect))
    console.print(table)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
