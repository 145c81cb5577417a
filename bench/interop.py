"""decklab through its standard interfaces: search against OpenSpiel's, env speed.

    python bench/interop.py speed   [--games facade,lonely-face] [--seconds 2]
    python bench/interop.py match   [--games facade,lonely-face] [--move-time 0.02] [--games-count 200]
    python bench/interop.py envs    [--seconds 5]

``speed``: ISMCTS iterations per second on the same positions (the first decision,
and one a third of the way through a random game), decklab's ``ismcts`` (random
rollouts) against OpenSpiel's ``ISMCTSBot`` (random-rollout evaluator, one rollout)
on the game registered by ``decklab.interop.openspiel``. The ratio is the figure:
both run in this process on the same machine, so load does not change it much.

``match``: the two searches head to head in 2-player games at equal time per move
(OpenSpiel's bot has only a simulation count, so it gets a loop that stops on the
clock, the same loop otherwise); every deal is played twice with the seats swapped.
A win counts 1, a shared win 1/2; the interval is Wilson's at 95 %. Long: run it in
the background (``nice -n 10 python bench/interop.py match … > match.txt``).

``envs``: PettingZoo's own ``performance_benchmark`` (turns per second for 5 s of
random play) for every game, against the same random play straight on the engine; the
same figure for PettingZoo's own ``leduc_holdem_v4`` and ``connect_four_v3`` (the
``bench`` extra installs what they need) in the same run; and for every solo game the
Gymnasium vector env's steps per second (``--num-envs`` tables, random legal actions,
one step of every table counting ``num_envs`` steps) beside Gymnasium's
``SyncVectorEnv`` of the same tables and the single env's.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import io
import json
import random
import re
import time
from typing import Any

import numpy as np
import pyspiel
from gymnasium.vector import SyncVectorEnv
from open_spiel.python.algorithms import ismcts, mcts
from pettingzoo.test import performance_benchmark
from rich.console import Console
from rich.progress import Progress
from rich.table import Table as RichTable

from decklab.bots import make_agent
from decklab.engine.registry import game_names, get_game
from decklab.interop import openspiel
from decklab.interop import pettingzoo as dz
from decklab.interop.gymnasium import DecklabGymEnv, solo_games
from decklab.interop.table import Table
from decklab.interop.vector import DecklabVectorEnv
from decklab.lab.stats import wilson


class TimedISMCTSBot(ismcts.ISMCTSBot):  # type: ignore[misc]
    """OpenSpiel's ISMCTSBot with a time budget per move instead of a simulation count."""

    def __init__(self, game: Any, seconds: float, seed: int) -> None:
        evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed))
        super().__init__(game, evaluator, 2.0, 1, random_state=np.random.RandomState(seed))
        self.seconds = seconds
        self.simulations = 0

    def run_search(self, state: Any) -> Any:
        self.reset()
        legal = state.legal_actions()
        if len(legal) == 1:
            return [(legal[0], 1.0)]
        self._root_node = self.create_new_node(state)
        deadline = time.perf_counter() + self.seconds
        while True:  # as ISMCTSBot.run_search, but until the clock runs out
            self.run_simulation(self.sample_root_state(state))
            self.simulations += 1
            # the first simulation only expands the root: one more before stopping
            if time.perf_counter() >= deadline and self._root_node.total_visits > 0:
                break
        return self.get_final_policy(state, self._root_node)


def position(sgame: Any, fraction: float, seed: int) -> Any:
    """An OpenSpiel state ``fraction`` of the way through a random game, at a real choice."""
    rng = random.Random(seed)
    state = sgame.new_initial_state()
    probe = state.clone()
    length = 0
    while not probe.is_terminal():
        probe.apply_action(rng.choice(probe.legal_actions()))
        length += 1
    rng = random.Random(seed)
    steps = 0
    while not state.is_terminal():
        legal = state.legal_actions()
        if steps >= fraction * length and len(legal) >= 2 and not state.is_chance_node():
            return state
        state.apply_action(rng.choice(legal))
        steps += 1
    return sgame.new_initial_state()


def decklab_ips(state: Any, seconds: float) -> float:
    agent = make_agent(f"ismcts:rollout=random,time={seconds},seed=0")
    start = time.perf_counter()
    hint = agent.hint(state.dstate, state.current_player())
    return sum(hint.visits.values()) / (time.perf_counter() - start)


def openspiel_ips(sgame: Any, state: Any, seconds: float) -> float:
    bot = TimedISMCTSBot(sgame, seconds, seed=0)
    start = time.perf_counter()
    bot.run_search(state)
    return bot.simulations / (time.perf_counter() - start)


