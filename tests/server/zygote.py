"""A warmed-up parent that forks fresh server processes on request (crash test speed).

Importing FastAPI, SQLAlchemy and the games takes seconds on a busy machine; twenty
restarts would spend most of the test waiting for imports. This process imports
everything and builds the application once, then for each ``start`` line forks a
child that starts it from nothing (its lifespan connects to the database and
rebuilds every table) and serves it with uvicorn exactly as ``decklab serve`` does;
the test SIGKILLs that child.
"""

from __future__ import annotations

import contextlib
import os
import sys

import uvloop  # noqa: F401 - imported to be inherited warm
from uvicorn.config import Config

from decklab.engine.registry import game_names, get_game
from decklab.server.api.app import create_app
from decklab.server.commands import run_one, uvicorn_options
from decklab.server.config import Settings


def main() -> None:
    url, port, home = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    os.environ["DECKLAB_HOME"] = home
    for name in game_names():
        get_game(name)
    # The application is built here once (its lifespan — the database, the rebuild of
    # every table — runs in each child); uvicorn imports its protocols, loop and
    # supervisors when it loads its config: loaded here too (nothing is bound or
    # started), so no child does either again.
    settings = Settings(database_url=url, grace_s=600)
    app = create_app(settings)
    Config(app, **uvicorn_options("127.0.0.1", port, "warning")).load()
    for line in sys.stdin:
        command = line.split()
        if command[:1] == ["start"]:
            pid = os.fork()
            if pid == 0:
                run_one(settings, "127.0.0.1", port, "warning", app)
                os._exit(0)
            print(pid, flush=True)
        elif command[:1] == ["reap"]:
            with contextlib.suppress(ChildProcessError):
                os.waitpid(int(command[1]), 0)
            print("reaped", flush=True)


if __name__ == "__main__":
    main()
