"""The ``decklab`` command. It wires the layers together; nothing imports it."""

from __future__ import annotations

import json
import sys
from importlib import resources
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markdown import Markdown
from rich.table import Table

from decklab.engine import records
from decklab.engine.errors import DecklabError, OptionError, RecordError
from decklab.engine.info import parse_option_pairs
from decklab.engine.registry import game_names, get_game
from decklab.engine.state import ALL, GameState, seat_name

app = typer.Typer(
    help="decklab: five homemade card games — play them, replay them, study them.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
console = Console()
err = Console(stderr=True, soft_wrap=True)

OptionArg = Annotated[
    list[str] | None, typer.Option("--option", "-o", help="a game option, key=value (repeatable)")
]
SeedArg = Annotated[int | None, typer.Option("--seed", help="seed of the deal and of all chance")]
DealArg = Annotated[
    int | None, typer.Option("--deal", help="deal number: the same number, the same deal")
]


def _fail(message: str, code: int = 2) -> typer.Exit:
    err.print(f"[red]error:[/red] {message}", highlight=False)
    return typer.Exit(code)


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


@app.command()
def rules(
    game: Annotated[
        str, typer.Argument(help="cabin, corporation, facade, lonely-face or notorious")
    ],
) -> None:
    """The rules of GAME in decklab's words, with the rulings applied."""
    text = rules_text(_game_class(game))
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
    record = records.make_record(state)
    record.pop("result", None)
    text = records.dumps(record)
    if out:
        out.write_text(text, encoding="utf-8")
        err.print(f"wrote {out}")
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
        int | None, typer.Option("--upto", help="apply only the first N action lines")
    ] = None,
) -> None:
    """Apply a record and print the resulting state and scores (exit 2 if it is bad)."""
    try:
        record = records.load(record_file)
        state, applied = records.replay(record, limit=upto)
    except RecordError as exc:
        if as_json:
            print(json.dumps({"error": exc.as_json()}))
        else:
            err.print(f"[red]error:[/red] {exc}", highlight=False)
        raise typer.Exit(2) from None
    result = state.result()
    out: dict[str, Any] = {
        "game": state.info.name,
        "terminal": state.is_terminal(),
        "scores": result["scores"],
        "winners": result["winners"],
        "actions_applied": applied,
        "to_act": [seat_name(s) for s in state.to_act()],
    }
    if legal:
        out["legal"] = {
            seat_name(s): [state.action_to_string(s, a) for a in state.legal_actions(s)]
            for s in state.to_act()
        }
    if as_json:
        print(json.dumps(out))
        return
    print(state.render(ALL))
    print()
    scores = ", ".join(f"{k}: {v:g}" for k, v in out["scores"].items())
    print(f"actions applied: {applied}")
    print(f"scores ({state.info.score_unit}): {scores}")
    if out["terminal"]:
        print("winners: " + (", ".join(out["winners"]) or "nobody"))
    else:
        print("to act: " + ", ".join(out["to_act"]))
    if legal:
        for seat, acts in out["legal"].items():
            print(f"legal for {seat}: " + ", ".join(acts))


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
            help="who sits where, e.g. human,expert,greedy (expert: the strongest bot)",
        ),
    ] = None,
    seed: SeedArg = None,
    deal_number: DealArg = None,
    option: OptionArg = None,
    record_file: Annotated[
        Path | None, typer.Option("--record", help="continue a saved game")
    ] = None,
    save: Annotated[Path | None, typer.Option("--save", help="where to save the record")] = None,
    plain: Annotated[
        bool,
        typer.Option(
            "--plain", help="line mode (screen readers, pipes); used anyway without a terminal"
        ),
    ] = False,
) -> None:
    """Play a game in the terminal against bots, or hot-seat with friends.

    In a terminal this opens the card table (Textual); with --plain, or when input
    or output is not a terminal, it plays in line mode.
    """
    specs = [p.strip() for p in players.split(",")] if players else None
    chosen_seed = _seed(seed, deal_number)
    if not plain and sys.stdin.isatty() and sys.stdout.isatty():
        _play_table(game, specs, chosen_seed, option, record_file, save)
    else:
        _play_plain(game, specs, chosen_seed, option, record_file, save)


