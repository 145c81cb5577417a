"""Settings shared by the whole suite.

pytest-xdist's workers run with ``COLUMNS=80`` in their environment, and a Rich
console created at import time keeps that width for good, so the CLI tests that pass
``COLUMNS`` to ``CliRunner.invoke`` would see a narrower table than they asked for.
Dropping the variable before anything imports :mod:`decklab.cli` lets each test's own
environment decide, as it does without workers.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest

for _name in ("COLUMNS", "LINES"):
    os.environ.pop(_name, None)


# Session-wide resources that several folders use (the server tests, the browser tests,
# the deployment test) are defined here, once: a fixture a sub-folder's conftest imports
# again is a second definition with a cache of its own, so one xdist worker running both
# folders would start a second PostgreSQL, or a second Playwright, which refuses to start
# inside the first one's event loop.


@pytest.fixture(scope="session")
def pg_server() -> Iterator[Any]:
    """A PostgreSQL server started from the machine's binaries, once per session
    (``tests/server/pgserver.py``); skipped, saying why, where there are none."""
    from server import pgserver

    try:
        server = pgserver.start()
    except FileNotFoundError as exc:
        pytest.skip(reason=str(exc))
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """One Chromium for the browser tests' session (see :func:`browsers.chromium`)."""
    from browsers import chromium

    yield from chromium()
