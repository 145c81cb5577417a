"""The browser client as files: small, self-contained, and free of game names."""

from __future__ import annotations

import re
from pathlib import Path

import decklab
from decklab.engine.registry import game_names, get_game

WEB = Path(decklab.__file__).parent / "web"
LIMIT = 300 * 1024


def client_files() -> list[Path]:
    return sorted(p for p in WEB.iterdir() if p.suffix in {".js", ".css", ".svg", ".html"})


def test_the_whole_client_weighs_under_300_kb() -> None:
    # every file the service worker caches: code, styles, icons, the manifest
    total = sum(p.stat().st_size for p in WEB.iterdir() if p.is_file())
    assert len(client_files()) >= 8
    assert total < LIMIT, f"the client weighs {total} bytes"


def test_nothing_comes_from_another_site() -> None:
    for path in client_files():
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"(src|href)=[\"']?(https?:)?//", text), path.name
        assert "import(" not in text or "http" not in text, path.name
        for found in re.findall(r"from \"([^\"]+)\"", text):
            assert found.startswith("./"), (path.name, found)


def test_no_game_is_named_in_the_client_or_its_routes() -> None:
    names = set(game_names()) | {get_game(g).info.title for g in game_names()}
    names |= {n.replace("-", "_") for n in game_names()}
    routes = Path(decklab.__file__).parent / "server" / "api" / "routes" / "web.py"
    for path in [*client_files(), routes]:
        text = path.read_text(encoding="utf-8").lower()
        for name in names:
            assert name.lower() not in text, (path.name, name)


def test_no_inline_script_or_style_the_policy_would_refuse() -> None:
    html = (WEB / "index.html").read_text(encoding="utf-8")
    scripts = re.findall(r"<script[^>]*>", html)
    assert '<script type="module" src="/static/app.js">' in scripts
    for tag in scripts:  # each a module of the site's own, none inline
        assert re.fullmatch(
            r'<script type="module" src="/static/\w+\.js"( blocking="render")?>', tag
        )
    for path in client_files():
        assert "style=" not in path.read_text(encoding="utf-8"), path.name
        assert "innerHTML" not in path.read_text(encoding="utf-8"), path.name
