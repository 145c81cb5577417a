"""Notorious: five games of five rounds, feeding points to others, and the top score scores nothing."""
