"""The plain line-mode game: views as text, numbered legal actions, typed choices.

It works with a screen reader and through a pipe: every prompt is a line, every
answer is a line, bad input is explained and asked again, and end of input
saves the game and stops cleanly.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from decklab.bots.base import Agent
from decklab.engine import records
from decklab.engine.errors import IllegalAction
from decklab.engine.state import GameState, seat_name

HELP = """Type the number of an action, or the action itself (e.g. {example}).
  ?  this help        rules  the rules        log  the last moves
  save  save now      quit   save and stop"""


class QuitGame(Exception):
    """The person asked to stop (or input ended)."""


@dataclass
class PlainGame:
    """One game in line mode. ``agents[seat]`` is None for a human seat."""

    state: GameState
    agents: list[Agent | None]
    out: TextIO
    read_line: Callable[[], str | None]
    save_path: Path
    players: dict[str, str] = field(default_factory=dict)
    rules_text: str = ""
    log: list[str] = field(default_factory=list)
    deal: int | None = None
    """The deal number (seed) when known, for the solo statistics."""

    @property
    def humans(self) -> list[int]:
        return [s for s, a in enumerate(self.agents) if a is None]

    def say(self, text: str = "") -> None:
        print(text, file=self.out, flush=True)

    def save(self) -> None:
        record = records.make_record(self.state, players=self.players)
        records.save(self.save_path, record)
        self.say(f"Saved the game to {self.save_path}")

    def run(self) -> GameState:
        last_human: int | None = None
        was_over = self.state.is_terminal()
        try:
            while not self.state.is_terminal():
                seat = self.state.to_act()[0]
                agent = self.agents[seat]
                if agent is None:
                    if len(self.humans) > 1 and last_human is not None and last_human != seat:
                        self._hand_over(seat)
                    last_human = seat
                    action = self._ask(seat)
                else:
                    action = agent.choose(self.state, seat)
                line = self.state.describe_action(seat, action)
                self.state.apply(seat, action)
                self.log.append(line)
                if agent is not None:
                    self.say(line)
        except QuitGame:
            self.say("Stopping.")
            self.save()
            return self.state
        self.say("")
        self.say(self.state.render(self.humans[0] if len(self.humans) == 1 else None))
        result = self.state.result()
        scores = ", ".join(f"{k}: {v:g}" for k, v in result["scores"].items())
        winners = ", ".join(result["winners"]) or "nobody"
        self.say(f"Game over. Scores: {scores}. Winner(s): {winners}.")
        self.save()
        if not was_over:
            self._keep_stats()
        return self.state

    def _keep_stats(self) -> None:
        """A finished solo game goes into the statistics (``decklab stats``)."""
        import sqlite3

        from decklab.play.stats import record_game

        try:
            record_game(self.state, self.deal)
        except (sqlite3.Error, OSError) as exc:
            self.say(f"(Could not keep statistics: {exc})")

    def _hand_over(self, seat: int) -> None:
        """Hot seat: hide the table until the next player is ready."""
        self.say("\n" * 3 + f"--- Pass the device to {seat_name(seat)}, then press Enter ---")
        if self.read_line() is None:
            raise QuitGame

    def _ask(self, seat: int) -> int:
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
                continue
            if low in {"q", "quit", "exit"}:
                raise QuitGame
            if low == "save":
                self.save()
                continue
            if low == "rules":
                self.say(self.rules_text or "No rules text.")
                continue
            if low == "log":
                self.say("\n".join(self.log[-10:]) or "Nothing has happened yet.")
                continue
            if answer.isdigit():
                k = int(answer)
                if 1 <= k <= len(legal):
                    return legal[k - 1]
                self.say(f"There is no action {k}: choose 1 to {len(legal)}.")
                continue
            try:
                return state.parse_action(seat, answer)
            except IllegalAction as exc:
                self.say(f"Not allowed: {exc.reason}. Type ? for help.")
