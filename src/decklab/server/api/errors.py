"""One shape for every error the API answers: ``{"error": {"code", "message"}}``.

FastAPI and Starlette answer their own errors (an unknown path, a wrong method, a body
that is not JSON, a failed validation) as ``{"detail": …}``; the handlers here give those
the documented shape too, and an unexpected exception a JSON 500 that says nothing of
the server's insides. :data:`ERRORS` documents the codes every operation may answer.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from sqlalchemy.exc import DataError, DBAPIError, IntegrityError, ProgrammingError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from starlette.exceptions import HTTPException

from decklab.server import metrics
from decklab.server.api.models import ErrorOut
from decklab.server.api.security import HEADERS
from decklab.server.errors import ServiceError

log = logging.getLogger("decklab.server")

CODES = {
    400: "bad_request",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    406: "not_acceptable",
    409: "conflict",
    410: "gone",
    413: "too_large",
    415: "unsupported_media_type",
    422: "invalid",
    429: "rate_limited",
    500: "internal",
    503: "unavailable",
}
"""The ``code`` of an error that has no more particular one, by HTTP status."""

COMMON = (400, 404, 405, 413, 422, 429, 500, 503)
"""What any operation may answer: a refused Host (400), an unknown path or table (404),
a wrong method (405), a body past the limit (413), a request that does not validate
(422), too many requests (429), a fault (500), the database unavailable (503)."""


def error_body(status: int, message: str, code: str | None = None) -> dict[str, Any]:
    """The one error shape; every error answered is counted (``decklab_errors_total``)."""
    code = code or CODES.get(status, "error")
    metrics.errored(code)
    return {"error": {"code": code, "message": message}}


DB_RETRY_AFTER_S = 2
"""``Retry-After`` of an answer refused because the database failed: a lock held by
someone else, a connection lost, a full disk: passing faults, or ones for an operator."""


def unavailable(message: str, retry_after: int = DB_RETRY_AFTER_S) -> JSONResponse:
    """503 in the API's error shape, saying when to try again."""
    return error_response(503, message, "unavailable", {"Retry-After": str(retry_after)})


def error_response(
    status: int, message: str, code: str | None = None, headers: Mapping[str, str] | None = None
) -> JSONResponse:
    return JSONResponse(error_body(status, message, code), status_code=status, headers=headers)


def responses(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """``responses=`` for a route: the common error statuses and its own, as :class:`ErrorOut`."""
    return {
        status: {"model": ErrorOut, "description": CODES.get(status, "error")}
        for status in sorted({*COMMON, *statuses})
    }


def install(app: FastAPI) -> None:
    """Every error handler of the application."""

    @app.exception_handler(ServiceError)
    async def service_error(_request: Request, exc: ServiceError) -> JSONResponse:
        retry = None if exc.retry_after is None else {"Retry-After": str(exc.retry_after)}
        return error_response(exc.status, exc.message, exc.code, retry)

    @app.exception_handler(DBAPIError)
    @app.exception_handler(PoolTimeout)
    async def database_error(_request: Request, exc: Exception) -> JSONResponse:
        """The database refused or failed (locked, gone, full): 503 and when to try again,
        rather than a bare 500. Nothing was changed: a write's transaction did not commit.
        A statement the database found wrong is the server's own fault: a 500 in shape."""
        if isinstance(exc, IntegrityError | ProgrammingError | DataError):
            log.error("database refused a statement", exc_info=exc)
            return error_response(500, "the server failed to answer this request", "internal")
        log.warning("database unavailable: %s", str(getattr(exc, "orig", exc))[:200])
        return unavailable("the database is unavailable for the moment: try again shortly")

    @app.exception_handler(RequestValidationError)
    async def invalid(_request: Request, exc: RequestValidationError) -> JSONResponse:
        if any(e.get("type") == "json_invalid" for e in exc.errors()):
            return error_response(400, "the body is not JSON", "bad_json")
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e.get('loc', ()))}: {e.get('msg', '')}"
            for e in exc.errors()[:10]
        )
        return error_response(422, problems or "invalid request", "invalid")

    @app.exception_handler(HTTPException)
    async def http_error(_request: Request, exc: HTTPException) -> JSONResponse:
        message = exc.detail if isinstance(exc.detail, str) else CODES.get(exc.status_code, "")
        return error_response(exc.status_code, message, headers=exc.headers)

    @app.exception_handler(Exception)
    async def fault(_request: Request, _exc: Exception) -> JSONResponse:
        """Answered outside the other middleware (Starlette then raises the exception on,
        for the server to log): the security headers are added here."""
        headers = {k.decode(): v.decode() for k, v in HEADERS}
        return error_response(
            500, "the server failed to answer this request", "internal", headers=headers
        )
