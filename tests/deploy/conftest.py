"""The deployment tests use the suite's PostgreSQL server (``pg_server``, defined once for
every folder in ``tests/conftest.py``) and a Chromium of their own for the module: this
folder is collected first, and an open Playwright would leave its event loop running under
every later test of the worker (see ``tests/conftest.py``'s ``chromium``)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from browsers import chromium


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from chromium()
