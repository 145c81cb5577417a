"""Where the chance of a table of several players comes from, and how it is checked.

The engine's generator (:class:`decklab.engine.chance.Rng`, splitmix64) is made for
speed, not secrecy: its whole state is one 64-bit word, it can be run backwards, and a
shuffle or a draw that a player sees tells a lot about that word. Whoever knows the
seed of a game knows every hidden card and every chance outcome still to come.

So a table of several players never has a seed anyone could learn while it is played:

* it has a **secret** of :data:`SECRET_BYTES` bytes (128 bits) from :mod:`secrets`,
  kept in the database and shown to nobody until the game is over;
* its deal is dealt from :func:`deal_seed` (a keyed BLAKE2b of the secret), and before
  each action the server replaces the state's generator by one seeded from
  :func:`action_seed` of that action's number: every action's chance starts from 64
  bits nobody can compute without the secret, and nothing a player saw of one
  action's chance (a reshuffle, a roll) tells anything about the next action's;
* the table shows :func:`commitment` (SHA-256 of the secret) from its creation and
  the secret itself once it is finished; :func:`verify_record` then checks that the
  finished game's deal and every chance outcome are the ones the secret makes, so
  the server could not have chosen them as it went.

The server never needs the seed to rebuild a table: it stores the explicit setup and
every chance outcome, and replays them (:func:`decklab.server.replay.rebuild`).
A game played alone keeps its public deal number (the identity of the deal, as in
FreeCell): nobody else sits at it, so there is nothing to hide.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from collections.abc import Mapping
from typing import Any, Final

from decklab.engine.chance import Rng
from decklab.engine.errors import DecklabError
from decklab.engine.registry import get_game
from decklab.engine.state import CHANCE, GameState, seat_index
from decklab.server.errors import ServiceError

SECRET_BYTES: Final = 16
"""128 bits: too many to search, whatever a player has seen."""

_PERSON: Final = b"decklab.deal"
"""BLAKE2b's personalisation: these derivations differ from any other use of the key."""


class DealMismatch(DecklabError):
    """A finished record that the revealed secret does not account for."""


def new_secret() -> bytes:
    """A fresh table secret."""
    return secrets.token_bytes(SECRET_BYTES)


def _derive(secret: bytes, label: str) -> int:
    """A 64-bit engine seed from the secret and a label, by keyed BLAKE2b (a PRF): one
    derived seed, even with its label, says nothing about the secret or another label's."""
    digest = hashlib.blake2b(
        label.encode("ascii"), key=secret, digest_size=8, person=_PERSON
    ).digest()
    return int.from_bytes(digest, "big")


def choose(players: int, deal: int | None) -> tuple[int | None, bytes | None, int]:
    """A new table's deal: its public deal number (a game played alone: ``deal``, or one
    drawn), its secret (a table of several: fresh; nobody may choose it), and the engine
    seed it is dealt from. A deal number asked for at a table of several is refused:
    whoever chose it would know every hand."""
    if deal is not None and not 0 <= deal < 2**62:
        raise ServiceError("bad_request", "a deal number is a whole number from 0 to 2**62-1")
    if players == 1:
        seed = deal if deal is not None else secrets.randbelow(2**31)
        return seed, None, seed
    if deal is not None:
        raise ServiceError(
            "bad_request",
            "a deal number is for a game played alone: at a table of several players "
            "whoever chose the deal would know every hand",
        )
    secret = new_secret()
    return None, secret, deal_seed(secret)


def deal_seed(secret: bytes) -> int:
    """The engine seed the table's deal is dealt from."""
    return _derive(secret, "deal")


def action_seed(secret: bytes, seq: int) -> int:
    """The engine seed of the chance drawn by the table's action number ``seq`` (from 1)."""
    return _derive(secret, f"action {seq}")


def reseed_for_action(state: GameState, secret: bytes, seq: int) -> None:
    """Give ``state`` the generator of action ``seq``, before that action is applied."""
    state.rng = Rng(action_seed(secret, seq))


def commitment(secret: bytes) -> str:
    """What a table shows of its secret before the end: SHA-256, in hex."""
    return hashlib.sha256(secret).hexdigest()


def parse_secret(text: str) -> bytes:
    """A secret written in hex, as a finished table shows it."""
    try:
        secret = bytes.fromhex(text.strip())
    except ValueError:
        raise DealMismatch("the secret is written in hexadecimal digits") from None
    if len(secret) != SECRET_BYTES:
        raise DealMismatch(f"the secret is {SECRET_BYTES} bytes ({2 * SECRET_BYTES} hex digits)")
    return secret


def _plain(value: Any) -> Any:
    """``value`` as JSON reads it back (tuples become lists), for comparisons."""
    return json.loads(json.dumps(value))


def verify_record(
    record: Mapping[str, Any], secret_text: str, expected_commitment: str | None = None
) -> int:
    """Check a finished game's full record against its table's revealed secret.

    The deal the secret makes must be the record's setup, and every action, played
    with the generator :func:`action_seed` gives it, must draw exactly the chance
    lines that follow it in the record (and the result must be the record's).
    ``expected_commitment``, if given, must be the secret's :func:`commitment`.
    Returns the number of actions checked; raises :class:`DealMismatch` naming the
    first difference.
    """
    secret = parse_secret(secret_text)
    if expected_commitment is not None and (
        commitment(secret) != expected_commitment.strip().lower()
    ):
        raise DealMismatch("the secret does not match the table's commitment")
    if "viewer" in record:
        raise DealMismatch("this is a seat's redacted copy: verify the full record")
    try:
        cls = get_game(str(record.get("game")))
    except KeyError as exc:
        raise DealMismatch(str(exc.args[0])) from None
    if record.get("version") != cls.info.version:
        raise DealMismatch(
            f"the record is {cls.info.name} version {record.get('version')}; "
            f"this decklab plays version {cls.info.version}"
        )
    seats = record.get("seats")
    if not isinstance(seats, list) or not seats:
        raise DealMismatch("the record names no seats")
    state = cls.new(len(seats), record.get("options") or {}, seed=deal_seed(secret))
    if _plain(state.initial_setup) != _plain(record.get("setup")):
        raise DealMismatch("the record's setup is not the deal the secret makes")
    lines = record.get("actions") or []
    if not isinstance(lines, list):
        raise DealMismatch("'actions' is a list of lines")
    seq = 0
    i = 0
    while i < len(lines):
        actor, _, text = str(lines[i]).partition(" ")
        if actor == "chance":
            raise DealMismatch(f"line {i}: a chance line the secret does not account for")
        seq += 1
        reseed_for_action(state, secret, seq)
        start = len(state.history)
        try:
            seat = seat_index(actor, state.num_players)
            state.apply(seat, state.parse_action(seat, text))
        except (DecklabError, ValueError) as exc:
            raise DealMismatch(f"line {i} ({lines[i]!r}): {exc}") from None
        drawn = [f"chance {a}" for who, a in state.history[start + 1 :] if who == CHANCE]
        given = []
        i += 1
        while i < len(lines) and str(lines[i]).startswith("chance "):
            given.append(str(lines[i]))
            i += 1
        if drawn != given:
            raise DealMismatch(
                f"action {seq} ({actor} {text}): the secret draws {drawn}, the record has {given}"
            )
    if "result" in record and _plain(state.result()) != _plain(record["result"]):
        raise DealMismatch("the record's result is not the one its actions make")
    return seq
