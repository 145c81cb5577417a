"""``decklab serve`` and ``decklab db upgrade``: the web platform's commands."""

from __future__ import annotations

import json
import os
import sys
from dataclasses import asdict, fields
from pathlib import Path
from typing import Annotated, Any

import typer

from decklab.server.config import Settings

SETTINGS_ENV = "DECKLAB_SERVER_SETTINGS"
WS_MAX_BYTES = 64 * 1024
"""The transport refuses frames past this; the live protocol's own limit is smaller and
answered with a clear error."""


def _settings_from_env() -> Settings:
    raw: dict[str, Any] = json.loads(os.environ.get(SETTINGS_ENV, "{}"))
    known = {f.name for f in fields(Settings)}
    values = {k: v for k, v in raw.items() if k in known}
    if "allowed_origins" in values:
        values["allowed_origins"] = frozenset(values["allowed_origins"])
    for name in ("public_urls", "trusted_proxies"):
        if name in values:
            values[name] = tuple(values[name])
    return Settings(**values)


GIL_SWITCH_S = 0.0005
"""How long a thread may hold the GIL while another waits (Python's default: 5 ms).

The event loop thread is busy with frames while the commit thread makes many short
calls into the database driver, each giving up the GIL and waiting to get it back:
at 5 ms a wait, a batch of commits crawled while the process used a fraction of a
core (a convoy). A shorter interval lets the commit thread back in at once."""


def tune_process() -> None:
    """Settings of the server process itself (see :data:`GIL_SWITCH_S`)."""
    sys.setswitchinterval(GIL_SWITCH_S)


def app_factory() -> Any:
    """The application as each of several worker processes builds it (uvicorn ``--workers``)."""
    from decklab.server.api.app import create_app

    tune_process()
    settings = _settings_from_env()
    http_protocol(settings.header_timeout_s)
    return create_app(settings)


def database_problem(url: str, exc: BaseException) -> str:
    """One line saying why the database at ``url`` cannot be used (no traceback: the cause
    is the file or the server, not decklab)."""
    cause = getattr(exc, "orig", None) or exc
    reason = " ".join(str(cause).split())[:300] or type(cause).__name__
    return (
        f"the database {shown_url(url)} cannot be used: {reason} "
        "(a corrupt or foreign file, or an unreachable server? restore a backup or fix the URL)"
    )


def shown_url(url: str) -> str:
    """A database URL safe to print (no password)."""
    from sqlalchemy.engine import make_url

    return make_url(url).render_as_string(hide_password=True)


def http_protocol(header_timeout_s: float) -> Any:
    """uvicorn's HTTP protocol with a deadline for request headers
    (:mod:`decklab.server.slowloris`); uvicorn's own where httptools is missing."""
    try:
        from decklab.server.slowloris import header_timeout_protocol
    except ImportError:  # pragma: no cover - httptools is in uvicorn[standard] on CPython
        return "auto"
    return header_timeout_protocol(header_timeout_s)


def uvicorn_options(
    host: str, port: int, log_level: str, header_timeout_s: float = 10.0
) -> dict[str, Any]:
    """How uvicorn runs decklab: JSON logs, request headers on a deadline, proxy headers
    left to the application (only from ``--trusted-proxy``), frames capped, and no
    per-message compression: a frame is a few kilobytes once a second per table,
    while deflating every frame of every connection on the event loop was a tenth of
    the server's work under load (and a zlib context per connection kept in memory)."""
    from decklab.server.logs import log_config

    return {
        "http": http_protocol(header_timeout_s),
        "host": host,
        "port": port,
        "ws_max_size": WS_MAX_BYTES,
        "ws_per_message_deflate": False,
        "log_config": log_config(log_level),
        "proxy_headers": False,
        "server_header": False,
    }


