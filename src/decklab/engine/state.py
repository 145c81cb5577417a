"""The one generic game interface that every layer uses.

A game is a subclass of :class:`GameState` with a :class:`GameInfo`. The engine
owns what is common: construction from a seed or an explicit setup, the history
of actions and chance outcomes (from which records are written), validated
``apply``, parsing of action text, chance drawn from the state's seeded source
and recorded. The game owns its rules: who acts, what is legal, what each seat
may see, how hidden cards are resampled.

Actions are small integers (cheap to generate, compare and hash on the hot
path); each has a canonical string that :meth:`GameState.parse_action` reads
back. Seats are ``0 … n-1`` and are called ``p1 … pn`` everywhere outside.
"""

from __future__ import annotations

import random
from abc import abstractmethod
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar, Final, TypeVar

from mypy_extensions import mypyc_attr

from decklab import cards
from decklab.engine.chance import Rng
from decklab.engine.errors import ChanceError, IllegalAction
from decklab.engine.info import GameInfo
from decklab.engine.shorthand import DeckPiles, expand_setup

CHANCE: Final = -1
"""The actor of a chance outcome in a state's history."""

ALL: Final = -2
"""Pass as the viewer to see everything (analysis, replay output, golden files)."""

Viewer = int | None
"""A seat, ``None`` for a spectator, or :data:`ALL`."""

S = TypeVar("S", bound="GameState")
T = TypeVar("T")


def seat_name(seat: int) -> str:
    return "chance" if seat == CHANCE else f"p{seat + 1}"


def seat_index(name: str, num_players: int) -> int:
    """``"p2"`` → 1, with a clear error for a seat that does not exist."""
    text = name.strip().lower()
    if text.startswith("p") and text[1:].isdigit():
        idx = int(text[1:]) - 1
        if 0 <= idx < num_players:
            return idx
    raise ValueError(
        f"no seat {name!r} in a {num_players}-player game (seats are p1…p{num_players})"
    )


def normalize_action_text(text: str) -> str:
    """Canonical spelling of typed action text: lower-case words, K1 card notation."""
    out = []
    for token in text.split():
        if cards.is_card_text(token) and not token.isdigit():
            out.append(cards.to_str(cards.parse(token)))
        else:
            out.append(token.lower())
    return " ".join(out)


_DEFAULT_OPTIONS: Final[dict[tuple[int, int], tuple[GameInfo, dict[str, Any]]]] = {}
"""Resolved default options by (id of the game's info, player count): most games are
created without options, and resolving them again for every new game is wasted work."""


def _resolve_options(
    info: GameInfo, num_players: int, options: Mapping[str, Any] | None
) -> dict[str, Any]:
    if options:
        return info.resolve_options(num_players, options)
    key = (id(info), num_players)
    got = _DEFAULT_OPTIONS.get(key)
    if got is None or got[0] is not info:
        got = _DEFAULT_OPTIONS[key] = (info, info.resolve_options(num_players, None))
    return dict(got[1])


def _blank(
    cls: type[S], num_players: int, options: Mapping[str, Any] | None, seed: int | None
) -> S:
    """A new state of ``cls`` with the engine's fields set and the game's empty, not dealt.

    A function, not a classmethod: compiled, a classmethod called on ``cls`` (any game
    class) is a generic call, and every new game makes one state.
    """
    state = cls.__new__(cls)
    state.num_players = num_players
    state.options = _resolve_options(cls.info, num_players, options)
    state.history = []
    state.rng = Rng(seed)
    state.seed = seed
    state._initial_setup = None
    state._setup_pending = False
    state._forced = None
    state._strict_chance = False
    state._init_fields()
    return state


def deal_with(cls: type[S], num_players: int, options: Mapping[str, Any] | None, rng: Rng) -> S:
    """A game dealt with chance drawn from ``rng``, as :meth:`GameState.new` deals one.

    For an adapter that supplies chance itself (a :class:`~decklab.engine.chance.ScriptedRng`
    offering each draw as an explicit chance node); the state keeps ``rng`` for the
    chance of the rest of the game.
    """
    state = _blank(cls, num_players, options, None)
    state.rng = rng
    _deal_into(state, cls.static_setup)
    return state


def _deal_into(state: GameState, static_setup: bool) -> None:
    """Deal ``state`` (blank) and note its setup: written now, or when first read for a
    game whose deal stays readable (:attr:`GameState.static_setup`)."""
    state._deal()
    if static_setup:
        state._setup_pending = True
    else:
        state._initial_setup = state.export_setup()


