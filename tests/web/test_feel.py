"""How the table feels: motion between frames (none under reduced motion), themes
with their contrast checked, the four-colour deck, sound, and the installable client
(manifest, service worker, "reconnecting" when the server cannot be reached)."""

from __future__ import annotations

import json
import random
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .live import LiveServer, seat_script
from .test_accessibility import violations
from .ui import ready, wait_turn

MOVE_AND_WATCH = """async (action) => {
  const el = document.querySelector('.felt-wrap');
  const before = el.dataset.version;
  const seen = new Promise((resolve) => {
    const watch = new MutationObserver(() => {
      if (el.dataset.version === before) return;
      watch.disconnect();
      // read at once, in the same task as the redraw: what it started
      const all = document.getAnimations();
      resolve({ all: all.length, motion: all.filter((a) => (a.id || '').startsWith('motion-')).length,
                longest: Math.max(0, ...all.filter((a) => (a.id || '').startsWith('motion-'))
                  .map((a) => a.effect.getComputedTiming().endTime)) });
    });
    watch.observe(el, { attributes: true });
  });
  document.querySelector(`.all-moves button[data-action="${action}"]`).click();
  return await seen;
}"""


def solo_table(page: Any, live: LiveServer, deal: int = 5) -> str:
    table_id = live.table("cabin", 1, ["open"], deal=deal)
    token = live.join(table_id, "p1", "ann")
    page.goto(live.base + "/")
    seat_script(page, table_id, token, "p1", "ann")
    page.goto(f"{live.base}/table/{table_id}")
    ready(page)
    page.wait_for_selector(".all-moves button[data-action]")
    return table_id


CACHED_PATHS = (
    "caches.keys().then(ks => caches.open(ks[0])).then(c => c.keys())"
    ".then(rs => rs.map(r => new URL(r.url).pathname))"
)
"""The paths the service worker's cache holds."""

WORKER_STATE = """async () => {
  const r = await navigator.serviceWorker.getRegistration();
  if (!r) return 'no registration';
  const state = (w) => (w ? w.state : '-');
  return `installing ${state(r.installing)}, waiting ${state(r.waiting)}, active ${state(r.active)}`;
}"""


def controlled(page: Any, timeout_ms: float = 20_000) -> None:
    """Wait until the service worker controls the page; if it never does, say where
    the registration stands (none, installing, active ...) rather than only "timeout"."""
    try:
        page.wait_for_function(
            "() => navigator.serviceWorker.controller !== null", timeout=timeout_ms
        )
    except Exception as error:  # Playwright's TimeoutError
        raise AssertionError(
            f"no service worker controls the page: {page.evaluate(WORKER_STATE)}"
        ) from error


def play_watching(page: Any, moves: int, rng: random.Random) -> list[dict[str, int]]:
    seen = []
    for _ in range(moves):
        page.wait_for_function(
            "() => !window.decklabTable.scheduled && !window.decklabTable.sending"
            " && document.querySelector('.all-moves button[data-action]')"
        )
        actions = page.locator(".all-moves button[data-action]").evaluate_all(
            "els => els.map(e => e.dataset.action)"
        )
        seen.append(page.evaluate(MOVE_AND_WATCH, rng.choice(sorted(actions))))
    return seen


# ---------------------------------------------------------------- motion
def test_every_move_starts_an_animation_of_at_most_300_ms(page: Any, live: LiveServer) -> None:
    solo_table(page, live)
    for seen in play_watching(page, 4, random.Random(1)):
        assert seen["motion"] >= 1, seen
        assert seen["longest"] <= 300, seen
    assert page.js_errors == []


def test_nothing_moves_under_reduced_motion(page: Any, live: LiveServer) -> None:
    page.emulate_media(reduced_motion="reduce")
    solo_table(page, live)
    for seen in play_watching(page, 4, random.Random(1)):
        assert seen["all"] == 0, seen
    assert page.js_errors == []


REVEAL = """async () => {
  const { snapshot, animate } = await import('/static/motion.js');
  await Promise.all(document.getAnimations().map((a) => a.finished));  // a run before this one
  const root = document.createElement('div');
  document.body.append(root);
  const card = (token, up) => `<span class="card-img" data-card="${token}" data-up="${up}"><svg class="card"></svg></span>`;
  const zone = (key, cards, count) => `<div class="zone" data-zone="${key}"><div class="cards">${cards}</div>`
    + (count === null ? '' : `<span class="count">${count} cards</span>`) + '</div>';
  // before: two face-down bids, a face-up card on the table, a pile of 3
  root.innerHTML = zone('bids', card('??', 0) + card('??', 0), null) + zone('table', card('7H', 1), null) + zone('pile', card('??', 0), 3);
  const snap = snapshot(root);
  // after: the bids revealed in place, the 7H taken onto the pile, now 4
  root.innerHTML = zone('bids', card('QS', 1) + card('2D', 1), null) + zone('table', '', null) + zone('pile', card('??', 0), 4);
  const stats = animate(root, snap);
  const ids = document.getAnimations().map((a) => a.id).sort();
  root.remove();
  return { stats, ids };
}"""


