"""One local Ray for the whole session: starting Ray costs seconds, so the tests share it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest


@pytest.fixture(scope="session")
def local_ray() -> Iterator[Any]:
    """A local Ray with 2 CPUs, started once; the runner reuses a Ray that is up."""
    ray = pytest.importorskip("ray", reason="Ray is not installed (pip install 'decklab[cluster]')")
    started = not ray.is_initialized()
    if started:
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield ray
    if started:
        ray.shutdown()
