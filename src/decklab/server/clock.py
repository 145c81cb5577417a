"""Fischer clock arithmetic: plain numbers, no timers.

A seat's clock is the milliseconds it had when its turn began (``clock_ms``) and,
while it runs, the monotonic second it started (``started``); what is left is worked
out when asked, so nothing ticks. The service sets the one timer (the earliest
:func:`due`) and the table (:mod:`.table`) applies these to its seats.
"""

from __future__ import annotations


def spent_ms(started: float | None, now: float) -> int:
    """Whole milliseconds a clock started at ``started`` has run by ``now`` (0 if stopped)."""
    return 0 if started is None else int((now - started) * 1000)


def remaining_ms(clock_ms: int, started: float | None, now: float) -> int:
    """What a clock shows at ``now``: never below zero."""
    return max(0, clock_ms - spent_ms(started, now))


def after_move(clock_ms: int | None, started: float | None, now: float, increment_ms: int) -> int:
    """The clock after a move made at ``now``: the time spent taken off (down to zero at
    most: a move made in time is never punished for the rounding), the increment added."""
    return max(0, (clock_ms or 0) - spent_ms(started, now)) + int(increment_ms)


def due(started: float, clock_ms: int) -> float:
    """The monotonic second a clock started at ``started`` with ``clock_ms`` runs out."""
    return started + clock_ms / 1000


def out_of_time(clock_ms: int | None, started: float, now: float) -> bool:
    """Whether a running clock has run out by ``now`` (exactly, not rounded to ms)."""
    return (clock_ms or 0) - (now - started) * 1000 <= 0