def test_a_reveal_flips_in_place_and_a_taken_card_goes_to_the_pile(
    page: Any, live: LiveServer
) -> None:
    page.goto(live.base + "/rulings")
    ready(page)
    got = page.evaluate(REVEAL)
    assert got["stats"]["flips"] == 2 and got["stats"]["reveals"] == 2, got
    assert got["stats"]["leaves"] == 1, got
    assert got["stats"]["enters"] == 0 and got["stats"]["duration"] <= 300, got
    assert got["ids"].count("motion-flip-in") == 2 and got["ids"].count("motion-flip-out") == 2
    assert "motion-leave" in got["ids"] and "motion-pile" in got["ids"]
    page.emulate_media(reduced_motion="reduce")
    got = page.evaluate(REVEAL)
    assert got["ids"] == [] and got["stats"]["flips"] == 0


# ---------------------------------------------------------------- themes
def background_luminance(page: Any) -> float:
    rgb: list[float] = page.evaluate(
        "() => getComputedStyle(document.body).backgroundColor.match(/[\\d.]+/g).slice(0, 3).map(Number)"
    )
    return sum(rgb) / (3 * 255)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_nothing_serious_in_either_theme(
    page: Any, live: LiveServer, scheme: str
) -> None:
    page.emulate_media(color_scheme=scheme)
    table_id = live.table("facade", 2, ["open", "greedy"])
    token = live.join(table_id, "p1", "ann")
    page.goto(live.base + "/")
    ready(page)
    assert (background_luminance(page) < 0.2) == (scheme == "dark")
    assert violations(page) == []
    seat_script(page, table_id, token, "p1", "ann")
    page.goto(f"{live.base}/table/{table_id}")
    ready(page)
    assert wait_turn(page, "p1")
    page.click(".settings summary")  # the settings panel open, checked too
    assert violations(page) == []
    assert (background_luminance(page) < 0.2) == (scheme == "dark")


def test_the_theme_and_the_deck_chosen_are_kept(page: Any, live: LiveServer) -> None:
    page.emulate_media(color_scheme="light")
    page.goto(live.base + "/")
    ready(page)
    assert page.evaluate("document.documentElement.dataset.theme") == "light"  # the system's
    page.click(".settings summary")
    page.select_option("#set-theme", "dark")
    assert page.evaluate("document.documentElement.dataset.theme") == "dark"
    assert background_luminance(page) < 0.2
    # a four-colour deck by default; red and black when turned off
    suit = "v => getComputedStyle(document.documentElement).getPropertyValue(v).trim()"
    assert page.evaluate(suit, "--d-color") != page.evaluate(suit, "--h-color")
    page.uncheck("#set-deck")
    assert page.evaluate(suit, "--d-color") == page.evaluate(suit, "--h-color")
    assert page.evaluate(suit, "--c-color") == page.evaluate(suit, "--s-color")
    page.reload()
    ready(page)
    assert page.evaluate("document.documentElement.dataset.theme") == "dark"
    assert background_luminance(page) < 0.2
    assert page.evaluate(suit, "--d-color") == page.evaluate(suit, "--h-color")
    page.click(".settings summary")
    assert page.input_value("#set-theme") == "dark"
    assert not page.is_checked("#set-deck")
    page.select_option("#set-theme", "light")
    page.emulate_media(color_scheme="dark")  # a chosen light theme wins over the system
    assert background_luminance(page) > 0.8


def test_with_no_choice_the_theme_follows_the_system(page: Any, live: LiveServer) -> None:
    """Nothing stored ("As the system"): a dark-preferring browser gets the dark theme from
    the first paint, and the page follows the system when it changes. theme.css has its
    dark list under html[data-theme=dark] only; settings.js sets the attribute."""
    page.emulate_media(color_scheme="dark")
    page.goto(live.base + "/")
    ready(page)
    assert page.evaluate("localStorage.getItem('decklab.theme')") is None
    assert page.evaluate("document.documentElement.dataset.theme") == "dark"
    assert background_luminance(page) < 0.2
    page.emulate_media(color_scheme="light")
    page.wait_for_function("() => document.documentElement.dataset.theme === 'light'")
    assert background_luminance(page) > 0.8
    page.emulate_media(color_scheme="dark")
    page.wait_for_function("() => document.documentElement.dataset.theme === 'dark'")
    assert background_luminance(page) < 0.2
    page.click(".settings summary")
    assert page.input_value("#set-theme") == "auto"


