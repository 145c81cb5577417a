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
from pathlib import Path
from typing import Any

import pytest

for _name in ("COLUMNS", "LINES"):
    os.environ.pop(_name, None)


ONCE_FOLDERS = ("server", "web", "deploy")
"""The web platform's tests (``tests/server``, ``tests/web``, ``tests/deploy``): marked
``once`` here, by folder, so a new test there is marked too.

``make test`` runs every test on the compiled build; ``make test-pure`` runs the tests
*not* marked ``once`` again with ``DECKLAB_PURE=1``. The two builds differ only in the
modules on ``decklab._native.COMPILED`` (the cards, the engine, the games' states,
greedy players and metrics, the bots' search), and those stay in the pure run: every
game's rules and generic suite, records and golden playthroughs, the bots (with
``tests/test_build.py``'s same-moves check, ``tests/same_moves.py``, which compares
both builds move for move), the lab, the adapters and the plugins built on the engine's
classes. The platform's tests test the layers above: the server, its database on SQLite
and PostgreSQL, the browser client, nginx. That code is interpreted in both builds, and
it reaches the compiled modules only through the game interface that the tests kept in
the pure run drive directly, so a pure module that behaved differently fails there.
Running the platform again on pure Python would test the same server code a second time
at over half of the suite's time. Other tests that need not run twice (they run the same
code on both builds) mark themselves with ``pytestmark = pytest.mark.once``."""

_TESTS = Path(__file__).resolve().parent


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    # The tests on the session's browser last, whatever order the command line named
    # them in (`pytest tests/web tests/server` too): while it is open, no asyncio.run
    # works in the worker (browsers.chromium). A stable sort: the rest keep their order.
    items.sort(key=_holds_the_session_browser)
    for item in items:
        try:
            folder = item.path.relative_to(_TESTS).parts[0]
        except ValueError:
            continue
        if folder in ONCE_FOLDERS:
            item.add_marker(pytest.mark.once)


def _holds_the_session_browser(item: pytest.Item) -> bool:
    info = getattr(item, "_fixtureinfo", None)
    defs = info.name2fixturedefs.get("browser", ()) if info is not None else ()
    return bool(defs) and defs[-1].scope == "session"


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
