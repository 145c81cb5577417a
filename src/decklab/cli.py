"""The ``decklab`` command. It wires the layers together; nothing imports it."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markdown import Markdown
from rich.markup import escape
from rich.table import Table

from decklab.engine import records
from decklab.engine.errors import DecklabError, OptionError, RecordError
from decklab.engine.info import parse_option_pairs
from decklab.engine.registry import game_names, get_game
from decklab.engine.state import GameState
from decklab.extras import explain

app = typer.Typer(
    help="decklab: five homemade card games — play them, replay them, study them.",
    invoke_without_command=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
console = Console()
err = Console(stderr=True, soft_wrap=True)

OptionArg = Annotated[
    list[str] | None, typer.Option("--option", "-o", help="a game option, key=value (repeatable)")
]
SeedArg = Annotated[int | None, typer.Option("--seed", help="seed of the deal and of all chance")]
LabSeedArg = Annotated[int, typer.Option("--seed", help="seed of every deal and agent")]
WorkersArg = Annotated[int, typer.Option("--workers", "-w", help="worker processes")]
JsonArg = Annotated[bool, typer.Option("--json", help="print the report as JSON")]
ProgressArg = Annotated[bool, typer.Option("--progress/--no-progress", help="show a progress bar")]
DealArg = Annotated[
    int | None, typer.Option("--deal", help="deal number: the same number, the same deal")
]


def _fail(message: str, code: int = 2) -> typer.Exit:
    err.print(f"[red]error:[/red] {escape(message)}", highlight=False)
    return typer.Exit(code)


def _fail_as(message: str, as_json: bool) -> typer.Exit:
    """:func:`_fail`, or for a command asked for JSON the error as JSON on stdout
    (a program reading the output gets a document either way)."""
    if as_json:
        print(json.dumps({"error": message}))
        return typer.Exit(2)
    return _fail(message)


def _game_class(name: str) -> type[GameState]:
    try:
        return get_game(name)
    except KeyError as exc:
        raise _fail(str(exc.args[0])) from None


def _seed(seed: int | None, deal: int | None) -> int | None:
    if seed is not None and deal is not None:
        raise _fail("give --seed or --deal, not both")
    return deal if deal is not None else seed


def _new_state(
    cls: type[GameState], players: int | None, options: list[str] | None, seed: int | None
) -> GameState:
    try:
        return cls.new(players, parse_option_pairs(options), seed=seed)
    except OptionError as exc:
        raise _fail(str(exc)) from None


def _player_specs(players: str | None) -> list[str] | None:
    """``--players`` as specs, names lower-cased (``HUMAN`` is human); a clear error
    for an empty entry (``human,``)."""
    from decklab.bots.spec import split_players

    if players is None:
        return None
    try:
        return split_players(players)
    except DecklabError as exc:
        raise _fail(str(exc)) from None


@app.callback()
def _top(ctx: typer.Context) -> None:
    """Bare ``decklab`` prints the help and exits 0 (it is a question, not an error)."""
    if ctx.invoked_subcommand is None:
        print(ctx.get_help())
        raise typer.Exit(0)


@app.command()
def games() -> None:
    """List the games, their player counts and options."""
    table = Table(title="decklab games")
    table.add_column("name", style="bold")
    table.add_column("game")
    table.add_column("players", justify="center")
    table.add_column("options")
    for name in game_names():
        info = get_game(name).info
        opts = "\n".join(
            f"{o.name} (default {o.describe_default()}): {o.help}" for o in info.options
        )
        table.add_row(
            name, f"{info.title}\n[dim]{info.summary}[/dim]", info.players_text(), opts or "—"
        )
    console.print(table)


def rules_text(cls: type[GameState]) -> str:
    package = cls.__module__.rsplit(".", 1)[0]
    return (resources.files(package) / "rules.md").read_text(encoding="utf-8")


def rulings_text(cls: type[GameState] | None = None) -> str:
    """docs/rulings.md as shipped in the package; with ``cls``, the cards section and
    that game's section only (the ids its rules text cites)."""
    text = (resources.files("decklab") / "rulings.md").read_text(encoding="utf-8")
    if cls is None:
        return text
    sections = text.split("\n## ")
    keep = [sections[0]] + [
        s for s in sections[1:] if s.startswith("Cards") or s.startswith(cls.info.title)
    ]
    return "\n## ".join(keep)


