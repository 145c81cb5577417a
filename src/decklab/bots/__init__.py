"""Agents that play any game through the generic interface only.

A fair agent sees a seat's view and legal actions, and samples deals with
``determinize``; it never reads the true state's hidden parts. Agents are built
from spec strings (``random``, ``greedy``, ``ismcts:iters=2000,c=0.7``,
``pimc:iters=2000,dets=20``, ``cheat:iters=2000``) by :func:`make_agent`;
``cheat`` sees everything and is for analysis only.
"""

from decklab.bots.base import Agent, Hint
from decklab.bots.random_agent import RandomAgent
from decklab.bots.registry import agent_entries, agent_names, is_fair, make_agent, register_agent
from decklab.bots.spec import AgentSpecError, parse_spec, with_seed

__all__ = [
    "Agent",
    "AgentSpecError",
    "Hint",
    "RandomAgent",
    "agent_entries",
    "agent_names",
    "is_fair",
    "make_agent",
    "parse_spec",
    "register_agent",
    "with_seed",
]
