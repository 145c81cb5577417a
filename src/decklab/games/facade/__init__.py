"""Façade (2–4 players): bid face down for cards, build sets and sequences. Rulings F1–F11."""
