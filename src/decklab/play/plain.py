"""The plain line-mode game: views as text, numbered legal actions, typed choices.

It works with a screen reader and through a pipe: every prompt is a line, every
answer is a line, bad input is explained and asked again, and end of input
saves the game (if anything changed) and stops cleanly.

It plays the same :class:`~decklab.play.tui.session.Session` as the card table:
the same default opponents, the same undo rules, the same story in the log
(:mod:`decklab.engine.story`), the same saving rules. Cards are written in one
notation throughout, the K1 text that is also typed (``KH``, ``TD``): a screen
reader reads ``KH`` the same way every time, where suit symbols are read
differently by different readers.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TextIO

from decklab import cards
from decklab.bots.base import Agent
from decklab.bots.registry import make_agent
from decklab.engine import story
from decklab.engine.errors import IllegalAction
from decklab.engine.state import GameState, seat_name
from decklab.play.tui.session import Session

HELP = """Type the number of an action, or the action itself (e.g. {example}).
  ?  this help        rules  the rules        log  the last moves
  hint  a suggestion  why    the hint's figures
  undo  take back     redo   play it again
  save  save now      quit   save and stop"""

_SYMBOL_CARD = re.compile(r"(?<![\w])(10|[2-9AJQK])([♠♥♦♣★])")
CLEAR_SCREEN = "\033[2J\033[3J\033[H"
BLANK_LINES = 60
"""Lines printed to push a hand out of sight where the screen cannot be cleared."""


def k1_text(text: str) -> str:
    """Cards drawn with symbols (``10♥``) written in K1 notation (``TH``) instead."""

    def one(m: re.Match[str]) -> str:
        return cards.to_str(cards.parse(m.group(1) + m.group(2)))

    text = _SYMBOL_CARD.sub(one, text)
    # A suit on its own (a house suit, a turn suit) by its K1 letter as well.
    return text.translate(_SUIT_LETTER)


_SUIT_LETTER = str.maketrans(
    {sym: letter for sym, letter in zip(cards.SUIT_SYMBOLS, cards.SUIT_LETTERS, strict=True)}
)


class QuitGame(Exception):
    """The person asked to stop (or input ended)."""


@dataclass
class PlainGame:
    """One game in line mode."""

    session: Session
    out: TextIO
    read_line: Callable[[], str | None]
    rules_text: str = ""
    _hint_agent: Agent | None = field(default=None, repr=False)
    _last_hint: story.HintText | None = field(default=None, repr=False)

    @property
    def state(self) -> GameState:
        return self.session.state

    def say(self, text: str = "") -> None:
        print(k1_text(text), file=self.out, flush=True)

    def save(self) -> None:
        try:
            path = self.session.save()
        except OSError as exc:
            self.say(f"Could not save the game anywhere: {exc.strerror or exc}")
            return
        if self.session.save_warning:
            self.say(f"Note: {self.session.save_warning}")
        self.say(f"Saved the game to {path}")

    def run(self) -> GameState:
        session = self.session
        shown: int | None = None
        try:
            while not session.state.is_terminal():
                bot = session.next_bot()
                if bot is not None:
                    agent = session.agents[bot]
                    assert agent is not None
                    self._tell(session.apply(bot, agent.choose(session.state, bot)))
                    continue
                seat = session.next_human()
                assert seat is not None, "somebody must act in a state that is not terminal"
                if session.needs_hand_over(shown, seat):
                    self._hand_over(seat)
                shown = seat
                action = self._ask(seat)
                if action is not None:
                    self._tell(session.apply(seat, action))
        except QuitGame:
            self.say("Stopping.")
            if session.changed or not session.resumed:
                self.save()
            else:
                self.say("Nothing new to save: the saved game is left as it was.")
            return session.state
        self._finish()
        return session.state

    def _tell(self, told: str) -> None:
        summary = self.session.last_summary
        if summary:
            for line in told.splitlines():
                if line not in summary:
                    self.say(line)  # the move itself, before the summary of what it ended
            self.say("")
            self.say("=" * 20 + " summary " + "=" * 20)
            self.say("\n".join(summary))
            self.say("=" * 49)
            return
        if told:
            self.say(told)

    def _finish(self) -> None:
        session = self.session
        humans = session.humans
        self.say("")
        self.say(session.state.render(humans[0] if len(humans) == 1 else None))
        self.say(session.result_text())
        self.say("\n".join(session.breakdown_lines()))
        if session.started_over and not session.changed:
            return  # a finished game only looked at: nothing to write, nothing to count
        self.save()
        self._keep_stats()

    def _keep_stats(self) -> None:
        """A finished solo game goes into the statistics (``decklab stats``)."""
        import sqlite3

        from decklab.engine.errors import DecklabError
        from decklab.play.stats import record_game

        try:
            record_game(self.session.state, self.session.deal)
        except (sqlite3.Error, OSError, DecklabError) as exc:
            self.say(f"(Could not keep statistics: {exc})")

    def _hand_over(self, seat: int) -> None:
        """Hot seat: push the last hand out of sight, then wait for the next player."""
        isatty = getattr(self.out, "isatty", None)
        if callable(isatty) and isatty():
            print(CLEAR_SCREEN, end="", file=self.out, flush=True)
        else:
            self.say("\n" * BLANK_LINES)
        self.say(f"--- Pass the device to {seat_name(seat)}, then press Enter ---")
        if self.read_line() is None:
            raise QuitGame

    def _ask(self, seat: int) -> int | None:
        """The seat's choice; None when undo or redo changed the game instead."""
        state = self.state
        self.say("")
        self.say(state.render(seat))
        legal = state.legal_actions(seat)
        texts = [state.action_to_string(seat, a) for a in legal]
        self.say(f"{seat_name(seat)}, your move:")
        for i, text in enumerate(texts, 1):
            self.say(f"  {i:>3}. {text}")
        while True:
            print(f"{seat_name(seat)}> ", end="", file=self.out, flush=True)
            line = self.read_line()
            if line is None:
                raise QuitGame
            answer = line.strip()
            low = answer.lower()
            if not answer:
                continue
            if low in {"?", "help"}:
                self.say(HELP.format(example=texts[0]))
            elif low in {"q", "quit", "exit"}:
                raise QuitGame
            elif low == "save":
                self.save()
            elif low == "rules":
                self.say(self.rules_text or "No rules text.")
            elif low == "log":
                lines = [e.text for e in self.session.log[-12:]]
                self.say("\n".join(lines) or "Nothing has happened yet.")
            elif low in {"hint", "h"}:
                self._hint(seat, texts)
            elif low == "why":
                if self._last_hint is None:
                    self.say("Ask for a hint first (type hint).")
                else:
                    self.say(f"The figures behind the hint: {self._last_hint.figures}")
            elif low in {"undo", "u"}:
                if self.session.undo(seat):
                    self.say("Undone.")
                    self._last_hint = None
                    return None
                self.say(
                    "Nothing to undo: only your own last move, and only until others "
                    "have played or something hidden was shown."
                )
            elif low == "redo":
                if self.session.redo():
                    self.say("Redone.")
                    self._last_hint = None
                    return None
                self.say("Nothing to redo.")
            elif answer.isdigit():
                k = int(answer)
                if 1 <= k <= len(legal):
                    self._last_hint = None
                    return legal[k - 1]
                self.say(f"There is no action {k}: choose 1 to {len(legal)}.")
            else:
                try:
                    action = state.parse_action(seat, answer)
                except IllegalAction as exc:
                    self.say(f"Not allowed: {exc.reason}. Type ? for help.")
                    continue
                self._last_hint = None
                return action

    def _hint(self, seat: int, texts: list[str]) -> None:
        if self._hint_agent is None:
            self._hint_agent = make_agent(self.session.hint_spec)
        try:
            hint = self._hint_agent.hint(self.state, seat)
        except Exception as exc:  # a hint is a help: its failure must not end the game
            self.say(f"No hint: {exc}")
            return
        told = story.explain_hint(self.state, seat, hint)
        self._last_hint = told
        number = texts.index(hint.text) + 1 if hint.text in texts else 0
        self.say(f"Hint: {number}. {hint.text} — {told.sentence} (type why for the figures)")
