"""decklab: five homemade card games, with the rules enforced, for players and researchers."""

__version__ = "0.1.0"
