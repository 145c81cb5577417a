"""The small screens around a game: the menu, the hand-over, the rules, the quit prompt."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Center, Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, Footer, Header, Markdown, OptionList, Static
from textual.widgets.option_list import Option

from decklab.engine.registry import game_names, get_game


class MenuScreen(Screen[tuple[str, int]]):
    """Choose a game (and, for games with a range, how many players)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("q", "app.quit", "Quit"),
        Binding("escape", "back", "Back"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.game: str | None = None

    def compose(self) -> ComposeResult:
        yield Header()
        with Vertical(id="menu"):
            yield Static("Choose a game", id="menu-title")
            yield OptionList(*self._game_options(), id="menu-list")
            yield Static(
                "Opponents are greedy bots; choose others with --players "
                "(e.g. human,expert,greedy: expert is the strongest). ↑↓ and Enter, or click.",
                id="menu-help",
            )
        yield Footer()

    @staticmethod
    def _game_options() -> list[Option]:
        options = []
        for name in game_names():
            info = get_game(name).info
            count = info.players_text()
            word = "player" if count == "1" else "players"
            prompt = Text.assemble(
                (info.title, "bold"),
                f"  ({count} {word})\n",
                (info.summary, "dim"),
                "\n",
            )
            options.append(Option(prompt, id=name))
        return options

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        chosen = event.option.id
        assert chosen is not None
        if self.game is None:
            info = get_game(chosen).info
            if info.min_players == info.max_players:
                self.dismiss((chosen, info.min_players))
                return
            self.game = chosen
            self._show_counts()
        else:
            self.dismiss((self.game, int(chosen)))

    def _show_counts(self) -> None:
        assert self.game is not None
        info = get_game(self.game).info
        options = [
            Option(f"{n} players" + (" (usual)" if n == info.default_players else ""), id=str(n))
            for n in range(info.min_players, info.max_players + 1)
        ]
        listing = self.query_one("#menu-list", OptionList)
        listing.clear_options()
        listing.add_options(options)
        listing.highlighted = info.default_players - info.min_players
        self.query_one("#menu-title", Static).update(f"{info.title}: how many players?")

    def action_back(self) -> None:
        if self.game is None:
            return
        self.game = None
        listing = self.query_one("#menu-list", OptionList)
        listing.clear_options()
        listing.add_options(self._game_options())
        self.query_one("#menu-title", Static).update("Choose a game")


class HandOverScreen(Screen[None]):
    """Hot seat: the table is hidden until the next player says they are ready."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "ready", "Ready"),
        Binding("space", "ready", "Ready", show=False),
    ]

    def __init__(self, seat: str) -> None:
        super().__init__()
        self.seat = seat

    def compose(self) -> ComposeResult:
        with Vertical(id="handover"):
            yield Static(
                Text.assemble(
                    ("Pass the device to ", ""),
                    (self.seat, "bold"),
                    ".\n\nThe table stays hidden until ",
                    (self.seat, "bold"),
                    " is ready.",
                ),
                id="handover-text",
            )
            with Center():
                yield Button(f"I am {self.seat}: show my cards", id="handover-ready")
        yield Footer()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(None)

    def action_ready(self) -> None:
        self.dismiss(None)


class RulesScreen(ModalScreen[None]):
    """The game's rules, as ``decklab rules`` prints them."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Close"),
        Binding("question_mark", "close", "Close", show=False),
        Binding("q", "close", "Close", show=False),
    ]

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="rules"):
            yield Markdown(self.text)
        yield Footer()

    def action_close(self) -> None:
        self.dismiss(None)


class QuitScreen(ModalScreen[str | None]):
    """Quitting an unfinished game: save it first?"""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "choose('save')", "Save and quit"),
        Binding("n", "choose('quit')", "Quit without saving"),
        Binding("escape", "choose('')", "Cancel"),
    ]

    def __init__(self, path: str) -> None:
        super().__init__()
        self.path = path

    def compose(self) -> ComposeResult:
        with Vertical(id="quit"):
            yield Static(f"Save the game before quitting?\n{self.path}", id="quit-text")
            yield Button("Save and quit (y)", id="save", variant="primary")
            yield Button("Quit without saving (n)", id="quit")
            yield Button("Keep playing (Esc)", id="cancel")
        yield Footer()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss({"save": "save", "quit": "quit"}.get(event.button.id or ""))

    def action_choose(self, what: str) -> None:
        self.dismiss(what or None)


class SummaryScreen(ModalScreen[None]):
    """The end of a stage (a game within a match): what was revealed and scored,
    read before the next deal covers the table."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "close", "Continue"),
        Binding("escape", "close", "Continue", show=False),
        Binding("space", "close", "Continue", show=False),
    ]

    def __init__(self, lines: list[str]) -> None:
        super().__init__()
        self.lines = list(lines)

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="summary"):
            yield Static(Text("\n".join(self.lines)), id="summary-text")
            with Center():
                yield Button("Continue (Enter)", id="summary-go", variant="primary")
        yield Footer()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(None)

    def action_close(self) -> None:
        self.dismiss(None)
