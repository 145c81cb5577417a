"""Standard interfaces to decklab's games: PettingZoo, Gymnasium and OpenSpiel.

Install with ``pip install 'decklab[rl]'``. The adapters know games only through
the generic interface and each game's ``encoding.py`` hook (docs/interop.md); the
core of decklab never imports this package, so it does not need these libraries.
"""
