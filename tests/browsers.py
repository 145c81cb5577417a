"""The Chromium the browser tests drive, in a module of its own (not a conftest), so
that every folder's conftest can import it by one name: ``from browsers import chromium``
(``tests/`` is on the path)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest


def chromium() -> Iterator[Any]:
    """Debian's Chromium driven by Playwright (its own browser download cannot work
    here); skipped, saying why, where it is missing.

    While Playwright's synchronous API is open, its event loop counts as running in this
    thread, so no ``asyncio.run`` (the terminal table's tests) works meanwhile: the
    browser tests, collected last, hold one for the session; a folder collected before
    others holds its own for one module (``tests/deploy/conftest.py``)."""
    from web.live import CHROMIUM

    if not os.path.exists(CHROMIUM):
        pytest.skip(reason=f"{CHROMIUM} is missing: apt-get install chromium (.ci/run does)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM)
        try:
            yield browser
        finally:
            browser.close()
