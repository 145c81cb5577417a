"""Who a rated table rates: the rules a rated table is made by, and the result of one
aborted because a seat never came (docs/server.md, "Ratings").

Pure functions over specs, seats and tables, no database: the table service asks them
when a rated table is made and when a seat's absence would end or hand over its game;
the rating store asks :func:`rated_bot` again when it rates a finished table.

- **People** are accounts that are not bot accounts. A rated table keeps a seat for one
  at least (an open seat, or a person's seat carried over by play again): bot levels
  and bot accounts alone play for nobody.
- **A bot level's identity** is its agent's name as the bots' registry spells it
  (stripped, lower case): ``random``, ``RANDOM`` and `` Random `` are one player. Only
  the built-in fair agents named without parameters are rated: ``expert:iters=50`` or
  ``greedy:seed=3`` is another program under a known name, and an installed plugin is
  whatever code the server has installed today, so neither is one stable player.
- **Bot accounts are not named at a rated table.** Nothing ties a bot account to the
  person who runs it (an account upgrades itself with its own token), so a bot account
  the creator names cannot be told apart from the creator's own; a bot account takes a
  rated table's seat only by joining it itself, as a person does.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from decklab.bots.registry import BUILTIN_AGENTS, is_fair
from decklab.bots.spec import CODE_AGENT, AgentSpecError, parse_spec
from decklab.engine.errors import excerpt
from decklab.engine.state import seat_name
from decklab.server.errors import ServiceError
from decklab.server.table import Seat, SeatSpec, Table


def rated_bot(spec: str) -> str | None:
    """The one rated identity of the bot level ``spec`` names (its agent's canonical
    name), or None when ``spec`` is not a rated level: unknown, with parameters, a
    plugin, Python code, or an agent that sees hidden cards."""
    try:
        name, params = parse_spec(spec)
    except AgentSpecError:
        return None
    if params or name == CODE_AGENT or name not in BUILTIN_AGENTS:
        return None
    try:
        return name if is_fair(name) else None
    except AgentSpecError:
        return None


def rated_seats(specs: Sequence[SeatSpec], carry: Sequence[Seat] | None) -> list[SeatSpec]:
    """The seats of a rated table being made, each bot level under its canonical name;
    a ``bad_request`` naming what is wrong when they cannot make one."""
    seats: list[SeatSpec] = []
    for_people = 0
    for index, spec in enumerate(specs):
        kept = carry[index] if carry is not None else None
        if kept is not None and kept.kind == "human":
            for_people += not kept.bot_account
            seats.append(spec)
        elif spec.account is not None:
            raise ServiceError(
                "bad_request",
                "a rated table does not seat a bot account by name: nothing tells a bot "
                "account you run from another, so a bot takes a rated table's seat only by "
                "joining it itself (make the table casual to name it)",
            )
        elif spec.bot is not None:
            canonical = rated_bot(spec.bot)
            if canonical is None:
                raise ServiceError(
                    "bad_request",
                    f"{excerpt(spec.bot, 40)!r} is not a rated bot: a rated table seats the "
                    "built-in bots by their plain name (random, greedy, beginner, casual, "
                    "strong, expert, ...), without parameters; make the table casual to "
                    "seat it",
                )
            seats.append(SeatSpec(canonical))
        else:
            for_people += 1
            seats.append(spec)
    if not for_people:
        raise ServiceError(
            "bad_request",
            "a rated table needs a seat for a person: bot levels and bot accounts alone "
            "are never rated",
        )
    return seats


def never_came(table: Table, seat: int) -> bool:
    """Whether ``seat``'s absence aborts the table rather than ending or handing over
    its game: a rated table, a seat of an account that never arrived (no connection
    opened with its token, no request made with it). Bot levels are always there."""
    held = table.seats[seat]
    return table.rated and held.kind == "human" and not held.arrived and not table.finished


def aborted_outcome(table: Table, seat: int) -> dict[str, Any]:
    """The result of a rated table aborted because ``seat`` never came: over, nobody
    wins, nobody is rated (as Lichess aborts a game before its first move)."""
    result = table.state.forfeit_result(seat)
    name = seat_name(seat)
    return {
        "terminal": True,
        "scores": result["scores"],
        "winners": [],
        "aborted": True,
        "absent": name,
        "reason": f"{name} never came to the table: the game is aborted and rates nobody.",
    }
