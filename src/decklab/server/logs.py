"""Structured logs: one JSON object per line.

What is logged is chosen so that a log can be shared: table ids, seat names, game
names, error codes, counts and timings. Never a token (tokens travel only in
headers and in the first WebSocket frame, never in a URL, and are never passed to
a logger), never a view, an action text or a card.
"""

from __future__ import annotations

import json
import logging
import time
from typing import Any

SAFE_FIELDS = ("table", "seat", "game", "players", "code", "why", "version")
ACCESS_FIELDS = ("client", "method", "path", "status", "ms")
"""The access log's (:mod:`decklab.server.access`): never a header, never a query string."""


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {
            "t": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created)),
            "level": record.levelname.lower(),
            "logger": record.name,
            "msg": record.getMessage(),
        }
        for key in SAFE_FIELDS + ACCESS_FIELDS:
            if hasattr(record, key):
                out[key] = getattr(record, key)
        if record.exc_info and record.exc_info[0] is not None:
            out["error"] = record.exc_info[0].__name__
        return json.dumps(out, ensure_ascii=False)


def log_config(level: str = "info") -> dict[str, Any]:
    """A logging config for uvicorn and decklab: JSON lines on standard error."""
    handler = {"class": "logging.StreamHandler", "formatter": "json", "stream": "ext://sys.stderr"}
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"json": {"()": JsonFormatter}},
        "handlers": {"default": handler},
        "loggers": {
            "decklab": {"handlers": ["default"], "level": level.upper(), "propagate": False},
            "uvicorn": {"handlers": ["default"], "level": level.upper(), "propagate": False},
            "uvicorn.access": {"handlers": ["default"], "level": "WARNING", "propagate": False},
        },
    }
