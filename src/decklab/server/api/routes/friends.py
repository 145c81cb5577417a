"""Friends: the list, invitations to a seat, a rematch with the same people."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path, Request, Response
from pydantic import Field

from decklab.server.accounts.friends import FriendService
from decklab.server.api.errors import responses
from decklab.server.api.models import Strict, TableSummary
from decklab.server.api.session import CallerDep

router = APIRouter(prefix="/api", tags=["friends"], responses=responses(401, 403, 404, 409, 503))


def get_friends(request: Request) -> FriendService:
    friends: FriendService = request.app.state.friends
    return friends


FriendsDep = Annotated[FriendService, Depends(get_friends)]


class FriendRequest(Strict):
    username: str = Field(min_length=1, max_length=32)


class InviteRequest(Strict):
    seat: str = Field(min_length=1, max_length=8)
    username: str = Field(min_length=1, max_length=32)


@router.get("/me/friends")
async def list_friends(friends: FriendsDep, caller: CallerDep) -> dict[str, Any]:
    """The account's friends, by name."""
    return {"friends": await friends.friends(caller.account)}


@router.post("/me/friends", status_code=201)
async def add_friend(body: FriendRequest, friends: FriendsDep, caller: CallerDep) -> dict[str, str]:
    """Add an account to the friends list by username (again: no change)."""
    return {"username": await friends.add(caller.account, body.username)}


@router.delete("/me/friends/{username}", status_code=204)
async def remove_friend(
    friends: FriendsDep, caller: CallerDep, username: str = Path(max_length=32)
) -> Response:
    await friends.remove(caller.account, username)
    return Response(status_code=204)


@router.get("/me/invitations")
async def invitations(friends: FriendsDep, caller: CallerDep) -> dict[str, Any]:
    """Seats kept for the account at tables still waiting for players, newest first."""
    return {"invitations": await friends.invitations(caller.account)}


@router.post("/tables/{table_id}/invite", status_code=201)
async def invite(
    table_id: str, body: InviteRequest, friends: FriendsDep, caller: CallerDep
) -> dict[str, str]:
    """Keep an open seat for a friend (the caller sits at the table): only they may take it."""
    return await friends.invite(caller.account, table_id, body.seat, body.username)


@router.post("/tables/{table_id}/rematch", response_model=TableSummary, status_code=201)
async def rematch(table_id: str, friends: FriendsDep, caller: CallerDep) -> TableSummary:
    """A finished table played again with the same people, asked by one of its accounts."""
    table = await friends.rematch(caller.account, table_id)
    return TableSummary.model_validate(table.summary())
