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
from decklab.bots.base import Agent
from decklab.bots.registry import make_agent
from decklab.bots.spec import parse_spec
from decklab.engine import records, story
from decklab.engine.layout import Table, table_function
from decklab.engine.state import CHANCE, GameState, Viewer, seat_name

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
    """A game with its seats. ``specs[seat]`` is ``"human"`` or an agent spec.

    Saving follows one rule: a user's file is never written unless they asked.
    ``save_path`` is where saves go; with ``claim`` it is only a wanted name for a
    *new* file (the default for new and resumed games), created exclusively at the
    first save so that no other file is ever overwritten. Opening a saved game
    writes nothing; ``changed`` says whether there is anything new to save.
    """

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
    claim: bool = False
    """``save_path`` is a wanted name for a new file, not a file the user named."""
    note: str | None = None
    """The record's note, kept from a resumed record (else ``deal N``)."""
    resumed: bool = False
    save_warning: str | None = None
    """Set when the last save could not go where it should and went elsewhere."""
    last_summary: list[str] | None = None
    """A game's summary screen after the last move (the end of a game within a match)."""

    def __post_init__(self) -> None:
        if not self.agents:
            self.agents = [agent_for(spec, i) for i, spec in enumerate(self.specs)]
        self.started_over = self.state.is_terminal()
        self._baseline = list(self.state.history)
        self._result: tuple[int, str] | None = None
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
        opponent: str = DEFAULT_OPPONENT,
    ) -> Session:
        """A fresh game: the human at p1 and ``opponent`` bots (a level, e.g. ``beginner``,
        :mod:`decklab.bots.levels`; ``greedy`` by default) unless ``specs`` says.

        Without a seed a deal number is drawn, so every game is a numbered deal that
        can be played again (``--deal N``).
        """
        from decklab.play.storage import default_record_path

        count = len(specs) if specs else players
        deal = seed if seed is not None else secrets.randbelow(1_000_000)
        state = game.new(count, options, seed=deal)
        n = state.num_players
        specs = specs or default_specs(n, opponent)
        path = save_path or default_record_path(game.info.name)
        return cls(state, specs, path, deal, hint_spec, claim=save_path is None)

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
        """A bot that must act now. In a simultaneous round the bots choose *after*
        every human at the table has chosen: a face-down choice is hidden from them
        either way, so it is just as fair, and a save made while a person thinks
        then never holds a bot's choice of the round that person has not faced."""
        acting = self.state.to_act()
        if any(self.agents[seat] is None for seat in acting):
            return None
        for seat in acting:
            if self.agents[seat] is not None:
                return seat
        return None

    def next_human(self) -> int | None:
        """The human to act now (humans go first in a simultaneous round)."""
        for seat in self.state.to_act():
            if self.agents[seat] is None:
                return seat
        return None

    def needs_hand_over(self, viewer: int | None, seat: int) -> bool:
        """Hot seat: another human is at the screen (or, on resuming, nobody has been
        shown anything yet), so the table must be hidden first."""
        if len(self.humans) < 2:
            return False
        return viewer != seat if self.resumed or viewer is not None else False

    @property
    def log_viewer(self) -> Viewer:
        """Whose knowledge the shared log tells: the only human's, else a spectator's
        (in hot seat the log is on everybody's screen)."""
        humans = self.humans
        return humans[0] if len(humans) == 1 else None

    def default_viewer(self) -> int | None:
        """Whose side of the table to show when nobody is being asked: the only human,
        or the first human to act; a spectator's view when bots play alone, and
        nobody's when several humans resume a game (the hand-over comes first)."""
        humans = self.humans
        if not humans or (self.resumed and len(humans) > 1):
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
        """Play ``action`` for ``seat``; returns what the log now tells (the move and
        what it revealed, see :mod:`decklab.engine.story`). A new move forgets redo."""
        before = self.state.clone()
        index = len(self.state.history)
        self.state.apply(seat, action)
        viewer = self.log_viewer
        told = [log_label(t) for t in story.narrate(before, self.state, viewer)]
        self.log.extend(LogEntry(index, t) for t in told)
        found = story.summary(before, self.state, viewer)
        self.last_summary = [log_label(t) for t in found] if found else None
        if not keep_redo:
            self.redo_stack.clear()
        return "\n".join(told)

    @property
    def changed(self) -> bool:
        """Whether the game moved on since it was opened (something new to save)."""
        return self.state.history != self._baseline

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
        if self.note is not None:
            record["note"] = self.note
        elif self.deal is not None:
            # The deal number, so a player can ask for the same deal again.
            record["note"] = f"deal {self.deal}"
        return record

    def save(self, path: Path | None = None) -> Path:
        """Write the record; returns where it went.

        The first save of a session with ``claim`` creates a new file (never an
        existing one). If the place cannot be written, the game is saved anyway,
        to a new file in the records folder (or the temporary folder), and
        ``save_warning`` says why and where.
        """
        from decklab.play.storage import StorageError, claim_new_file, fallback_save_path

        self.save_warning = None
        text = records.dumps(self.record())
        target = path or self.save_path
        try:
            if path is None and self.claim:
                target.parent.mkdir(parents=True, exist_ok=True)
                target = claim_new_file(target)
                self.save_path, self.claim = target, False
            target.write_text(text, encoding="utf-8")
        except (OSError, StorageError) as exc:
            reason = getattr(exc, "strerror", None) or str(exc)
            fallback = fallback_save_path(self.state.info.name)
            fallback.write_text(text, encoding="utf-8")
            self.save_warning = f"could not write {target} ({reason}): saved to {fallback} instead"
            if path is None:
                self.save_path, self.claim = fallback, False
            return fallback
        return target

    @classmethod
    def resume(
        cls,
        record: dict[str, Any],
        specs: list[str] | None = None,
        *,
        save_path: Path | None = None,
        hint_spec: str = HINT_SPEC,
    ) -> Session:
        """Continue a saved game: the seats keep who played them, unless ``specs`` says.

        Nothing is written on opening. Without ``save_path`` saves go to a new file
        in the records folder; the record that was opened is left as it is.
        """
        from decklab.play.storage import default_record_path

        state, _ = records.replay(record)
        if specs is None:
            specs = saved_specs(record, state.num_players)
        path = save_path or default_record_path(state.info.name)
        note = record.get("note")
        session = cls(
            state,
            specs,
            path,
            deal_of(record),
            hint_spec,
            claim=save_path is None,
            note=note if isinstance(note, str) else None,
            resumed=True,
        )
        session.log = recent_log(state, viewer=session.log_viewer)
        return session

    def result_text(self) -> str:
        """The result in one line: a solo game's reads as one (score, deal, best so far)."""
        state = self.state
        if self._result is not None and self._result[0] == len(state.history):
            return self._result[1]  # the best on the deal is the one before this game
        result = state.result()
        if state.num_players == 1:
            score = state.scores()[0]
            text = story.solo_result(score, state.info.score_unit, self.deal, self.best_on_deal())
            verdict = "won" if result["winners"] else "over"
            line = f"Game {verdict}: {text}."
        else:
            scores = ", ".join(f"{k}: {v:g}" for k, v in result["scores"].items())
            winners = ", ".join(result["winners"]) or "nobody"
            line = f"Game over. Scores: {scores}. Winner(s): {winners}."
        self._result = (len(state.history), line)
        return line

    def best_on_deal(self) -> float | None:
        """The player's best earlier result on this deal, from the statistics (if any)."""
        if self.deal is None:
            return None
        import sqlite3

        from decklab.play.stats import best_on_deal
        from decklab.play.storage import StorageError

        try:
            return best_on_deal(self.state.info.name, self.deal)
        except (sqlite3.Error, OSError, StorageError):
            return None

    def breakdown_lines(self) -> list[str]:
        """Each seat's score taken apart, as the log viewer may know it."""
        return story.breakdown_lines(story.score_breakdown(self.state, self.log_viewer))