def speed(games: list[str], seconds: float) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for game in games:
        sgame = pyspiel.load_game(openspiel.short_name(game), {"players": 2, "seed": 1})
        row = {}
        for label, fraction in (("start", 0.0), ("third", 1 / 3)):
            state = position(sgame, fraction, seed=1)
            ours = decklab_ips(state, seconds)
            theirs = openspiel_ips(sgame, state, seconds)
            row[label] = {"decklab": ours, "openspiel": theirs, "ratio": ours / theirs}
        out[game] = row
    return out


def play_match_game(sgame: Any, seat_of_decklab: int, move_time: float, seed: int) -> float:
    """One game: decklab's ismcts at ``seat_of_decklab``, OpenSpiel's bot at the other;
    both see the same OpenSpiel state and each samples what it cannot see itself."""
    table = sgame.table
    ours = make_agent(f"ismcts:time={move_time},seed={seed}")
    theirs = TimedISMCTSBot(sgame, move_time, seed)
    state = sgame.new_initial_state()
    chance = random.Random(seed)  # the same seed deals the same cards (chance comes first)
    while not state.is_terminal():
        player = state.current_player()
        if state.is_chance_node():
            state.apply_action(chance.choice(state.legal_actions()))
        elif player == seat_of_decklab:
            action = ours.choose(state.dstate, player)
            state.apply_action(table.index_of(action))
        else:
            state.apply_action(theirs.step(state))
    return float(state.returns()[seat_of_decklab])


def match(games: list[str], move_time: float, count: int, seed: int) -> dict[str, Any]:
    out: dict[str, Any] = {}
    with Progress(console=Console(stderr=True)) as progress:
        for game in games:
            task = progress.add_task(f"{game}: decklab vs OpenSpiel", total=count)
            score = 0.0
            played = 0
            for k in range(count):
                deal = seed + k // 2
                sgame = pyspiel.load_game(openspiel.short_name(game), {"players": 2, "seed": deal})
                got = play_match_game(sgame, k % 2, move_time, seed=deal)
                score += got
                played += 1
                progress.advance(task)
                if not progress.console.is_terminal:  # a log line, for partial counts
                    progress.console.print(f"{game} game {played}: decklab {score:g}/{played}")
            low, high = wilson(score, played)
            out[game] = {
                "games": played,
                "score": score,
                "rate": score / played,
                "wilson95": [low, high],
            }
    return out


def _turns_per_second(env: Any) -> float:
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        performance_benchmark(env)
    found = re.search(r"([0-9.]+) turns per second", buffer.getvalue())
    if found is None:
        raise RuntimeError(f"performance_benchmark printed no figure: {buffer.getvalue()!r}")
    return float(found.group(1))


