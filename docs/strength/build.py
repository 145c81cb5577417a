"""docs/strength.md from recorded runs: one list of runs, one JSON file per run, one render.

    python docs/strength/build.py list [--missing] [--section S]
    nice -n 10 python docs/strength/build.py run [IDS…] [--section S] [--missing] [--workers K]
    nice -n 10 python docs/strength/build.py estimate [IDS…] [--section S] [--timeout S]
    python docs/strength/build.py render

Why: the report's figures used to be typed in from many separate commands, and nothing
said which command, code or machine a number came from, or how long it took. Here every
figure is a *run*: an id, the exact ``decklab`` (or ``python``) command, and its JSON
result ``docs/strength/runs/ID.json``, which also records the wall time, the CPU time of
the command and its workers, the machine, the commit and the command itself. ``run``
executes the runs asked for whose JSON is missing or *stale* (the command in the list no
longer equals the recorded one), so the full report, many CPU hours on a small machine, is
made in pieces over several sessions. ``render`` writes docs/strength.md from the prose in
docs/strength.src.md, whose ``<!-- runs: SECTION -->`` lines become the tables; a run not
made yet is shown as "not run yet" with its command and, where ``estimate`` measured one,
its estimated CPU time, never as a number it does not have.

``estimate`` plays each run's command with the fewest games (or deals, or positions) it
allows, measures its CPU time and scales it up: a short timing, stored in
``runs/estimates.json``. A probe that runs past ``--timeout`` (wall seconds) leaves a lower
bound: the CPU it spent, scaled as if it had finished.

This script is documentation tooling, so unlike the library it may name games.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
RUNS = HERE / "runs"
WORK = HERE / "work"
"""Finished games of runs in progress (git-ignored): a run of hours resumes from them."""
RESUMABLE = frozenset({"fairness", "arena"})
"""The commands that keep their finished games in ``--out`` and resume from them."""
TEMPLATE = ROOT / "docs" / "strength.src.md"
PAGE = ROOT / "docs" / "strength.md"
SEED = 2026
GUIDE = (
    "root=race,rollout=greedy,depth=8,prior=greedy,model=1,topk=4,margin=0.7,purify=0.5,gamma=0.3"
)
"""The expert's guidance (``GUIDED`` in bots/ismcts.py, docs/strength.md "The agents"), given
to ``cheat`` as well: its root race included, so ``cheat`` and ``expert`` differ in what they
see only."""

# Table sizes of the games; fixed here (not read from the registry) so that the list of
# runs, and so the page, does not change when a game's limits do without anyone noticing.
SIZES = {
    "facade": (2, 3, 4),
    "lonely-face": (2, 3, 4),
    "corporation": tuple(range(4, 11)),
    "notorious": tuple(range(3, 11)),
}
DEFAULT = {"facade": 2, "lonely-face": 2, "corporation": 5, "notorious": 4}
SECOND_SEED = 2027
SECOND_LOOK = (("facade", 2), ("corporation", 5), ("corporation", 6), ("notorious", 3))
"""All-expert tables measured again on a second seed: the three whose p on seed 2026 lay
between 0.01 and 0.025 (where about 0.3 would be expected without a seat effect), and
Corporation at 6, where p1 was the lowest seat as at 5. Pooled with the first seed's
400 games, 800 games tell a small real effect from a first look's bad luck."""
MORE_SEEDS: tuple[tuple[str, int, int, int], ...] = (
    *((game, n, SECOND_SEED, 400) for game, n in SECOND_LOOK),
    ("facade", 2, 2028, 800),
)
"""(game, seats, seed, games) of each all-expert table made again on another seed: the second
looks, and a third seed for Façade at 2, where both seeds gave p1 56% although the expert
decides every position as its mirror image (tests/test_facade_mirror.py)."""
TITLES = {
    "facade": "Façade",
    "lonely-face": "Lonely Face",
    "cabin": "The Cabin",
    "corporation": "Corporation",
    "notorious": "Notorious",
}

LEVEL_TABLES = {"facade": 2, "lonely-face": 2, "cabin": 1, "corporation": 4, "notorious": 4}
"""The levels' tables (docs/strength.md, "Levels"): the two-player games at two, the Cabin
alone (each deal played by both levels), Corporation and Notorious at four with two seats
of each level (``-p A,B`` is cycled over the seats: A, B, A, B)."""
LEVEL_GAMES: dict[tuple[str, str], dict[str, int]] = {
    ("beginner", "casual"): {"*": 400, "corporation": 4000},
    ("casual", "strong"): {"*": 200, "lonely-face": 800},
    ("strong", "expert"): {"*": 400, "cabin": 1600},
}
"""Games of each level against the next (``"*"``: every game unless it names its own): enough
to separate a few points. At 100 games strong → expert was separated in no game and at 200
Lonely Face's casual → strong was not; each is a few minutes of CPU on the compiled build.
The Cabin's strong → expert, +0.49 squid points on 200 deals and not separated, gets 800
deals (1,600 games, under 4 minutes). Corporation's beginner → casual, 22.0% against 28.0%
a seat on 400 games once the beginner's ratings were made the same from every seat (not
separated), gets 4,000 games (under a minute)."""


@dataclass(frozen=True)
class Run:
    """One measurement: its command is the whole truth of what was done."""

    id: str
    section: str
    argv: tuple[str, ...]
    """The command as a person types it: ``decklab …`` or ``python SCRIPT …``."""
    label: str = ""
    """What the row shows, e.g. ``expert vs greedy``."""
    game: str = ""
    seats: int = 0
    scale: tuple[str, int, int] | None = None
    """(flag, full value, probe value): how ``estimate`` shortens the command."""

    @property
    def command(self) -> str:
        return shlex.join(self.argv)

    @property
    def path(self) -> Path:
        return RUNS / f"{self.id}.json"

    def executable(self) -> list[str]:
        """The argv to execute: ``decklab`` through this interpreter's module, so the
        sources and the build on ``PYTHONPATH`` are the ones measured."""
        head, *rest = self.argv
        if head == "decklab":
            return [sys.executable, "-m", "decklab.cli", *rest]
        if head == "python":
            return [sys.executable, *rest]
        raise ValueError(f"run {self.id}: unknown program {head!r}")

    def shortened(self, count: int | None = None) -> tuple[list[str], int] | None:
        """The command with its count cut to the probe's (or ``count``), and that count."""
        if self.scale is None:
            return None
        flag, _, probe = self.scale
        probe = count or probe
        argv = list(self.executable())
        argv[argv.index(flag) + 1] = str(probe)
        return argv, probe


