"""Goofspiel as a decklab plugin: the state in ``state.py``, hooks beside it."""