# ---------------------------------------------------------------- sound
SPY = """
(() => {
  const Real = window.AudioContext;
  window.__audio = { contexts: 0, notes: 0 };
  window.AudioContext = class extends Real {
    constructor(...args) { super(...args); window.__audio.contexts += 1; }
    createOscillator() { const o = super.createOscillator(); const start = o.start.bind(o);
      o.start = (...a) => { window.__audio.notes += 1; return start(...a); }; return o; }
    createBufferSource() { const o = super.createBufferSource(); const start = o.start.bind(o);
      o.start = (...a) => { window.__audio.notes += 1; return start(...a); }; return o; }
  };
})();
"""


CUES = """async () => {
  localStorage.setItem('decklab.sound', 'on');
  const { cue } = await import('/static/sound.js');
  const page = {};
  const frame = (version, legal, terminal) => ({ version, legal, terminal });
  return [
    cue(page, frame(1, [], false), null),            // the first frame drawn: silence
    cue(page, frame(1, [], false), null),            // no new version: silence
    cue(page, frame(2, [], false), { reveals: 0 }),  // someone played
    cue(page, frame(3, [], false), { reveals: 2 }),  // cards turned face up
    cue(page, frame(4, ['x'], false), { reveals: 1 }), // your turn now
    cue(page, frame(5, [], true), { reveals: 1 }),   // the end
  ];
}"""


def test_each_frame_gets_its_sound(page: Any, live: LiveServer) -> None:
    page.goto(live.base + "/rulings")
    ready(page)
    assert page.evaluate(CUES) == [None, None, "play", "reveal", "turn", "end"]


def test_sound_is_off_until_turned_on_and_then_chimes_on_your_turn(
    context: Any, live: LiveServer
) -> None:
    context.add_init_script(SPY)
    page = context.new_page()
    table_id = live.table("lonely-face", 2, ["open", "greedy"])
    token = live.join(table_id, "p1", "ann")
    page.goto(live.base + "/")
    seat_script(page, table_id, token, "p1", "ann")
    page.goto(f"{live.base}/table/{table_id}")
    ready(page)
    assert wait_turn(page, "p1")
    page.click(".settings summary")
    assert not page.is_checked("#set-sound")
    rng = random.Random(2)
    play_watching(page, 1, rng)
    assert wait_turn(page, "p1")
    assert page.evaluate("window.__audio") == {"contexts": 0, "notes": 0}
    page.check("#set-sound")
    page.reload()
    ready(page)
    page.click(".settings summary")
    assert page.is_checked("#set-sound")  # remembered on this device
    assert wait_turn(page, "p1")
    page.evaluate("window.decklabSounds = []")
    heard: list[str] = []
    for _ in range(12):  # a turn may hold several moves: play until the bot's answer
        play_watching(page, 1, rng)
        over = not wait_turn(page, "p1")
        page.wait_for_timeout(100)
        heard = page.evaluate("window.decklabSounds")
        if over or "turn" in heard:
            break
    assert "play" in heard or "turn" in heard, heard
    assert "turn" in heard or "end" in heard, heard
    audio = page.evaluate("window.__audio")
    assert audio["contexts"] == 1 and audio["notes"] >= 2, audio


# ---------------------------------------------------------------- installable
def fetch(url: str) -> tuple[str, bytes]:
    with urllib.request.urlopen(url, timeout=20) as answer:
        return answer.headers.get("content-type", ""), answer.read()


def test_the_manifest_is_served_with_its_icons(live: LiveServer) -> None:
    kind, body = fetch(live.base + "/")
    assert b'rel="manifest" href="/static/manifest.webmanifest"' in body
    kind, body = fetch(live.base + "/static/manifest.webmanifest")
    assert kind.startswith("application/manifest+json")
    manifest = json.loads(body)
    assert manifest["start_url"] == "/" and manifest["display"] == "standalone"
    sizes = {icon["sizes"] for icon in manifest["icons"]}
    assert {"192x192", "512x512"} <= sizes
    for icon in manifest["icons"]:
        kind, data = fetch(live.base + icon["src"])
        assert kind.startswith(icon["type"]) and data


def test_the_worker_lists_the_whole_client(live: LiveServer) -> None:
    from .conftest import web_folder

    kind, body = fetch(live.base + "/sw.js")
    assert kind.startswith("text/javascript")
    head = body.decode().split("\n", 1)[0]
    assert head.startswith("const CLIENT = ")
    client = json.loads(head.removeprefix("const CLIENT = ").rstrip(";"))
    names = {p.name for p in web_folder().iterdir() if p.is_file() and p.name != "sw.js"}
    assert set(client["files"]) == {"/", *(f"/static/{n}" for n in names)}
    for path in client["files"]:
        assert fetch(live.base + path)[1]


