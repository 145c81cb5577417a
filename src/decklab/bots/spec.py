"""The spec strings that name agents: ``ismcts:iters=2000,c=0.7``, and ``--players`` lists.

Only the grammar, with no agent in it: the agents' interface
(:mod:`decklab.bots.base`) raises :class:`AgentSpecError` for a bad parameter,
and the registry (:mod:`decklab.bots.registry`), which imports that interface,
parses specs to build agents. Both import this, and this imports neither.
"""

from __future__ import annotations

from collections.abc import Mapping

from decklab.engine.errors import DecklabError, excerpt


class AgentSpecError(DecklabError):
    """An agent spec that names no agent or gives it a bad parameter."""


CODE_AGENT = "python"
"""The agent name whose first parameter is a place in Python code, not ``key=value``:
``python:my_module:policy`` or ``python:path/to/file.py:policy,seed=3``. The place
is kept as the ``target`` parameter, so the spec stays one string that a worker
process imports for itself."""

TARGET = "target"


def parse_spec(spec: str) -> tuple[str, dict[str, str]]:
    """``"ismcts:iters=2000,c=0.7"`` → ``("ismcts", {"iters": "2000", "c": "0.7"})``.

    Names and parameter keys are case-insensitive (``ISMCTS:Iters=5``)."""
    name, _, rest = spec.strip().partition(":")
    params: dict[str, str] = {}
    if name.strip().lower() == CODE_AGENT:
        first, comma, after = rest.partition(",")
        if "=" not in first and first.strip():
            params[TARGET] = first.strip()
            rest = after if comma else ""
    for part in filter(None, (p.strip() for p in rest.split(","))):
        key, sep, value = part.partition("=")
        if not sep or not key.strip():
            raise AgentSpecError(
                f"agent parameters are key=value, not {excerpt(part, 30)!r} in {excerpt(spec)!r}"
            )
        if key.strip().lower() in params:
            raise AgentSpecError(f"parameter {key.strip()!r} is given twice in {excerpt(spec)!r}")
        params[key.strip().lower()] = value.strip()
    if not name.strip():
        if not spec.strip():
            raise AgentSpecError("an empty player in the list (a stray comma?)")
        raise AgentSpecError(f"an agent spec starts with the agent's name, not {excerpt(spec)!r}")
    return name.strip().lower(), params


def format_spec(name: str, params: Mapping[str, str]) -> str:
    """The inverse of :func:`parse_spec`."""
    if not params:
        return name
    parts = [f"{k}={v}" for k, v in params.items() if not (name == CODE_AGENT and k == TARGET)]
    if name == CODE_AGENT and TARGET in params:
        parts.insert(0, params[TARGET])
    return name + ":" + ",".join(parts)


def with_seed(spec: str, seed: int) -> str:
    """``spec`` with ``seed=`` set to ``seed`` (replacing any seed it had)."""
    name, params = parse_spec(spec)
    params["seed"] = str(seed)
    return format_spec(name, params)


def split_players(text: str) -> list[str]:
    """``--players`` text into specs, one per seat, names lower-cased.

    ``ismcts:iters=500,c=0.7,random`` is two specs: a part with ``=`` and no
    ``:`` continues the spec before it. An empty entry (``human,``) is an error
    naming the stray comma rather than a confusing "no agent named ''".
    """
    specs: list[str] = []
    for index, part in enumerate(p.strip() for p in text.split(",")):
        if not part:
            raise AgentSpecError(
                f"--players {excerpt(text)!r} has an empty entry at position {index + 1} "
                "(a stray comma?)"
            )
        if specs and "=" in part and ":" not in part:
            specs[-1] += "," + part
        else:
            name, sep, rest = part.partition(":")
            specs.append(name.strip().lower() + sep + rest)
    return specs