def _arena(
    section: str, rid: str, game: str, seats: int, lineup: Sequence[str], games: int, label: str
) -> Run:
    argv: tuple[str, ...] = (
        "decklab",
        "arena",
        game,
        "-n",
        str(seats),
        "-p",
        ",".join(lineup),
        "-g",
        str(games),
    )
    argv += ("--seed", str(SEED), "--json", "--no-progress")
    return Run(rid, section, argv, label, game, seats, ("-g", games, 1))


VOLUME_FAST: dict[int, int] = {3: 6000, 4: 4800}
"""Lonely Face's table sizes where ``fast``'s edge over greedy (about 2 points) needs
more than the 400 games of the vs-greedy table to show: games a run, a multiple of
the seats so that every seat gets as many. The counts give 80% power at a 5% level
for an edge of 1.7 points at 3 players and 1.8 at 4 (the helper's screens on seed 36:
35.1% of 3,000 and 27.0% of 4,000)."""


VOLUME_EXPERT: tuple[tuple[str, int, int], ...] = (("notorious", 10, 1000),)
"""(game, seats, games) where the expert's 100 games against greedy did not separate its
edge from the fair share: Notorious at 10, 15.5% (9.7–23.9) against 10%. 1,000 games (100
in each seat) give an interval of about ±2.3 points, which separates an edge of 5."""


def _one_against(agent: str, other: str, seats: int) -> list[str]:
    """The agent under test in one seat, ``other`` in every other: its rate is one number."""
    return [agent] + [other] * (seats - 1)


FAIRNESS_AGENTS = ("greedy", "expert", "random", "beginner", "casual", "fast", "strong")
"""Every agent a person or the lab can seat, each at every table size in an all-same
table: the issue's targets name greedy and expert, and the page shows them all, because
the lab's volume bot (``fast``) and the levels people choose are players too."""


def runs() -> list[Run]:
    """Every run of the report, in the page's order."""
    out: list[Run] = []
    for game, sizes in SIZES.items():
        for agent in FAIRNESS_AGENTS:
            for n in sizes:
                argv: tuple[str, ...] = (
                    "decklab",
                    "fairness",
                    game,
                    "-p",
                    agent,
                    "--players",
                    str(n),
                )
                argv += ("-g", "400", "--seed", str(SEED), "--json", "--no-progress")
                rid = f"fairness-{game}-{agent}-{n}"
                out.append(Run(rid, f"fairness-{agent}", argv, agent, game, n, ("-g", 400, 1)))
    for game, n, seed, games in MORE_SEEDS:
        argv = ("decklab", "fairness", game, "-p", "expert", "--players", str(n), "-g", str(games))
        argv += ("--seed", str(seed), "--json", "--no-progress")
        rid = f"fairness-{game}-expert-{n}-seed{seed}"
        out.append(Run(rid, "fairness-second", argv, "expert", game, n, ("-g", games, 1)))
    bots = {"random": 400, "beginner": 400, "fast": 400, "strong": 100, "expert": 100}
    for game, sizes in SIZES.items():
        for n in sizes:
            for bot, games in bots.items():
                rid = f"vs-greedy-{game}-{n}-{bot}"
                lineup = _one_against(bot, "greedy", n)
                out.append(_arena("vs-greedy", rid, game, n, lineup, games, f"{bot} vs greedy"))
    for n, games in VOLUME_FAST.items():
        # Where 400 games cannot separate a small edge from none: the same match, longer.
        rid = f"volume-lonely-face-{n}-fast"
        lineup = _one_against("fast", "greedy", n)
        out.append(_arena("volume", rid, "lonely-face", n, lineup, games, "fast vs greedy"))
    for game, n, games in VOLUME_EXPERT:
        # Where the expert's 100 games could not separate its edge from the fair share.
        rid = f"volume-{game}-{n}-expert"
        lineup = _one_against("expert", "greedy", n)
        out.append(_arena("volume-expert", rid, game, n, lineup, games, "expert vs greedy"))
    for n in SIZES["corporation"]:
        # The arena rotates the one expert through every seat on each deal, so 20·n games
        # are 20 deals: exactly 20 games in each seat (issue 20's per-seat target).
        rid = f"seats-corporation-{n}-expert"
        lineup = _one_against("expert", "greedy", n)
        out.append(_arena("seats", rid, "corporation", n, lineup, 20 * n, "expert vs greedy"))
    cheat = f"cheat:iters=192,{GUIDE}"
    for game, n in DEFAULT.items():
        rid = f"cheat-{game}-{n}"
        lineup = _one_against(cheat, "expert", n)
        out.append(_arena("cheat", rid, game, n, lineup, 100, "cheat vs expert"))
    argv = ("python", "docs/strength/cabin_deals.py", "--deals", "2000", "--workers", "2")
    out.append(Run("cabin-bound-0-1999", "cabin", argv, "deals 0–1999", "cabin", 1, None))
    for first in (2000, 2200):
        argv = ("python", "docs/strength/cabin_deals.py", "--first", str(first))
        argv += ("--deals", "200", "--workers", "1")
        label = f"deals {first}–{first + 199}"
        out.append(
            Run(
                f"cabin-bound-{first}-{first + 199}",
                "cabin",
                argv,
                label,
                "cabin",
                1,
                ("--deals", 200, 2),
            )
        )
    for game, n in DEFAULT.items():
        for iters in (12, 24, 48, 96, 192, 384):
            rid = f"budget-{game}-{n}-{iters}"
            lineup = _one_against(f"expert:iters={iters}", "greedy", n)
            label = f"expert {iters} iterations vs greedy"
            out.append(_arena("budget", rid, game, n, lineup, 100, label))
    for samples in (3, 6, 12, 24, 48):
        spec = f"expert:samples={samples}"
        rid = f"budget-cabin-{samples}"
        out.append(_arena("budget", rid, "cabin", 1, [spec], 100, f"expert on {samples} deals"))
    for (weaker, stronger), counts in LEVEL_GAMES.items():
        for game, n in LEVEL_TABLES.items():
            rid = f"levels-{game}-{weaker}-{stronger}"
            count = counts.get(game, counts["*"])
            out.append(
                _arena("levels", rid, game, n, [weaker, stronger], count, f"{weaker} vs {stronger}")
            )
    for game in ("facade", "lonely-face", "cabin", "corporation", "notorious"):
        argv = ("python", "bench/fast_bot.py", "timing", "--positions", "30", "--game", game)
        argv += ("--json",)
        out.append(Run(f"cpu-{game}", "cpu", argv, "", game, 0, ("--positions", 30, 3)))
    return out


