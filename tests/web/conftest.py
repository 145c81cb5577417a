"""Fixtures for the browser tests: one live server and one Chromium for the session.

Playwright drives Debian's ``chromium`` (``.ci/run`` installs it; Playwright's own
browser download cannot work here). Without it these tests are skipped, saying why.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from decklab.server.bots import BotPool

from .live import LiveServer


@pytest.fixture(scope="session")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    pool = BotPool(workers=2)
    try:
        with LiveServer(tmp_path_factory.mktemp("web"), pool=pool) as server:
            yield server
    finally:
        pool.close()


@pytest.fixture
def context(browser: Any) -> Iterator[Any]:
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    ctx.set_default_timeout(20000)
    try:
        yield ctx
    finally:
        ctx.close()


@pytest.fixture
def page(context: Any) -> Any:
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.js_errors = errors
    return page


def web_folder() -> Path:
    import decklab

    return Path(decklab.__file__).parent / "web"
