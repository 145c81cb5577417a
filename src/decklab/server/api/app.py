"""The FastAPI application: REST routes, the live WebSocket, hygiene, and start-up.

On start the database is migrated to the newest schema, the bot workers are
started, and every unfinished table is rebuilt from the database.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse

from decklab.server import trace
from decklab.server.api.routes import games, stats, tables, web
from decklab.server.api.security import Hygiene, WindowLimit
from decklab.server.bots import BotPool
from decklab.server.config import Settings
from decklab.server.heap import HeapPolicy
from decklab.server.limits import install as install_limits
from decklab.server.live import router as live_router
from decklab.server.service import ServiceError, TableService
from decklab.server.store.db import default_url, is_postgres, make_engine, upgrade
from decklab.server.store.queries import Store

log = logging.getLogger("decklab.server")


async def _loop_lag_probe(every_s: float = 0.01) -> None:
    """How late the event loop wakes a task that asked to sleep ``every_s`` (tracing only)."""
    with contextlib.suppress(asyncio.CancelledError):
        while True:
            due = time.monotonic() + every_s
            await asyncio.sleep(every_s)
            trace.lag(time.monotonic() - due)


def create_app(settings: Settings | None = None, pool: BotPool | None = None) -> FastAPI:
    """The application. ``pool`` lets tests share one set of bot workers between apps."""
    settings = settings or Settings()
    url = settings.database_url or default_url()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        upgrade(url)
        store = Store(make_engine(url, settings.sqlite_sync))
        own_pool = pool is None
        workers = pool or BotPool(settings.bot_workers)
        coordinator = None
        if is_postgres(url) and settings.shared:
            from decklab.server.pg_coordination import PgCoordinator

            coordinator = PgCoordinator(url)
        heap = HeapPolicy(settings.full_gc_every_s) if settings.full_gc_every_s > 0 else None
        if heap is not None:
            heap.start()  # before the tables are rebuilt: they are not frozen
        app.state.heap = heap
        service = TableService(store, settings, workers, coordinator)
        await service.start()
        app.state.service = service
        probe = asyncio.create_task(_loop_lag_probe()) if trace.enabled else None
        try:
            yield
        finally:
            if probe is not None:
                probe.cancel()
                trace.dump()
            await service.close()
            store.close()
            if own_pool:
                workers.close()
            if heap is not None:
                await heap.stop()

    app = FastAPI(
        title="decklab",
        summary="Online play of decklab's card games: tables, seats, live moves.",
        version="1",
        lifespan=lifespan,
        docs_url=None,
        redoc_url=None,
    )
    app.state.settings = settings
    app.state.create_limit = WindowLimit(settings.tables_per_window, settings.table_window_s)
    app.add_middleware(Hygiene)
    install_limits(app, settings)

    @app.exception_handler(ServiceError)
    async def service_error(_request: Request, exc: ServiceError) -> JSONResponse:
        return JSONResponse(
            {"error": {"code": exc.code, "message": exc.message}}, status_code=exc.status
        )

    @app.exception_handler(RequestValidationError)
    async def invalid(_request: Request, exc: RequestValidationError) -> JSONResponse:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e.get('loc', ()))}: {e.get('msg', '')}"
            for e in exc.errors()[:10]
        )
        return JSONResponse(
            {"error": {"code": "invalid", "message": problems or "invalid request"}},
            status_code=422,
        )

    @app.get("/api/health", tags=["server"])
    async def health(request: Request) -> dict[str, str]:
        """Up; and which server process answered (with ``--processes N``, one of N)."""
        return {"status": "ok", "process": request.app.state.service.process_id}

    app.include_router(games.router)
    app.include_router(tables.router)
    app.include_router(stats.router)
    app.include_router(live_router)
    web.install(app)
    return app
