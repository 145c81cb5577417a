"""One game being played at the terminal, without any drawing: who sits where, the
log, saving, undo and redo, and whose turn it is to look at the table.

Kept apart from the Textual widgets so that its rules (what may be undone, who
must hand over the screen) are plain code that tests can drive directly, and so
that another interface could reuse it.
"""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from decklab import cards
from decklab.bots.base import Agent, make_agent, parse_spec
from decklab.engine import records
from decklab.engine.layout import Table, table_function
from decklab.engine.state import CHANCE, GameState, seat_name

HUMAN = "human"
DEFAULT_OPPONENT = "greedy"
"""Fast and plays sensibly: a person should not wait for a bot by default."""
HINT_SPEC = "expert"
"""The strongest fair bot at a budget a person will wait for."""


def agent_for(spec: str, seat: int) -> Agent | None:
    """The agent a spec names (None for a human); seeded by seat when no seed is given,
    as the plain mode does, so that a game with the same deal replays the same."""
    if spec == HUMAN:
        return None
    return make_agent(spec if ":" in spec else f"{spec}:seed={seat}")


def budget_text(spec: str) -> str:
    """``ismcts:time=0.5`` → ``ismcts, 0.5 s``: what a thinking bot is allowed."""
    name, params = parse_spec(spec)
    if "time" in params:
        return f"{name}, {params['time']} s"
    if "iters" in params:
        return f"{name}, {params['iters']} iterations"
    return name


_CARD_WORD = re.compile(r"\b(?:10|[2-9TJQKA])[SHDCX]\b")


def log_label(sentence: str) -> str:
    """A log sentence with its K1 cards (``QS``) drawn with symbols (``Q♠``)."""
    return _CARD_WORD.sub(lambda m: cards.to_display(cards.parse(m.group(0))), sentence)


def action_label(text: str) -> str:
    """An action's canonical text with card symbols: ``bid KH 5S`` → ``bid K♥ 5♠``.

    Only upper-case K1 words are cards in canonical action text (cells, seats and
    words are lower case), so nothing else is touched.
    """
    out = []
    for word in text.split():
        if word.isupper() and cards.is_card_text(word) and not word.isdigit():
            out.append(cards.to_display(cards.parse(word)))
        else:
            out.append(word)
    return " ".join(out)


@dataclass
class LogEntry:
    index: int
    """The history index of the action it tells (undo removes entries from there)."""
    text: str


