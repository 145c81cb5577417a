"""Since which version a seat's intent still stands, in a round where seats choose at once.

An intent names the version it was made at, and one made at another version than the
table's is refused as stale: nobody's move is played on a position that changed under
them. In a simultaneous round, though, the others' face-down choices move the table on
while a person thinks, and each such refusal made them choose again for nothing: what
they could see and play was the same (a bot chooses as soon as its search is done, so
at every round's start the person's first click raced the bots).

So a seat's intent stands from the version its position last changed *for it*. A move
by another seat leaves it standing only if all of this holds, else the intent must be
made again on the new position:

- the seat was to act before the move and still is, and may play the same moves;
- no chance followed the move (nothing was dealt or revealed);
- the move is face down to this seat: its text, as this seat is shown it, names
  something and every word of it after the verb is hidden. A move with nothing to hide
  ("pass") counts as seen, since the seat learns something from it.

Anything other than a move (an undo, a seat a bot took over, a reload from another
process) starts afresh: the table keeps these versions only for the version it made.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from decklab.engine.state import GameState
from decklab.server.logline import Entry, hides_all_but_verb


def standing_after(
    before: GameState,
    after: GameState,
    added: Sequence[Entry],
    actor: int,
    standing: Mapping[int, int],
    version: int,
) -> dict[int, int]:
    """For each seat to act after ``actor``'s move (committed at ``version``, its entries
    ``added``), the earliest version an intent of that seat stands at. ``standing`` is the
    same map at ``version - 1`` (empty if unknown: then ``version - 1`` is the earliest)."""
    quiet = len(added) == 1  # the move alone: no chance entry after it
    were_acting = set(before.to_act())
    out: dict[int, int] = {}
    for seat in after.to_act():
        since = version
        if (
            quiet
            and seat != actor
            and seat in were_acting
            and _face_down_to(after, added[0], seat)
            and before.legal_actions(seat) == after.legal_actions(seat)
        ):
            since = standing.get(seat, version - 1)
        out[seat] = since
    return out


def _face_down_to(state: GameState, entry: Entry, seat: int) -> bool:
    """Whether ``seat`` is shown nothing of ``entry`` but that it was made."""
    words = state.redact_history_entry(entry.index, entry.actor, entry.text, seat).split()
    return len(words) > 1 and hides_all_but_verb(words)
