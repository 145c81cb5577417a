"""Moderation: remove a person before the start, mute and block, report a seat."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path, Request, Response
from pydantic import Field

from decklab.server.api.deps import AddressDep, TokenDep
from decklab.server.api.errors import responses
from decklab.server.api.models import Strict
from decklab.server.api.session import CallerDep, MaybeCallerDep
from decklab.server.errors import ServiceError
from decklab.server.moderation import REASON_MAX, ModerationService

router = APIRouter(prefix="/api", tags=["moderation"], responses=responses(401, 403, 404, 409, 503))


def get_moderation(request: Request) -> ModerationService:
    moderation: ModerationService = request.app.state.moderation
    return moderation


ModerationDep = Annotated[ModerationService, Depends(get_moderation)]
Name = Annotated[str, Path(min_length=1, max_length=32)]


class RemoveRequest(Strict):
    creator_token: str | None = Field(default=None, max_length=100)


class ReportRequest(Strict):
    seat: str = Field(min_length=1, max_length=8)
    reason: str = Field(min_length=1, max_length=REASON_MAX)


@router.post("/tables/{table_id}/seats/{seat}/remove")
async def remove_seat(
    table_id: str,
    seat: str,
    moderation: ModerationDep,
    caller: MaybeCallerDep,
    body: RemoveRequest | None = None,
) -> dict[str, str]:
    """The table's creator (its creator token, or the account that created it) removes the
    person at ``seat`` before the game starts: the seat is open again and the person's
    token refused. After the start: 409."""
    token = body.creator_token if body is not None else None
    removed = await moderation.remove(table_id, seat, token, caller)
    return {"table": table_id, "seat": removed}


@router.post("/tables/{table_id}/report", status_code=201)
async def report(
    table_id: str,
    body: ReportRequest,
    moderation: ModerationDep,
    token: TokenDep,
    caller: MaybeCallerDep,
    address: AddressDep,
    request: Request,
) -> dict[str, int]:
    """Report the person at ``seat``: the table's chat is kept with the report as it is now."""
    if not request.app.state.report_limit.allow(address):
        raise ServiceError("rate_limited", "too many reports from this address", 429)
    return {"report": await moderation.report(table_id, body.seat, body.reason, token, caller)}


@router.get("/me/mutes")
async def list_mutes(moderation: ModerationDep, caller: CallerDep) -> dict[str, Any]:
    """The accounts the caller muted (``blocked``: blocked too), by name."""
    return {"mutes": await moderation.listed(caller)}


@router.post("/me/mutes/{username}", status_code=204)
async def mute(username: Name, moderation: ModerationDep, caller: CallerDep) -> Response:
    """Their chat lines are not sent to you any more (again: no change)."""
    await moderation.mute(caller, username, block=False)
    return Response(status_code=204)


@router.delete("/me/mutes/{username}", status_code=204)
async def unmute(username: Name, moderation: ModerationDep, caller: CallerDep) -> Response:
    """Unmute (and unblock)."""
    await moderation.unmute(caller, username, block_only=False)
    return Response(status_code=204)


@router.post("/me/blocks/{username}", status_code=204)
async def block(username: Name, moderation: ModerationDep, caller: CallerDep) -> Response:
    """Mute, and they may not join a table you created nor invite you."""
    await moderation.mute(caller, username, block=True)
    return Response(status_code=204)


@router.delete("/me/blocks/{username}", status_code=204)
async def unblock(username: Name, moderation: ModerationDep, caller: CallerDep) -> Response:
    """Unblock (still muted: unmute for that)."""
    await moderation.unmute(caller, username, block_only=True)
    return Response(status_code=204)
