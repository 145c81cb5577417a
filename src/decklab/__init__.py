"""decklab: five homemade card games, with the rules enforced, for players and researchers."""

from decklab import _native

__version__ = "0.1.0"

BUILD = _native.activate()
"""``"compiled"`` (mypyc) or ``"pure"`` (Python): see :mod:`decklab._native`."""
