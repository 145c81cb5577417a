"""Every game can be a variant's base, on the compiled build too (docs/designing.md).

A designer's rule change lives in their own module: a :class:`Variant` (the game with
other option defaults) or a subclass of the game's state class that overrides what
the change touches, here the scoring. Both are interpreted classes deriving from the
game's class, which on the compiled build only a class marked
``allow_interpreted_subclasses`` permits (``TypeError: interpreted classes cannot
inherit from compiled`` otherwise). The override must also be the one the compiled
engine calls (``result()``, ``winners()``, written in compiled code, call
``self.scores()``).

These run on whichever build is active; with ``DECKLAB_REQUIRE_COMPILED=1`` (the
compiled pass of ``.ci/run``) it must be the compiled one, so the property is checked
where it matters.
"""

from __future__ import annotations

import dataclasses
import os
import pickle
import random
from collections.abc import Callable, Iterator

import pytest

import decklab
from decklab.engine import registry
from decklab.engine.registry import Variant, get_game
from decklab.engine.state import GameState
from decklab.games.cabin.state import CabinState
from decklab.games.corporation.state import CorporationState
from decklab.games.facade.scoring import group_score
from decklab.games.facade.state import FacadeState
from decklab.games.lonely_face.state import LonelyFaceState
from decklab.games.lonely_face.tables import pair_points
from decklab.games.notorious.state import NotoriousState

REQUIRED = os.environ.get("DECKLAB_REQUIRE_COMPILED", "") not in ("", "0")


def _info(base: type[GameState], name: str) -> object:
    return dataclasses.replace(base.info, name=name, title=f"{base.info.title} ({name})")


# ----------------------------------------------------- the plugins' rule changes
class ForgivingFacade(FacadeState):
    """Unfinished groups cost nothing (instead of a point per card, F9)."""

    info = _info(FacadeState, "facade-forgiving")  # type: ignore[assignment]

    def scores(self) -> list[float]:
        return [
            float(sum(max(0, group_score(g, self.house[s])) for g in self.groups[s]))
            for s in range(self.num_players)
        ]


class NoSpadesLonelyFace(LonelyFaceState):
    """A pair of spades costs nothing (instead of −1, L10)."""

    info = _info(LonelyFaceState, "lonely-face-no-spades")  # type: ignore[assignment]

    def scores(self) -> list[float]:
        out = []
        for pile in self.piles:
            pairs = zip(pile[::2], pile[1::2], strict=True)
            out.append(float(sum(max(0, pair_points(a, b)) for a, b in pairs)))
        return out


class DoubleSquidCabin(CabinState):
    """Every squid point counts twice (C5)."""

    info = _info(CabinState, "cabin-double-squid")  # type: ignore[assignment]

    def scores(self) -> list[float]:
        return [2.0 * self.points]


class MisereCorporation(CorporationState):
    """The lowest score wins."""

    info = _info(CorporationState, "corporation-misere")  # type: ignore[assignment]

    def scores(self) -> list[float]:
        return [-float(p) for p in self.points]


class MisereNotorious(NotoriousState):
    """The least notorious wins: the lowest match total."""

    info = _info(NotoriousState, "notorious-misere")  # type: ignore[assignment]

    def scores(self) -> list[float]:
        return [-float(t) for t in self.totals]


def _facade(state: GameState) -> list[float]:
    assert isinstance(state, FacadeState)
    return [float(sum(max(0, group_score(g, state.house[s])) for g in groups))
            for s, groups in enumerate(state.groups)]  # fmt: skip


