"""Metrics for Prometheus at ``/metrics``: counts and timings, never a card, a view or a token.

Every figure is a count, a duration or a size, labelled only by what the server itself
names (a game, an error code, a route template, a status): nothing a client sends ends up
in a label as it is, so the endpoint can leak nothing and cannot be made to grow without
bound. Each server process counts for itself (with ``--processes N`` every process answers
``/metrics`` with its own figures and says which it is in ``decklab_process_info``; scrape
each instance, see docs/deploy.md). The gauges are read from the live services when
Prometheus asks, so play pays nothing for them; the counters are a few increments per move.
"""

from __future__ import annotations

import time
import weakref
from collections.abc import Iterator, Mapping
from typing import Protocol

from fastapi import APIRouter, Request
from fastapi.responses import Response
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Histogram,
    generate_latest,
)
from prometheus_client.core import GaugeMetricFamily, InfoMetricFamily, Metric
from prometheus_client.registry import Collector
from starlette.types import ASGIApp, Message, Receive, Scope, Send


class WatchedTable(Protocol):
    """What the gauges read of a table (the service's ``Table``)."""

    listeners: set[int]
    thinking: set[int]
    status: str


class Watched(Protocol):
    """What the gauges read of a table service: a protocol, so that this module, which
    the service calls, does not import it (no import circle)."""

    closed: bool
    process_id: str

    @property
    def tables(self) -> Mapping[str, WatchedTable]: ...


REGISTRY = CollectorRegistry(auto_describe=True)
"""This process's metrics (not prometheus_client's global registry: nothing else of the
process, and no library that registers there, shows up in ``/metrics`` unasked)."""

MOVES = Counter(
    "decklab_moves",
    "Moves committed, by people and bots alike, by game.",
    ["game"],
    registry=REGISTRY,
)
MOVE_LATENCY = Histogram(
    "decklab_move_latency_seconds",
    "From a person's intent received to its move committed and acknowledged.",
    buckets=(0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0),
    registry=REGISTRY,
)
ERRORS = Counter(
    "decklab_errors",
    "Errors answered to clients (REST and live), by error code.",
    ["code"],
    registry=REGISTRY,
)
HTTP_REQUESTS = Counter(
    "decklab_http_requests",
    "HTTP requests answered, by route template (not the path asked for) and status.",
    ["route", "status"],
    registry=REGISTRY,
)

_services: weakref.WeakSet[Watched] = weakref.WeakSet()


def watch(service: Watched) -> None:
    """Report ``service``'s tables, connections and bots in the gauges (while it lives)."""
    _services.add(service)


def moved(game: str) -> None:
    MOVES.labels(game).inc()


def acked(started: float) -> None:
    """A person's move acknowledged: ``started`` is ``time.perf_counter()`` at its intent."""
    MOVE_LATENCY.observe(time.perf_counter() - started)


def errored(code: str) -> None:
    ERRORS.labels(code).inc()


class ServiceGauges(Collector):
    """What the services of this process hold right now, read at scrape time."""

    def collect(self) -> Iterator[Metric]:
        services = [s for s in list(_services) if not s.closed]
        tables = [t for s in services for t in list(s.tables.values())]
        info = InfoMetricFamily(
            "decklab_process", "Which server process answers (the id that `welcome` tells)."
        )
        if services:
            info.add_metric([], {"process": services[0].process_id})
        yield info
        yield GaugeMetricFamily(
            "decklab_connections",
            "Live connections open (subscribed to a table).",
            value=sum(len(t.listeners) for t in tables),
        )
        yield GaugeMetricFamily(
            "decklab_tables_in_memory", "Tables held in memory.", value=len(tables)
        )
        yield GaugeMetricFamily(
            "decklab_tables_playing",
            "Tables in memory with a game going on.",
            value=sum(1 for t in tables if t.status == "playing"),
        )
        yield GaugeMetricFamily(
            "decklab_bot_queue",
            "Seats whose bot move is waiting for a worker or being thought.",
            value=sum(len(t.thinking) for t in tables),
        )


REGISTRY.register(ServiceGauges())


def _route(scope: Scope) -> str:
    route = scope.get("route")
    path = getattr(route, "path", None)
    return path if isinstance(path, str) and path else "unmatched"


class RequestCounter:
    """ASGI middleware: counts each HTTP request by its route template and status."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        status = 500

        async def counting_send(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = int(message["status"])
            await send(message)

        try:
            await self.app(scope, receive, counting_send)
        finally:
            HTTP_REQUESTS.labels(_route(scope), str(status)).inc()


router = APIRouter(tags=["server"])


@router.get("/metrics", include_in_schema=False)
def metrics(request: Request) -> Response:
    """The figures in Prometheus's text format (switched off with ``--no-metrics``)."""
    if not request.app.state.settings.metrics:
        return Response(
            '{"error": {"code": "not_found", "message": "metrics are switched off"}}',
            status_code=404,
            media_type="application/json",
        )
    return Response(generate_latest(REGISTRY), media_type=CONTENT_TYPE_LATEST)
