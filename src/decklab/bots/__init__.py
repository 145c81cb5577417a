"""Agents that play any game through the generic interface only.

An agent sees a seat's view and legal actions, never the true state; it is built
from a spec string (``random``, ``random:seed=3``) by :func:`make_agent`.
"""

from decklab.bots.base import Agent, AgentSpecError, make_agent, parse_spec
from decklab.bots.random_agent import RandomAgent

__all__ = ["Agent", "AgentSpecError", "RandomAgent", "make_agent", "parse_spec"]
