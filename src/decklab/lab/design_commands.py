"""The design lab's commands: ``simulate``, ``sweep``, ``tune``, ``compare`` and ``report``.

Kept apart from the arena's commands (``commands.py`` calls :func:`register`)
so that each stays small. Every command checks its whole request before it
plays a game, exits 2 with a one-line reason on bad input, writes only into
the folder it is given, and resumes when run again with the same arguments.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from decklab.bots.spec import split_players
from decklab.engine.errors import DecklabError
from decklab.engine.info import parse_option_pairs
from decklab.extras import require
from decklab.lab.runner import Backend

PlayersOpt = Annotated[
    str,
    typer.Option(
        "--players",
        "-p",
        help="agent specs, one per seat or fewer (cycled over the seats); "
        "restrict=REGEX in a spec bars the agent from matching actions",
    ),
]
GamesOpt = Annotated[
    int, typer.Option("--games", "-g", help="games per variant at least (whole deals)")
]
SeatsOpt = Annotated[
    int | None, typer.Option("--seats", "-n", help="table size (default: one per spec if allowed)")
]
OptionOpt = Annotated[
    list[str] | None, typer.Option("--option", "-o", help="a game option, key=value (repeatable)")
]
SeedOpt = Annotated[int, typer.Option("--seed", help="seed of every deal and agent")]
WorkersOpt = Annotated[int, typer.Option("--workers", "-w", help="local worker processes")]
RayOpt = Annotated[
    str | None,
    typer.Option("--ray", help="run on Ray: a cluster address, or 'local' to start one here"),
]
OutOpt = Annotated[Path, typer.Option("--out", help="the folder for the results (resumable)")]
ProgressOpt = Annotated[bool, typer.Option("--progress/--no-progress", help="show a progress bar")]


def _backend(workers: int, ray: str | None) -> Backend:
    if workers < 1:
        raise DecklabError(f"workers must be at least 1, not {workers}")
    if ray is not None and workers != 1:
        raise DecklabError("give --workers or --ray, not both (Ray uses the cluster's CPUs)")
    return Backend(workers=workers, ray=ray)


def interrupted(out: Path) -> typer.Exit:
    """Ctrl-C ends a long run with 130 (the shell's code for SIGINT) and says how to
    resume: what was finished is on disk, and the same command picks it up."""
    Console(stderr=True, soft_wrap=True).print(
        f"interrupted: what was finished is kept in {out}; "
        "run the same command again (same --out and arguments) to resume",
        highlight=False,
    )
    return typer.Exit(130)


def register(app: typer.Typer) -> None:
    """Add ``simulate``, ``sweep``, ``tune``, ``skill`` and ``report`` to ``app``."""
    console = Console()
    err = Console(stderr=True, soft_wrap=True)

    def fail(message: str) -> typer.Exit:
        err.print(f"[red]error:[/red] {message}", highlight=False)
        return typer.Exit(2)

    @app.command()
    def simulate(
        game: Annotated[str, typer.Argument(help="the game")],
        players: PlayersOpt,
        out: OutOpt,
        games: GamesOpt = 1000,
        seats: SeatsOpt = None,
        option: OptionOpt = None,
        seed: SeedOpt = 0,
        workers: WorkersOpt = 1,
        ray: RayOpt = None,
        progress: ProgressOpt = True,
    ) -> None:
        """Play duplicate deals of GAME and write one Parquet row per game into --out."""
        require("simulate", "numpy", "pyarrow")
        from decklab.lab.simulate import simulate as run

        try:
            summary = run(
                game,
                split_players(players),
                games,
                out,
                seed=seed,
                options=parse_option_pairs(option),
                players=seats,
                backend=_backend(workers, ray),
                progress=progress,
            )
        except DecklabError as exc:
            raise fail(str(exc)) from None
        except KeyboardInterrupt:
            raise interrupted(out) from None
        rates = ", ".join(f"{a} {100 * r:.1f}%" for a, r in summary.win_rates().items())
        resumed = (
            f" ({summary.resumed_batches} batches were already done)"
            if summary.resumed_batches
            else ""
        )
        console.print(
            f"{summary.games} games in {out}{resumed}; win rates: {rates}. "
            f"Next: decklab report {out}",
            highlight=False,
        )

    @app.command()
    def sweep(
        game: Annotated[str, typer.Argument(help="the game")],
        players: PlayersOpt,
        out: OutOpt,
        vary: Annotated[
            list[str],
            typer.Option("--vary", help="key=v1,v2,… (an option, or players); repeat for a grid"),
        ],
        games: GamesOpt = 1000,
        seats: SeatsOpt = None,
        option: OptionOpt = None,
        seed: SeedOpt = 0,
        workers: WorkersOpt = 1,
        ray: RayOpt = None,
        progress: ProgressOpt = True,
    ) -> None:
        """Simulate every variant of a grid (one folder per cell); finished cells are skipped."""
        require("sweep", "numpy", "pyarrow")
        from decklab.lab.sweep import parse_vary
        from decklab.lab.sweep import sweep as run

        try:
            summary = run(
                game,
                split_players(players),
                games,
                parse_vary(vary),
                out,
                seed=seed,
                options=parse_option_pairs(option),
                players=seats,
                backend=_backend(workers, ray),
                progress=progress,
            )
        except DecklabError as exc:
            raise fail(str(exc)) from None
        except KeyboardInterrupt:
            raise interrupted(out) from None
        table = Table(title=f"sweep in {out}", title_justify="left")
        table.add_column("cell", style="bold")
        table.add_column("games", justify="right")
        for name in summary.cells[0][1].plan.agents if summary.cells else []:
            table.add_column(f"{name} wins", justify="right")
        for cell, s in summary.cells:
            rates = s.win_rates()
            table.add_row(cell.label(), str(s.games), *(f"{100 * r:.1f}%" for r in rates.values()))
        console.print(table)
        if summary.skipped:
            console.print(f"{summary.skipped} cells were already finished.")
        console.print(f"Next: decklab report {out}", highlight=False)

    @app.command()
    def tune(
        game: Annotated[str, typer.Argument(help="the game")],
        players: PlayersOpt,
        out: OutOpt,
        param: Annotated[
            list[str],
            typer.Option("--param", help="an option (or players) to tune: key=lo..hi or key=a,b,c"),
        ],
        goal: Annotated[
            list[str],
            typer.Option(
                "--goal",
                help="metric=lo..hi, metric=max or metric=min (length, balance, first_player, "
                "shared_wins, lead_change, margin, score, or an event such as rounds)",
            ),
        ],
        games: Annotated[
            int, typer.Option("--games", "-g", help="games per candidate in the first round")
        ] = 100,
        rounds: Annotated[int, typer.Option("--rounds", help="rounds of successive halving")] = 3,
        candidates: Annotated[
            int, typer.Option("--candidates", help="at most this many candidates (sampled)")
        ] = 16,
        points: Annotated[int, typer.Option("--points", help="values tried in a lo..hi range")] = 6,
        seats: SeatsOpt = None,
        option: OptionOpt = None,
        seed: SeedOpt = 0,
        workers: WorkersOpt = 1,
        ray: RayOpt = None,
        progress: ProgressOpt = True,
    ) -> None:
        """Search GAME's options for the rules that best meet the goals (successive halving)."""
        require("tune", "numpy", "pyarrow")
        from decklab.lab.tune import parse_goals, parse_params
        from decklab.lab.tune import tune as run

        try:
            if rounds < 1 or candidates < 1 or points < 2:
                raise DecklabError("--rounds and --candidates are at least 1, --points at least 2")
            data = run(
                game,
                split_players(players),
                parse_params(param, points),
                parse_goals(goal),
                out,
                games=games,
                rounds=rounds,
                candidates=candidates,
                seed=seed,
                options=parse_option_pairs(option),
                players=seats,
                backend=_backend(workers, ray),
                progress=progress,
            )
        except DecklabError as exc:
            raise fail(str(exc)) from None
        except KeyboardInterrupt:
            raise interrupted(out) from None
        table = Table(title=f"candidates, best first (goals: {', '.join(data['goals'])})")
        table.add_column("rank", justify="right")
        table.add_column("options", style="bold")
        table.add_column("score", justify="right")
        table.add_column("95% interval", justify="right")
        for g in data["goal_names"]:
            table.add_column(g, justify="right")
        table.add_column("games", justify="right")
        for i, c in enumerate(data["ranked"], 1):
            lo, hi = c["score_low"], c["score_high"]
            table.add_row(
                str(i),
                ", ".join(f"{k}={v}" for k, v in c["params"].items()),
                f"{c['score']:.3f}",
                "—" if lo is None else f"{lo:.3f} – {hi:.3f}",
                *(
                    "—" if c["goals"].get(g) is None else f"{c['goals'][g]:.3f}"
                    for g in data["goal_names"]
                ),
                str(c["games"]),
            )
        console.print(table)

    @app.command()
    def skill(
        game: Annotated[str, typer.Argument(help="the game")],
        agent: Annotated[
            str, typer.Option("--agent", help="the agent spec, e.g. ismcts or expert")
        ],
        out: OutOpt,
        budgets: Annotated[
            str, typer.Option("--budgets", help="the doubling ladder, e.g. 8,16,32,64")
        ],
        param: Annotated[str, typer.Option("--param", help="the budget parameter")] = "iters",
        games: GamesOpt = 200,
        seats: SeatsOpt = None,
        option: OptionOpt = None,
        seed: SeedOpt = 0,
        workers: WorkersOpt = 1,
        ray: RayOpt = None,
        progress: ProgressOpt = True,
    ) -> None:
        """The skill trace: AGENT at each budget against itself at half of it."""
        require("skill", "numpy", "pyarrow")
        from decklab.lab.skill import skill_trace

        try:
            try:
                ladder = [int(b) for b in budgets.split(",") if b.strip()]
            except ValueError:
                raise DecklabError(
                    f"--budgets are whole numbers, e.g. 8,16,32, not {budgets!r}"
                ) from None
            data = skill_trace(
                game,
                agent,
                param,
                ladder,
                games,
                out,
                seed=seed,
                options=parse_option_pairs(option),
                players=seats,
                backend=_backend(workers, ray),
                progress=progress,
            )
        except DecklabError as exc:
            raise fail(str(exc)) from None
        except KeyboardInterrupt:
            raise interrupted(out) from None
        table = Table(title=f"skill trace of {agent} ({param})")
        for col in ("rung", "games", "stronger wins", "95% interval", "equal share"):
            table.add_column(col, justify="right")
        for r in data["rungs"]:
            s = r["strong"]
            table.add_row(
                f"{r['budget']} vs {r['budget'] // 2}",
                str(r["games"]),
                f"{100 * s['rate']:.1f}%",
                f"{100 * s['low']:.1f}% – {100 * s['high']:.1f}%",
                f"{100 * r['equal_share']:.1f}%",
            )
        console.print(table)

    @app.command()
    def compare(
        a: Annotated[Path, typer.Argument(help="the baseline: a simulation folder")],
        b: Annotated[Path, typer.Argument(help="the variant: a simulation folder, same game")],
        as_json: Annotated[bool, typer.Option("--json", help="print the numbers as JSON")] = False,
        seed: Annotated[int, typer.Option("--seed", help="seed of the bootstrap")] = 0,
    ) -> None:
        """Every metric's difference B − A, paired over the same deals, Holm-corrected."""
        import json as json_module

        from decklab.lab.compare import compare_folders

        try:
            data = compare_folders(a, b, seed)
        except DecklabError as exc:
            raise fail(str(exc)) from None
        if as_json:
            print(json_module.dumps(data, indent=1))
            return
        table = Table(
            title=f"{_games(data)}: {b} − {a}, paired over the same deals", title_justify="left"
        )
        for col in ("metric", "A", "B", "B − A", "95% paired t", "95% bootstrap",
                    "detectable", "Holm p", "deals", "verdict"):  # fmt: skip
            table.add_column(col, justify="left" if col in ("metric", "verdict") else "right")

        def num(x: float | None, digits: int = 3) -> str:
            return "—" if x is None else f"{x:.{digits}f}"

        for r in data["differences"]:
            table.add_row(
                r["metric"],
                num(r["a_mean"]),
                num(r["b_mean"]),
                num(r["difference"]),
                f"{num(r['t_low'])} – {num(r['t_high'])}",
                f"{num(r['bootstrap_low'])} – {num(r['bootstrap_high'])}",
                num(r["mde"]),
                num(r["holm_p"], 4),
                str(r["deals"]),
                ("✔ " if r["verdict"] == "finding" else "") + r["verdict"],
            )
        console.print(table)
        tests = data["differences"][0]["tests"] if data["differences"] else 0
        same = (
            ""
            if data["same_seed"]
            else " The runs have different seeds: still valid, no tighter than unpaired."
        )
        console.print(
            f"Holm's correction across {tests} tests; a finding needs Holm p ≤ {data['alpha']} "
            f"and {data['min_deals']} deals or more. 'detectable': the smallest difference "
            f"found 80% of the time.{same}",
            highlight=False,
        )

    @app.command()
    def report(
        folder: Annotated[Path, typer.Argument(help="a simulate, sweep or tune folder")],
        out: Annotated[
            Path | None, typer.Option("--out", help="where to write (default: the folder)")
        ] = None,
    ) -> None:
        """Write report.html (self-contained, plots embedded) and report.json for FOLDER."""
        require("report", "numpy", "pyarrow", "matplotlib")
        from decklab.lab.report import write_report

        try:
            html_path, json_path = write_report(folder, out)
        except DecklabError as exc:
            raise fail(str(exc)) from None
        console.print(f"wrote {html_path} and {json_path}", highlight=False)


def _games(data: dict[str, Any]) -> str:
    """``game``, or ``base → variant`` for a variant compared with its base game."""
    a, b = data["game"], data.get("game_b", data["game"])
    return a if a == b else f"{a} → {b}"
