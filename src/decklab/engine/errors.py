"""The errors the engine raises. Each carries a message a person can act on."""

from __future__ import annotations


class DecklabError(ValueError):
    """Base of every error that reports bad input rather than a bug."""


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
        self.seat = seat
        self.action = action
        self.reason = reason
        super().__init__(f"{seat} cannot play {action!r}: {reason}")


class ChanceError(DecklabError):
    """A recorded chance outcome that is malformed, out of place, or missing."""


class RecordError(DecklabError):
    """A record that cannot be loaded or replayed.

    ``index`` and ``action`` locate the offending line of ``actions`` when there is one.
    """

    def __init__(self, reason: str, index: int | None = None, action: str | None = None) -> None:
        self.reason = reason
        self.index = index
        self.action = action
        where = f"action {index} ({action!r}): " if index is not None else ""
        super().__init__(where + reason)

    def as_json(self) -> dict[str, object]:
        return {"index": self.index, "action": self.action, "reason": self.reason}
