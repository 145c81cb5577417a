"""The lab's progress bar: on a terminal only, and as wide as the terminal.

Why a helper: a rich live display written to a file or a pipe (a long run's
log) has no cursor to move, so every refresh became a line of its own and the
log filled with blank lines. A bar is drawn only when stderr is a terminal,
and its columns are chosen for the terminal's width, so that it keeps to one
line on a narrow one (a wrapped live line repeats itself just the same).
"""

from __future__ import annotations

from typing import Any

WIDE = 110
"""From this many columns the bar also shows elapsed time, ETA and the running rates."""


def progress_bar(with_rates: bool = False, console: Any = None) -> Any:
    """A started-able ``rich.progress.Progress`` on stderr, or None when stderr is not
    a terminal. ``with_rates`` adds a ``rates`` field (agents' running win rates)."""
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    console = console or Console(stderr=True)
    if not console.is_terminal:
        return None
    wide = console.width >= WIDE
    columns: list[Any] = [
        TextColumn("{task.description}", table_column=None),
        BarColumn(bar_width=None if wide else max(10, console.width // 5)),
        MofNCompleteColumn(),
        TextColumn("games"),
    ]
    if wide:
        columns += [TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn()]
    else:
        columns += [TimeRemainingColumn()]
    if with_rates and wide:
        columns.append(TextColumn("{task.fields[rates]}"))
    return Progress(*columns, console=console, transient=True, expand=False)
