"""The Chromium the browser tests drive, in a module of its own (not a conftest), so
that every folder's conftest can import it by one name: ``from browsers import chromium``
(``tests/`` is on the path)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest

_OPEN: list[Any] = []
"""The synchronous Playwright open in this process, if any: a second one cannot start
while it is (its loop counts as running), so a fixture asked for meanwhile (a module's
own browser, when a folder collected later was asked for first) launches from it."""


def chromium() -> Iterator[Any]:
    """Debian's Chromium driven by Playwright (its own browser download cannot work
    here); skipped, saying why, where it is missing.

    While Playwright's synchronous API is open, its event loop counts as running in this
    thread, so no ``asyncio.run`` (the terminal table's and the server's tests) works
    meanwhile: the browser tests, run last (``tests/conftest.py`` puts them there), hold
    one for the session; a folder collected before others holds its own for one module
    (``tests/deploy/conftest.py``), launched from the open one if there is one."""
    from web.live import CHROMIUM

    if not os.path.exists(CHROMIUM):
        pytest.skip(reason=f"{CHROMIUM} is missing: apt-get install chromium (.ci/run does)")
    from playwright.sync_api import sync_playwright

    if _OPEN:
        browser = _OPEN[-1].chromium.launch(executable_path=CHROMIUM)
        try:
            yield browser
        finally:
            browser.close()
        return
    with sync_playwright() as pw:
        _OPEN.append(pw)
        try:
            browser = pw.chromium.launch(executable_path=CHROMIUM)
            try:
                yield browser
            finally:
                browser.close()
        finally:
            _OPEN.remove(pw)