def run_one(
    settings: Settings, host: str, port: int, log_level: str = "info", app: Any = None
) -> None:
    """Serve in this process until stopped (``app``: one already built from ``settings``,
    as a parent that forks servers builds it once)."""
    import uvicorn

    from decklab.server.api.app import create_app

    tune_process()
    uvicorn.run(
        app or create_app(settings),
        **uvicorn_options(host, port, log_level, settings.header_timeout_s),
    )


def edge_problem(public_urls: list[str], trusted_proxies: list[str]) -> str | None:
    """What is wrong with ``--public-url`` and ``--trusted-proxy`` values, if anything
    (uvicorn would take a mistyped proxy address as a name that never matches)."""
    import ipaddress

    from decklab.server.api.origin import parse_origin

    for url in public_urls:
        if parse_origin(url) is None or not url.lower().startswith(("http://", "https://")):
            return f"--public-url {url!r} is not an http:// or https:// URL"
    for proxy in trusted_proxies:
        try:
            ipaddress.ip_network(proxy, strict=False)
        except ValueError:
            return f"--trusted-proxy {proxy!r} is not an IP address or network"
    return None


def register(app: typer.Typer) -> None:
    db = typer.Typer(help="The server's database.", no_args_is_help=True)
    app.add_typer(db, name="db")
    register_verify(app)
    from decklab.server.admin_commands import register as register_admin

    register_admin(app)

    @app.command()
    def serve(
        host: Annotated[str, typer.Option(help="address to listen on")] = "127.0.0.1",
        port: Annotated[int, typer.Option(help="port to listen on", min=1, max=65535)] = 8000,
        database: Annotated[
            str | None,
            typer.Option(help="database URL (default: a SQLite file in the data folder)"),
        ] = None,
        processes: Annotated[
            int, typer.Option(help="server processes (more than one needs PostgreSQL)", min=1)
        ] = 1,
        bot_workers: Annotated[
            int, typer.Option(help="processes that bots think in, per server process", min=1)
        ] = 1,
        grace: Annotated[
            float, typer.Option(help="seconds a person may be away before a bot plays for them")
        ] = 30.0,
        allowed_origin: Annotated[
            list[str] | None,
            typer.Option(help="another origin allowed to open WebSockets (repeatable)"),
        ] = None,
        sqlite_sync: Annotated[
            str,
            typer.Option(
                help="SQLite only: 'normal' (a commit survives a killed server) or 'full' "
                "(it survives a power cut too: an fsync per commit)"
            ),
        ] = "normal",
        tables_per_minute: Annotated[
            int, typer.Option(help="tables one address may create per minute", min=1)
        ] = 30,
        connections_per_address: Annotated[
            int, typer.Option(help="WebSockets one address may hold open at once", min=1)
        ] = 40,
        messages_per_address: Annotated[
            int, typer.Option(help="messages one address may send per 20 s, all channels", min=1)
        ] = 600,
        joins_per_minute: Annotated[
            int, typer.Option(help="seats one address may join per minute", min=1)
        ] = 20,
        full_gc_every: Annotated[
            float,
            typer.Option(
                help="seconds between full garbage collections, which the server runs itself so "
                "that none stops a move midway; 0: Python's own (see docs/server.md)",
                min=0,
            ),
        ] = 300.0,
        idle_table: Annotated[
            float,
            typer.Option(
                help="seconds after which a finished table nobody follows leaves memory "
                "(read back from the database when asked for); 0: kept",
                min=0,
            ),
        ] = 600.0,
        public_url: Annotated[
            list[str] | None,
            typer.Option(
                help="a URL people reach the server by, e.g. https://cards.example "
                "(repeatable): only its host is answered to (see docs/server.md)"
            ),
        ] = None,
        trusted_proxy: Annotated[
            list[str] | None,
            typer.Option(
                help="address or network (10.0.0.0/8) of a reverse proxy whose "
                "X-Forwarded-For/-Proto are believed (repeatable)"
            ),
        ] = None,
        header_timeout: Annotated[
            float,
            typer.Option(help="seconds a client has to send its request headers", min=0.1),
        ] = 10.0,
        heavy_workers: Annotated[
            int,
            typer.Option(
                help="processes that replays, records, hints and statistics are worked out in",
                min=1,
            ),
        ] = 2,
        waiting_table_ttl: Annotated[
            float,
            typer.Option(
                help="seconds after which a table still waiting for players expires; 0: never",
                min=0,
            ),
        ] = 24 * 3600.0,
        db_busy_timeout: Annotated[
            float,
            typer.Option(
                help="seconds a write waits for a database lock before the request gets 503",
                min=0.001,
            ),
        ] = 5.0,
        log_level: Annotated[str, typer.Option(help="debug, info, warning")] = "info",
        # -- deployment (docs/deploy.md)
        metrics: Annotated[
            bool, typer.Option(help="answer /metrics for Prometheus (counts only)")
        ] = True,
        access_log: Annotated[
            bool, typer.Option(help="a JSON line per request (no headers, no query strings)")
        ] = False,
        chat_retention_days: Annotated[
            float, typer.Option(help="delete chat older than this; 0: keep forever", min=0)
        ] = 90.0,
        finished_retention_days: Annotated[
            float,
            typer.Option(help="delete finished tables this old; 0: keep forever", min=0),
        ] = 0.0,
        # -- notification mail (docs/server.md, "Notifications")
        smtp_host: Annotated[
            str, typer.Option(help="SMTP server for notification mail; empty: no mail")
        ] = "",
        smtp_port: Annotated[int, typer.Option(help="its port", min=1, max=65535)] = 25,
        smtp_from: Annotated[
            str, typer.Option(help="the From address of notification mail")
        ] = "decklab@localhost",
    ) -> None:
        """Serve online play: tables, seats, live moves, bots (FastAPI + uvicorn)."""
        import uvicorn

        from decklab.server.store.db import (
            SQLITE_SYNC,
            check_url,
            default_url,
            is_postgres,
            upgrade,
        )

        url = database or default_url()
        try:
            check_url(url)
        except ValueError as exc:
            typer.echo(f"error: {exc}", err=True)
            raise typer.Exit(2) from None
        if sqlite_sync not in SQLITE_SYNC:
            typer.echo(f"error: --sqlite-sync is one of {', '.join(SQLITE_SYNC)}", err=True)
            raise typer.Exit(2)
        if processes > 1 and not is_postgres(url):
            typer.echo("error: several processes share tables through PostgreSQL only", err=True)
            raise typer.Exit(2)
        problem = edge_problem(public_url or [], trusted_proxy or [])
        if problem:
            typer.echo(f"error: {problem}", err=True)
            raise typer.Exit(2)
        # Once, before any worker starts (several would otherwise race to); a database
        # that cannot be opened (corrupt, foreign, unreachable) is said in one line.
        try:
            upgrade(url)
        except Exception as exc:
            typer.echo(f"error: {database_problem(url, exc)}", err=True)
            raise typer.Exit(2) from None
        settings = Settings(
            database_url=url,
            sqlite_sync=sqlite_sync,
            bot_workers=bot_workers,
            grace_s=grace,
            allowed_origins=frozenset(allowed_origin or ()),
            tables_per_window=tables_per_minute,
            table_window_s=60.0,
            connections_per_address=connections_per_address,
            address_messages_per_window=messages_per_address,
            joins_per_window=joins_per_minute,
            join_window_s=60.0,
            full_gc_every_s=full_gc_every,
            idle_table_s=idle_table,
            public_urls=tuple(public_url or ()),
            bind_host=host,
            trusted_proxies=tuple(trusted_proxy or ()),
            header_timeout_s=header_timeout,
            metrics=metrics,
            access_log=access_log,
            chat_retention_days=chat_retention_days,
            finished_retention_days=finished_retention_days,
            heavy_workers=heavy_workers,
            waiting_table_ttl_s=waiting_table_ttl,
            db_busy_timeout_s=db_busy_timeout,
            smtp_host=smtp_host,
            smtp_port=smtp_port,
            smtp_from=smtp_from,
        )
        typer.echo(f"decklab serves on http://{host}:{port}/ (database: {shown_url(url)})")
        if processes == 1:
            run_one(settings, host, port, log_level)
            return
        payload = asdict(settings)
        payload["allowed_origins"] = sorted(settings.allowed_origins)
        os.environ[SETTINGS_ENV] = json.dumps(payload)
        uvicorn.run(
            "decklab.server.commands:app_factory",
            factory=True,
            workers=processes,
            **uvicorn_options(host, port, log_level, settings.header_timeout_s),
        )

    @db.command("upgrade")
    def db_upgrade(
        database: Annotated[
            str | None, typer.Option(help="database URL (default: the SQLite file)")
        ] = None,
    ) -> None:
        """Bring the database schema up to date (the server also does this on start)."""
        from decklab.server.store.db import check_url, default_url, upgrade

        url = database or default_url()
        try:
            check_url(url)
        except ValueError as exc:
            typer.echo(f"error: {exc}", err=True)
            raise typer.Exit(2) from None
        upgrade(url)
        typer.echo(f"database up to date: {shown_url(url)}")

    @db.command("backup")
    def db_backup(
        file: Annotated[Path, typer.Argument(help="the backup file to write (must not exist)")],
        database: Annotated[
            str | None, typer.Option(help="database URL (default: the SQLite file)")
        ] = None,
    ) -> None:
        """Copy the database into FILE, while the server runs (docs/deploy.md)."""
        from decklab.server.backup import BackupError, backup

        url = _db_url(database)
        try:
            backup(url, file)
        except BackupError as exc:
            typer.echo(f"error: {exc}", err=True)
            raise typer.Exit(1) from None
        typer.echo(f"backed up {shown_url(url)} to {file}")

    @db.command("restore")
    def db_restore(
        file: Annotated[Path, typer.Argument(help="a file written by decklab db backup")],
        database: Annotated[
            str | None, typer.Option(help="database URL (default: the SQLite file)")
        ] = None,
        force: Annotated[bool, typer.Option(help="replace a database that holds tables")] = False,
    ) -> None:
        """Replace the database by the backup in FILE (stop the servers first)."""
        from decklab.server.backup import BackupError, restore

        url = _db_url(database)
        try:
            restore(url, file, force=force)
        except BackupError as exc:
            typer.echo(f"error: {exc}", err=True)
            raise typer.Exit(1) from None
        typer.echo(f"restored {file} into {shown_url(url)}")


def _db_url(database: str | None) -> str:
    from decklab.server.store.db import check_url, default_url

    url = database or default_url()
    try:
        return check_url(url)
    except ValueError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None


def register_verify(app: typer.Typer) -> None:
    """``decklab verify-deal``: check a finished online game against its revealed secret."""

    @app.command("verify-deal")
    def verify_deal(
        record: Annotated[str, typer.Argument(help="the finished game's record (JSON file)")],
        secret: Annotated[str, typer.Argument(help="the table's deal_secret (hex)")],
        commitment: Annotated[
            str | None,
            typer.Option(help="the table's deal_commitment, shown from its creation"),
        ] = None,
    ) -> None:
        """Check that a table of several players dealt and drew its chance from its secret."""
        from decklab.engine import records
        from decklab.engine.errors import DecklabError
        from decklab.server.dealing import verify_record

        try:
            checked = verify_record(records.load(record), secret, commitment)
        except DecklabError as exc:
            typer.echo(f"not verified: {exc}", err=True)
            raise typer.Exit(1) from None
        typer.echo(
            f"verified: the deal and the chance of all {checked} actions come from the secret"
        )