def default_specs(players: int, opponent: str = DEFAULT_OPPONENT) -> list[str]:
    """The person at p1 and ``opponent`` bots: the same at the table and in line mode."""
    return [HUMAN] + [opponent] * (players - 1)


def saved_specs(record: dict[str, Any], players: int) -> list[str]:
    """Who sat where in a saved record (a human where it does not say)."""
    saved = record.get("players")
    saved = saved if isinstance(saved, dict) else {}
    specs = [saved.get(seat_name(i), HUMAN) for i in range(players)]
    return [s if isinstance(s, str) and s else HUMAN for s in specs]


def recent_log(state: GameState, count: int = 12, viewer: Viewer = None) -> list[LogEntry]:
    """The last ``count`` actions of a replayed record, told as ``viewer`` may know them.

    Each story needs the states just before and after its action, so the record
    is replayed up to each; a dozen short replays cost less than keeping every state.
    """
    full = records.make_record(state)
    lines = full["actions"]

    def upto(length: int) -> GameState:
        return records.replay({**full, "actions": lines[:length]})[0]

    actions = [i for i, (actor, _) in enumerate(state.history) if actor != CHANCE]
    log = []
    for k in range(max(0, len(actions) - count), len(actions)):
        index = actions[k]
        end = actions[k + 1] if k + 1 < len(actions) else len(state.history)
        before = upto(index)
        after = state if end == len(state.history) else upto(end)
        for text in story.narrate(before, after, viewer):
            log.append(LogEntry(index, log_label(text)))
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