# ---------------------------------------------------------------- running


def _machine() -> dict[str, Any]:
    model = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    build = "pure" if os.environ.get("DECKLAB_PURE") else "compiled if built"
    try:
        import decklab

        build = decklab.BUILD
    except ImportError:
        pass
    return {
        "host_cpu": model or platform.processor(),
        "cpus": os.cpu_count(),
        "load_at_start": list(os.getloadavg()),
        "platform": platform.platform(),
        "python": platform.python_version(),
        "build": build,
        "nice": os.nice(0),
    }


def _commit() -> dict[str, Any]:
    def git(*args: str) -> str:
        done = subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True)
        return done.stdout.strip()

    return {"sha": git("rev-parse", "HEAD"), "dirty": bool(git("status", "--porcelain", "src"))}


@dataclass
class Measured:
    returncode: int
    stdout: str
    stderr: str
    wall_s: float
    cpu_s: float
    timed_out: bool = False


def measure(argv: Sequence[str], timeout: float | None = None) -> Measured:
    """Run ``argv`` and measure its wall time and the CPU time of it and its workers.

    ``os.wait4`` gives the rusage of this one child (with the workers it waited for), so
    several runs measured at once in threads do not mix their CPU times."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        proc = subprocess.Popen(list(argv), cwd=ROOT, stdout=out, stderr=err)
        timed_out = False
        deadline = None if timeout is None else start + timeout
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG if deadline else 0)
            if pid:
                break
            if deadline and time.perf_counter() > deadline:
                proc.kill()
                timed_out = True
                pid, status, usage = os.wait4(proc.pid, 0)
                break
            time.sleep(0.2)
        wall = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        return Measured(
            proc.returncode,
            out.read().decode(),
            err.read().decode(errors="replace"),
            wall,
            usage.ru_utime + usage.ru_stime,
            timed_out,
        )


def load(run: Run, runs_dir: Path = RUNS) -> dict[str, Any] | None:
    path = runs_dir / f"{run.id}.json"
    if not path.exists():
        return None
    record: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return record


@dataclass(frozen=True)
class BotChange:
    """A change to how bots play, after which some records measure bots that no longer exist."""

    when: str
    """UTC, ISO 8601: records started before it are outdated."""
    what: str
    game: str | None = None
    """The game it touches (None: every game)."""
    more_than: int = 0
    """It touches tables of more than this many seats only."""
    unchanged: frozenset[str] = frozenset({"greedy", "random"})
    """Agents it leaves as they were: a run that plays only these still holds."""
    scripts: bool = True
    """Whether it touches the runs of a script of its own (the CPU timings of greedy,
    fast and expert, the Cabin's deals) where it names their game."""


BOT_CHANGES: tuple[BotChange, ...] = (
    BotChange(
        "2026-12-02T20:45:00+00:00",
        "the bots keep equally rated moves in turn order from the deciding seat, "
        "no longer by seat number",
        game="notorious",
        unchanged=frozenset({"greedy", "random", "casual"}),
    ),
    BotChange(
        "2026-12-02T21:16:00+00:00",
        "the search squashes margins on its own seat's scale, no longer on p1's",
        more_than=2,
        unchanged=frozenset({"greedy", "random", "casual", "beginner", "fast"}),
    ),
    BotChange(
        "2026-12-03T07:53:00+00:00",
        "the beginner rates its moves by greedy's own table model, the same from every "
        "seat, no longer by a lookahead that treated the seats still to choose otherwise "
        "than those that had chosen",
        game="corporation",
        unchanged=frozenset({"greedy", "random", "casual", "fast", "expert", "strong", "cheat"}),
        scripts=False,
    ),
)
"""Changes to the bots' play. A record made before one that touches its run measured
bots that no longer exist, so it is ``outdated`` and is made again. A run of a script
of its own (no ``-p``: the Cabin's deals, the CPU timings) counts as playing changed
bots if the change names its game; a change to every game leaves those alone (the
timings measure CPU, the Cabin is played alone)."""


def _agents(run: Run) -> list[str] | None:
    """The agents a run plays (``-p``), by name; None for a script of its own."""
    if "-p" not in run.argv:
        return None
    specs = run.argv[run.argv.index("-p") + 1].split(",")
    # ``cheat:iters=192,root=race,…``: the words after a spec's first are its options
    return [name for name in (spec.split(":", 1)[0] for spec in specs) if "=" not in name]


def outdated_by(run: Run, record: dict[str, Any]) -> str | None:
    """What changed in the bots since ``record`` was made, or None if it still holds."""
    agents = _agents(run)
    started = datetime.fromisoformat(str(record.get("started") or "2000-01-01T00:00:00+00:00"))
    for change in BOT_CHANGES:
        if change.game is not None and run.game != change.game:
            continue
        if change.more_than and run.seats <= change.more_than:
            continue
        if agents is None and (change.game is None or not change.scripts):
            continue
        if agents is not None and set(agents) <= change.unchanged:
            continue
        if started < datetime.fromisoformat(change.when):
            return change.what
    return None


def state(run: Run, runs_dir: Path = RUNS) -> str:
    """``done``, ``missing``, ``stale`` (recorded with another command) or ``outdated``
    (recorded before a change to the bots it measures: :data:`BOT_CHANGES`)."""
    record = load(run, runs_dir)
    if record is None:
        return "missing"
    if record.get("command") != run.command:
        return "stale"
    return "outdated" if outdated_by(run, record) else "done"


def execute(run: Run, runs_dir: Path = RUNS, work_dir: Path = WORK) -> dict[str, Any]:
    """Run it and write its record; a failed command writes nothing and raises.

    A command of :data:`RESUMABLE` keeps its finished games in ``work_dir/ID/games``, so a run
    cut short (the session ended) resumes there when made again; its record adds up the
    CPU and wall time of every sitting and keeps the first sitting's start, which decides
    whether a later change to the bots outdates it (then the kept games are dropped).
    """
    started = datetime.now(UTC).isoformat(timespec="seconds")
    machine = _machine()
    argv = run.executable()
    earlier = Sitting(started)
    folder = None
    if len(run.argv) > 1 and run.argv[1] in RESUMABLE and "--out" not in run.argv:
        folder = work_dir / run.id
        earlier = Sitting.resume(folder, run, started)
        argv += ["--out", str(folder / "games")]
    done = measure(argv)
    if done.returncode != 0:
        raise RuntimeError(f"{run.id} failed ({done.returncode}): {done.stderr[-2000:]}")
    record: dict[str, Any] = {
        "id": run.id,
        "section": run.section,
        "command": run.command,
        "wall_s": round(earlier.wall_s + done.wall_s, 2),
        "cpu_s": round(earlier.cpu_s + done.cpu_s, 2),
        "started": earlier.started,
    }
    if earlier.sittings:
        record["sittings"] = earlier.sittings + 1
    record |= {"machine": machine, "commit": _commit(), "result": json.loads(done.stdout)}
    _write(runs_dir / f"{run.id}.json", record)
    if folder is not None:
        shutil.rmtree(folder, ignore_errors=True)
    return record


@dataclass
class Sitting:
    """What the earlier sittings of a resumed run did: its start, their CPU and wall time."""

    started: str
    sittings: int = 0
    cpu_s: float = 0.0
    wall_s: float = 0.0

    @classmethod
    def resume(cls, folder: Path, run: Run, now: str) -> Sitting:
        """The earlier sittings kept in ``folder``, or a fresh start (the folder emptied)
        when it holds another command or games of bots changed since."""
        from decklab.lab.runner import BATCHES, finished_batches

        note = folder / "sitting.json"
        try:
            kept = json.loads(note.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            kept = None
        if kept is None or kept.get("command") != run.command or outdated_by(run, kept):
            shutil.rmtree(folder, ignore_errors=True)
            kept = {"command": run.command, "started": now, "sittings": 0}
        sitting = cls(str(kept["started"]), int(kept["sittings"]))
        for log in folder.rglob(BATCHES):
            for entry in finished_batches(log.parent).values():
                sitting.cpu_s += float(entry["cpu_seconds"])
                sitting.wall_s += float(entry["wall_seconds"])
        folder.mkdir(parents=True, exist_ok=True)
        kept["sittings"] = sitting.sittings + 1
        note.write_text(json.dumps(kept, indent=1) + "\n", encoding="utf-8")
        return sitting


def kept(run: Run, work_dir: Path = WORK) -> str:
    """``  [kept: 6 of 16 batches, about 2.5 h of CPU to go]`` for a run cut short whose
    games wait in ``work_dir`` (a table size at a time), else nothing: how far a run of
    hours has got, and what its own batches say the rest costs (a better guide than an
    estimate derived from another run)."""
    from decklab.lab.runner import MANIFEST, finished_batches, read_plan

    parts = []
    for manifest in sorted((work_dir / run.id).rglob(MANIFEST)):
        total = read_plan(manifest.parent).batches
        done = finished_batches(manifest.parent)
        text = f"{len(done)} of {total} batches"
        if done and len(done) < total:
            mean = math.fsum(float(e["cpu_seconds"]) for e in done.values()) / len(done)
            text += f", about {_secs(mean * (total - len(done)))} of CPU to go"
        parts.append(text)
    return f"  [kept: {', '.join(parts)}]" if parts else ""


def _write(path: Path, record: dict[str, Any]) -> None:
    """One field a line, the tool's result on one line (a Cabin report is thousands of rows)."""
    head = {k: v for k, v in record.items() if k != "result"}
    text = json.dumps(head, indent=1, ensure_ascii=False)[:-2]
    text += ',\n "result": ' + json.dumps(record["result"], ensure_ascii=False) + "\n}\n"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


STARTUP = (
    "import decklab.cli, decklab.bots, decklab.lab.arena\n"
    "from decklab.engine.registry import game_names, get_game\n"
    "for name in game_names(): get_game(name)\n"
)


def startup_cpu() -> float:
    """CPU seconds a command spends before its first game (imports): not scaled up."""
    return measure([sys.executable, "-c", STARTUP]).cpu_s


def estimate(run: Run, timeout: float, startup: float = 0.0) -> dict[str, Any] | None:
    """A short timing of the run: its command on the probe's count, scaled up.

    ``startup`` (the imports) is paid once, so it is taken off before scaling. A probe
    that is mostly start-up (under 2 s beside it) says little, so it is played again on
    eight times the count, while that stays below the full one."""
    short = run.shortened()
    if short is None or run.scale is None:
        return None
    argv, probe = short
    full = run.scale[1]
    done = measure(argv, timeout)
    while not done.timed_out and done.cpu_s - startup < 2.0 and probe * 8 < full:
        argv, probe = run.shortened(probe * 8) or (argv, probe)
        done = measure(argv, timeout)
    if done.timed_out:
        # The probe did not finish its count, so the full count needs more than this share.
        # (An arena deal is ``seats`` games: the unfinished probe played fewer than them.)
        fairness = run.section.startswith("fairness-")
        games = probe if fairness else probe * max(run.seats, 1)
        unit = max(done.cpu_s - startup, 0.0) / games
        lower = round(startup + unit * full, 1)
        return {
            "command": run.command,
            "cpu_s": lower,
            "lower_bound": True,
            "unit_cpu_s": round(unit, 3),
            "probe_cpu_s": round(done.cpu_s, 2),
        }
    if done.returncode != 0:
        return None
    result = json.loads(done.stdout)
    played = probe
    if isinstance(result, dict) and "games" in result:
        played = int(result["games"])
    elif isinstance(result, dict) and result.get("tables"):
        played = int(result["tables"][0]["games"])
    return {
        "command": run.command,
        "cpu_s": round(startup + max(done.cpu_s - startup, 0.0) * full / max(played, 1), 1),
        "probe": f"{run.scale[0]} {probe}",
        "probe_games": played,
        "unit_cpu_s": round(max(done.cpu_s - startup, 0.0) / max(played, 1), 3),
        "probe_cpu_s": round(done.cpu_s, 2),
        "lower_bound": False,
    }


def derive(every: Sequence[Run], found: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Estimates of the expert's costly runs from the probe of ``expert vs greedy`` at the
    same table: one probe instead of one per run, each a deal of minutes at a big table.

    From that probe, u = CPU per game of one expert seat; then all-expert fairness costs
    400 · n · u, ``strong`` (48 iterations) and a budget point of N iterations u · N/192 a
    game, and one ``cheat`` among experts n · u a game (``cheat`` searches as much). Where
    the probe ran out of time (a lower bound), u is extrapolated from the biggest table of
    the same game whose probe finished, if that is more: an expert's decisions cost about
    the same at any table size (the search's budget is fixed), so that is a floor too."""
    base: dict[tuple[str, int], tuple[float, str]] = {}
    finished: dict[str, list[tuple[int, float]]] = {}
    for run in every:
        probe = found.get(f"vs-greedy-{run.game}-{run.seats}-expert")
        complete = probe and not probe.get("lower_bound") and "unit_cpu_s" in probe
        if run.id.endswith("-expert") and run.section == "vs-greedy" and probe and complete:
            finished.setdefault(run.game, []).append((run.seats, probe["unit_cpu_s"]))
    for run in every:
        probe = found.get(f"vs-greedy-{run.game}-{run.seats}-expert")
        if not probe or "unit_cpu_s" not in probe or "derived_from" in probe:
            continue
        unit, source = float(probe["unit_cpu_s"]), "probe"
        if probe.get("lower_bound"):
            smaller = [(n, u) for n, u in finished.get(run.game, []) if n < run.seats]
            if smaller and max(smaller)[1] > unit:
                n, unit = max(smaller)
                source = f"the {n}-player probe"
        base[(run.game, run.seats)] = (unit, source)
    out: dict[str, dict[str, Any]] = {}
    for run in every:
        mine = found.get(run.id)
        probed = mine and mine.get("command") == run.command and "derived_from" not in mine
        if probed and not (mine and mine.get("lower_bound") and run.section == "vs-greedy"):
            continue
        if (run.game, run.seats) not in base or run.section == "levels":
            continue  # the levels' runs are probed: two levels of each share a table
        unit, source = base[(run.game, run.seats)]
        full = run.scale[1] if run.scale else 0
        if run.section == "fairness-expert":
            cpu = full * run.seats * unit
        elif run.section == "fairness-strong":
            cpu = full * run.seats * unit * 48 / 192
        elif run.id.endswith("-strong"):
            cpu = full * unit * 48 / 192
        elif run.id.endswith("-expert") and run.section == "vs-greedy":
            if source == "probe":
                continue
            cpu = full * unit
        elif run.section == "budget" and "iters=" in run.command:
            iters = int(run.command.split("iters=")[1].split(",")[0])
            cpu = full * unit * iters / 192
        elif run.section == "cheat":
            cpu = full * run.seats * unit
        else:
            continue
        out[run.id] = {
            "command": run.command,
            "cpu_s": round(cpu, 1),
            "lower_bound": source == "probe"
            and bool(found.get(f"vs-greedy-{run.game}-{run.seats}-expert", {}).get("lower_bound")),
            "derived_from": f"vs-greedy-{run.game}-{run.seats}-expert, {source}",
        }
    return out


def load_estimates(runs_dir: Path = RUNS) -> dict[str, dict[str, Any]]:
    path = runs_dir / "estimates.json"
    if not path.exists():
        return {}
    found: dict[str, dict[str, Any]] = json.loads(path.read_text(encoding="utf-8"))
    return found


# ---------------------------------------------------------------- rendering


def _pct(x: float | None) -> str:
    return "—" if x is None else f"{100 * x:.1f}%"


def _secs(x: float | None) -> str:
    if x is None:
        return "—"
    if x < 600:
        return f"{x:.0f} s" if x >= 10 else f"{x:.1f} s"
    if x < 3 * 3600:
        return f"{x / 60:.0f} min"
    return f"{x / 3600:.1f} h"


def _p(x: float) -> str:
    return f"{x:.2g}"


def _cost(record: dict[str, Any]) -> str:
    """Wall and CPU time of a record, with the build and commit it was made on."""
    cpu = record.get("cpu_s")
    wall = _secs(record.get("wall_s"))
    sha = str(record.get("commit", {}).get("sha", ""))[:8] or "?"
    build = record.get("machine", {}).get("build", "?")
    cpu_text = "not recorded" if cpu is None else _secs(cpu)
    return f"{wall} | {cpu_text} | {build}, `{sha}`"


def _pending(run: Run, status: str, estimates: dict[str, dict[str, Any]], cols: int) -> str:
    est = estimates.get(run.id)
    guess = ""
    if est and est.get("command") == run.command:
        guess = f" (about {'≥ ' if est.get('lower_bound') else ''}{_secs(est['cpu_s'])} CPU)"
    what = {
        "missing": "not run yet",
        "stale": "stale (the command changed), not rerun yet",
        "outdated": "outdated (the bots changed since), not rerun yet",
    }[status]
    cells = [f"**{what}**{guess}: `{run.command}`"] + [""] * (cols - 1)
    return " | ".join(cells)


def _arena_row(run: Run, r: dict[str, Any]) -> str:
    first = r["per_agent"][0]
    fair = 1 / run.seats if run.seats > 1 else None
    if fair is None:
        rate = f"mean score {first['mean_score']:.2f} ({first['score_low']:.2f}–{first['score_high']:.2f})"
        verdict = "—"
    else:
        rate = f"{_pct(first['win_rate'])} ({_pct(first['win_low'])} – {_pct(first['win_high'])})"
        if first["win_low"] > fair:
            verdict = "above"
        elif first["win_high"] < fair:
            verdict = "below"
        else:
            verdict = "not separated"
    spd = r.get("seconds_per_decision") or {}
    ms = ", ".join(f"{1000 * spd[a['label']]:.1f}" for a in r["per_agent"] if a["label"] in spd)
    share = "—" if fair is None else f"{100 * fair:.0f}%"
    return f"{r['games']} | {rate} | {share} | {verdict} | {ms}"


ARENA_HEAD = (
    "| game (seats) | match | games | first agent: win rate (95%) | fair share | verdict |"
    " ms/decision (wall, each agent) | wall | CPU | build, commit |",
    "|---|---|---:|---|---:|---|---:|---:|---:|---|",
)


def _table(
    selected: Iterable[Run],
    head: tuple[str, str],
    lead: Callable[[Run], str],
    body: Callable[[Run, Any], str],
    runs_dir: Path,
    estimates: dict[str, dict[str, Any]],
) -> list[str]:
    lines = list(head)
    for run in selected:
        cols = head[0].count("|") - 1 - (lead(run).count("|") + 1)
        status = state(run, runs_dir)
        record = load(run, runs_dir)
        if status == "done" and record is not None:
            lines.append(f"| {lead(run)} | {body(run, record['result'])} | {_cost(record)} |")
        else:
            lines.append(f"| {lead(run)} | {_pending(run, status, estimates, cols)} |")
    return lines


def _game(run: Run) -> str:
    return f"{TITLES.get(run.game, run.game)} ({run.seats})"


LEVELS_HEAD = (
    "| game (seats) | levels | games | weaker level: win rate (95%) | stronger level |"
    " fair share | verdict | ms/decision (wall, weaker, stronger) | wall | CPU | build, commit |",
    "|---|---|---:|---|---|---:|---|---:|---:|---:|---|",
)


def _levels_body(run: Run, r: dict[str, Any]) -> str:
    """The weaker level (the first spec) against the stronger one.

    At a table, each level's win rate against the fair share 1/seats (two of each at four
    seats: the two rates add up to half). In the Cabin, played alone, each deal is played
    by both levels: their mean squid points (fewer is better), and the verdict from the
    arena's paired rating (Bradley–Terry on which level scored fewer on the same deal,
    bootstrapped over deals), since the two means share their deals."""
    weak, strong = r["per_agent"][0], r["per_agent"][1]
    spd = r.get("seconds_per_decision") or {}
    ms = ", ".join(f"{1000 * spd[a['label']]:.1f}" for a in (weak, strong) if a["label"] in spd)
    if run.seats == 1:

        def mean(a: dict[str, Any]) -> str:
            return f"{a['mean_score']:.2f} ({a['score_low']:.2f}–{a['score_high']:.2f})"

        diff = weak["mean_score"] - strong["mean_score"]
        rated = {x["spec"]: x for x in r.get("ratings") or []}
        w, s = rated.get(weak["label"]), rated.get(strong["label"])
        verdict = "not separated"
        if w and s and None not in (w["low"], w["high"], s["low"], s["high"]):
            if s["low"] > w["high"]:
                verdict = "stronger ahead (paired)"
            elif w["low"] > s["high"]:
                verdict = "weaker ahead (paired)"
        cells = (
            f"mean {mean(weak)} squid points",
            f"{mean(strong)}: {diff:+.2f} for the weaker",
            "—",
            verdict,
        )
    else:
        fair = 1 / run.seats

        def rate(a: dict[str, Any]) -> str:
            return f"{_pct(a['win_rate'])} ({_pct(a['win_low'])} – {_pct(a['win_high'])})"

        verdict = "not separated"
        if weak["win_high"] < fair:
            verdict = "stronger ahead"
        elif weak["win_low"] > fair:
            verdict = "weaker ahead"
        cells = (rate(weak), rate(strong), f"{100 * fair:.0f}%", verdict)
    games = f"{r['games']} ({r['deals']} deals)" if run.seats == 1 else str(r["games"])
    return f"{games} | " + " | ".join(cells) + f" | {ms}"


def _fairness_body(run: Run, r: dict[str, Any]) -> str:
    t = r["tables"][0]
    seats = ", ".join(f"{100 * s['win_rate']:.1f}" for s in t["seats"])
    effect = "**yes**" if t["p_value"] <= r.get("alpha", 0.01) else "no"
    return f"{t['games']} | {seats} | {t['chi2']:.2f} | {_p(t['p_value'])} | {effect}"


def _seed(run: Run) -> int:
    return int(run.argv[run.argv.index("--seed") + 1])


def pooled_fairness(chosen: Sequence[Run], every: Sequence[Run], runs_dir: Path = RUNS) -> str:
    """Each table made on more seeds pooled with its first seed's: the seats' wins added up
    over every made run (same agent, same table, other deals), then the same χ² test of
    equal shares. A table whose first seed is not made is left out."""
    from decklab.lab.stats import equal_shares_chi2  # the page's one statistic from the lab

    by_id = {run.id: run for run in every}
    tables_of: dict[tuple[str, int], list[Run]] = {}
    for run in chosen:
        tables_of.setdefault((run.game, run.seats), []).append(run)
    lines = []
    for (game, seats), more in tables_of.items():
        first = by_id.get(f"fairness-{game}-expert-{seats}")
        made = [r for r in [first, *more] if r is not None and state(r, runs_dir) == "done"]
        if first not in made or len(made) < 2:
            continue
        records = [load(r, runs_dir) for r in made]
        tables = [rec["result"]["tables"][0] for rec in records if rec is not None]
        games = sum(t["games"] for t in tables)
        wins = [sum(t["seats"][i]["wins"] for t in tables) for i in range(seats)]
        chi2, dof, p = equal_shares_chi2(wins)
        rates = ", ".join(f"{100 * w / games:.1f}" for w in wins)
        effect = "a seat effect" if p <= 0.01 else "no seat effect"
        seeds = [str(_seed(r)) for r in made]
        named = ", ".join(seeds[:-1]) + " and " + seeds[-1]
        lines.append(
            f"- {TITLES[game]} at {seats}, seeds {named} pooled"
            f" ({games:,} games): {rates}%; χ² = {chi2:.2f}, {dof} dof, p = {_p(p)}: {effect}."
        )
    if not lines:
        return "Pooled over the seeds: no second-seed table is made yet."
    return "Pooled over the seeds (each seat's wins added up, the same test):\n\n" + "\n".join(
        lines
    )


def _cabin_body(run: Run, r: dict[str, Any]) -> str:
    rows = r["rows"]
    diffs = [float(x["expert"]) - float(x["clairvoyant"]) for x in rows]
    mean = sum(diffs) / len(diffs)
    sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (len(diffs) - 1)) if len(diffs) > 1 else 0
    half = 1.96 * sd / math.sqrt(len(diffs))
    s = r["summary"]
    means = " | ".join(f"{s[k]['mean']:.2f}" for k in ("clairvoyant", "expert", "greedy", "random"))
    return f"{len(rows)} | {means} | +{mean:.2f} ({mean - half:+.2f} to {mean + half:+.2f})"


def _cpu_body(run: Run, r: list[dict[str, Any]]) -> str:
    row = r[0]
    return (
        f"{row['positions']} | {row['greedy_ms']:.2f} | {row['fast_ms']:.2f} |"
        f" {row['expert_ms']:.1f} | ×{row['ratio']:.1f}"
    )


SEATS_HEAD = (
    "| players | games a seat | 2× fair | expert overall (95%) |"
    " expert per seat, % (95% interval), verdict | seats met | wall | CPU | build, commit |",
    "|---:|---:|---:|---|---|---|---:|---:|---|",
)


def seat_verdict(low: float, high: float, target: float) -> str:
    """``met`` (the interval's low end reaches the target), ``not met`` (wholly below), or
    ``?`` (it straddles the target: the games cannot tell)."""
    if low >= target:
        return "met"
    if high < target:
        return "not met"
    return "?"


def _seat_verdicts(run: Run, r: dict[str, Any]) -> list[tuple[str, dict[str, Any], str]]:
    """The first agent's rate in each seat, each with its verdict against twice the fair share."""
    target = 2 / run.seats
    rates = r["per_agent_seat"][r["agents"][0]]
    return [(x["label"], x, seat_verdict(x["win_low"], x["win_high"], target)) for x in rates]


def _seats_body(run: Run, r: dict[str, Any]) -> str:
    verdicts = _seat_verdicts(run, r)
    games = sorted({x["games"] for _, x, _ in verdicts})
    per_game = str(games[0]) if len(games) == 1 else "–".join(str(g) for g in (games[0], games[-1]))
    first = r["per_agent"][0]
    overall = f"{_pct(first['win_rate'])} ({_pct(first['win_low'])} – {_pct(first['win_high'])})"
    cells = "; ".join(
        f"{seat} {100 * x['win_rate']:.1f} ({100 * x['win_low']:.1f}–{100 * x['win_high']:.1f}) {v}"
        for seat, x, v in verdicts
    )
    met = sum(v == "met" for _, _, v in verdicts)
    summary = f"all {met}" if met == len(verdicts) else f"{met} of {len(verdicts)}"
    for word in ("?", "not met"):
        seats = [seat for seat, _, v in verdicts if v == word]
        if seats:
            summary += f"; {word}: {', '.join(seats)}"
    return f"{per_game} | {100 * 2 / run.seats:.1f}% | {overall} | {cells} | {summary}"


def seats_overall(chosen: Sequence[Run], runs_dir: Path = RUNS) -> str:
    """One line over every table size made: how many seats met the target, which did not."""
    made = [(run, load(run, runs_dir)) for run in chosen if state(run, runs_dir) == "done"]
    if not made:
        return "Overall: no table size is made yet."
    counts = {"met": 0, "?": 0, "not met": 0}
    open_seats: list[str] = []
    for run, record in made:
        assert record is not None
        for seat, _, v in _seat_verdicts(run, record["result"]):
            counts[v] += 1
            if v != "met":
                open_seats.append(f"{seat} at {run.seats} ({v})")
    total = sum(counts.values())
    sizes = ", ".join(str(run.seats) for run, _ in made)
    line = (
        f"Overall ({len(made)} of {len(chosen)} table sizes made: {sizes} players):"
        f" {counts['met']} of {total} seats met, {counts['?']} undecided,"
        f" {counts['not met']} not met"
    )
    if not open_seats:
        verdict = "the target is met from every seat" + (
            " at every table size." if len(made) == len(chosen) else " of the sizes made."
        )
        return f"{line}: {verdict}"
    return f"{line}; not met or undecided: {', '.join(open_seats)}."


def section(key: str, runs_dir: Path = RUNS, every: Sequence[Run] | None = None) -> str:
    """The generated Markdown of one ``<!-- runs: KEY -->`` marker."""
    all_runs = list(every if every is not None else runs())
    estimates = load_estimates(runs_dir)
    chosen = [r for r in all_runs if r.section == key]
    if key.startswith("fairness-"):
        head = (
            "| game | players | games | per-seat win rate (%) | χ² | p | seat effect |"
            " wall | CPU | build, commit |",
            "|---|---:|---:|---|---:|---:|---|---:|---:|---|",
        )
        lines = _table(
            chosen,
            head,
            lambda r: f"{TITLES[r.game]} | {r.seats}",
            _fairness_body,
            runs_dir,
            estimates,
        )
        if key == "fairness-second":
            lines += ["", pooled_fairness(chosen, all_runs, runs_dir)]
    elif key == "cabin":
        head = (
            "| deals | played | bound | expert | greedy | random | expert − bound, paired (95%) |"
            " wall | CPU | build, commit |",
            "|---|---:|---:|---:|---:|---:|---|---:|---:|---|",
        )
        lines = _table(chosen, head, lambda r: r.label, _cabin_body, runs_dir, estimates)
    elif key == "cpu":
        head = (
            "| game | positions | greedy ms CPU | fast ms CPU | expert ms CPU | expert ÷ fast |"
            " wall | CPU | build, commit |",
            "|---|---:|---:|---:|---:|---:|---:|---:|---|",
        )
        lines = _table(chosen, head, lambda r: TITLES[r.game], _cpu_body, runs_dir, estimates)
    elif key == "levels":
        lines = _table(
            chosen,
            LEVELS_HEAD,
            lambda r: f"{_game(r)} | {r.label}",
            _levels_body,
            runs_dir,
            estimates,
        )
    elif key == "remaining":
        return remaining(runs_dir, all_runs)
    elif key == "seats":
        lines = _table(chosen, SEATS_HEAD, lambda r: str(r.seats), _seats_body, runs_dir, estimates)
        lines += ["", seats_overall(chosen, runs_dir)]
    else:
        lead: Callable[[Run], str] = lambda r: f"{_game(r)} | {r.label}"  # noqa: E731
        lines = _table(chosen, ARENA_HEAD, lead, _arena_row, runs_dir, estimates)
    if not chosen:
        raise KeyError(f"no runs in section {key!r}")
    return "\n".join(lines)


def remaining(runs_dir: Path = RUNS, every: Sequence[Run] | None = None) -> str:
    """The runs still to make, with the estimated CPU time of each, cheapest first."""
    all_runs = list(every if every is not None else runs())
    estimates = load_estimates(runs_dir)
    todo = [r for r in all_runs if state(r, runs_dir) != "done"]
    if not todo:
        return "Every run of the list is made."

    def cost(run: Run) -> float:
        est = estimates.get(run.id)
        return est["cpu_s"] if est and est.get("command") == run.command else math.inf

    todo.sort(key=lambda r: (cost(r), all_runs.index(r)))
    known = sum(cost(r) for r in todo if math.isfinite(cost(r)))
    unknown = sum(not math.isfinite(cost(r)) for r in todo)
    lines = [
        f"{len(todo)} of {len(all_runs)} runs are still to make; the estimated ones add up to"
        f" {_secs(known)} of CPU, and {unknown} are not estimated yet.",
        "",
        "| run | estimated CPU | command |",
        "|---|---:|---|",
    ]
    for run in todo:
        est = estimates.get(run.id)
        if est and est.get("command") == run.command:
            guess = ("≥ " if est.get("lower_bound") else "") + _secs(est["cpu_s"])
        else:
            guess = "not estimated"
        lines.append(f"| `{run.id}` | {guess} | `{run.command}` |")
    return "\n".join(lines)


MARK = "<!-- runs: "


def render(
    template: Path = TEMPLATE, runs_dir: Path = RUNS, every: Sequence[Run] | None = None
) -> str:
    """The page: the template with every marker line replaced by its section's tables."""
    out = []
    for line in template.read_text(encoding="utf-8").splitlines():
        if line.startswith(MARK) and line.rstrip().endswith("-->"):
            key = line[len(MARK) :].rstrip()[: -len("-->")].strip()
            out.append(section(key, runs_dir, every))
        else:
            out.append(line)
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------- earlier results


def adopt_legacy(runs_dir: Path = RUNS) -> list[str]:
    """Records for the results made before this script, where they fit a run of the list.

    The greedy fairness files of issue 20 hold every table size of a game in one report;
    each size is its own run here (``--players N``: the same seed, so the same games, as
    checked for Façade at 2 players), with the wall time the report measured for it and
    no CPU time (not recorded then). The Cabin's 2,000 deals were made by the same
    command as their run."""
    made = []
    every = {r.id: r for r in runs()}

    def commit_of(path: Path) -> str:
        done = subprocess.run(
            ["git", "log", "--diff-filter=A", "--format=%H", "--", str(path)],
            cwd=ROOT,
            capture_output=True,
            text=True,
        )
        return done.stdout.split()[-1] if done.stdout.split() else ""

    def write(run: Run, source: Path, wall: float | None, result: Any) -> None:
        record = {
            "id": run.id,
            "section": run.section,
            "command": run.command,
            "wall_s": None if wall is None else round(wall, 2),
            "cpu_s": None,
            "imported_from": str(source.relative_to(ROOT)),
            "machine": {"build": "not recorded", "cpus": 2},
            "commit": {"sha": commit_of(source), "dirty": None},
            "result": result,
        }
        _write(runs_dir / f"{run.id}.json", record)
        made.append(run.id)

    for source in sorted((HERE / "issue20").glob("fairness-*-greedy.json")):
        report = json.loads(source.read_text(encoding="utf-8"))
        for table in report["tables"]:
            run = every[f"fairness-{report['game']}-greedy-{table['players']}"]
            one = dict(report, tables=[table])
            write(run, source, table["seconds"], one)
    write(
        every["cabin-bound-0-1999"],
        HERE / "cabin-2000.json",
        None,
        json.loads((HERE / "cabin-2000.json").read_text(encoding="utf-8")),
    )
    return made


# ---------------------------------------------------------------- command line


def _select(args: argparse.Namespace, every: list[Run]) -> list[Run]:
    chosen = every
    if args.ids:
        known = {r.id: r for r in every}
        unknown = [i for i in args.ids if i not in known]
        if unknown:
            raise SystemExit(f"unknown run ids: {', '.join(unknown)} (see `build.py list`)")
        chosen = [known[i] for i in args.ids]
    if args.section:
        chosen = [r for r in chosen if r.section == args.section]
    if args.missing:
        chosen = [r for r in chosen if state(r) != "done"]
    return chosen


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="what", required=True)
    for name in ("list", "run", "estimate"):
        p = sub.add_parser(name)
        p.add_argument("ids", nargs="*")
        p.add_argument("--section")
        p.add_argument("--missing", action="store_true", help="only runs missing or stale")
        if name == "run":
            p.add_argument("--workers", type=int, default=1, help="runs at once")
            p.add_argument("--force", action="store_true", help="rerun runs already made")
        if name == "estimate":
            p.add_argument("--timeout", type=float, default=120, help="seconds per probe")
            p.add_argument("--derive-only", action="store_true", help="no probes: derive only")
    sub.add_parser("render")
    sub.add_parser("adopt", help="records from the results made before this script")
    args = parser.parse_args(argv)
    every = runs()
    if args.what == "render":
        PAGE.write_text(render(), encoding="utf-8")
        print(f"wrote {PAGE.relative_to(ROOT)}")
        return
    if args.what == "adopt":
        print("\n".join(adopt_legacy()))
        return
    chosen = _select(args, every)
    if args.what == "list":
        for run in chosen:
            print(f"{state(run):8} {run.id:36} {run.command}{kept(run)}")
        return
    if args.what == "estimate":
        path = RUNS / "estimates.json"
        found = load_estimates()
        startup = 0.0 if args.derive_only else startup_cpu()
        print(f"startup: {startup:.2f} s CPU", flush=True)
        for run in [] if args.derive_only else chosen:
            est = estimate(run, args.timeout, startup)
            if est is not None:
                found[run.id] = est
                path.write_text(json.dumps(found, indent=1, sort_keys=True) + "\n")
                print(f"{run.id}: {_secs(est['cpu_s'])} CPU", flush=True)
        found.update(derive(every, found))
        path.write_text(json.dumps(found, indent=1, sort_keys=True) + "\n")
        return
    todo = chosen if args.force else [r for r in chosen if state(r) != "done"]

    def one(run: Run) -> None:
        print(f"start {run.id}: {run.command}", flush=True)
        record = execute(run)
        print(
            f"done  {run.id}: wall {_secs(record['wall_s'])}, CPU {_secs(record['cpu_s'])}",
            flush=True,
        )

    with ThreadPoolExecutor(max(1, args.workers)) as pool:
        for future in [pool.submit(one, r) for r in todo]:
            try:
                future.result()
            except RuntimeError as exc:
                print(f"FAILED {exc}", file=sys.stderr, flush=True)


if __name__ == "__main__":
    main()
