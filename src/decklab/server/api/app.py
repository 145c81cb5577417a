"""The FastAPI application: REST routes, the live WebSocket, hygiene, and start-up.

On start the database is migrated to the newest schema, the bot workers are
started, and every table in play is rebuilt from the database.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI, Request
from sqlalchemy.exc import DBAPIError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from decklab.server import metrics, trace
from decklab.server.access import AccessLog
from decklab.server.accounts.bots import BotService
from decklab.server.accounts.friends import FriendService
from decklab.server.accounts.service import AccountService
from decklab.server.api import errors
from decklab.server.api.models import ErrorOut
from decklab.server.api.origin import HostCheck, SitePolicy
from decklab.server.api.routes import (
    accounts,
    bot,
    friends,
    games,
    moderation,
    notify,
    quickplay,
    ratings,
    stats,
    tables,
    web,
)
from decklab.server.api.security import Hygiene, WindowLimit
from decklab.server.api.session import CsrfGuard
from decklab.server.bots import BotPool
from decklab.server.config import Settings
from decklab.server.heap import HeapPolicy
from decklab.server.limits import install as install_limits
from decklab.server.live import router as live_router
from decklab.server.moderation import BanGuard, ModerationService
from decklab.server.notify.service import Notifier
from decklab.server.notify.store import OutboxStore
from decklab.server.quickplay import QuickPlay
from decklab.server.ratings.service import RatingService
from decklab.server.retention import RetentionSweep
from decklab.server.service import TableService
from decklab.server.store.accounts import AccountStore
from decklab.server.store.bot_tokens import BotTokenStore
from decklab.server.store.db import (
    default_url,
    is_postgres,
    make_engine,
    pool_saturated,
    upgrade,
)
from decklab.server.store.friends import FriendStore
from decklab.server.store.moderation import ModerationStore
from decklab.server.store.queries import Store
from decklab.server.store.quickplay import QuickPlayStore
from decklab.server.store.ratings import RatingStore

log = logging.getLogger("decklab.server")

READY_TIMEOUT_S = 2.0
"""A readiness probe gives up on the database after this long (and answers 503)."""


async def _loop_lag_probe(every_s: float = 0.01) -> None:
    """How late the event loop wakes a task that asked to sleep ``every_s`` (tracing only)."""
    with contextlib.suppress(asyncio.CancelledError):
        while True:
            due = time.monotonic() + every_s
            await asyncio.sleep(every_s)
            trace.lag(time.monotonic() - due)


def create_app(
    settings: Settings | None = None, pool: BotPool | None = None, heavy_pool: BotPool | None = None
) -> FastAPI:
    """The application. ``pool`` (and ``heavy_pool``, for replays, records, hints and
    statistics) let tests share one set of workers between apps."""
    settings = settings or Settings()
    url = settings.database_url or default_url()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        upgrade(url)
        store = Store(make_engine(url, settings.sqlite_sync, settings.db_busy_timeout_s))
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
        service = TableService(store, settings, workers, coordinator, heavy_pool)
        await service.start()
        app.state.service = service
        app.state.accounts = AccountService(AccountStore(store.engine), service)
        app.state.bots = BotService(BotTokenStore(store.engine), app.state.accounts)
        app.state.ratings = RatingService(RatingStore(store.engine), service)
        app.state.friends = FriendService(
            FriendStore(store.engine), app.state.accounts.store, service
        )
        notifier = Notifier(OutboxStore(store.engine), service, settings)
        app.state.friends.invite_listeners.append(notifier.invited)
        app.state.notifier = notifier
        notifier.start()
        await app.state.ratings.start()
        app.state.moderation = ModerationService(ModerationStore(store.engine), service, settings)
        app.state.moderation.ban_listeners.append(app.state.bots.events.end)
        await app.state.moderation.start()
        app.state.friends.blocked = app.state.moderation.blocks
        app.state.quickplay = QuickPlay(
            QuickPlayStore(store.engine), service, app.state.accounts.seating
        )
        await app.state.quickplay.start()
        metrics.watch(service)
        retention = RetentionSweep(store, settings)
        retention.start()
        probe = asyncio.create_task(_loop_lag_probe()) if trace.enabled else None
        try:
            yield
        finally:
            if probe is not None:
                probe.cancel()
                trace.dump()
            await retention.stop()
            await notifier.close()
            await app.state.quickplay.close()
            await app.state.moderation.close()
            await service.close()
            app.state.accounts.hashing.close()
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
    app.state.report_limit = WindowLimit(settings.reports_per_window, settings.report_window_s)
    app.state.site_policy = SitePolicy(settings)
    app.add_middleware(CsrfGuard, policy=app.state.site_policy)
    app.add_middleware(BanGuard)
    app.add_middleware(HostCheck, policy=app.state.site_policy)
    app.add_middleware(Hygiene)
    install_limits(app, settings)
    app.add_middleware(metrics.RequestCounter)
    if settings.access_log:
        app.add_middleware(AccessLog)
    if settings.trusted_proxies:  # outermost: every layer sees the real client and scheme
        app.add_middleware(ProxyHeadersMiddleware, trusted_hosts=list(settings.trusted_proxies))

    errors.install(app)

    @app.get("/api/health", tags=["server"], responses=errors.responses())
    async def health(request: Request) -> dict[str, str]:
        """Up; and which server process answered (with ``--processes N``, one of N)."""
        return {"status": "ok", "process": request.app.state.service.process_id}

    @app.get("/api/health/live", tags=["server"])
    async def health_live(request: Request) -> dict[str, str]:
        """Liveness: the process answers (the database is not touched; a restart would not
        mend it)."""
        return {"status": "ok", "process": request.app.state.service.process_id}

    @app.get("/api/health/ready", tags=["server"], responses={503: {"model": ErrorOut}})
    async def health_ready(request: Request) -> Any:
        """Readiness: the database answers and would take a write now, and neither the
        password hashing queue nor the database's connection pool is full (503 otherwise,
        so a proxy or orchestrator sends no players here meanwhile)."""
        service = request.app.state.service
        if request.app.state.accounts.hashing.saturated:
            return errors.unavailable("the password hashing queue is full", 1)
        if pool_saturated(service.store.engine):
            return errors.unavailable("every database connection is in use", 1)
        try:
            await asyncio.wait_for(asyncio.to_thread(service.store.ping), READY_TIMEOUT_S)
        except (TimeoutError, DBAPIError, PoolTimeout) as exc:
            log.warning("not ready: %s", str(getattr(exc, "orig", exc))[:200] or "timed out")
            return errors.unavailable("the database does not answer")
        return {"status": "ready", "process": service.process_id}

    app.include_router(games.router)
    app.include_router(tables.router)
    app.include_router(stats.router)
    app.include_router(accounts.router)
    app.include_router(bot.router)
    app.include_router(ratings.router)
    app.include_router(friends.router)
    app.include_router(notify.router)
    app.include_router(moderation.router)
    app.include_router(quickplay.router)
    app.include_router(live_router)
    app.include_router(metrics.router)
    web.install(app)
    return app