RULINGS_POINTER = (
    "Rulings cited by id (C3, F7, …) are in docs/rulings.md; "
    "`decklab rules GAME --rulings` shows them."
)


@app.command()
def rules(
    game: Annotated[
        str, typer.Argument(help="cabin, corporation, facade, lonely-face or notorious")
    ],
    rulings: Annotated[
        bool,
        typer.Option("--rulings", help="show the game's rulings (docs/rulings.md), by id"),
    ] = False,
) -> None:
    """The rules of GAME in decklab's words, with the rulings applied."""
    cls = _game_class(game)
    text = rulings_text(cls) if rulings else rules_text(cls) + "\n---\n\n" + RULINGS_POINTER + "\n"
    if console.is_terminal:
        console.print(Markdown(text))
    else:
        print(text)


@app.command()
def deal(
    game: Annotated[str, typer.Argument(help="the game")],
    seed: SeedArg = None,
    deal_number: DealArg = None,
    players: Annotated[
        int | None, typer.Option("--players", "-n", help="number of players")
    ] = None,
    option: OptionArg = None,
    out: Annotated[Path | None, typer.Option("--out", help="write the record to this file")] = None,
) -> None:
    """Print a record with the explicit setup of a deal, and no actions."""
    cls = _game_class(game)
    state = _new_state(cls, players, option, _seed(seed, deal_number))
    record: dict[str, Any] = records.make_record(state)
    record.pop("result", None)
    text = records.dumps(record)
    if out:
        from decklab.record_commands import write_new_file

        try:
            write_new_file(out, text, force=True)
        except RecordError as exc:
            raise _fail(str(exc)) from None
        err.print(f"wrote {escape(str(out))}", highlight=False)
    else:
        print(text, end="")


@app.command()
def replay(
    record_file: Annotated[Path, typer.Argument(help="a record (JSON)", metavar="RECORD")],
    as_json: Annotated[bool, typer.Option("--json", help="print one JSON object")] = False,
    legal: Annotated[
        bool, typer.Option("--legal", help="add the legal actions at the end")
    ] = False,
    upto: Annotated[
        int | None,
        typer.Option("--upto", help="apply only the first N lines of actions (chance lines count)"),
    ] = None,
    viewer: Annotated[
        str,
        typer.Option("--viewer", help="all (default), a seat such as p2, or spectator"),
    ] = "all",
    log: Annotated[
        bool, typer.Option("--log", help="also show the action lines, as the viewer sees them")
    ] = False,
) -> None:
    """Apply a record and print the resulting state and scores (exit 2 if it is bad)."""
    from decklab.record_commands import run_replay

    run_replay(record_file, as_json, legal, upto, viewer, log)


@app.command()
def play(
    game: Annotated[
        str | None, typer.Argument(help="the game (omit to choose from a menu)")
    ] = None,
    players: Annotated[
        str | None,
        typer.Option(
            "--players",
            "-p",
            help="who sits where, e.g. human,expert,beginner "
            "(levels, weakest first: beginner, casual, strong, expert)",
        ),
    ] = None,
    level: Annotated[
        str | None,
        typer.Option(
            "--level",
            "-l",
            help="the bots' level when --players is not given: beginner, casual (the default), "
            "strong or expert",
        ),
    ] = None,
    seed: SeedArg = None,
    deal_number: DealArg = None,
    option: OptionArg = None,
    record_file: Annotated[
        Path | None,
        typer.Option("--record", help="continue a saved game (the file itself is not changed)"),
    ] = None,
    save: Annotated[
        Path | None, typer.Option("--save", help="where to save the record (this file)")
    ] = None,
    overwrite: Annotated[
        bool,
        typer.Option("--overwrite", help="with --record: save back into that same file"),
    ] = False,
    plain: Annotated[
        bool,
        typer.Option(
            "--plain", help="line mode (screen readers, pipes); used anyway without a terminal"
        ),
    ] = False,
) -> None:
    """Play a game in the terminal against bots, or hot-seat with friends.

    In a terminal this opens the card table (Textual); with --plain, or when input
    or output is not a terminal, it plays in line mode. A resumed game is saved
    to a new file unless --overwrite (or --save FILE) says where.
    """
    specs = _player_specs(players)
    opponent = _level(level, specs)
    chosen_seed = _seed(seed, deal_number)
    if overwrite:
        if record_file is None:
            raise _fail("--overwrite saves back into the --record file: give --record FILE")
        if save is not None:
            raise _fail("give --save FILE or --overwrite, not both")
        save = record_file
    table = not plain and sys.stdin.isatty() and sys.stdout.isatty()
    if game is None and record_file is None and not table:
        game = _choose_game()
    session = _play_session(game, specs, chosen_seed, option, record_file, save, opponent)
    if table:
        _play_table(session, chosen_seed, save, opponent)
    else:
        assert session is not None
        _play_plain(session)


