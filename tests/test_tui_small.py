"""Item 7 of issue 9: at 80×24 the whole table, the hand and six legal actions show.

Each game is dealt and played a few moves by greedy bots before the app opens
(fast: no key presses), at its usual player count and at its largest; then the
screen the person sees is read back as text, the way Textual's screenshots are
made, and every zone of the layout, every card of it and the first six actions
must be on it, with the table not scrolled. The one-line drawing itself
(:mod:`decklab.play.tui.compact`) and the choice between drawings
(:mod:`decklab.play.tui.fit`) are tested without a terminal.
"""

from __future__ import annotations

import asyncio
import io
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from rich.color import ColorSystem
from rich.console import Console
from rich.style import Style
from textual.pilot import Pilot
from textual.widgets import OptionList

from decklab.bots import make_agent
from decklab.cli import rules_text
from decklab.engine.layout import Row, Table, Zone, back, blank, card
from decklab.engine.registry import get_game
from decklab.play.tui import PlayApp, Session
from decklab.play.tui import fit as fitting
from decklab.play.tui.compact import chip, chip_face, compact_table
from decklab.play.tui.widgets import TableCanvas, TableView

SMALL = (80, 24)

# game, players, moves the bots play before the person looks (a game under way)
SCENES = [
    ("cabin", 1, 20),
    ("facade", 2, 16),
    ("facade", 4, 24),
    ("lonely-face", 2, 6),
    ("lonely-face", 4, 8),
    ("corporation", 5, 10),
    ("corporation", 10, 20),
    ("notorious", 4, 9),
    ("notorious", 10, 25),
]


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("DECKLAB_HOME", str(tmp_path / "home"))
    return tmp_path / "home"


def scene(game: str, players: int, moves: int, tmp_path: Path) -> Session:
    """A game under way: the person at p1, greedy bots, every seat played by bots so far."""
    session = Session.new(
        get_game(game),
        ["human"] + ["greedy"] * (players - 1),
        seed=11,
        save_path=tmp_path / f"{game}.json",
        hint_spec="greedy",
    )
    bots = [make_agent(f"greedy:seed={i}") for i in range(players)]
    for _ in range(moves):
        state = session.state
        if state.is_terminal():
            break
        seat = state.to_act()[0]
        session.apply(seat, bots[seat].choose(state, seat))
    return session


def screen_lines(app: PlayApp) -> list[str]:
    """What the terminal shows, line by line, rendered as Textual renders a screenshot."""
    width, height = app.size
    console = Console(
        width=width,
        height=height,
        file=io.StringIO(),
        force_terminal=True,
        color_system="truecolor",
        record=True,
        legacy_windows=False,
    )
    console.print(app.screen._compositor.render_update(full=True))
    return console.export_text().splitlines()


def chips_in(text: str) -> tuple[Counter[str], int]:
    """The faces of the chips in ``text`` and how many backs (a run ``×n`` counts n)."""
    faces: Counter[str] = Counter()
    backs = 0
    for m in re.finditer(r"[\[(] *([^\[\]()░ ]*) *[\])](?:×(\d+))?|\[(░+)\](?:×(\d+))?", text):
        if m.group(3):
            backs += int(m.group(4) or 1)
        elif m.group(1):
            faces[m.group(1)] += 1
    return faces, backs


async def repainted(pilot: Pilot[Any]) -> None:
    """Wait until the screen shows the table as last drawn (a resize repaints later)."""
    app = pilot.app
    assert isinstance(app, PlayApp)
    for _ in range(200):
        await pilot.pause(0.01)
        view = app.game_screen.query_one(TableView)
        box = view.content_region
        first = view.drawing.text().plain.splitlines()[0].rstrip()
        lines = screen_lines(app)
        if box.y < len(lines) and lines[box.y][box.x : box.x + box.width].rstrip() == first:
            return