def test_the_client_opens_offline_and_says_it_is_reconnecting(
    context: Any, live: LiveServer
) -> None:
    page = context.new_page()
    page.goto(live.base + "/")
    ready(page)
    scope = page.evaluate(
        "Promise.race([navigator.serviceWorker.ready.then(r => r.scope),"
        " new Promise(ok => setTimeout(() => ok('no worker'), 15000))])"
    )
    assert scope == live.base + "/"
    controlled(page)
    cached = page.evaluate(CACHED_PATHS)
    assert "/" in cached and "/static/app.js" in cached and "/static/table.js" in cached
    banner = page.locator(".net")
    assert banner.is_hidden()
    context.set_offline(True)
    try:
        page.reload()
        page.wait_for_selector("body[data-ready=true]")
        assert page.locator("header.site .brand").is_visible()  # the shell, from the cache
        assert banner.is_visible() and "Reconnecting" in banner.inner_text()
        assert page.locator("h1").inner_text() == "Reconnecting…"
    finally:
        context.set_offline(False)
    page.wait_for_selector(".game")  # back: the lobby draws itself
    assert banner.is_hidden()


@pytest.fixture
def own_server(tmp_path: Path) -> Iterator[LiveServer]:
    server = LiveServer(tmp_path)
    server.__enter__()
    try:
        yield server
    finally:
        if server.thread.is_alive():
            server.__exit__(None, None, None)


def test_a_stopped_server_shows_reconnecting(context: Any, own_server: LiveServer) -> None:
    page = context.new_page()
    solo_table(page, own_server)
    controlled(page, 60_000)
    own_server.__exit__(None, None, None)
    page.wait_for_selector("body[data-conn=reconnecting]", timeout=60_000)
    assert "Reconnecting" in page.locator(".conn").inner_text()
    page.wait_for_selector(".net:visible", timeout=60_000)
    page.reload()  # the page itself still opens, and says so
    page.wait_for_selector("body[data-ready=true]", timeout=60_000)
    assert page.locator(".net").is_visible()
    assert page.locator("h1").inner_text() == "Reconnecting…"


class FailOnce:
    """ASGI middleware: the first request that ``matches`` gets a 503, then every
    request passes; what it refused is written to ``refused``."""

    def __init__(self, app: Any, matches: Any, refused: list[str]) -> None:
        self.app = app
        self.matches = matches
        self.refused = refused

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http" and not self.refused and self.matches(scope):
            self.refused.append(scope["path"])
            await send({"type": "http.response.start", "status": 503, "headers": []})
            await send({"type": "http.response.body", "body": b"down for a moment"})
            return
        await self.app(scope, receive, send)


def _header(scope: Any, name: bytes) -> str:
    return dict(scope["headers"]).get(name, b"").decode()


FAILURES = {
    # register() rejects: the worker's script did not come
    "script": lambda scope: scope["path"] == "/sw.js",
    # the install fails: one of the files it caches did not come (the page shell, as
    # the worker fetches it: the page's own navigation is a "document")
    "install": lambda scope: scope["path"] == "/" and _header(scope, b"sec-fetch-dest") == "empty",
}


@pytest.mark.parametrize("failure", sorted(FAILURES))
def test_a_worker_that_failed_to_register_or_install_is_registered_again(
    context: Any, tmp_path: Path, failure: str
) -> None:
    refused: list[str] = []
    server = LiveServer(tmp_path)
    server.app.add_middleware(FailOnce, matches=FAILURES[failure], refused=refused)
    with server:
        page = context.new_page()
        page.goto(server.base + "/")
        ready(page)
        controlled(page, 40_000)
        assert refused == ["/sw.js" if failure == "script" else "/"]
        cached = page.evaluate(CACHED_PATHS)
        assert "/" in cached and "/static/app.js" in cached


def test_a_page_that_opened_uncontrolled_is_claimed(context: Any, live: LiveServer) -> None:
    """A hard reload (or a page loaded while the worker was activating) opens with no
    controller, though the worker is active: the page asks it to claim it."""
    page = context.new_page()
    page.goto(live.base + "/")
    ready(page)
    controlled(page)
    page.evaluate("window.beforeReload = true")
    context.new_cdp_session(page).send("Page.reload", {"ignoreCache": True})
    page.wait_for_function("() => !window.beforeReload && document.readyState === 'complete'")
    ready(page)
    controlled(page, 10_000)
