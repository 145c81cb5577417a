"""Corporation's settings for the ``fast`` agent (``bots/fast.py``).

At four players a table of ``greedy`` seats locks into one Corporation of all
four from the first round (everyone plays 4, then the focal value round after
round), and every game is a four-way shared win: 25% each. ``fast`` with one
own move and greedy after it cannot leave it: stepping aside alone hands the
other three their rewards. The way out takes two own moves: play alone in the
first round, then play the others' focal value the next, which spoils their
reward and makes everyone one Corporation again, with the points of the first
round ahead (what ``expert`` finds). So at four players ``fast`` plans its own
next move too (``plan=2``), over two rounds of rollout (``depth=8``), on one
sampled deal: the hands are public and greedy reads only public facts, so deals
differ only in what the seats still to choose are drawn to play (the cost of the
plan stays under a twentieth of the expert's).
"""

from __future__ import annotations


def settings(players: int) -> dict[str, object]:
    """``fast``'s parameters for a table of ``players``: a two-move plan at four."""
    if players == 4:
        return {"plan": 2, "depth": 8, "dets": 1}
    return {}
