"""The browser client: its static files, the pages it answers, and the texts it shows.

The client is plain ES modules, CSS and SVG in the package (``decklab/web``),
served as they are: no build step, nothing from another site. Every page path
(the lobby, a table, a replay, a rules page) answers the same ``index.html``;
the client reads the path and draws the page, so a link to a table or to a
replay works when shared. The rules of a game and the rulings are served as
text for the client to render; nothing here names a game.
"""

from __future__ import annotations

import hashlib
import json
from importlib import resources
from pathlib import Path
from typing import Any

from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel
from starlette.exceptions import HTTPException

from decklab.server.api.errors import error_body, error_response, responses
from decklab.server.errors import ServiceError

router = APIRouter(tags=["web"], responses=responses())
PAGES = (
    "/",
    "/rules",
    "/rules/{name}",
    "/table/{table_id}",
    "/replay/{table_id}",
    "/rulings",
    "/account",
    "/leaderboard/{game}",
    "/player/{name}",
)


class RulesText(BaseModel):
    name: str
    title: str
    text: str


def web_folder() -> Path | None:
    """The client's files, when the package has them."""
    folder = Path(str(resources.files("decklab"))) / "web"
    return folder if (folder / "index.html").is_file() else None


def rulings_file() -> Path | None:
    """The rulings, if this installation has them: in the package, or in a source checkout.

    The rule texts cite rulings by id; the client links an id to the rulings page
    only when this finds the text, and shows the bare id otherwise.
    """
    package = Path(str(resources.files("decklab")))
    for candidate in (package / "rulings.md", package.parent.parent / "docs" / "rulings.md"):
        if candidate.is_file():
            return candidate
    return None


@router.get("/api/games/{name}/rules", response_model=RulesText)
def game_rules(name: str) -> RulesText:
    """A game's rules in decklab's own words (markdown, ruling ids included)."""
    from decklab.engine.registry import get_game

    try:
        cls = get_game(name[:64])
    except KeyError as exc:
        raise ServiceError("not_found", str(exc.args[0]), 404) from None
    package = cls.__module__.rpartition(".")[0]
    try:
        text = (resources.files(package) / "rules.md").read_text(encoding="utf-8")
    except FileNotFoundError:
        text = f"# {cls.info.title}\n\n{cls.info.summary}\n"
    return RulesText(name=cls.info.name, title=cls.info.title, text=text)


@router.get("/api/games/{name}/example")
def game_example(name: str) -> dict[str, Any]:
    """A small diagram for the rules page: a new game's table as a spectator sees it."""
    from decklab.engine.layout import table_function
    from decklab.engine.registry import get_game

    try:
        cls = get_game(name[:64])
    except KeyError as exc:
        raise ServiceError("not_found", str(exc.args[0]), 404) from None
    state = cls.new(cls.info.default_players, {}, seed=1)
    return {"name": cls.info.name, "layout": table_function(cls)(state.view(None)).to_json()}


@router.get("/api/rulings", response_model=RulesText)
def rulings() -> RulesText:
    """Every ruling by id (404 where this installation has no rulings text)."""
    found = rulings_file()
    if found is None:
        raise ServiceError("not_found", "this installation has no rulings text", 404)
    return RulesText(name="rulings", title="Rulings", text=found.read_text(encoding="utf-8"))


NOT_FOUND_PAGE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Page not found — decklab</title>
<link rel="icon" href="/static/icon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/static/style.css">
<link rel="stylesheet" href="/static/theme.css">
</head>
<body>
<header class="site"><a class="brand" href="/">decklab</a></header>
<main id="main">
<h1>Page not found</h1>
<p>There is no page at this address.</p>
<p><a href="/">Back to the lobby</a></p>
</main>
</body>
</html>
"""
"""What a browser sees at an unknown page address: the site's look and a way home."""


def wants_page(request: Request) -> bool:
    """A person's browser asking for a page, not a program calling the API: an unknown
    ``/api/…`` path, or any request that does not accept HTML, keeps the JSON error."""
    path = request.url.path
    api = path == "/api" or path.startswith("/api/")
    return not api and "text/html" in request.headers.get("accept", "")


WORKER = "sw.js"
"""The service worker's file in the client's folder, served at ``/sw.js``."""


def service_worker(folder: Path) -> str:
    """The service worker's script: ``sw.js`` with, above it, what it caches.

    It is served at the site's root so that its scope is the whole site. The list is
    every file of the client (and ``/``, the page shell every page address answers)
    and the version a digest of their contents: any change to the client changes the
    script, so browsers install the new worker and drop the old cache.
    """
    files = sorted(p for p in folder.iterdir() if p.is_file() and p.name != WORKER)
    digest = hashlib.sha256()
    for path in files:
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    client = {
        "version": digest.hexdigest()[:16],
        "shell": "/",
        "files": ["/", *(f"/static/{p.name}" for p in files)],
    }
    return f"const CLIENT = {json.dumps(client)};\n" + (folder / WORKER).read_text(encoding="utf-8")


def install(app: FastAPI) -> None:
    """Serve the client at the site's root, if the package holds it."""
    app.include_router(router)
    folder = web_folder()
    if folder is None:
        return
    index = folder / "index.html"

    async def page() -> FileResponse:
        return FileResponse(index, media_type="text/html", headers={"cache-control": "no-cache"})

    for path in PAGES:
        app.add_api_route(path, page, methods=["GET"], include_in_schema=False)

    async def worker() -> Response:
        return Response(
            service_worker(folder),
            media_type="text/javascript",
            headers={"cache-control": "no-cache", "service-worker-allowed": "/"},
        )

    app.add_api_route("/sw.js", worker, methods=["GET"], include_in_schema=False)
    app.mount("/static", StaticFiles(directory=folder), name="web")

    async def not_found(request: Request, exc: Exception) -> HTMLResponse | JSONResponse:
        """A 404 handler by status (Starlette prefers it to the one for every HTTP error)."""
        headers = getattr(exc, "headers", None)
        if wants_page(request):
            error_body(404, "no such page")  # counted like any other error
            return HTMLResponse(NOT_FOUND_PAGE, status_code=404, headers=headers)
        detail = exc.detail if isinstance(exc, HTTPException) else None
        return error_response(
            404, detail if isinstance(detail, str) else "not found", headers=headers
        )

    app.add_exception_handler(404, not_found)
