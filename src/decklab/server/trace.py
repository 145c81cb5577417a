"""Where an intent's time goes: monotonic stamps at each step, for the load benchmark.

Off unless ``DECKLAB_TRACE`` names a file (``bench/server_load.py`` sets it; a
``{pid}`` in the name is replaced by the process id, for ``--processes N``). Then the
server stamps, per table version, the moment the intent's frame was read, validated
by the engine, committed, queued to every listener, and each frame of that version
written to a socket; on shutdown the stamps are written to that file as JSON. The
clock is ``time.monotonic()``, which on Linux is one clock for every process on the
machine, so the benchmark's clients can put their own stamps beside these.

Only table ids, version numbers, phase names and times are kept: nothing a seat may
not see, no token.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

ENV = "DECKLAB_TRACE"
Key = tuple[str, int]

_path = os.environ.get(ENV, "")
enabled = bool(_path)
_stamps: dict[Key, dict[str, list[float]]] = {}
_lag: list[tuple[float, float]] = []
_batches: list[tuple[float, int, float]] = []
_collections: list[tuple[float, float]] = []


def mark(table: str, version: int, phase: str) -> None:
    """Stamp ``phase`` of the event that makes ``table`` reach ``version``."""
    if enabled:
        _stamps.setdefault((table, version), {}).setdefault(phase, []).append(time.monotonic())


def lag(late_s: float) -> None:
    """The event loop woke ``late_s`` after it was due (measured by a probe task)."""
    if enabled:
        _lag.append((time.monotonic(), late_s))


def batch(size: int, seconds: float) -> None:
    """A group commit of ``size`` writes took ``seconds`` (in its thread, start to end)."""
    if enabled:
        _batches.append((time.monotonic(), size, seconds))


def collection(seconds: float) -> None:
    """A full garbage collection (:mod:`decklab.server.heap`) stopped the process ``seconds``."""
    if enabled:
        _collections.append((time.monotonic(), seconds))


def dump() -> None:
    """Write what was stamped (on shutdown)."""
    if not enabled:
        return
    rows = [
        {"table": table, "version": version, **phases}
        for (table, version), phases in _stamps.items()
    ]
    Path(_path.replace("{pid}", str(os.getpid()))).write_text(
        json.dumps(
            {"events": rows, "loop_lag": _lag, "batches": _batches, "collections": _collections}
        )
    )
