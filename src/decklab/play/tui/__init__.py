"""``decklab play`` in a terminal, built with Textual: a card table for any game.

The table is drawn from each game's layout (``decklab.games.<game>.layout``,
built from the seat's view only); nothing in this package names a game.
"""

from decklab.play.tui.app import GameScreen, PlayApp
from decklab.play.tui.session import DEFAULT_OPPONENT, HINT_SPEC, HUMAN, Session

__all__ = ["DEFAULT_OPPONENT", "HINT_SPEC", "HUMAN", "GameScreen", "PlayApp", "Session"]
