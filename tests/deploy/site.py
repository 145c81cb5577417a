"""The deployed shape on loopback: Debian's nginx, with ``deploy/nginx/decklab.conf`` as
shipped (only its addresses, ports and paths replaced), a self-signed certificate, and
two ``decklab serve`` processes on one PostgreSQL database."""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import time
from pathlib import Path

from server.serverproc import ServerProcess, free_port

NGINX = "/usr/sbin/nginx"
SITE_FILE = Path(__file__).resolve().parents[2] / "deploy" / "nginx" / "decklab.conf"


def missing_binaries() -> str | None:
    """Why the topology cannot be built here (None: it can)."""
    if not os.access(NGINX, os.X_OK):
        return f"{NGINX} is missing: apt-get install nginx (.ci/run does)"
    if shutil.which("openssl") is None:
        return "openssl is missing: apt-get install openssl (.ci/run does)"
    return None


def self_signed(folder: Path) -> tuple[Path, Path]:
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(
        [
            "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
            "-keyout", str(key), "-out", str(cert), "-subj", "/CN=127.0.0.1",
            "-addext", "subjectAltName=IP:127.0.0.1",
        ],
        check=True,
        capture_output=True,
        timeout=60,
    )  # fmt: skip
    return cert, key


def site_config(https_port: int, http_port: int, upstreams: list[int], folder: Path) -> str:
    """The shipped site file with this machine's ports and paths: each replaced text must
    be there, so a change to the shipped file that the test no longer covers fails here."""
    cert, key = self_signed(folder)
    text = SITE_FILE.read_text()
    replacements = [
        ("    server 127.0.0.1:8001;\n    server 127.0.0.1:8002;\n",
         "".join(f"    server 127.0.0.1:{port};\n" for port in upstreams)),
        ("listen 443 ssl http2;", f"listen 127.0.0.1:{https_port} ssl http2;"),
        ("listen [::]:443 ssl http2;\n", ""),
        ("listen 80;", f"listen 127.0.0.1:{http_port};"),
        ("listen [::]:80;\n", ""),
        ("/etc/letsencrypt/live/cards.example.org/fullchain.pem", str(cert)),
        ("/etc/letsencrypt/live/cards.example.org/privkey.pem", str(key)),
        ("/var/log/nginx/", f"{folder}/"),
        ("root /var/www/html;", f"root {folder};"),
    ]  # fmt: skip
    for old, new in replacements:
        assert old in text, f"deploy/nginx/decklab.conf no longer has {old!r}"
        text = text.replace(old, new)
    return text


def main_config(site: str, folder: Path) -> str:
    """What Debian's /etc/nginx/nginx.conf gives a site file, in a folder of our own."""
    temp = "\n".join(
        f"    {kind}_temp_path {folder}/{kind};"
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    user = "user root root;" if os.geteuid() == 0 else ""
    return f"""{user}
daemon off;
worker_processes 1;
pid {folder}/nginx.pid;
error_log stderr warn;
events {{ worker_connections 512; }}
http {{
{temp}
    access_log off;
{site}
}}
"""


def wait_port(port: int, proc: subprocess.Popen[bytes], log: Path, wait: float = 20.0) -> None:
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"nginx exited: {log.read_text(errors='replace')[-2000:]}")
        with contextlib.suppress(OSError):
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return
        time.sleep(0.05)
    raise RuntimeError("nginx did not listen in time")


class Site:
    """``with Site(folder, database, *options) as site:`` nginx on ``site.https``, in
    front of two decklab processes started with ``options`` (``{https}`` in one: the
    site's own address)."""

    def __init__(self, folder: Path, database: str, *options: str) -> None:
        self.folder = folder
        folder.mkdir(parents=True, exist_ok=True)
        self.https_port, self.http_port = free_port(), free_port()
        # an option may name the site's address: "{https}"
        options = tuple(option.format(https=self.https) for option in options)
        self.servers = [
            ServerProcess(database, folder / f"decklab{n}", None, *options) for n in (1, 2)
        ]
        self.nginx: subprocess.Popen[bytes] | None = None

    @property
    def https(self) -> str:
        return f"https://127.0.0.1:{self.https_port}"

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.http_port}"

    @property
    def access_log(self) -> Path:
        return self.folder / "decklab.access.log"

    def __enter__(self) -> Site:
        try:
            for server in self.servers:
                server.start(wait=60)
            site = site_config(
                self.https_port, self.http_port, [s.port for s in self.servers], self.folder
            )
            conf = self.folder / "nginx.conf"
            conf.write_text(main_config(site, self.folder))
            log = self.folder / "nginx.stderr"
            with open(log, "wb") as out:
                self.nginx = subprocess.Popen(
                    [NGINX, "-p", str(self.folder), "-c", str(conf), "-e", "stderr"],
                    stdout=out,
                    stderr=out,
                )
            wait_port(self.https_port, self.nginx, log)
        except BaseException:
            self.__exit__()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        if self.nginx is not None and self.nginx.poll() is None:
            self.nginx.terminate()
            try:
                self.nginx.wait(10)
            except subprocess.TimeoutExpired:
                self.nginx.kill()
        for server in self.servers:
            server.stop()
