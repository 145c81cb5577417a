"""Façade's settings for the ``fast`` agent (``bots/fast.py``).

Three sampled deals per decision instead of four: the rollouts (greedy bids and
plays) are most of ``fast``'s cost here, and with four the agent spent 1/18 of
the expert's CPU per decision, short of the 1/20 asked of it. With three it
still won 69.0% (62.3–75.0%) of 200 two-player games against greedy and 49.6%
(42.7–56.4%) of 201 at three players (seed 301, pure build), as with four.
"""

from __future__ import annotations


def settings(players: int) -> dict[str, object]:
    """``fast``'s parameters at any table size: three sampled deals."""
    return {"dets": 3}
