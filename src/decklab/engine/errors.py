"""The errors the engine raises. Each carries a message a person can act on.

Messages may quote what the user sent (an action line, an option value, a card).
That text can be anything a file holds — a 300 KB line, control characters — so
every quote goes through :func:`excerpt`, and every message is capped as a last
guard: an error never echoes a whole file back.
"""

from __future__ import annotations

EXCERPT_CHARS = 60
"""How much of a piece of offending text an error message quotes."""

MESSAGE_CHARS = 600
"""The longest message any decklab error carries (a safety net behind :func:`excerpt`)."""


def excerpt(text: object, limit: int = EXCERPT_CHARS) -> str:
    """``text`` shortened for an error message: at most ``limit`` characters, then
    ``…`` and how long the whole was. Control characters are shown escaped."""
    try:
        raw = text if isinstance(text, str) else repr(text)
    except Exception:  # a value whose repr fails or is too big to print
        raw = f"<{type(text).__name__}>"
    if len(raw) <= limit:
        return raw.encode("unicode_escape").decode("ascii") if not raw.isprintable() else raw
    head = raw[:limit]
    if not head.isprintable():
        head = head.encode("unicode_escape").decode("ascii")[:limit]
    return f"{head}… ({len(raw)} characters)"


def _cap(message: str) -> str:
    if len(message) <= MESSAGE_CHARS:
        return message
    return message[: MESSAGE_CHARS - 40] + f"… (message cut, {len(message)} characters)"


class DecklabError(ValueError):
    """Base of every error that reports bad input rather than a bug."""

    def __init__(self, *args: object) -> None:
        if len(args) == 1 and isinstance(args[0], str):
            args = (_cap(args[0]),)
        super().__init__(*args)


class OptionError(DecklabError):
    """An option that does not exist, or a value it does not accept."""


class SetupError(DecklabError):
    """An explicit setup that is not a valid deal for this game."""


class IllegalAction(DecklabError):
    """An action that is malformed or not legal now. The state is unchanged.

    The message names the seat, the action and the reason, and never mentions a
    card the seat may not see: it is shown to whoever sent the action.
    """

    def __init__(self, seat: str, action: str, reason: str) -> None:
        self.seat = excerpt(seat, 20)
        self.action = excerpt(action)
        self.reason = _cap(reason)
        super().__init__(f"{self.seat} cannot play {self.action!r}: {self.reason}")


class ChanceError(DecklabError):
    """A recorded chance outcome that is malformed, out of place, or missing."""


class RecordError(DecklabError):
    """A record that cannot be loaded or replayed.

    ``index`` and ``action`` locate the offending line of ``actions`` when there is one
    (``index`` counts every line of ``actions`` from 0, chance lines included);
    ``action`` is at most an excerpt of that line.
    """

    def __init__(self, reason: str, index: int | None = None, action: str | None = None) -> None:
        self.reason = _cap(reason)
        self.index = index
        self.action = None if action is None else excerpt(action)
        where = f"action {index} ({self.action!r}): " if index is not None else ""
        super().__init__(where + self.reason)

    def as_json(self) -> dict[str, object]:
        return {"index": self.index, "action": self.action, "reason": self.reason}