def check_all_in_sight(app: PlayApp) -> None:
    screen = app.game_screen
    view = screen.query_one(TableView)
    table = view.table
    assert table is not None
    drawing = view.drawing
    box = view.content_region
    # The screen's plan matched the real layout: the table was drawn once, for this width.
    assert view.fit is not None and view.drawing is view.fit.drawing
    # The table is not scrolled and nothing of it lies outside the view.
    assert view.scroll_y == 0 and view.max_scroll_y == 0, (drawing.height, box)
    assert drawing.height <= box.height and drawing.width <= box.width, (drawing.width, box)
    lines = screen_lines(app)
    shown = [lines[box.y + i][box.x : box.x + box.width] for i in range(drawing.height)]
    # Every zone of the layout is drawn, and every card of it is on the screen.
    assert [b.zone for b in drawing.zones] == list(table.zones())
    for b in drawing.zones:
        text = "\n".join(line[b.x0 : b.x1] for line in shown[b.y0 : b.y1])
        title = b.zone.title
        assert not title or title[:10] in text, (title, text, b, "\n".join(shown))
        faces, backs = chips_in(text)
        cards = list(b.zone.cards[:1] if b.zone.spread == "stack" else b.zone.cards)
        wanted = Counter(chip_face(c) for c in cards if c.known)
        for face, n in wanted.items():
            assert faces[face] >= n, (title, face, text)
        assert backs >= sum(1 for c in cards if not c.known and not c.empty), (title, text)
    # The person's own cards (the hand) are among them (a solo table has no seats).
    own = [z for z in table.zones() if z.owner == table.viewer and z.cards]
    assert own or len(screen.session.specs) == 1
    # At least six legal actions (all, if fewer) are in sight, at the top of the list.
    listing = screen.query_one("#actions", OptionList)
    legal = screen.session.legal(screen.asking or 0)
    wanted_n = min(6, len(legal))
    assert listing.content_region.height >= wanted_n
    region = listing.content_region
    assert region.bottom <= app.size.height and region.right <= app.size.width
    listed = "\n".join(lines[region.y : region.y + wanted_n])
    for i in range(wanted_n):
        prompt = listing.get_option_at_index(i).prompt
        label = prompt.plain if hasattr(prompt, "plain") else str(prompt)
        assert label[: region.width - 1].rstrip() in listed, (label, listed)


@pytest.mark.parametrize(
    ("game", "players", "moves"), SCENES, ids=[f"{g}-{n}" for g, n, _ in SCENES]
)
def test_item7_80x24_whole_table_hand_and_six_actions_in_sight(
    tmp_path: Path, game: str, players: int, moves: int
) -> None:
    async def body() -> None:
        app = PlayApp(scene(game, players, moves, tmp_path), rules=rules_text, pace=0)
        async with app.run_test(size=SMALL) as pilot:
            for _ in range(2000):
                await pilot.pause(0.005)
                if app.game_screen.asking is not None:
                    break
            await pilot.pause()
            screen = app.game_screen
            assert screen.asking == 0
            assert screen.query_one(TableView).style != "full"  # boxed cards cannot fit here
            check_all_in_sight(app)

    asyncio.run(body())


@pytest.mark.parametrize(
    ("game", "players", "moves", "below"),
    [("lonely-face", 4, 8, False), ("notorious", 10, 25, True)],
    ids=["panel-beside", "panel-below"],
)
def test_item7_80x24_clicking_a_one_line_card_narrows_the_actions(
    tmp_path: Path, game: str, players: int, moves: int, below: bool
) -> None:
    async def body() -> None:
        app = PlayApp(scene(game, players, moves, tmp_path), rules=rules_text, pace=0)
        async with app.run_test(size=SMALL) as pilot:
            for _ in range(2000):
                await pilot.pause(0.005)
                if app.game_screen.asking is not None:
                    break
            await pilot.pause()
            screen = app.game_screen
            assert screen.has_class("-below") == below
            drawing = screen.query_one(TableView).drawing
            legal = screen.session.legal(0)
            cells = [h for h in drawing.hits if any(h[4] in t.split() for _, t in legal)]
            assert cells, "some card on the table is named by a legal action"
            x0, y0, _, _, key = cells[0]
            await pilot.click(TableCanvas, offset=(x0 + 1, y0))
            await pilot.pause()
            assert screen.selected == {key}
            listing = screen.query_one("#actions", OptionList)
            ids = [listing.get_option_at_index(i).id for i in range(listing.option_count)]
            narrowed = [str(a) for a, t in legal if key in t.split()]
            assert ids == narrowed and len(ids) < len(legal)

    asyncio.run(body())


def test_item7_resizing_redraws_to_fit_and_back_to_boxed_cards(tmp_path: Path) -> None:
    async def body() -> None:
        app = PlayApp(scene("lonely-face", 4, 8, tmp_path), rules=rules_text, pace=0)
        async with app.run_test(size=(160, 64)) as pilot:
            for _ in range(2000):
                await pilot.pause(0.005)
                if app.game_screen.asking is not None:
                    break
            await pilot.pause()
            view = app.game_screen.query_one(TableView)
            assert view.style == "full" and not app.game_screen.has_class("-below")
            await pilot.resize_terminal(*SMALL)
            await repainted(pilot)
            assert view.style != "full"
            check_all_in_sight(app)
            await pilot.resize_terminal(160, 64)
            await pilot.pause()
            assert view.style == "full"  # a new size starts again from the boxed cards

    asyncio.run(body())


def test_item7_big_terminals_keep_the_boxed_cards_and_the_side_panel(tmp_path: Path) -> None:
    for game, players, moves in [("lonely-face", 2, 6), ("facade", 2, 16)]:
        table = scene(game, players, moves, tmp_path).table(0)
        chosen = fitting.choose(table, 150, 48)
        assert (chosen.style, chosen.below, chosen.fits) == ("full", False, True)
        small = fitting.choose(table, *SMALL)
        assert small.style != "full" and small.fits