PLUGINS: dict[str, tuple[type[GameState], dict[str, object]]] = {
    "facade": (ForgivingFacade, {"fifth_suit": True}),
    "lonely-face": (NoSpadesLonelyFace, {"suit_die": True}),
    "cabin": (DoubleSquidCabin, {"stacks": 6}),
    "corporation": (MisereCorporation, {"top_value": 9}),
    "notorious": (MisereNotorious, {"games": 2}),
}
CHANGED: dict[str, Callable[[GameState, list[float]], bool]] = {
    # how each variant's scores relate to the base game's on the same play
    "facade": lambda s, base: (
        base != _facade(s) and all(v >= b for v, b in zip(_facade(s), base, strict=True))
    ),
    "lonely-face": lambda s, base: all(v >= b for v, b in zip(s.scores(), base, strict=True)),
    "cabin": lambda s, base: s.scores() == [2 * base[0]] and base[0] > 0,
    "corporation": lambda s, base: s.scores() == [-b for b in base],
    "notorious": lambda s, base: s.scores() == [-b for b in base],
}


@pytest.fixture
def registered() -> Iterator[None]:
    """The plugins registered as a package of a designer's would (by ``module:Name``)."""
    names = []
    for game, (cls, _options) in PLUGINS.items():
        registry.register(cls.info.name, f"{__name__}:{cls.__name__}")
        registry.register(f"{game}-preset", f"{__name__}:VARIANTS.{game.replace('-', '_')}")
        names += [cls.info.name, f"{game}-preset"]
    yield
    for name in names:
        registry._ENTRIES.pop(name, None)
        registry._LOADED.pop(name, None)
        registry._REGISTERED.discard(name)


class _Variants:
    facade = Variant("facade", "Façade with stars", options=PLUGINS["facade"][1])
    lonely_face = Variant("lonely-face", "Lonely Face, die", options=PLUGINS["lonely-face"][1])
    cabin = Variant("cabin", "The Cabin, 6 stacks", options=PLUGINS["cabin"][1])
    corporation = Variant("corporation", "Corporation to 9", options=PLUGINS["corporation"][1])
    notorious = Variant("notorious", "Notorious, 2 games", options=PLUGINS["notorious"][1])


VARIANTS = _Variants()


def _play(cls: type[GameState], seed: int) -> GameState:
    """A game of ``cls`` with random moves, the same for the base game and its variant."""
    state = cls.new(None, None, seed=seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        seat = state.to_act()[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    return state


def test_the_build_is_the_one_ci_asks_for() -> None:
    if REQUIRED:
        assert decklab.BUILD == "compiled", "DECKLAB_REQUIRE_COMPILED is set but pure Python ran"
    assert decklab.BUILD in ("compiled", "pure")


@pytest.mark.usefixtures("registered")
@pytest.mark.parametrize("game", list(PLUGINS))
def test_a_variant_with_other_option_defaults_loads_for_every_game(game: str) -> None:
    base = get_game(game)
    cls = get_game(f"{game}-preset")  # on the compiled build: a subclass of a compiled class
    assert issubclass(cls, base) and cls is not base
    ((option, value),) = PLUGINS[game][1].items()
    assert cls.info.option(option).default == value
    assert cls.new(None, None, seed=1).options[option] == value


@pytest.mark.usefixtures("registered")
@pytest.mark.parametrize("game", list(PLUGINS))
def test_a_plugin_rule_change_changes_the_outcome_for_every_game(game: str) -> None:
    base_cls = get_game(game)
    cls = get_game(PLUGINS[game][0].info.name)
    assert cls is PLUGINS[game][0] and issubclass(cls, base_cls)
    changed = False
    for seed in range(4):
        base, variant = _play(base_cls, seed), _play(cls, seed)
        assert variant.history == base.history  # the same play ...
        before = base.scores()
        got = variant.result()  # compiled engine code calling the override
        assert [float(v) for v in got["scores"].values()] == variant.scores()
        assert CHANGED[game](variant, before)
        changed = changed or got != base.result()
        # a worker process gets the variant's state back as the variant's
        back = pickle.loads(pickle.dumps(variant))
        assert type(back) is cls and back.result() == got
    assert changed, f"{cls.info.name}: no game of four came out differently"
