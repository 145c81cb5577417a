"""A bot of your own at decklab's online tables, through the server's bot API.

    python examples/bots/remote_bot.py --server http://127.0.0.1:8000 --token dlb_...
    python examples/bots/remote_bot.py --server ... --token ... \\
        --policy examples/policies/first_legal.py:policy --games 1

It logs in with a bot account's API token (make one on the server as a logged-in
person: ``POST /api/account/tokens``, then ``POST /api/bot/account/upgrade``), listens
to the account's event stream, and plays every table that seats it with a policy of
the same shape as the lab's ``python:`` specs: ``policy(view, legal, seat, rng) -> str``
(``view`` is exactly what its seat may see; ``legal`` the canonical texts of its legal
actions). The default policy plays a random legal action.

Standard library only (urllib and threads): it runs on a machine without decklab.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import json
import os
import random
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from typing import Any

Policy = Callable[[dict[str, Any], list[str], str, random.Random], str]
RETRIES = 8
"""A table's stream that fails is reopened this many times (waiting longer each time)."""


def random_legal(view: dict[str, Any], legal: list[str], seat: str, rng: random.Random) -> str:
    """The default policy: any legal action."""
    return rng.choice(legal)


def load_policy(target: str) -> Policy:
    """``module:function`` (a dotted module on ``sys.path`` or a path to a ``.py`` file)."""
    module_name, _, function = target.rpartition(":")
    if not module_name or not function:
        raise SystemExit(f"--policy is MODULE:FUNCTION, not {target!r}")
    if module_name.endswith(".py"):
        spec = importlib.util.spec_from_file_location("remote_bot_policy", module_name)
        if spec is None or spec.loader is None:
            raise SystemExit(f"cannot load {module_name}")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    else:
        sys.path.insert(0, os.getcwd())
        module = importlib.import_module(module_name)
    policy: Policy = getattr(module, function)
    return policy


class Client:
    """The bot API over HTTP: JSON requests and NDJSON streams, with the API token."""

    def __init__(self, server: str, token: str) -> None:
        self.server = server.rstrip("/")
        self.headers = {"Authorization": f"Bearer {token}", "Accept": "application/json"}

    def call(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        data = None if body is None else json.dumps(body).encode()
        headers = dict(self.headers)
        if data is not None:
            headers["Content-Type"] = "application/json"
        request = urllib.request.Request(self.server + path, data, headers, method=method)
        with urllib.request.urlopen(request, timeout=30) as answer:
            return json.loads(answer.read() or b"null")

    def stream(self, path: str) -> Iterator[dict[str, Any]]:
        """The stream's objects, one a line; empty lines (keep-alives) are skipped."""
        request = urllib.request.Request(self.server + path, headers=self.headers)
        with urllib.request.urlopen(request, timeout=120) as answer:
            for line in answer:
                if line.strip():
                    yield json.loads(line)


class TablePlayer:
    """Plays the bot's seat at one table until its game is over."""

    def __init__(self, client: Client, table: str, policy: Policy, rng: random.Random) -> None:
        self.client = client
        self.table = table
        self.policy = policy
        self.rng = rng
        self.acted_at: int | None = None
        self.over = False

    def run(self) -> None:
        failures = 0
        while not self.over:  # a stream that ended early (it fell behind) is reopened
            try:
                for frame in self.client.stream(f"/api/bot/table/{self.table}/stream"):
                    self.take(frame)
                if not self.over:
                    self.over = self.finished()
                failures = 0
            except (OSError, urllib.error.URLError) as exc:  # the server restarted, say
                failures += 1
                if failures > RETRIES:
                    print(f"{self.table}: giving up: {exc}", file=sys.stderr)
                    return
                time.sleep(min(2**failures, 30))

    def finished(self) -> bool:
        summary = self.client.call("GET", f"/api/tables/{self.table}")
        return bool(summary["status"] in ("finished", "expired"))

    def take(self, frame: dict[str, Any]) -> None:
        state = frame.get("state")
        if not isinstance(state, dict):
            return
        if state.get("status") == "finished" or state.get("terminal"):
            self.over = True
            return
        version, legal = state["version"], state.get("legal") or []
        if not legal or version == self.acted_at:
            return
        action = self.policy(state["view"], list(legal), state["seat"], self.rng)
        self.acted_at = version
        try:
            self.client.call(
                "POST", f"/api/bot/table/{self.table}/move", {"action": action, "version": version}
            )
        except urllib.error.HTTPError as exc:  # stale (someone moved first) or refused
            print(f"{self.table}: {action!r} refused: {exc.read().decode()[:200]}", file=sys.stderr)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--server", default="http://127.0.0.1:8000")
    parser.add_argument("--token", default=os.environ.get("DECKLAB_TOKEN"))
    parser.add_argument("--policy", default=None, help="MODULE:FUNCTION (default: random)")
    parser.add_argument("--games", type=int, default=0, help="stop after N games (0: never)")
    parser.add_argument("--seed", type=int, default=None)
    args = parser.parse_args(argv)
    if not args.token:
        parser.error("an API token is needed: --token or DECKLAB_TOKEN")
    policy = load_policy(args.policy) if args.policy else random_legal
    client = Client(args.server, args.token)
    me = client.call("GET", "/api/bot/account")
    if not me["bot"]:
        print(f"{me['username']} is no bot account: POST /api/bot/account/upgrade", file=sys.stderr)
        return 2
    print(f"playing as {me['username']}", flush=True)
    seeds = random.Random(args.seed)
    playing: dict[str, threading.Thread] = {}
    finished = 0
    for event in client.stream("/api/bot/stream/event"):
        table = str(event.get("table"))
        if event["type"] == "seated" and table not in playing:
            player = TablePlayer(client, table, policy, random.Random(seeds.random()))
            playing[table] = threading.Thread(target=player.run, daemon=True)
            playing[table].start()
            print(f"seated at {table} as {event['seat']} ({event['game']})", flush=True)
        elif event["type"] == "gameFinish":
            print(f"{table} finished: {json.dumps(event.get('outcome'))}", flush=True)
            thread = playing.get(table)
            if thread is not None:
                thread.join(timeout=10)
            finished += 1
            if args.games and finished >= args.games:
                return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