def _play_session(
    game: str | None,
    specs: list[str] | None,
    seed: int | None,
    option: list[str] | None,
    record_file: Path | None,
    save: Path | None,
    opponent: str | None = None,
) -> Any:
    """The game to play (a new one, or a saved one resumed), or None for the menu."""
    from decklab.bots import AgentSpecError
    from decklab.play.tui.session import DEFAULT_OPPONENT, Session

    session: Session | None = None
    try:
        if record_file is not None:
            record = records.load(record_file)
            session = Session.resume(record, specs, save_path=save)
        elif game is not None:
            options = parse_option_pairs(option)
            session = Session.new(
                _game_class(game),
                specs,
                options=options,
                seed=seed,
                save_path=save,
                opponent=opponent or DEFAULT_OPPONENT,
            )
    except (DecklabError, AgentSpecError, ValueError) as exc:
        raise _fail(str(exc)) from None
    if session is not None and session.state.num_players != len(session.specs):
        raise _fail(
            f"--players names {len(session.specs)} seats, the game has {session.state.num_players}"
        )
    return session


def _level(level: str | None, specs: list[str] | None) -> str | None:
    """The opponents' level (``--level``), checked: one of the levels, and not with --players."""
    if level is None:
        return None
    from decklab.bots.levels import LEVELS

    chosen = level.strip().lower()
    if chosen not in LEVELS:
        raise _fail(f"--level is one of {', '.join(LEVELS)}, not {level!r}")
    if specs is not None:
        raise _fail("give --players or --level, not both (--players names every seat)")
    return chosen


def _play_table(
    session: Any, seed: int | None, save: Path | None, opponent: str | None = None
) -> None:
    """The Textual table: straight into a game, a saved game, or the menu of games."""
    from decklab.play.tui import PlayApp, Session
    from decklab.play.tui.session import DEFAULT_OPPONENT

    def from_menu(name: str, count: int) -> Session:
        return Session.new(
            get_game(name),
            players=count,
            seed=seed,
            save_path=save,
            opponent=opponent or DEFAULT_OPPONENT,
        )

    saved = PlayApp(session, rules=rules_text, new_session=from_menu).run()
    if saved:
        print(f"Saved the game to {saved}")


def _play_plain(session: Any) -> None:
    """Line mode: numbered legal actions, typed answers; the same game, readable anywhere."""
    from decklab.play.plain import PlainGame

    if not session.humans:
        err.print("no human seat: the bots play it out")
    PlainGame(session, sys.stdout, _read_line, rules_text(type(session.state))).run()


