"""Lonely Face: flip and swap cards in a 4×4 grid to collect pairs of face cards and hearts."""