def test_item7_fit_prefers_the_panel_beside_then_below_then_the_densest() -> None:
    few = Table("T", (Row((Zone("Hand", (card("AS"), card("KH")), "row", owner="p1"),)),))
    assert fitting.choose(few, *SMALL).style == "full"  # two boxed cards fit anywhere
    many = Table(
        "T",
        tuple(
            Row((Zone(f"z{i}", tuple(card(t) for t in ["AS", "2S", "3S", "4S"]), "row"),), f"p{i}")
            for i in range(1, 12)
        ),
    )
    chosen = fitting.choose(many, *SMALL)
    assert chosen.fits and chosen.style == "dense"  # eleven titled rows: titles go in front
    assert chosen.drawing.height == 11
    tiny = fitting.choose(many, 80, 12)  # cannot fit: the least is hidden, and it scrolls
    assert not tiny.fits and tiny.style != "full"
    sizes = [fitting.room(80, 24, below=b) for b in (False, True)]
    assert sizes[0].width < sizes[1].width and sizes[0].height > sizes[1].height


def test_item7_chips_tell_faces_backs_known_backs_and_places_apart_without_colour() -> None:
    def plain(c: Any, inner: int = 2) -> str:
        return "".join(text for text, _ in chip(c, inner, False, False))

    assert plain(card("7H")) == "[7♥]" and plain(card("TH"), 3) == "[10♥]"
    assert plain(back()) == "[░░]"
    assert plain(card("7D", up=False)) == "(7♦)"  # face down, known to the viewer
    assert plain(blank()) == "[  ]"
    assert plain(card("8")) == "[ 8]"
    # Highlighted: underlined face and bold edges; playable: other edges; selected: reverse.
    lit = chip(card("7H", highlight=True), 2, False, False)
    assert lit[1][1].underline and lit[0][1].bold
    plain_edge = chip(card("7H"), 2, False, False)[0][1]
    assert chip(card("7H"), 2, True, False)[0][1] != plain_edge
    assert chip(card("7H"), 2, False, True)[1][1].reverse
    # Every suit keeps its shape: ♠♥♦♣★ are drawn whatever the colours.
    row = Zone("x", tuple(card(f"5{s}") for s in "SHDCX"), "row")
    assert all(sym in compact_table(Table("T", (Row((row,)),)), 60).text().plain for sym in "♠♥♦♣★")


def test_item7_one_line_zones_wrap_align_runs_and_map_clicks() -> None:
    hand = Zone("Hand", tuple(card(t) for t in ["2S", "3D", "TC", "QH"]), "row", owner="p1")
    backs = Zone("Theirs", tuple(back() for _ in range(9)), "fan", key="p2")
    grid = Zone(
        "Grid",
        tuple(card(t, key=f"c{i}", label=f"c{i}") for i, t in enumerate(["AS", "TD", "3H", "4C"])),
        "grid",
        columns=2,
    )
    table = Table("T", (Row((hand, backs), "you"), Row((grid,))))
    wide = compact_table(table, 78)
    text = wide.text().plain
    assert "[2♠ ] [3♦ ] [10♣] [Q♥ ]" in text  # one width per zone, so they line up
    assert "[░░]×9" in text  # a run of backs is one chip and a count
    lines = text.splitlines()
    assert lines[0].startswith("─ you") and "Grid: [A♠ ]c0 [10♦]c1" in text
    assert "      [3♥ ]c2 [4♣ ]c3" in text  # the grid keeps its columns
    assert wide.key_at(text.splitlines()[1].index("[3♦") + 1, 1) == "3D"
    box = next(b for b in wide.zones if b.zone is backs)
    assert wide.key_at(box.x0, box.y0) == "p2"  # the zone's caption selects the zone
    dense = compact_table(table, 78, dense=True)
    assert dense.height == wide.height - 1 and dense.text().plain.startswith("you │ Hand:")
    narrow = compact_table(table, 24)
    assert narrow.width <= 24 and narrow.height > wide.height
    assert Counter(chips_in(narrow.text().plain)[0]) == Counter(chips_in(text)[0])


def test_item7_one_line_cards_render_in_16_colours_and_no_color() -> None:
    table = Table(
        "T",
        (Row((Zone("Hand", (card("7H"), card("7D", up=False), back(), blank()), "row"),)),),
    )
    drawing = compact_table(table, 60, {"7H"}, set())
    for system in ("standard", None):
        out = io.StringIO()
        console = Console(file=out, color_system=system, force_terminal=True, width=60)
        console.print(drawing.text())
        shown = out.getvalue()
        assert "[7♥]" in re.sub(r"\x1b\[[0-9;]*m", "", shown)
        assert "(7♦)" in re.sub(r"\x1b\[[0-9;]*m", "", shown)
        if system is None:
            assert "\x1b[38" not in shown and "\x1b[48" not in shown
    # In 16 colours the four suits keep four different inks.
    inks = set()
    for suit in "SHDC":
        style: Style = chip(card(f"7{suit}"), 2, False, False)[1][1]
        assert style.color is not None
        inks.add(style.color.downgrade(ColorSystem.STANDARD).number)
    assert len(inks) == 4
