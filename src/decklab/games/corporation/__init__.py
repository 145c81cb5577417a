"""Corporation (4–10 players): simultaneous play, coalitions and betrayal. Rulings P1–P9."""