@dataclass
class Session:
    """A game with its seats. ``specs[seat]`` is ``"human"`` or an agent spec."""

    state: GameState
    specs: list[str]
    save_path: Path
    deal: int | None = None
    hint_spec: str = HINT_SPEC
    agents: list[Agent | None] = field(default_factory=list)
    log: list[LogEntry] = field(default_factory=list)
    redo_stack: list[tuple[list[str], list[LogEntry]]] = field(default_factory=list)
    started_over: bool = False
    """Whether the game was already over when the session began (a finished record)."""

    def __post_init__(self) -> None:
        if not self.agents:
            self.agents = [agent_for(spec, i) for i, spec in enumerate(self.specs)]
        self.started_over = self.state.is_terminal()
        self._table = table_function(type(self.state))

    # ------------------------------------------------------------ creation
    @classmethod
    def new(
        cls,
        game: type[GameState],
        specs: list[str] | None = None,
        *,
        players: int | None = None,
        options: dict[str, Any] | None = None,
        seed: int | None = None,
        save_path: Path | None = None,
        hint_spec: str = HINT_SPEC,
    ) -> Session:
        """A fresh game: the human at p1 and ``greedy`` opponents unless ``specs`` says.

        Without a seed a deal number is drawn, so every game is a numbered deal that
        can be played again (``--deal N``).
        """
        from decklab.play.storage import default_record_path

        count = len(specs) if specs else players
        deal = seed if seed is not None else secrets.randbelow(1_000_000)
        state = game.new(count, options, seed=deal)
        n = state.num_players
        specs = specs or [HUMAN] + [DEFAULT_OPPONENT] * (n - 1)
        return cls(state, specs, save_path or default_record_path(game.info.name), deal, hint_spec)

    # ---------------------------------------------------------------- seats
    @property
    def humans(self) -> list[int]:
        return [s for s, a in enumerate(self.agents) if a is None]

    @property
    def players(self) -> dict[str, str]:
        return {seat_name(i): s for i, s in enumerate(self.specs)}

    def is_bot(self, seat: int) -> bool:
        return self.agents[seat] is not None

    def next_bot(self) -> int | None:
        """A bot that must act now (bots move first in a simultaneous round)."""
        for seat in self.state.to_act():
            if self.agents[seat] is not None:
                return seat
        return None

    def next_human(self) -> int | None:
        """The human to act now, when no bot must act first."""
        for seat in self.state.to_act():
            if self.agents[seat] is None:
                return seat
        return None

    def needs_hand_over(self, viewer: int | None, seat: int) -> bool:
        """Hot seat: another human is at the screen, so the table must be hidden first."""
        return len(self.humans) > 1 and viewer is not None and viewer != seat

    def default_viewer(self) -> int | None:
        """Whose side of the table to show when nobody is being asked: the only human,
        or the first human to act; a spectator's view when bots play alone."""
        humans = self.humans
        if not humans:
            return None
        waiting = self.next_human()
        return waiting if waiting is not None else humans[0]

    # ---------------------------------------------------------------- table
    def table(self, viewer: int | None) -> Table:
        """The table from ``viewer``'s side, built from its view only."""
        return self._table(self.state.view(viewer))

    def legal(self, seat: int) -> list[tuple[int, str]]:
        """(action, canonical text) of every legal action of ``seat``."""
        state = self.state
        return [(a, state.action_to_string(seat, a)) for a in state.legal_actions(seat)]

    # ---------------------------------------------------------------- moves
    def apply(self, seat: int, action: int, *, keep_redo: bool = False) -> str:
        """Play ``action`` for ``seat``; returns the log sentence. A new move forgets redo."""
        line = log_label(self.state.describe_action(seat, action))
        index = len(self.state.history)
        self.state.apply(seat, action)
        self.log.append(LogEntry(index, line))
        if not keep_redo:
            self.redo_stack.clear()
        return line

    # ----------------------------------------------------------- undo/redo
    def undo_point(self, seat: int) -> int | None:
        """The history index from which ``seat``'s last action would be undone, or None.

        Solo play may take back any of its moves (there is nobody to learn from).
        With others at the table only the seat's own last action may be taken back,
        and only if nothing hidden was revealed and no chance was drawn since
        (``state.undo_barrier``).
        """
        history = self.state.history
        last = next((i for i in range(len(history) - 1, -1, -1) if history[i][0] == seat), None)
        if last is None:
            return None
        state = self.state
        if state.num_players == 1:
            return last
        if state.is_terminal():
            return None  # the end of a game reveals everything: nothing to take back
        if state.info.simultaneous and seat in state.to_act():
            # Acting again means the round of that action was resolved and revealed.
            return None
        return last if last >= state.undo_barrier(seat) else None

    def undo(self, seat: int) -> bool:
        """Take back ``seat``'s last action (and anything after it); False if not allowed."""
        point = self.undo_point(seat)
        if point is None:
            return False
        lines = records.action_lines(self.state)
        self._rebuild(lines[:point])
        undone_log = [e for e in self.log if e.index >= point]
        self.log = [e for e in self.log if e.index < point]
        self.redo_stack.append((lines[point:], undone_log))
        return True

    def redo(self) -> bool:
        """Play again what the last undo took back; False if there is nothing to redo."""
        if not self.redo_stack:
            return False
        chunk, entries = self.redo_stack.pop()
        lines = records.action_lines(self.state)
        self._rebuild(lines + chunk)
        self.log.extend(entries)
        return True

    def _rebuild(self, lines: list[str]) -> None:
        """Replace the state by the replay of its record cut to ``lines``.

        Rebuilding from the record (rather than keeping snapshots) means undo can
        only ever reach a position the record itself describes. The random source
        carries over: undo never crosses chance in a multi-seat game, so nothing
        already drawn is drawn again.
        """
        record = records.make_record(self.state, players=self.players)
        record["actions"] = lines
        rebuilt, _ = records.replay(record)
        rebuilt.rng = self.state.rng.copy()
        rebuilt.seed = self.state.seed
        self.state = rebuilt

    # ------------------------------------------------------------- records
    def record(self) -> dict[str, Any]:
        record = records.make_record(self.state, players=self.players)
        if self.deal is not None:
            # The deal number, so a player can ask for the same deal again.
            record["note"] = f"deal {self.deal}"
        return record

    def save(self, path: Path | None = None) -> Path:
        target = path or self.save_path
        target.parent.mkdir(parents=True, exist_ok=True)
        records.save(target, self.record())
        return target

    @classmethod
    def resume(
        cls,
        record: dict[str, Any],
        specs: list[str] | None = None,
        *,
        save_path: Path,
        hint_spec: str = HINT_SPEC,
    ) -> Session:
        """Continue a saved game: the seats keep who played them, unless ``specs`` says."""
        state, _ = records.replay(record)
        if specs is None:
            saved = record.get("players") or {}
            specs = [saved.get(seat_name(i), HUMAN) for i in range(state.num_players)]
            specs = [s if isinstance(s, str) else HUMAN for s in specs]
        session = cls(state, specs, save_path, deal_of(record), hint_spec)
        session.log = recent_log(state)
        return session

    def result_text(self) -> str:
        result = self.state.result()
        scores = ", ".join(f"{k}: {v:g}" for k, v in result["scores"].items())
        winners = ", ".join(result["winners"]) or "nobody"
        return f"Game over. Scores: {scores}. Winner(s): {winners}."


def recent_log(state: GameState, count: int = 12) -> list[LogEntry]:
    """The last ``count`` actions of a replayed record, in words.

    Each sentence needs the state just before its action, so the record is
    replayed up to it; a dozen short replays cost less than keeping every state.
    """
    full = records.make_record(state)
    wanted = [i for i, (actor, _) in enumerate(state.history) if actor != CHANCE][-count:]
    log = []
    for index in wanted:
        before, _ = records.replay(full, limit=index)
        actor, action = state.history[index]
        text = log_label(before.describe_action(actor, action))
        log.append(LogEntry(index, text))
    return log


def deal_of(record: dict[str, Any]) -> int | None:
    """The deal number a record was dealt from: its seed, or the ``deal N`` note we write."""
    seed = record.get("seed")
    if isinstance(seed, int) and not isinstance(seed, bool):
        return seed
    note = record.get("note")
    if isinstance(note, str) and note.startswith("deal ") and note[5:].strip().isdigit():
        return int(note[5:].strip())
    return None