def engine_turns_per_second(game: str, seconds: float) -> float:
    cls = get_game(game)
    rng = random.Random(0)
    turns = 0
    start = time.perf_counter()
    state = cls.new(seed=0)
    while time.perf_counter() - start < seconds:
        if state.is_terminal():
            state = cls.new(seed=rng.getrandbits(63))
        seat = state.to_act()[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
        turns += 1
    return turns / (time.perf_counter() - start)


PEERS = ("leduc_holdem_v4", "connect_four_v3")
"""PettingZoo's classic environments measured beside decklab's, by the same benchmark."""


def peer_turns_per_second(name: str) -> float | None:
    """A PettingZoo classic env's turns/s; ``None`` where its extra is not installed."""
    try:
        module = importlib.import_module(f"pettingzoo.classic.{name}")
    except ImportError:  # rlcard (leduc) or pygame (connect four) missing
        return None
    return _turns_per_second(module.env())


def _random_actions(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A random legal action per row (0 for a row with none: that table resets)."""
    return np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks])


def vector_steps_per_second(game: str, num_envs: int, seconds: float, sync: bool = False) -> float:
    """Env steps per second through :class:`DecklabVectorEnv` (``num_envs`` a call), or
    through Gymnasium's ``SyncVectorEnv`` of single envs (``sync``), what it replaces."""
    env: Any = (
        SyncVectorEnv([lambda: DecklabGymEnv(game) for _ in range(num_envs)])
        if sync
        else DecklabVectorEnv(game, num_envs=num_envs)
    )
    rng = np.random.default_rng(0)
    _, info = env.reset(seed=0)
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        _, _, _, _, info = env.step(_random_actions(info["action_mask"], rng))
        steps += num_envs
    return steps / (time.perf_counter() - start)


def single_steps_per_second(game: str, seconds: float) -> float:
    """The same random play through one :class:`DecklabGymEnv`, reset by hand."""
    env = DecklabGymEnv(game)
    rng = np.random.default_rng(0)
    _, info = env.reset(seed=0)
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        action = _random_actions(info["action_mask"][None], rng)[0]
        _, _, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            _, info = env.reset()
        steps += 1
    return steps / (time.perf_counter() - start)


def envs(seconds: float, num_envs: int) -> dict[str, Any]:
    pettingzoo: dict[str, Any] = {}
    for game in game_names():
        env = dz.env(game)
        pz = _turns_per_second(env)
        raw = engine_turns_per_second(game, seconds)
        pettingzoo[Table(game).name] = {
            "pettingzoo": pz,
            "engine": raw,
            "share": pz / raw,
        }
    for name in PEERS:
        pettingzoo[name] = {"pettingzoo": peer_turns_per_second(name), "engine": None}
    vector = {
        f"decklab/{game}-v{Table(game, 1).version}": {
            "num_envs": num_envs,
            "vector": vector_steps_per_second(game, num_envs, seconds),
            "sync": vector_steps_per_second(game, num_envs, seconds, sync=True),
            "single": single_steps_per_second(game, seconds),
        }
        for game in solo_games()
    }
    return {"pettingzoo": pettingzoo, "vector": vector}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("what", choices=("speed", "match", "envs"))
    parser.add_argument("--games", default="facade,lonely-face", help="comma-separated names")
    parser.add_argument("--seconds", type=float, default=2.0, help="search (or env) time")
    parser.add_argument("--move-time", type=float, default=0.02, help="match: seconds a move")
    parser.add_argument("--games-count", type=int, default=200, help="match: games per game")
    parser.add_argument("--seed", type=int, default=1, help="match: first deal")
    parser.add_argument("--num-envs", type=int, default=8, help="envs: vector env's tables")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    games = [g.strip() for g in args.games.split(",") if g.strip()]
    console = Console()
    if args.what == "speed":
        result = speed(games, args.seconds)
        table = RichTable(
            title=f"ISMCTS iterations per second ({args.seconds:g} s a position, 2 players)"
        )
        for col in ("game", "position", "decklab", "OpenSpiel ISMCTSBot", "ratio"):
            table.add_column(col, justify="left" if col in ("game", "position") else "right")
        for game, row in result.items():
            for label, cell in row.items():
                table.add_row(
                    game,
                    label,
                    f"{cell['decklab']:,.0f}",
                    f"{cell['openspiel']:,.0f}",
                    f"{cell['ratio']:.1f}×",
                )
    elif args.what == "match":
        result = match(games, args.move_time, args.games_count, args.seed)
        table = RichTable(
            title=f"decklab ismcts vs OpenSpiel ISMCTSBot, {args.move_time:g} s a move"
        )
        for col in ("game", "games", "decklab's score", "rate", "Wilson 95 %"):
            table.add_column(col, justify="left" if col == "game" else "right")
        for game, row in result.items():
            low, high = row["wilson95"]
            table.add_row(
                game,
                str(row["games"]),
                f"{row['score']:g}",
                f"{row['rate']:.3f}",
                f"{low:.3f}–{high:.3f}",
            )
    else:
        result = envs(args.seconds, args.num_envs)
        table = RichTable(title="PettingZoo performance_benchmark: turns per second (random play)")
        for col in ("env", "PettingZoo", "engine alone", "share"):
            table.add_column(col, justify="left" if col == "env" else "right")
        for name, row in result["pettingzoo"].items():
            pz, raw = row["pettingzoo"], row["engine"]
            table.add_row(
                name,
                "not installed" if pz is None else f"{pz:,.0f}",
                "–" if raw is None else f"{raw:,.0f}",
                "–" if raw is None else f"{row['share']:.0%}",
            )
        vector = RichTable(title="Gymnasium: env steps per second (random legal actions)")
        for col in ("env", "tables", "vector env", "SyncVectorEnv", "single env"):
            vector.add_column(col, justify="left" if col == "env" else "right")
        for name, row in result["vector"].items():
            vector.add_row(
                name,
                str(row["num_envs"]),
                f"{row['vector']:,.0f}",
                f"{row['sync']:,.0f}",
                f"{row['single']:,.0f}",
            )
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        console.print(table)
        if args.what == "envs":
            console.print(vector)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
