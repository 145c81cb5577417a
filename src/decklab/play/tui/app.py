"""The Textual game: the table, the legal actions, the log, and bots that think aside.

The screen never offers an illegal move: the action list holds exactly the
seat's legal actions, and clicking the table only narrows that list to the
actions whose text mentions what was clicked (a card's token, a zone's key).
Bots and hints run in worker threads on a clone of the state, so the interface
stays responsive; a result that arrives after an undo or a quit is ignored
(each carries the generation it was started in).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Footer, Header, LoadingIndicator, OptionList, RichLog, Static
from textual.widgets.option_list import Option

from decklab.bots.base import Agent, Hint
from decklab.bots.registry import make_agent
from decklab.engine import story
from decklab.engine.registry import get_game
from decklab.engine.state import GameState, seat_name
from decklab.play.tui import fit
from decklab.play.tui.screens import (
    HandOverScreen,
    MenuScreen,
    QuitScreen,
    RulesScreen,
    SummaryScreen,
)
from decklab.play.tui.session import Session, action_label, budget_text, log_label
from decklab.play.tui.widgets import Picked, TableView

RulesLoader = Callable[[type[GameState]], str]
SessionFactory = Callable[[str, int], Session]

CSS = (
    """
#body { height: 1fr; }
#table { width: 1fr; }
#side { width: SIDE; border-left: tall $panel; padding: 0 1; }
#about, #more { height: auto; }
#who { height: 3; text-style: bold; }
#thinking { height: 1; }
#thinking LoadingIndicator { width: 6; height: 1; min-height: 1; display: none; }
#thinking.-on LoadingIndicator { display: block; }
#thinking-text { width: 1fr; color: $warning; }
#filter { height: 2; color: $text-muted; }
#actions { height: 1fr; min-height: 5; }
#hint { height: auto; display: none; border: round $success; padding: 0 1; }
GameScreen.-narrow #side { width: NARROW; }
GameScreen.-short #who { height: 2; }
GameScreen.-short #filter { height: 1; }
GameScreen.-short #log { height: 4; }
GameScreen.-short #status { height: 1; }
GameScreen.-short #hint { max-height: 5; }
#hint.-on { display: block; }
GameScreen.-short #actions { border: none; border-left: tall $panel; padding: 0; }
GameScreen.-short #actions:focus { border-left: tall $accent; }
GameScreen.-below #body { layout: vertical; }
GameScreen.-below #table { width: 100%; height: auto; }
GameScreen.-below #side {
    width: 100%; height: 1fr; min-height: PANEL; border-left: none; padding: 0;
    layout: grid; grid-size: 2 2; grid-columns: 1fr 1fr; grid-rows: auto 1fr;
    background: $boost;
}
GameScreen.-below #about { padding: 0 1; }
GameScreen.-below #who { height: auto; max-height: 2; }
GameScreen.-below #actions { row-span: 2; height: 100%; }
GameScreen.-below #more { height: 100%; padding: 0 1; }
GameScreen.-below #log { height: 1fr; border-top: none; }
#log { height: 12; border-top: solid $panel; }
#status { height: 2; background: $boost; padding: 0 1; }
#menu { align: center top; padding: 1 4; }
#menu-title { text-style: bold; padding: 1 0; }
#menu-list { height: auto; max-height: 1fr; }
#menu-help { color: $text-muted; padding: 1 0; }
#handover { align: center middle; }
#handover-text { width: auto; text-align: center; padding: 2 4; }
HandOverScreen { background: $background; }
#rules { width: 90%; height: 90%; border: round $primary; background: $surface; }
RulesScreen, QuitScreen, SummaryScreen { align: center middle; }
#summary { width: 90%; max-width: 100; height: auto; max-height: 90%; border: round $success; background: $surface; padding: 1 2; }
#quit { width: 60; height: auto; border: round $warning; background: $surface; padding: 1 2; }
#quit Button { width: 100%; margin: 1 0 0 0; }
""".replace("NARROW", str(fit.SIDE_WIDTH_NARROW))
    .replace("SIDE", str(fit.SIDE_WIDTH))
    .replace("PANEL", str(fit.PANEL_BELOW))
)


class GameScreen(Screen[None]):
    """One game at the table."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("question_mark", "rules", "Rules"),
        Binding("h", "hint", "Hint"),
        Binding("w", "why", "Why"),
        Binding("u", "undo", "Undo"),
        Binding("r", "redo", "Redo"),
        Binding("s", "save", "Save"),
        Binding("escape", "clear", "Clear filter"),
        Binding("q", "quit_game", "Quit"),
    ]

    def __init__(self, session: Session, *, rules: str, pace: float = 0.35) -> None:
        super().__init__()
        self.session = session
        self.rules = rules
        self.pace = pace
        self.viewer: int | None = session.default_viewer()
        self.last_shown: int | None = self.viewer
        """The last seat whose cards were on screen: hot seat hands over from it."""
        self.asking: int | None = None
        self.thinking: int | None = None
        self.generation = 0
        self.selected: set[str] = set()
        self.hint: Hint | None = None
        self.hint_text: story.HintText | None = None
        self.show_figures = False
        self.hinting = False
        self.finished = False
        self.last_saved: Path | None = None
        self._hint_agent: Agent | None = None
        self._texts: dict[str, str] = {}
        self._thinking_since: float | None = None
        self._stats_kept = False
        self._options: list[tuple[str, str]] = []
        self._bindings_state: tuple[bool | None, ...] = ()
        self._fit_size = (0, 0)
        self._fit_rank = 0
        """How the table was last fitted to the screen: the screen never goes back to a
        roomier arrangement until it is resized (see :mod:`decklab.play.tui.fit`)."""

    # ------------------------------------------------------------- layout
    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="body"):
            yield TableView(id="table")
            with Vertical(id="side"):
                with Vertical(id="about"):
                    yield Static("", id="who")
                    with Horizontal(id="thinking"):
                        yield LoadingIndicator()
                        yield Static("", id="thinking-text")
                    yield Static("", id="filter")
                yield OptionList(id="actions")
                with Vertical(id="more"):
                    yield Static("", id="hint")
                    yield RichLog(id="log", wrap=True, markup=False, max_lines=500, min_width=20)
        yield Static("", id="status")
        yield Footer()

    def on_resize(self, event: events.Resize) -> None:
        """Small terminals (80×24): a narrower side panel, a shorter log, and the table
        drawn to fit (see :mod:`decklab.play.tui.fit`)."""
        self._size_classes(event.size.width, event.size.height)
        if self.is_mounted:
            self.call_after_refresh(self.refresh_view)

    def _size_classes(self, width: int, height: int) -> None:
        self.set_class(fit.narrow(width), "-narrow")
        self.set_class(fit.short(height), "-short")

    def on_mount(self) -> None:
        self._size_classes(*self.app.size)
        info = self.session.state.info
        deal = f" · deal {self.session.deal}" if self.session.deal is not None else ""
        self.title = f"{info.title}{deal}"
        self.sub_title = " · ".join(
            f"{seat_name(i)} {spec}" for i, spec in enumerate(self.session.specs)
        )
        log = self.query_one("#log", RichLog)
        for entry in self.session.log:
            log.write(entry.text)
        self.advance()

    # --------------------------------------------------------------- flow
    def advance(self) -> None:
        """Decide what happens next: a bot thinks, a human is asked, or the game is over."""
        self.asking = None
        session = self.session
        if session.state.is_terminal():
            self.finish()
            return
        bot = session.next_bot()
        if bot is not None:
            self.start_bot(bot)
            self.refresh_view()
            return
        seat = session.next_human()
        assert seat is not None, "somebody must act in a state that is not terminal"
        if session.needs_hand_over(self.last_shown, seat):
            self.viewer = None  # hide the last player's cards before anything else shows
            self.refresh_view()
            self.app.push_screen(HandOverScreen(seat_name(seat)), partial(self._handed, seat))
            return
        self.ask(seat)

    def _handed(self, seat: int, _: object = None) -> None:
        self.ask(seat)

    def ask(self, seat: int) -> None:
        self.viewer = seat
        self.last_shown = seat
        self.asking = seat
        self.selected.clear()
        self.refresh_view()
        self.query_one("#actions", OptionList).focus()

    def finish(self) -> None:
        """Game over: show the final table, save the record, keep solo statistics."""
        session = self.session
        if len(session.humans) == 1:
            self.viewer = session.humans[0]
        elif len(session.humans) > 1:
            self.viewer = None
        self.refresh_view()
        if self.finished:
            return
        self.finished = True
        message = session.result_text()
        breakdown = session.breakdown_lines()
        log = self.query_one("#log", RichLog)
        log.write(message)
        for line in breakdown:
            log.write(line)
        if session.humans:
            # The end of the game: every score taken apart, before the table behind it.
            self.app.push_screen(SummaryScreen([message, "", *breakdown]))
        if session.started_over and not session.changed:
            # A finished game only looked at: its file stays as it is, nothing is counted.
            self.notify(message, title="Game over", timeout=10)
            return
        try:
            self.last_saved = session.save()
        except OSError as exc:
            message += f"\nCould not save: {exc.strerror or exc}"
        else:
            message += f"\nSaved to {self.last_saved}"
            if session.save_warning:
                message += f"\n({session.save_warning})"
        if not session.started_over and not self._stats_kept:
            self._stats_kept = True  # once per game, even if undone and finished again
            self._keep_stats()
        self.notify(message, title="Game over", timeout=10)

    def _keep_stats(self) -> None:
        import sqlite3

        from decklab.engine.errors import DecklabError
        from decklab.play.stats import record_game

        try:
            record_game(self.session.state, self.session.deal)
        except (sqlite3.Error, OSError, DecklabError) as exc:
            self.notify(f"Could not keep statistics: {exc}", severity="warning")

    # ---------------------------------------------------------------- bots
    def start_bot(self, seat: int) -> None:
        self.thinking = seat
        spec = self.session.specs[seat]
        self._show_thinking(f"{seat_name(seat)} ({budget_text(spec)}) is thinking…")
        agent = self.session.agents[seat]
        assert agent is not None
        work = partial(self._think, self.generation, seat, agent, self.session.state.clone())
        self.run_worker(work, thread=True, group="bot", exit_on_error=False)

    def _think(self, generation: int, seat: int, agent: Agent, state: GameState) -> None:
        """In a worker thread: choose, and keep a human pace so moves can be followed."""
        start = time.monotonic()
        try:
            action = agent.choose(state, seat)
        except Exception as exc:
            self.app.call_from_thread(self._bot_failed, generation, seat, exc)
            return
        rest = self.pace - (time.monotonic() - start)
        if rest > 0:
            time.sleep(rest)
        self.app.call_from_thread(self._bot_done, generation, seat, action)

    def _bot_done(self, generation: int, seat: int, action: int) -> None:
        if generation != self.generation or self.thinking != seat:
            return  # an undo, redo or quit happened meanwhile
        self.thinking = None
        self._show_thinking(None)
        self._tell(self.session.apply(seat, action))
        self._after_move()

    def _tell(self, told: str) -> None:
        log = self.query_one("#log", RichLog)
        for line in told.splitlines():
            log.write(line)

    def _after_move(self) -> None:
        """A stage of the game ended (a game within a match): pause on its summary,
        unless nobody is at the table to read it."""
        summary = self.session.last_summary
        if summary and self.session.humans:
            self.session.last_summary = None
            self.viewer = None if len(self.session.humans) > 1 else self.viewer
            self.refresh_view()
            self.app.push_screen(SummaryScreen(summary), self._summary_read)
            return
        self.advance()

    def _summary_read(self, _: object = None) -> None:
        self.advance()

    def _bot_failed(self, generation: int, seat: int, exc: Exception) -> None:
        if generation != self.generation:
            return
        self.thinking = None
        self._show_thinking(None)
        self.notify(f"{seat_name(seat)}'s bot failed: {exc}", severity="error", timeout=20)

    def _show_thinking(self, text: str | None) -> None:
        """Say who is thinking at once; start the spinner only if it takes a moment,
        so that quick bots do not make the panel flicker."""
        self._set_text("#thinking-text", text or "")
        self._thinking_since = time.monotonic() if text else None
        if text is None:
            self.query_one("#thinking").set_class(False, "-on")
        else:
            self.set_timer(0.15, self._spin)

    def _spin(self) -> None:
        if self._thinking_since is not None:
            self.query_one("#thinking").set_class(True, "-on")

    # --------------------------------------------------------------- view
    def _set_text(self, selector: str, text: str) -> None:
        """Update a fixed-size line only when it changes: no layout pass, no redraw for nothing."""
        widget = self.query_one(selector, Static)
        if self._texts.get(selector) != text:
            self._texts[selector] = text
            widget.update(Text(text), layout=False)

    def refresh_view(self) -> None:
        """Redraw the table from the viewer's side, and the list of legal actions."""
        session = self.session
        viewer = self.viewer
        table = session.table(viewer)
        legal = session.legal(self.asking) if self.asking is not None else []
        playable = {w for _, text in legal for w in text.split()}
        width, height = self.app.size
        if self._fit_size != (width, height):
            self._fit_size, self._fit_rank = (width, height), 0
        chosen = fit.choose(table, width, height, playable, self.selected, start=self._fit_rank)
        self._fit_rank = chosen.rank
        self.set_class(chosen.below, "-below")
        view = self.query_one(TableView)
        view.styles.max_height = chosen.room.height if chosen.below else None
        view.show(table, playable, self.selected, chosen)
        status = table.status + ("\n" + " · ".join(table.facts) if table.facts else "")
        self._set_text("#status", status)
        self._refresh_who(viewer)
        self._refresh_actions(legal)
        # The footer rebuilds itself on every bindings refresh: only when something changed.
        now = (self.check_action("redo", ()),)
        if now != self._bindings_state:
            self._bindings_state = now
            self.refresh_bindings()

    def _refresh_who(self, viewer: int | None) -> None:
        session = self.session
        if session.state.is_terminal():
            text = session.result_text()
        elif self.asking is not None:
            text = f"{seat_name(self.asking)}, your move"
            if len(session.humans) > 1:
                text += f" (you are {seat_name(self.asking)})"
        elif self.thinking is not None:
            text = "Waiting for the bots…"
        else:
            text = "Waiting…"
        if viewer is None and not session.state.is_terminal() and session.humans:
            text += "\n(table hidden until the next player is ready)"
        self._set_text("#who", text)

    def _matching(self, legal: list[tuple[int, str]]) -> list[tuple[int, str]]:
        if not self.selected:
            return legal
        return [(a, t) for a, t in legal if self.selected <= set(t.split())]

    def _refresh_actions(self, legal: list[tuple[int, str]]) -> None:
        listing = self.query_one("#actions", OptionList)
        shown = self._matching(legal)
        if self.asking is None:
            over = self.session.state.is_terminal()
            wanted = [("", "Game over: press q to quit.")] if over else []
        else:
            wanted = [(str(a), action_label(t)) for a, t in shown]
        if wanted != self._options:
            self._options = wanted
            listing.clear_options()
            listing.add_options(
                Option(label, id=ident or None, disabled=not ident) for ident, label in wanted
            )
        if self.asking is not None and shown:
            ids = [ident for ident, _ in wanted]
            hinted = str(self.hint.action) if self.hint is not None else None
            listing.highlighted = ids.index(hinted) if hinted in ids else 0
        if self.selected and self.asking is not None:
            words = " + ".join(action_label(k) for k in sorted(self.selected))
            note = f"Showing actions with {words} ({len(shown)} of {len(legal)}) — Esc: all"
        elif self.asking is not None:
            note = f"{len(legal)} legal action{'s' if len(legal) != 1 else ''}"
        else:
            note = ""
        self._set_text("#filter", note)
        if self.hint is None:
            self.hint_text = None
            self._show_hint(None)

    def _show_hint(self, text: str | None) -> None:
        box = self.query_one("#hint", Static)
        if self._texts.get("#hint") == (text or "") and box.has_class("-on") == (text is not None):
            return
        self._texts["#hint"] = text or ""
        box.set_class(text is not None, "-on")
        box.update(Text(text or ""))

    # ------------------------------------------------------------- input
    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if self.asking is None or event.option.id is None:
            return
        seat = self.asking
        action = int(event.option.id)
        if action not in self.session.state.legal_actions(seat):
            return  # a stale list; never play what is not legal now
        self.play(seat, action)

    def play(self, seat: int, action: int) -> None:
        self.generation += 1
        self.hint = None
        self.hint_text = None
        self.selected.clear()
        self._tell(self.session.apply(seat, action))
        self._after_move()

    def on_picked(self, message: Picked) -> None:
        """A card or zone was clicked: narrow the actions to those that mention it."""
        if self.asking is None:
            return
        key = message.key
        legal = self.session.legal(self.asking)
        words = [set(t.split()) for _, t in legal]
        if key in self.selected:
            self.selected.discard(key)
        elif any(self.selected | {key} <= w for w in words):
            self.selected.add(key)
        elif any(key in w for w in words):
            self.selected = {key}
        else:
            self.notify(f"No legal action involves {action_label(key)} now.", timeout=3)
            return
        self.refresh_view()
        self.query_one("#actions", OptionList).focus()

    # ------------------------------------------------------------- actions
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Redo shows only when there is something to redo. Undo and hint stay listed:
        their availability flips with every move, and the footer rebuilds itself each
        time it is told; pressing them when they cannot help says why instead."""
        if action == "redo":
            return bool(self.session.redo_stack)
        return True

    def can_undo(self) -> bool:
        seat = self._undo_seat()
        return seat is not None and self.session.undo_point(seat) is not None

    def _undo_seat(self) -> int | None:
        if self.asking is not None:
            return self.asking
        if self.viewer is not None:
            return self.viewer
        humans = self.session.humans
        return humans[0] if len(humans) == 1 else None

    def action_clear(self) -> None:
        if self.selected:
            self.selected.clear()
            self.refresh_view()

    def action_rules(self) -> None:
        self.app.push_screen(RulesScreen(self.rules))

    def action_save(self) -> None:
        try:
            path = self.session.save()
        except OSError as exc:
            self.notify(f"Could not save: {exc.strerror}", severity="error")
            return
        self.last_saved = path
        if self.session.save_warning:
            self.notify(self.session.save_warning, title="Saved elsewhere", severity="warning")
        else:
            self.notify(f"Saved to {path}", title="Saved")

    def action_quit_game(self) -> None:
        if self.session.state.is_terminal():
            self.app.exit()
            return
        self.app.push_screen(QuitScreen(str(self.session.save_path)), self._quit_answer)

    def _quit_answer(self, answer: str | None) -> None:
        if answer is None:
            return
        self.generation += 1
        if answer == "save":
            self.action_save()
        self.app.exit(str(self.last_saved) if self.last_saved else None)

    def action_undo(self) -> None:
        seat = self._undo_seat()
        if seat is None or not self.session.undo(seat):
            self.notify(
                "Nothing to undo: only your own last move, and only until others "
                "have played or something hidden was shown.",
                timeout=5,
            )
            return
        self._after_history_change("Undone.")

    def action_redo(self) -> None:
        if not self.session.redo():
            self.notify("Nothing to redo.", timeout=3)
            return
        self._after_history_change("Redone.")

    def _after_history_change(self, word: str) -> None:
        self.generation += 1
        self.thinking = None
        self.hint = None
        self.hint_text = None
        self.finished = self.session.state.is_terminal() and self.finished
        self._show_thinking(None)
        log = self.query_one("#log", RichLog)
        log.clear()
        for entry in self.session.log:
            log.write(entry.text)
        log.write(f"({word})")
        self.advance()

    # ---------------------------------------------------------------- hint
    def action_hint(self) -> None:
        if self.hinting:
            return
        if self.asking is None:
            self.notify("A hint is for when it is your move.", timeout=3)
            return
        seat = self.asking
        if self._hint_agent is None:
            self._hint_agent = make_agent(self.session.hint_spec)
        self.hinting = True
        self._show_thinking(f"hint: {budget_text(self.session.hint_spec)} is thinking…")
        state = self.session.state.clone()
        work = partial(self._think_hint, self.generation, seat, self._hint_agent, state)
        self.run_worker(work, thread=True, group="hint", exit_on_error=False)

    def _think_hint(self, generation: int, seat: int, agent: Agent, state: GameState) -> None:
        try:
            hint: Hint | Exception = agent.hint(state, seat)
        except Exception as exc:
            hint = exc
        self.app.call_from_thread(self._hint_done, generation, seat, hint)

    def _hint_done(self, generation: int, seat: int, hint: Hint | Exception) -> None:
        self.hinting = False
        if self.thinking is None:
            self._show_thinking(None)
        if generation != self.generation or self.asking != seat:
            return
        if isinstance(hint, Exception):
            self.notify(f"No hint: {hint}", severity="warning")
            return
        self.hint = hint
        self.hint_text = story.explain_hint(self.session.state, seat, hint)
        self.show_figures = False
        legal_ids = {a for a, t in self._matching(self.session.legal(seat))}
        if hint.action not in legal_ids:
            self.selected.clear()
        self._show_hint(self._hint_box())
        self.refresh_view()
        self.query_one("#actions", OptionList).focus()

    def _hint_box(self) -> str:
        told = self.hint_text
        assert told is not None
        text = f"Hint: {action_label(told.action)} — {log_label(told.sentence)}"
        if self.show_figures:
            return f"{text}\n{told.figures}"
        return f"{text}\n(w: the figures)"

    def action_why(self) -> None:
        """The search figures behind the hint, one key away from its plain words."""
        if self.hint_text is None:
            self.notify("Ask for a hint first (h).", timeout=3)
            return
        self.show_figures = not self.show_figures
        self._show_hint(self._hint_box())


class PlayApp(App[str | None]):
    """``decklab play`` in a terminal: a menu of the games, or straight into one."""

    CSS = CSS
    TITLE = "decklab"

    def __init__(
        self,
        session: Session | None = None,
        *,
        rules: RulesLoader,
        new_session: SessionFactory | None = None,
        pace: float = 0.35,
    ) -> None:
        super().__init__()
        self.session = session
        self.rules_loader = rules
        self.new_session = new_session or _default_factory
        self.pace = pace

    def on_mount(self) -> None:
        if self.session is not None:
            self.start(self.session)
        else:
            self.push_screen(MenuScreen(), self._chosen)

    def _chosen(self, choice: tuple[str, int] | None) -> None:
        if choice is None:
            self.exit()
            return
        name, players = choice
        self.start(self.new_session(name, players))

    def start(self, session: Session) -> None:
        self.session = session
        rules = self.rules_loader(type(session.state))
        self.push_screen(GameScreen(session, rules=rules, pace=self.pace))

    @property
    def game_screen(self) -> GameScreen:
        for screen in reversed(self.screen_stack):
            if isinstance(screen, GameScreen):
                return screen
        raise LookupError("no game is being played")


def _default_factory(name: str, players: int) -> Session:
    """A game chosen from the menu: the person at p1, greedy opponents, a numbered deal."""
    return Session.new(get_game(name), players=players)
