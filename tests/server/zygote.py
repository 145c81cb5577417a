"""A warmed-up parent that forks fresh server processes on request (crash test speed).

Importing FastAPI, SQLAlchemy and the games takes seconds on a busy machine; twenty
restarts would spend most of the test waiting for imports. This process imports
everything once, then for each ``start`` line forks a child that builds the
application from nothing (rebuilding every table from the database) and serves it
with uvicorn exactly as ``decklab serve`` does; the test SIGKILLs that child.
"""

from __future__ import annotations

import contextlib
import os
import sys

import decklab.server.api.app  # noqa: F401 - imported to be inherited warm
from decklab.engine.registry import game_names, get_game
from decklab.server.commands import run_one
from decklab.server.config import Settings


def main() -> None:
    url, port, home = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    os.environ["DECKLAB_HOME"] = home
    for name in game_names():
        get_game(name)
    for line in sys.stdin:
        command = line.split()
        if command[:1] == ["start"]:
            pid = os.fork()
            if pid == 0:
                run_one(Settings(database_url=url, grace_s=600), "127.0.0.1", port, "warning")
                os._exit(0)
            print(pid, flush=True)
        elif command[:1] == ["reap"]:
            with contextlib.suppress(ChildProcessError):
                os.waitpid(int(command[1]), 0)
            print("reaped", flush=True)


if __name__ == "__main__":
    main()
