"""Ratings: Weng–Lin (OpenSkill) ratings per game for accounts and bot levels alike,
updated once by each finished rated table (docs/server.md, "Ratings")."""
