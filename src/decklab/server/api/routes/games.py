"""The games this server offers, with their options spec (the lobby builds its forms from it)."""

from __future__ import annotations

from fastapi import APIRouter

from decklab.server.api.errors import responses
from decklab.server.api.models import GameSpec
from decklab.server.catalogue import games_catalogue

router = APIRouter(prefix="/api", tags=["games"], responses=responses())


@router.get("/games", response_model=list[GameSpec])
def list_games() -> list[GameSpec]:
    return [GameSpec.model_validate(g) for g in games_catalogue()]