@app.command()
def stats(
    game: Annotated[
        str | None, typer.Argument(help="a solo game (default: every solo game)")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print one JSON object")] = False,
    move_aside: Annotated[
        bool,
        typer.Option("--move-aside", help="rename an unreadable statistics file and start anew"),
    ] = False,
) -> None:
    """Your solo statistics (the Cabin): games, perfect games, scores, streaks, per deal."""
    from decklab.play import stats as solo_stats
    from decklab.play.stats import StatsError, solo_games, stats_path, summary

    names = solo_games() if game is None else [_game_class(game).info.name]
    try:
        if move_aside:
            try:
                for name in names:
                    summary(name)
            except StatsError:
                moved = solo_stats.move_aside()
                err.print(
                    f"moved the unreadable statistics file to {escape(str(moved))}", highlight=False
                )
            else:
                err.print("the statistics file is readable: nothing moved", highlight=False)
        results = {name: summary(name) for name in names}
    except DecklabError as exc:
        raise _fail_as(str(exc), as_json) from None
    if as_json:
        print(json.dumps({name: s.to_json() for name, s in results.items()}))
        return
    for name, s in results.items():
        info = get_game(name).info
        if not s.games:
            console.print(f"{info.title}: no finished games yet.")
            continue
        overview = Table(title=f"{info.title} — your games", show_header=False)
        overview.add_column("", style="bold")
        overview.add_column("", justify="right")
        overview.add_row("games", str(s.games))
        overview.add_row("perfect games", f"{s.perfect} ({s.perfect / s.games:.0%})")
        overview.add_row(f"average ({info.score_unit})", f"{s.average:.2f}")
        overview.add_row(f"best ({info.score_unit})", f"{s.best:g}")
        overview.add_row("perfect streak now", str(s.current_streak))
        overview.add_row("longest perfect streak", str(s.longest_streak))
        console.print(overview)
        deals = Table(title="by deal")
        for column in ("deal", "games", "perfect", "best", "average"):
            deals.add_column(column, justify="right")
        for d in s.deals:
            deals.add_row(
                "—" if d.deal is None else str(d.deal),
                str(d.games),
                str(d.perfect),
                f"{d.best:g}",
                f"{d.average:.2f}",
            )
        console.print(deals)
    err.print(f"[dim]kept in {escape(str(stats_path()))}[/dim]", highlight=False)


def _read_line() -> str | None:
    line = sys.stdin.readline()
    return None if line == "" else line


def _choose_game() -> str:
    names = game_names()
    print("Choose a game:")
    for i, name in enumerate(names, 1):
        info = get_game(name).info
        print(f"  {i}. {info.title} ({info.players_text()} players) — {info.summary}")
    while True:
        print("> ", end="", flush=True)
        line = _read_line()
        if line is None:
            raise typer.Exit(0)
        answer = line.strip().lower()
        if answer.isdigit() and 1 <= int(answer) <= len(names):
            return names[int(answer) - 1]
        if answer in names:
            return answer
        print(f"Type a number from 1 to {len(names)}, or a game's name.")


@dataclass(frozen=True)
class _StudyRun:
    """The options ``fairness`` and ``restricted`` both take, as their one-agent study needs them."""

    seed: int
    option: list[str] | None
    workers: int
    as_json: bool
    progress: bool

    def run(self, game: str, agent: str, study: Callable[..., Any]) -> Any:
        """The agent checked, then ``study(spec, seed=, options=, workers=, progress=)``."""
        from decklab.lab.commands import check_arena_players

        spec = check_arena_players(game, [agent.strip()])[0]
        options = parse_option_pairs(self.option)
        progress = self.progress and not self.as_json
        return study(spec, seed=self.seed, options=options, workers=self.workers, progress=progress)

    def show(
        self, game: str, agent: str, study: Callable[..., Any], render: Callable[..., Any]
    ) -> None:
        """Run the study and print its report as JSON or as a table; a lab error in one line
        (as JSON with ``--json``)."""
        try:
            report = self.run(game, agent, study)
        except DecklabError as exc:
            raise _fail_as(str(exc), self.as_json) from None
        if self.as_json:
            print(report.to_json())
            return
        console.print(render(report))


@app.command()
def fairness(
    game: Annotated[str, typer.Argument(help="the game")],
    agent: Annotated[
        str, typer.Option("--agent", "-p", help="the agent spec in every seat, e.g. expert")
    ],
    players: Annotated[
        str | None,
        typer.Option(
            "--players", help="table sizes, e.g. 4,6 or 4-10 (default: every size the game allows)"
        ),
    ] = None,
    games: Annotated[int, typer.Option("--games", "-g", help="games per table size")] = 400,
    seed: LabSeedArg = 0,
    option: OptionArg = None,
    workers: WorkersArg = 1,
    as_json: JsonArg = False,
    progress: ProgressArg = True,
    out: Annotated[
        Path | None,
        typer.Option(
            "--out",
            help="keep finished games in this folder (one sub-folder a table size); "
            "the same command again resumes an interrupted run",
        ),
    ] = None,
) -> None:
    """The same agent in every seat of GAME: per-seat win rates and a χ² test of a seat effect."""
    from decklab.lab.fairness import parse_sizes, render_fairness, run_fairness

    def study(spec: str, **common: Any) -> Any:
        sizes = parse_sizes(players) if players is not None else None
        return run_fairness(game, spec, games, players=sizes, out=out, **common)

    try:
        _StudyRun(seed, option, workers, as_json, progress).show(
            game, agent, study, render_fairness
        )
    except KeyboardInterrupt:
        if out is None:
            raise
        from decklab.lab.design_commands import interrupted

        raise interrupted(out) from None


@app.command()
def restricted(
    game: Annotated[str, typer.Argument(help="the game")],
    agent: Annotated[
        str, typer.Option("--agent", "-p", help="the agent spec, restricted and not")
    ] = "greedy",
    players: Annotated[int | None, typer.Option("--players", help="table size")] = None,
    games: Annotated[int, typer.Option("--games", "-g", help="games per choice")] = 400,
    seed: LabSeedArg = 0,
    option: OptionArg = None,
    workers: WorkersArg = 1,
    as_json: JsonArg = False,
    progress: ProgressArg = True,
) -> None:
    """How much each of GAME's core choices matters: the agent that never makes it, paired."""
    from decklab.lab.restricted import render_restricted, run_restricted

    def study(spec: str, **common: Any) -> Any:
        return run_restricted(game, spec, games, players=players, **common)

    _StudyRun(seed, option, workers, as_json, progress).show(game, agent, study, render_restricted)


def _register_lab() -> None:
    from decklab.lab.commands import register

    register(app)


_register_lab()
__import__("decklab.record_commands", fromlist=["register"]).register(app)


def _register_server() -> None:
    from decklab.server.commands import register

    register(app)


_register_server()


def _wants_json(args: list[str]) -> bool:
    """Whether the command line asks for JSON (``--json`` before any ``--``)."""
    for arg in args:
        if arg == "--":
            return False
        if arg == "--json":
            return True
    return False


def _usage_errors() -> tuple[type[Exception], ...]:
    """Click's usage errors: Typer ≥ 0.25 carries its own copy of Click, older ones use it."""
    kinds: list[type[Exception]] = []
    own = getattr(typer, "TyperException", None)
    if isinstance(own, type) and issubclass(own, Exception):
        kinds.append(own)
    try:
        import click
    except ImportError:  # pragma: no cover - a Typer without Click
        pass
    else:
        kinds.append(click.ClickException)
    return tuple(kinds)


def _run_for_json(args: list[str]) -> None:
    """Run the app so that a usage error is JSON too, as every other error is under --json.

    Scripts that read ``--json`` output parse stdout; Click's usage box would break them.
    """
    try:
        code = app(args=args, standalone_mode=False)
    except _usage_errors() as exc:
        print(json.dumps({"error": exc.format_message()}))  # type: ignore[attr-defined]
        sys.exit(int(getattr(exc, "exit_code", 2)))
    except typer.Abort:
        sys.exit(1)
    sys.exit(code if isinstance(code, int) else 0)


def main() -> None:
    args = sys.argv[1:]
    try:
        if _wants_json(args):
            _run_for_json(args)
        app()
    except DecklabError as exc:  # a last guard: bad input never shows a traceback
        err.print(f"[red]error:[/red] {escape(str(exc))}", highlight=False)
        sys.exit(2)
    except ModuleNotFoundError as exc:  # an optional extra's module: say which extra
        missing = explain(exc, args[0] if args else "")
        if missing is None:
            raise
        err.print(f"[red]error:[/red] {escape(str(missing))}", highlight=False)
        sys.exit(2)


if __name__ == "__main__":
    main()
