"""An account's notification preferences: its email address and which mail it wants."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from pydantic import Field

from decklab.server.api.errors import responses
from decklab.server.api.models import Strict
from decklab.server.api.session import CallerDep
from decklab.server.notify.service import Notifier

router = APIRouter(prefix="/api", tags=["accounts"], responses=responses(400, 401, 403))


def get_notifier(request: Request) -> Notifier:
    notifier: Notifier = request.app.state.notifier
    return notifier


NotifierDep = Annotated[Notifier, Depends(get_notifier)]


class NotificationPrefs(Strict):
    email: str | None = Field(default=None, max_length=254)
    """Where the mail goes; "" or null removes the address (no mail at all)."""
    email_turn: bool | None = None
    """A mail when it becomes your turn at a turn-based table."""
    email_invite: bool | None = None
    """A mail when a friend keeps a seat for you."""


@router.get("/account/notifications")
async def get_prefs(notifier: NotifierDep, caller: CallerDep) -> dict[str, Any]:
    """The account's email address, which kinds of mail it wants, and whether this
    server sends mail at all (``mail_enabled``: an SMTP host is configured)."""
    return await notifier.prefs(caller.account.id)


@router.put("/account/notifications")
async def put_prefs(
    body: NotificationPrefs, notifier: NotifierDep, caller: CallerDep
) -> dict[str, Any]:
    """Change the fields given; the others stay."""
    changes = body.model_dump(exclude_unset=True)
    for key in ("email_turn", "email_invite"):
        if key in changes and changes[key] is None:
            del changes[key]
    return await notifier.set_prefs(caller.account.id, changes)
