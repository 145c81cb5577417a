"""The pure-Python build as a peer measured in the same run as the compiled one.

A benchmark started on the compiled build starts a copy of itself with
``DECKLAB_PURE=1`` (every ``decklab`` module from its source, see
``decklab._native``) and hands it the same slices of work that it runs itself,
one after the other: only one of the two works at a time, so a change of load
on a shared machine hits both alike and the ratio stays meaningful.

The peer reads one JSON request a line on stdin and answers one JSON line.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from typing import Any

import decklab

SERVE_FLAG = "--serve-pure-peer"


class Peer:
    """A copy of the running bench script on the pure build, answering requests."""

    def __init__(self, script: str) -> None:
        env = dict(os.environ, DECKLAB_PURE="1")
        self.proc = subprocess.Popen(
            [sys.executable, script, SERVE_FLAG],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=env,
        )
        hello = self.ask({"hello": True})
        if hello.get("build") != "pure":
            raise RuntimeError(f"the peer runs the {hello.get('build')} build, not the pure one")

    def ask(self, request: dict[str, Any]) -> dict[str, Any]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps(request) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError("the pure-Python peer stopped (see its error above)")
        answer: dict[str, Any] = json.loads(line)
        return answer

    def close(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        self.proc.wait(timeout=30)


def serve(handle: Callable[[dict[str, Any]], dict[str, Any]]) -> int:
    """The peer's loop: answer each request with ``handle`` until stdin closes."""
    for line in sys.stdin:
        request = json.loads(line)
        answer = {"build": decklab.BUILD} if request.get("hello") else handle(request)
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()
    return 0


def start_peer(script: str, wanted: bool) -> Peer | None:
    """A pure peer when it is wanted and this process runs the compiled build, else None."""
    if not wanted:
        return None
    if decklab.BUILD != "compiled":
        print(
            f"this run is the {decklab.BUILD} build ({decklab._native.REASON}): "
            "no pure peer to compare with (`make build` compiles)",
            file=sys.stderr,
        )
        return None
    return Peer(script)