def _play_table(
    game: str | None,
    specs: list[str] | None,
    seed: int | None,
    option: list[str] | None,
    record_file: Path | None,
    save: Path | None,
) -> None:
    """The Textual table: straight into a game, a saved game, or the menu of games."""
    from decklab.bots import AgentSpecError
    from decklab.play.tui import PlayApp, Session

    options = parse_option_pairs(option)
    session: Session | None = None
    try:
        if record_file is not None:
            record = records.load(record_file)
            session = Session.resume(record, specs, save_path=save or record_file)
        elif game is not None:
            session = Session.new(
                _game_class(game), specs, options=options, seed=seed, save_path=save
            )
    except (RecordError, OptionError, AgentSpecError) as exc:
        raise _fail(str(exc)) from None

    def from_menu(name: str, count: int) -> Session:
        return Session.new(get_game(name), players=count, seed=seed, save_path=save)

    if session is not None and session.state.num_players != len(session.specs):
        raise _fail(
            f"--players names {len(session.specs)} seats, the game has {session.state.num_players}"
        )
    saved = PlayApp(session, rules=rules_text, new_session=from_menu).run()
    if saved:
        print(f"Saved the game to {saved}")


def _play_plain(
    game: str | None,
    specs: list[str] | None,
    seed: int | None,
    option: list[str] | None,
    record_file: Path | None,
    save: Path | None,
) -> None:
    """Line mode: numbered legal actions, typed answers; the same game, readable anywhere."""
    from decklab.bots import AgentSpecError, make_agent
    from decklab.play.plain import PlainGame
    from decklab.play.storage import default_record_path
    from decklab.play.tui.session import deal_of

    deal = seed
    if game is None and record_file is None:
        game = _choose_game()
    if record_file is not None:
        try:
            record = records.load(record_file)
            state, _ = records.replay(record)
        except RecordError as exc:
            raise _fail(str(exc)) from None
        cls = type(state)
        deal = deal_of(record)
    else:
        assert game is not None
        cls = _game_class(game)
    if record_file is None:
        count = len(specs) if specs else None
        state = _new_state(cls, count, option, seed)
    n = state.num_players
    if specs is None:
        specs = ["human"] + ["random"] * (n - 1)
    if len(specs) != n:
        raise _fail(f"--players names {len(specs)} seats, the game has {n}")
    agents = []
    try:
        for i, spec in enumerate(specs):
            agents.append(
                None
                if spec == "human"
                else make_agent(f"{spec}" if ":" in spec else f"{spec}:seed={i}")
            )
    except AgentSpecError as exc:
        raise _fail(str(exc)) from None
    if not any(a is None for a in agents):
        err.print("no human seat: the bots play it out")
    session = PlainGame(
        state=state,
        agents=agents,
        out=sys.stdout,
        read_line=_read_line,
        save_path=save or record_file or default_record_path(cls.info.name),
        players={seat_name(i): s for i, s in enumerate(specs)},
        rules_text=rules_text(cls),
        deal=deal,
    )
    session.run()


@app.command()
def stats(
    game: Annotated[
        str | None, typer.Argument(help="a solo game (default: every solo game)")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="print one JSON object")] = False,
) -> None:
    """Your solo statistics (the Cabin): games, perfect games, scores, streaks, per deal."""
    from decklab.play.stats import solo_games, stats_path, summary

    names = solo_games() if game is None else [_game_class(game).info.name]
    results = {name: summary(name) for name in names}
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
    err.print(f"[dim]kept in {stats_path()}[/dim]", highlight=False)


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


def _register_lab() -> None:
    from decklab.lab.commands import register

    register(app)


_register_lab()


def _register_server() -> None:
    from decklab.server.commands import register

    register(app)


_register_server()


def main() -> None:
    try:
        app()
    except DecklabError as exc:  # a last guard: bad input never shows a traceback
        err.print(f"[red]error:[/red] {exc}", highlight=False)
        sys.exit(2)


if __name__ == "__main__":
    main()
