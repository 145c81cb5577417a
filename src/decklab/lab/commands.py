"""The ``decklab bots`` and ``decklab arena`` commands.

They live here rather than in ``cli.py`` so that the lab owns its own command
line; ``cli.py`` calls :func:`register` to add them to the ``decklab`` app.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from decklab.bots.base import Param
from decklab.bots.registry import AgentEntry, agent_entries
from decklab.bots.spec import split_players
from decklab.engine.errors import DecklabError
from decklab.engine.info import parse_option_pairs
from decklab.engine.registry import get_game
from decklab.extras import require

EXAMPLES = (
    "random",
    "greedy",
    "ismcts:time=0.5",
    "ismcts:iters=2000,c=0.7,rollout=greedy",
    "pimc:iters=2000,dets=20",
    "cheat:iters=2000",
    "python:my_module:policy",
)


def parse_sprt(text: str) -> tuple[float, float]:
    """``"elo0=0,elo1=35"`` (or ``"0,35"``) → ``(0.0, 35.0)``."""
    values: dict[str, float] = {}
    parts = [p.strip() for p in text.split(",") if p.strip()]
    try:
        if len(parts) == 2 and all("=" not in p for p in parts):
            return float(parts[0]), float(parts[1])
        for part in parts:
            key, sep, raw = part.partition("=")
            if not sep or key.strip() not in ("elo0", "elo1"):
                raise ValueError
            values[key.strip()] = float(raw)
        return values["elo0"], values["elo1"]
    except (ValueError, KeyError):
        raise DecklabError(f"--sprt is written elo0=0,elo1=35, not {text!r}") from None


def register(app: typer.Typer) -> None:
    """Add ``bots`` and ``arena`` to ``app``."""
    console = Console()
    err = Console(stderr=True, soft_wrap=True)

    def fail(message: str) -> typer.Exit:
        err.print(f"[red]error:[/red] {escape(message)}", highlight=False)
        return typer.Exit(2)

    @app.command()
    def bots() -> None:
        """List the agents and their parameters (spec strings such as ismcts:iters=2000).

        Your own policy is an agent too, in arena, simulate, sweep and tune:
        python:MODULE:FUNCTION, MODULE a dotted name on the path or a file.py.
        FUNCTION(view, legal, seat, rng) -> str gets exactly its seat's view
        (a dict), the legal actions as strings, its seat ("p1") and its own
        seeded random.Random; it returns one of the legal strings. An Agent
        class, or a function of no arguments returning an Agent, works too.
        Packages may name agents in the decklab.agents entry-point group.
        The server never seats python: specs (docs/interop.md).
        """
        entries = agent_entries()
        shared = shared_params(entries)
        for heading, fair in (("agents", True), ("analysis only (not fair opponents)", False)):
            table = Table(title=heading, title_justify="left")
            table.add_column("name", style="bold")
            table.add_column("what it does")
            table.add_column("parameters")
            for e in entries:
                if e.fair == fair:
                    own = [f"{p.describe()}: {p.help}" for p in e.params if id(p) not in shared]
                    common = [p.name for p in e.params if id(p) in shared]
                    if common:
                        own.append("shared: " + ", ".join(common))
                    table.add_row(e.name, e.help, "\n".join(own) or "—")
            if table.row_count:
                console.print(table)
        if shared:
            table = Table(title="shared parameters (listed once)", title_justify="left")
            table.add_column("parameter", style="bold")
            table.add_column("what it does")
            table.add_column("agents")
            for param, users in shared.values():
                table.add_row(param.describe(), param.help, ", ".join(users))
            console.print(table)
        console.print("examples: " + "  ".join(EXAMPLES), highlight=False)

    @app.command()
    def arena(
        game: Annotated[str, typer.Argument(help="the game")],
        players: Annotated[
            str,
            typer.Option(
                "--players",
                "-p",
                help="agent specs, one per seat or fewer (cycled over the seats), "
                "e.g. ismcts:iters=500,random",
            ),
        ],
        games: Annotated[
            int,
            typer.Option(
                "--games", "-g", help="games to play at least (whole deals, every seat rotation)"
            ),
        ] = 100,
        seed: Annotated[int, typer.Option("--seed", help="seed of every deal and agent")] = 0,
        option: Annotated[
            list[str] | None,
            typer.Option("--option", "-o", help="a game option, key=value (repeatable)"),
        ] = None,
        seats: Annotated[
            int | None,
            typer.Option("--seats", "-n", help="table size (default: one per spec if allowed)"),
        ] = None,
        workers: Annotated[int, typer.Option("--workers", "-w", help="worker processes")] = 1,
        ray: Annotated[
            str | None,
            typer.Option(
                "--ray", help="run on Ray: a cluster address, or 'local' to start one here"
            ),
        ] = None,
        as_json: Annotated[
            bool,
            typer.Option(
                "--json",
                help="print the report as JSON: per_agent, per_seat and per_agent_seat "
                "(each agent in each seat: games, win share, 95% interval, mean score)",
            ),
        ] = False,
        sprt: Annotated[
            str | None,
            typer.Option(
                "--sprt",
                help="stop when a sequential test of the first two specs decides, "
                "e.g. elo0=0,elo1=35",
            ),
        ] = None,
        progress: Annotated[
            bool, typer.Option("--progress/--no-progress", help="show a progress bar")
        ] = True,
        out: Annotated[
            Path | None,
            typer.Option(
                "--out",
                help="keep finished games in this folder; the same command again resumes "
                "an interrupted run",
            ),
        ] = None,
    ) -> None:
        """Agents play duplicate deals of GAME; report win rates, scores and ratings."""
        require("arena", "numpy")
        from decklab.lab.arena import run_arena
        from decklab.lab.render import render_report

        try:
            specs = check_arena_players(game, split_players(players))
            bounds = parse_sprt(sprt) if sprt is not None else None
            if ray is not None and workers != 1:
                raise DecklabError(
                    "give --workers or --ray, not both (Ray uses the cluster's CPUs)"
                )
            report = run_arena(
                game,
                specs,
                games,
                seed=seed,
                options=parse_option_pairs(option),
                workers=workers,
                ray=ray,
                sprt=bounds,
                progress=progress and not as_json,
                players=seats,
                out=out,
            )
        except DecklabError as exc:
            raise fail(str(exc)) from None
        except KeyboardInterrupt:
            if out is None:
                raise
            from decklab.lab.design_commands import interrupted

            raise interrupted(out) from None
        if as_json:
            print(report.to_json())
            return
        console.print(render_report(report, get_game(game).info.score_unit))

    _register_design_lab(app)


def _register_design_lab(app: typer.Typer) -> None:
    """``simulate``, ``sweep``, ``tune`` and ``report`` (decklab.lab.design_commands)."""
    from decklab.lab.design_commands import register as register_design

    register_design(app)


def shared_params(entries: list[AgentEntry]) -> dict[int, tuple[Param, list[str]]]:
    """Parameters that several agents declare (the same declaration): listed once."""
    seen: dict[int, tuple[Param, list[str]]] = {}
    for e in entries:
        for p in e.params:
            seen.setdefault(id(p), (p, []))[1].append(e.name)
    return {k: v for k, v in seen.items() if len(v[1]) > 1}


def check_arena_players(game: str, specs: list[str]) -> list[str]:
    """The arena's ``--players`` checked before anything is built (item 9).

    Agent names are case-insensitive; ``human`` is refused (the arena seats bots
    only); a list longer than the game allows players is refused, except at a
    solo game, where several agents each play every deal alone (a comparison).
    A shorter list is cycled over the seats, as the help says.
    """
    from decklab.bots.spec import AgentSpecError, parse_spec
    from decklab.lab.agents import NEVER
    from decklab.lab.choices import find_choice

    try:
        info = get_game(game).info
    except KeyError as exc:
        raise DecklabError(str(exc.args[0])) from None
    if not specs:
        raise AgentSpecError("--players names no agent (e.g. -p greedy,random)")
    out = []
    for spec in specs:
        name, params = parse_spec(spec)
        if params.get(NEVER):  # a choice the game declares (checked here: the game is known)
            find_choice(get_game(game), params[NEVER])
        if name == "human":
            raise AgentSpecError(
                "the arena seats bots only: 'human' plays at the table (decklab play); "
                "see decklab bots for the agents"
            )
        _, sep, rest = spec.strip().partition(":")
        out.append(name + sep + rest)
    if info.max_players > 1 and len(out) > info.max_players:
        raise AgentSpecError(
            f"--players names {len(out)} agents; {info.title} is for "
            f"{info.players_text()} players (fewer agents are cycled over the seats)"
        )
    return out
