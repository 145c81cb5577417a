"""Typed dependencies of the routes: the service, the caller's seat token, the address."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from decklab.server.limits import Limits
from decklab.server.service import TableService

_bearer = HTTPBearer(auto_error=False, description="a seat token from joining a table")


def get_service(request: Request) -> TableService:
    service: TableService = request.app.state.service
    return service


def get_token(
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
) -> str | None:
    """The seat token from ``Authorization: Bearer …`` (None: a spectator)."""
    return credentials.credentials if credentials is not None else None


def client_address(request: Request) -> str:
    return request.client.host if request.client is not None else "unknown"


def get_limits(request: Request) -> Limits:
    """The per-address and per-seat limits (:mod:`decklab.server.limits`)."""
    limits: Limits = request.app.state.limits
    return limits


ServiceDep = Annotated[TableService, Depends(get_service)]
TokenDep = Annotated[str | None, Depends(get_token)]
AddressDep = Annotated[str, Depends(client_address)]
LimitsDep = Annotated[Limits, Depends(get_limits)]