def _plain_number(value: float) -> int | float:
    """Whole scores print as whole numbers (``9``, not ``9.0``) in records and JSON.

    Declared ``int | float``: compiled, a ``float`` result would turn the int back into 9.0.
    """
    return int(value) if float(value).is_integer() else value


@mypyc_attr(allow_interpreted_subclasses=True)  # games may be written outside the compiled set
class GameState:
    """Base of every game's state. See the module docstring for the contract.

    Not an ``abc.ABC`` (mypy still checks the abstract methods): compiled, a Python base
    class gives every state a ``__dict__`` slot that stays empty, and Python 3.11 then
    cannot specialise its method lookups, so every ``state.apply(...)`` from
    interpreted code (playouts, the lab, the server) paid a full lookup.
    """

    info: ClassVar[GameInfo]

    static_setup: ClassVar[bool] = False
    """True for a game whose :meth:`export_setup` gives the deal however far the game has
    got (it keeps the deal's cards, as dealt, aside). Then a new game's
    :attr:`initial_setup` is written only when something reads it: a random playout
    never needs its text, and writing it was a large share of a short game."""

    num_players: int
    options: dict[str, Any]
    history: list[tuple[int, Any]]
    rng: Rng
    seed: int | None
    _initial_setup: dict[str, Any] | None
    _setup_pending: bool
    """``initial_setup`` is ``export_setup()``, not written yet (see :attr:`static_setup`)."""
    _forced: deque[str] | None
    _strict_chance: bool

    # ----------------------------------------------------------------- creation
    @classmethod
    def new(
        cls: type[S],
        num_players: int | None = None,
        options: Mapping[str, Any] | None = None,
        seed: int | None = None,
    ) -> S:
        """A freshly dealt game. The same seed always gives the same deal."""
        n = cls.info.default_players if num_players is None else num_players
        state = _blank(cls, n, options, seed)
        _deal_into(state, cls.static_setup)
        return state

    @classmethod
    def from_setup(
        cls: type[S],
        num_players: int,
        options: Mapping[str, Any] | None,
        setup: Mapping[str, Any],
        seed: int | None = None,
    ) -> S:
        """A game from an explicit setup (every deck and pile order, in card notation).

        Raises :class:`SetupError` naming what is wrong with the setup.
        """
        state = _blank(cls, num_players, options, seed)
        state._load_setup(expand_setup(setup, state.setup_decks()))
        state.initial_setup = state.export_setup()
        return state

    @property
    def initial_setup(self) -> dict[str, Any] | None:
        """The explicit setup of the game as dealt (None for a determinized sample)."""
        if self._setup_pending:
            self._setup_pending = False
            self._initial_setup = self.export_setup()
        return self._initial_setup

    @initial_setup.setter
    def initial_setup(self, value: dict[str, Any] | None) -> None:
        self._setup_pending = False
        self._initial_setup = value

    def _init_fields(self) -> None:  # an optional hook
        """Give the game's own fields their empty values before dealing or loading."""

    def _clone_base(self: S) -> S:
        """A new instance with the engine's fields copied; games then copy their own."""
        other = self.__class__.__new__(self.__class__)
        other.num_players = self.num_players
        other.options = self.options
        other.history = self.history.copy()
        other.rng = self.rng.copy()
        other.seed = self.seed
        other._initial_setup = self._initial_setup
        other._setup_pending = self._setup_pending
        other._forced = None
        other._strict_chance = False
        return other

    @abstractmethod
    def clone(self: S) -> S:
        """An independent copy, cheap enough for search to call at every node."""

    @abstractmethod
    def _deal(self) -> None:
        """Deal a fresh game using ``self.rng`` (options are already resolved)."""

    @abstractmethod
    def _load_setup(self, setup: Mapping[str, Any]) -> None:
        """Set the game up from an explicit setup; raise SetupError if it is not valid."""

    def setup_decks(self) -> Sequence[DeckPiles]:
        """The decks of this game's setup and the keys each is split between, for the
        ``...`` shorthand (engine/shorthand.py). Games with a deal override it."""
        return ()

    @abstractmethod
    def export_setup(self) -> dict[str, Any]:
        """The explicit setup of this game as dealt: JSON-ready, cards in K1 notation."""

    # ------------------------------------------------------------------- turns
    @abstractmethod
    def to_act(self) -> tuple[int, ...]:
        """The seats that must act now: one, several (simultaneous rounds) or none (terminal)."""

    def is_terminal(self) -> bool:
        return not self.to_act()

    @abstractmethod
    def legal_actions(self, seat: int) -> list[int]:
        """Every legal action of ``seat`` now, in a deterministic order; empty if it need not act.

        The list may be shared with the state's cache: do not modify it.
        """

    @abstractmethod
    def _apply(self, seat: int, action: int) -> None:
        """Carry out a legal action (already validated)."""

    def apply(self, seat: int, action: int) -> None:
        """Validate and carry out ``action`` for ``seat``.

        An illegal action raises :class:`IllegalAction` and leaves the state unchanged.
        """
        if action not in self.legal_actions(seat):
            raise self.illegal(seat, action)
        self.history.append((seat, action))
        self._apply(seat, action)

    def illegal(self, seat: int, action: int | str) -> IllegalAction:
        """The error for an action that is not legal now, with the most useful reason."""
        text = action if isinstance(action, str) else self._safe_action_text(seat, action)
        if not 0 <= seat < self.num_players:
            return IllegalAction(seat_name(seat), text, f"there is no seat {seat_name(seat)}")
        acting = self.to_act()
        if not acting:
            return IllegalAction(seat_name(seat), text, "the game is over")
        if seat not in acting:
            return IllegalAction(seat_name(seat), text, self.explain_not_to_act(seat))
        return IllegalAction(seat_name(seat), text, self.explain_illegal(seat, text))

    def explain_not_to_act(self, seat: int) -> str:
        """Why ``seat`` may not act now (it is not to act). Games may say it better."""
        who = ", ".join(seat_name(s) for s in self.to_act())
        return f"it is not {seat_name(seat)}'s turn ({who} to act)"

    def explain_illegal(self, seat: int, text: str) -> str:
        """Why ``text`` is not legal for ``seat`` now. Games override to be more specific.

        The reason must only use what ``seat`` may see.
        """
        legal = [self.action_to_string(seat, a) for a in self.legal_actions(seat)]
        shown = ", ".join(legal[:12]) + (" …" if len(legal) > 12 else "")
        return f"not a legal action now (legal: {shown})"

    def _safe_action_text(self, seat: int, action: int) -> str:
        try:
            return self.action_to_string(seat, action)
        except Exception:
            return f"#{action}"

    # ------------------------------------------------------------ action text
    @abstractmethod
    def action_to_string(self, seat: int, action: int) -> str:
        """The canonical string of a legal action of ``seat`` in this state."""

    def parse_action(self, seat: int, text: str) -> int:
        """The action that ``text`` names for ``seat`` now; IllegalAction if none.

        Accepts any spelling that normalises to the canonical string (case, ``10H``).
        """
        wanted = normalize_action_text(text)
        if not wanted:
            raise IllegalAction(seat_name(seat), text, "empty action")
        if not 0 <= seat < self.num_players or seat not in self.to_act():
            raise self.illegal(seat, text)
        for action in self.legal_actions(seat):
            if self.action_to_string(seat, action) == wanted:
                return action
        raise self.illegal(seat, wanted)

    def describe_action(self, seat: int, action: int) -> str:
        """A sentence for a game log (before the action is applied). Games may refine it."""
        return f"{seat_name(seat)}: {self.action_to_string(seat, action)}"

    # ------------------------------------------------------------------ views
    @abstractmethod
    def view(self, seat: Viewer) -> dict[str, Any]:
        """A JSON-ready dict of exactly what ``seat`` may know now (``None``: a spectator).

        Hidden cards appear as ``"??"``. ``ALL`` shows everything, for analysis.
        """

    @abstractmethod
    def render(self, seat: Viewer = None) -> str:
        """The table as text, from ``seat``'s side (same information as ``view``)."""

    @abstractmethod
    def determinize(self: S, seat: int, rng: random.Random) -> S:
        """A full state consistent with ``view(seat)`` and the public history.

        Every card ``seat`` cannot see is resampled, and so is the future of chance,
        so a searching bot learns nothing it could not know.
        """

    def _reseed(self, rng: random.Random) -> None:
        """Replace the future of chance (for determinize): the real one is hidden."""
        self.rng = Rng(rng.getrandbits(64))
        self.seed = None
        self._initial_setup = None
        self._setup_pending = False

    # ----------------------------------------------------------------- scores
    @abstractmethod
    def scores(self) -> list[float]:
        """Each seat's score in the game's own units (final once terminal)."""

    def winners(self) -> list[int]:
        """Seats that win (shared wins allowed). Terminal states only; games may refine."""
        if not self.is_terminal():
            return []
        sc = self.scores()
        best = min(sc) if self.info.lower_is_better else max(sc)
        return [i for i, v in enumerate(sc) if v == best]

    def returns(self) -> list[float]:
        """Utility for learning and search: a win shared by k seats is worth 1/k, else 0."""
        win = self.winners()
        if not win:
            return [0.0] * self.num_players
        share = 1.0 / len(win)
        return [share if i in win else 0.0 for i in range(self.num_players)]

    def utilities(self) -> list[float]:
        """What a searching bot maximises, in [0, 1] per seat, for a terminal state.

        Multi-player games use :meth:`returns` (winning is what counts). A solo
        game, where a win is rare, overrides this with its normalised score so
        that search can tell a good result from a poor one.
        """
        return self.returns()

    def result(self) -> dict[str, Any]:
        """Scores by seat name and the winners, JSON-ready."""
        return {
            "terminal": self.is_terminal(),
            "scores": {seat_name(i): _plain_number(v) for i, v in enumerate(self.scores())},
            "winners": [seat_name(i) for i in self.winners()],
        }

    def skip_action(self, seat: int) -> int | None:
        """The legal action that lets ``seat``'s turn go by without choosing (a pass),
        where the rules have one; None where they do not (the default). A turn-based
        table whose policy at a missed deadline is "skip" plays it; without one, a bot
        plays the move instead."""
        return None

    def forfeit_result(self, seat: int) -> dict[str, Any]:
        """The result of a game ``seat`` gives up before its end (its clock ran out): a
        terminal result in the layout of :meth:`result`, plus ``ranks`` and ``forfeit``.

        The state itself is left as it stands (nobody plays on; its record replays to
        it). The forfeiting seat places last and every other seat shares the win, as
        Lichess and Board Game Arena score a game lost on time or abandoned: a standing
        in mid-game says little about who would have won. A game whose running scores
        do say it may override this to rank the others by them (keeping the forfeiting
        seat last)."""
        others = [i for i in range(self.num_players) if i != seat]
        return {
            "terminal": True,
            "scores": {seat_name(i): _plain_number(v) for i, v in enumerate(self.scores())},
            "winners": [seat_name(i) for i in others],
            "ranks": {
                seat_name(i): (self.num_players if i == seat else 1)
                for i in range(self.num_players)
            },
            "forfeit": seat_name(seat),
        }

    def undo_barrier(self, seat: int) -> int:
        """How far back ``seat`` may take back its own actions in a game with others.

        Returns a history length: entries before it may not be undone, because
        since then chance was drawn or ``seat`` may have learnt something hidden
        (an interface offers undo only when the seat's last action lies at or after
        it, and undoes everything from there). The default is conservative: the
        last chance outcome or action of another seat. Games that know which
        actions reveal nothing override it.
        """
        history = self.history
        for i in range(len(history) - 1, -1, -1):
            if history[i][0] != seat:
                return i + 1
        return 0

    def check_invariants(self) -> None:  # an optional hook
        """Raise AssertionError if the state breaks a rule of its game (used by tests)."""

    # ----------------------------------------------------------------- chance
    def _chance(
        self,
        label: str,
        draw: Callable[[Rng], T],
        fmt: Callable[[T], str],
        parse: Callable[[str], T],
    ) -> T:
        """Draw a chance outcome (or take the recorded one when replaying) and record it.

        ``label`` names the kind of event (``"shuffle"``, ``"roll"``, ``"coin"``); the
        history holds ``"label outcome"``. ``parse`` must raise ValueError for an
        outcome that is impossible here.
        """
        if self._forced:
            text = self._forced.popleft()
            got_label, _, body = text.partition(" ")
            if got_label != label:
                raise ChanceError(
                    f"expected a {label!r} chance outcome here, the record has {text!r}"
                )
            try:
                outcome = parse(body)
            except ValueError as exc:
                raise ChanceError(f"bad chance outcome {text!r}: {exc}") from None
        elif self._strict_chance:
            raise ChanceError(f"the record does not give the {label!r} chance outcome needed here")
        else:
            outcome = draw(self.rng)
        self.history.append((CHANCE, f"{label} {fmt(outcome)}"))
        return outcome

    # ------------------------------------------------------------ redaction
    def redact_history_entry(self, index: int, actor: int, text: str, viewer: Viewer) -> str:
        """How line ``index`` of the history (an action or chance text) reads for ``viewer``
        as of this state (something hidden then may be public by now).

        Games with hidden actions or hidden chance outcomes override this; the
        default shows everything, right for games without hidden information.
        """
        return text

    def redact_setup(self, setup: dict[str, Any], viewer: Viewer) -> dict[str, Any]:
        """The explicit setup as ``viewer`` may see it (hidden cards as ``"??"``)."""
        return setup
