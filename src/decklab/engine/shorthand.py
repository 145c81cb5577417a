"""Writing setups by hand: ``...`` completes a pile with the cards not placed yet.

A setup lists every card of every deck, because a record must rebuild the game
exactly. A person writing a test position cares about a few cards only, so a
pile (a list of cards, or a space-separated string) may end with the token
``...`` (also ``…`` or ``rest``): it stands for **every card of that deck not
placed anywhere else in the setup, in canonical order** — the order of
:func:`decklab.cards.deck`: suit by suit (S H D C, then X), ace to king.

Each game says which setup keys share one deck (:meth:`GameState.setup_decks`);
the engine expands the token before the game reads the setup, and the record
decklab writes is always the explicit form. Chance lines that name a whole deck
(a reshuffle) use :func:`complete_tokens` for the same shorthand.
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from decklab import cards
from decklab.engine.errors import SetupError

REST_TOKENS = frozenset({"...", "…", "rest"})
"""The spellings of "the rest of the deck" at the end of a pile."""


def is_rest(token: object) -> bool:
    return isinstance(token, str) and token.strip().lower() in REST_TOKENS


@dataclass(frozen=True)
class DeckPiles:
    """One physical deck and the setup keys whose piles it is split between.

    ``cards`` is the deck in canonical order (a card twice when two decks are
    shuffled together); ``keys`` are setup keys whose values hold its cards, at
    any depth (lists of piles, objects of seat → pile).
    """

    cards: tuple[int, ...]
    keys: tuple[str, ...]


Path = tuple[str | int, ...]


def _walk(value: Any, path: Path, found: list[tuple[Path, list[str], bool]]) -> None:
    """Collect every pile under ``value``: (path, its tokens, whether it was a string)."""
    if isinstance(value, str):
        found.append((path, value.split(), True))
    elif isinstance(value, list):
        if all(isinstance(t, str) for t in value):
            found.append((path, list(value), False))
        else:
            for i, item in enumerate(value):
                _walk(item, (*path, i), found)
    elif isinstance(value, Mapping):
        for key, item in value.items():
            _walk(item, (*path, str(key)), found)


def _parse_or_none(token: str) -> int | None:
    try:
        return cards.parse(token)
    except (cards.CardError, AttributeError):
        return None


def remaining(deck: Sequence[int], placed: Sequence[int]) -> list[int]:
    """The cards of ``deck`` (in its order) left once ``placed`` are taken out (multiset)."""
    left = Counter(placed)
    out = []
    for c in deck:
        if left[c] > 0:
            left[c] -= 1
        else:
            out.append(c)
    return out


def complete_tokens(tokens: Sequence[str], deck: Sequence[int], label: str) -> list[str]:
    """``tokens`` with a final ``...`` replaced by the cards of ``deck`` not among them.

    A ``...`` anywhere but at the end is an error (the order of the rest is canonical,
    so what would follow it is unclear); without one, ``tokens`` come back unchanged.
    """
    tokens = list(tokens)
    at = [i for i, t in enumerate(tokens) if is_rest(t)]
    if not at:
        return tokens
    if at != [len(tokens) - 1]:
        raise SetupError(f"{label}: '...' (the rest of the deck) may only end a pile, once")
    given = [c for c in (_parse_or_none(t) for t in tokens[:-1]) if c is not None]
    return tokens[:-1] + [cards.to_str(c) for c in remaining(deck, given)]


def expand_setup(setup: Mapping[str, Any], decks: Sequence[DeckPiles]) -> Mapping[str, Any]:
    """``setup`` with each deck's ``...`` pile completed (see the module docstring).

    Cards that are not cards, or not of the deck, are left for the game's own
    checks to name; only the shorthand itself is checked here.
    """
    out: dict[str, Any] | None = None
    for deck in decks:
        piles: list[tuple[Path, list[str], bool]] = []
        for key in deck.keys:
            if key in setup:
                _walk(setup[key], (key,), piles)
        with_rest = [(p, toks, s) for p, toks, s in piles if any(is_rest(t) for t in toks)]
        if not with_rest:
            continue
        if len(with_rest) > 1:
            where = " and ".join(_name(p) for p, _, _ in with_rest)
            raise SetupError(f"'...' (the rest of the deck) is in {where}: one pile only")
        path, tokens, was_string = with_rest[0]
        if not is_rest(tokens[-1]) or sum(map(is_rest, tokens)) > 1:
            raise SetupError(
                f"{_name(path)}: '...' (the rest of the deck) may only end a pile, once"
            )
        placed = [
            c
            for _, toks, _ in piles
            for t in toks
            if not is_rest(t) and (c := _parse_or_none(t)) is not None
        ]
        mine = tokens[:-1] + [cards.to_str(c) for c in remaining(deck.cards, placed)]
        if out is None:
            out = copy.deepcopy(dict(setup))
        _set(out, path, " ".join(mine) if was_string else mine)
    return setup if out is None else out


def _name(path: Path) -> str:
    head, *rest = path
    return str(head) + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in rest)


def _set(root: Any, path: Path, value: Any) -> None:
    node = root
    for step in path[:-1]:
        node = node[step]
    node[path[-1]] = value
