"""The Textual table, driven through Textual's pilot as a person would: keys and clicks.

Each game is played to its end through the interface with fast seeded bots,
and the tests look at what is on the screen (the table's zones, the action
list, the log, the status line) and at the records saved. No pytest plugin:
each test runs its coroutine with ``asyncio.run``.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from rich.text import Text
from textual.pilot import Pilot
from textual.widgets import OptionList, RichLog, Static

from decklab.cli import rules_text
from decklab.engine import records
from decklab.engine.layout import Row, Table, Zone
from decklab.engine.layout import card as layout_card
from decklab.engine.registry import get_game
from decklab.play import stats
from decklab.play.tui import GameScreen, PlayApp, Session
from decklab.play.tui.draw import ZoneBox, draw_table, draw_zone
from decklab.play.tui.screens import (
    HandOverScreen,
    MenuScreen,
    QuitScreen,
    RulesScreen,
    SummaryScreen,
)
from decklab.play.tui.widgets import TableCanvas, TableView

SIZE = (150, 48)


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Saved games and statistics go to a temporary data directory."""
    monkeypatch.setenv("DECKLAB_HOME", str(tmp_path / "home"))
    return tmp_path / "home"


def new_app(
    game: str,
    tmp_path: Path,
    specs: list[str] | None = None,
    *,
    seed: int = 1,
    options: dict[str, Any] | None = None,
    players: int | None = None,
) -> PlayApp:
    session = Session.new(
        get_game(game),
        specs,
        players=players,
        options=options,
        seed=seed,
        save_path=tmp_path / f"{game}.json",
        hint_spec="greedy",
    )
    return PlayApp(session, rules=rules_text, pace=0)


def run(test: Callable[[], Awaitable[None]]) -> None:
    asyncio.run(test())  # type: ignore[arg-type]


def screen_of(app: PlayApp) -> GameScreen:
    return app.game_screen


def waiting_for_person(app: PlayApp) -> bool:
    """A human is asked, the game is over, or the hand-over screen shows."""
    top = app.screen
    if isinstance(top, HandOverScreen | SummaryScreen):
        return True
    game = app.game_screen
    return (
        top is game
        and not game.hinting
        and (game.asking is not None or game.session.state.is_terminal())
    )


async def settle(pilot: Pilot[Any], timeout: float = 20.0, *, redraw: bool = True) -> None:
    """Wait until the game comes back to a person; ``redraw`` lets the screen catch up."""
    app = pilot.app
    assert isinstance(app, PlayApp)
    end = time.monotonic() + timeout
    await asyncio.sleep(0)
    while not waiting_for_person(app):
        if time.monotonic() > end:
            raise AssertionError("the game did not come back to a person in time")
        await asyncio.sleep(0.002)  # bots think in threads; the app runs on this loop
    if redraw:
        await pilot.pause()


def text_of(widget: Static) -> str:
    shown = widget.render()
    return shown.plain if isinstance(shown, Text) else str(shown)


def options_of(app: PlayApp) -> list[str]:
    listing = app.game_screen.query_one("#actions", OptionList)
    out = []
    for i in range(listing.option_count):
        prompt = listing.get_option_at_index(i).prompt
        out.append(prompt.plain if isinstance(prompt, Text) else str(prompt))
    return out


def zones_on_screen(app: PlayApp) -> list[ZoneBox]:
    return app.game_screen.query_one(TableView).drawing.zones


def zone_titled(app: PlayApp, start: str) -> ZoneBox:
    for box in zones_on_screen(app):
        if box.zone.title.startswith(start):
            return box
    raise AssertionError(f"no zone titled {start!r} on screen")


def card_spots(app: PlayApp, box: ZoneBox) -> list[tuple[int, int]]:
    """Where to click each keyed card of a zone: a cell inside each card's box."""
    hits = app.game_screen.query_one(TableView).drawing.hits
    return [
        (x0 + 1, y0)
        for x0, y0, x1, y1, _ in hits
        if box.x0 <= x0 and x1 <= box.x1 and box.y0 <= y0 and y1 <= box.y1
    ]


async def click_at(pilot: Pilot[Any], spot: tuple[int, int]) -> None:
    await pilot.click(TableCanvas, offset=spot)
    await pilot.pause()


def log_lines(app: PlayApp) -> list[str]:
    log = app.game_screen.query_one("#log", RichLog)
    return [line.text for line in log.lines]


def check_only_legal_offered(app: PlayApp) -> None:
    """The action list is exactly the asked seat's legal actions: nothing illegal to pick."""
    screen = app.game_screen
    assert screen.asking is not None
    listing = screen.query_one("#actions", OptionList)
    ids = [listing.get_option_at_index(i).id for i in range(listing.option_count)]
    legal = screen.session.state.legal_actions(screen.asking)
    if not screen.selected:
        assert ids == [str(a) for a in legal]
    assert {int(i) for i in ids if i is not None} <= set(legal)


async def play_out(pilot: Pilot[Any], limit: int = 2000, *, keys: int = 3) -> int:
    """Play the highlighted legal action until the game is over, handing over when asked.

    The first ``keys`` moves are real Enter presses; after that the option list's
    own select action (what Enter is bound to) is called directly, because each
    simulated key press waits for the process to go idle, which on a small shared
    machine costs more than the move itself.
    """
    app = pilot.app
    assert isinstance(app, PlayApp)
    moves = 0
    await settle(pilot)
    while not app.game_screen.session.state.is_terminal():
        if isinstance(app.screen, HandOverScreen | SummaryScreen):
            await pilot.press("enter")
        else:
            check_only_legal_offered(app)
            if moves < keys:
                await pilot.press("enter")
            else:
                app.game_screen.query_one("#actions", OptionList).action_select()
            moves += 1
        await settle(pilot, redraw=False)
        assert moves < limit
    await pilot.pause()
    return moves


# ------------------------------------------------------------------ the Cabin
def test_cabin_solo_undo_redo_hint_save_resume_and_stats(tmp_path: Path, home: Path) -> None:
    async def body() -> None:
        app = new_app("cabin", tmp_path, seed=17)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            screen = app.game_screen
            # The table as on a real table: the piles, the sea card, 8 stack places.
            titles = [v.zone.title for v in zones_on_screen(app)]
            for name in ("Sea", "Cabin", "Beach", "Deep sea", "Squid", "Sea card"):
                assert name in titles
            assert titles.count("new") == 8
            sea_card = zone_titled(app, "Sea card").zone.cards[0].token
            assert "17" in str(screen.title)
            assert "washes up" in text_of(screen.query_one("#status", Static))
            # Clicking the cabin pile leaves only the actions that name it.
            cabin = zone_titled(app, "Cabin")
            await click_at(pilot, (cabin.x0 + 3, cabin.y0 + 2))
            assert options_of(app) == ["anchor cabin"]
            await pilot.press("escape")
            await pilot.pause()
            assert len(options_of(app)) > 1
            # Three moves, then undo all three and redo two: unlimited in solo play.
            for _ in range(3):
                await pilot.press("enter")
                await settle(pilot)
            after_three = list(screen.session.state.history)
            assert len(after_three) == 3
            for _ in range(3):
                await pilot.press("u")
                await settle(pilot)
            assert screen.session.state.history == []
            assert zone_titled(app, "Sea card").zone.cards[0].token == sea_card
            await pilot.press("r", "r")
            await settle(pilot)
            assert screen.session.state.history == after_three[:2]
            assert "(Redone.)" in log_lines(app)
            # A hint, shown with its reason; Enter then plays it.
            await pilot.press("h")
            await settle(pilot)
            hint = screen.hint
            assert hint is not None
            shown = text_of(screen.query_one("#hint", Static))
            assert shown.startswith("Hint: ") and hint.reason not in shown
            assert screen.hint_text is not None and "deep sea" in shown
            await pilot.press("w")  # item 6: the search figures are one key away
            await pilot.pause()
            assert hint.reason in text_of(screen.query_one("#hint", Static))
            await pilot.press("enter")
            await settle(pilot)
            assert screen.session.state.history[-1][1] == hint.action
            # Save, then quit without saving again.
            await pilot.press("s")
            await pilot.pause()
            saved = tmp_path / "cabin.json"
            record = records.load(saved)
            assert len(record["actions"]) == 3 and record["note"] == "deal 17"
            await pilot.press("q")
            await pilot.pause()
            assert isinstance(app.screen, QuitScreen)
            await pilot.press("n")
            await pilot.pause()
        # Resume the saved game and play it to the end.
        session = Session.resume(records.load(saved), save_path=saved, hint_spec="greedy")
        again = PlayApp(session, rules=rules_text, pace=0)
        async with again.run_test(size=SIZE) as pilot:
            await settle(pilot)
            assert len(again.game_screen.session.state.history) == 3
            assert again.game_screen.session.deal == 17
            assert any("p1" in line for line in log_lines(again))
            await play_out(pilot)
            status = text_of(again.game_screen.query_one("#status", Static))
            assert status.startswith("Game over")
            # Item 6: the end of the game takes the score apart, on a screen of its own,
            # and the solo result reads as one (score, deal number).
            assert isinstance(again.screen, SummaryScreen)
            final_state = again.game_screen.session.state
            assert again.screen.lines[0].startswith(
                f"Game over: {final_state.scores()[0]:g} squid points — deal 17"
            ) or again.screen.lines[0].startswith("Game won")
            assert any("squid" in line for line in again.screen.lines[2:])
            assert "Game over" in text_of(again.game_screen.query_one("#who", Static))
        final, _ = records.replay(records.load(saved))
        assert final.is_terminal()
        summary = stats.summary("cabin")
        assert summary.games == 1 and summary.deals[0].deal == 17
        assert summary.best == final.scores()[0]

    run(body)


# ---------------------------------------------------------------------- Façade
def test_facade_against_greedy_with_clicks_and_hand_shown_only_to_its_owner(
    tmp_path: Path,
) -> None:
    async def body() -> None:
        app = new_app(
            "facade", tmp_path, ["human", "greedy"], seed=3, options={"first_bidder": "p1"}
        )
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            screen = app.game_screen
            hand = zone_titled(app, "Bid cards")
            assert hand.zone.owner == "p1"
            assert [c.token for c in hand.zone.cards] == ["AH", "JH", "QH", "KH"]
            other = [
                v
                for v in zones_on_screen(app)
                if v.zone.owner == "p2" and v.zone.title == "Bid cards"
            ]
            assert [c.token for c in other[0].zone.cards] == ["??"] * 4
            # Click the king in hand, then a supply card: one bid is left to choose.
            await click_at(pilot, card_spots(app, hand)[3])
            assert all(o.startswith("bid K♥") for o in options_of(app))
            supply = app.game_screen.session.state.view(0)["supply"][0]
            target = next(v for v in zones_on_screen(app) if v.zone.key == supply)
            await click_at(pilot, (target.x0 + 1, target.y0 + 1))
            assert len(options_of(app)) == 1 and "K♥" in options_of(app)[0]
            await pilot.press("enter")
            await settle(pilot)
            # The bid lies face down on its supply card, known to its owner.
            target = next(v for v in zones_on_screen(app) if v.zone.key == supply)
            bid = target.zone.cards[1]
            assert bid.token == "KH" and not bid.up and bid.label == "p1"
            await play_out(pilot)
            assert text_of(screen.query_one("#status", Static)).startswith("Game over")
            assert any("places" in line for line in log_lines(app))
        record = records.load(tmp_path / "facade.json")
        state, _ = records.replay(record)
        assert state.is_terminal() and record["players"] == {"p1": "human", "p2": "greedy"}

    run(body)


# ----------------------------------------------------------------- Lonely Face
def test_lonely_face_grid_cells_select_actions_and_game_ends(tmp_path: Path) -> None:
    async def body() -> None:
        app = new_app(
            "lonely-face", tmp_path, ["human", "random:seed=4"], seed=8, options={"stall_rounds": 2}
        )
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            grid = zone_titled(app, "Grid")
            assert grid.zone.spread == "grid" and len(grid.zone.cards) == 16
            assert zone_titled(app, "Turn card").zone.cards[0].known
            status = text_of(app.game_screen.query_one("#status", Static))
            assert "turn suit" in status
            # Click a cell: only actions naming that cell remain.
            legal_words = {w for o in options_of(app) for w in o.split()}
            first_cells = ["a1", "b1", "c1", "d1", "a2", "b2"]
            cell = next(c for c in first_cells if c in legal_words)
            index = first_cells.index(cell)
            await click_at(pilot, card_spots(app, grid)[index])
            assert options_of(app) and all(cell in o.split() for o in options_of(app))
            # The opponent's hand shows no card it has not shown.
            view = app.game_screen.session.state.view(0)
            theirs = [
                v for v in zones_on_screen(app) if v.zone.owner == "p2" and v.zone.title == "Hand"
            ]
            assert [c.token for c in theirs[0].zone.cards] == view["hands"]["p2"]
            await play_out(pilot)
            assert "Game over" in text_of(app.game_screen.query_one("#status", Static))

    run(body)


# ----------------------------------------------------------------- Corporation
def test_corporation_hot_seat_hides_hands_between_players(tmp_path: Path) -> None:
    async def body() -> None:
        app = new_app(
            "corporation",
            tmp_path,
            ["human", "human", "greedy", "greedy"],
            seed=2,
            options={"target": 6},
        )
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            screen = app.game_screen
            assert screen.asking == 0
            assert zone_titled(app, "Your hand").zone.owner == "p1"
            await pilot.press("enter")
            await settle(pilot)
            # p2 must choose next: the table is hidden behind the hand-over screen.
            assert isinstance(app.screen, HandOverScreen)
            table = screen.query_one(TableView).table
            assert table is not None and table.viewer is None
            assert all(z.title != "Your hand" for z in table.zones())
            await pilot.press("enter")
            await settle(pilot)
            assert screen.asking == 1 and screen.viewer == 1
            assert zone_titled(app, "Your hand").zone.owner == "p2"
            # p1's face-down choice is a back to p2.
            p1 = next(v for v in zones_on_screen(app) if v.zone.owner == "p1")
            assert all(not c.known for c in p1.zone.cards if not c.up)
            # p2 may take back its own choice before anybody else plays.
            assert not screen.can_undo()  # nothing played yet by p2
            await pilot.press("enter")
            await settle(pilot)
            moves = await play_out(pilot)
            assert moves > 0
            assert "Game over" in text_of(screen.query_one("#status", Static))
        assert records.replay(records.load(tmp_path / "corporation.json"))[0].is_terminal()

    run(body)


def test_corporation_undo_only_own_choice_before_the_round_resolves(tmp_path: Path) -> None:
    async def body() -> None:
        app = new_app("corporation", tmp_path, ["greedy", "human", "greedy", "human"], seed=5)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            screen = app.game_screen
            assert screen.asking == 1
            before = len(screen.session.state.history)
            await pilot.press("enter")
            await settle(pilot)
            assert isinstance(app.screen, HandOverScreen)
            await pilot.press("enter")
            await settle(pilot)
            assert screen.asking == 3
            # p4 has not played: its undo is off. The round is still open for p2,
            # but p4 sits at the screen now, so nothing can be taken back.
            assert not screen.can_undo()
            await pilot.press("u")
            await pilot.pause()
            assert len(screen.session.state.history) == before + 1

    run(body)


# -------------------------------------------------------------------- Notorious
def test_notorious_card_then_seat_narrows_to_up_or_down(tmp_path: Path) -> None:
    async def body() -> None:
        app = new_app(
            "notorious",
            tmp_path,
            ["human", "greedy", "greedy"],
            seed=6,
            options={"games": 1, "lead_off": "p1"},
        )
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            hand = zone_titled(app, "Your hand")
            first = hand.zone.cards[0].token
            await click_at(pilot, card_spots(app, hand)[0])
            seat = next(v for v in zones_on_screen(app) if v.zone.key == "p3")
            await click_at(pilot, (seat.x0, seat.y0))
            options = options_of(app)
            assert len(options) == 2 and all(o.split()[2] == "p3" for o in options)
            filt = text_of(app.game_screen.query_one("#filter", Static))
            assert "2 of" in filt
            await pilot.press("down", "enter")  # face down
            await settle(pilot)
            p3 = next(v for v in zones_on_screen(app) if v.zone.key == "p3")
            mine = [c for c in p3.zone.cards if c.label == "r1"]
            assert mine and mine[0].token == first and not mine[0].up  # known to its player
            assert "face down" in " ".join(log_lines(app))
            # The rules, from the same text as `decklab rules`.
            await pilot.press("question_mark")
            await pilot.pause()
            assert isinstance(app.screen, RulesScreen)
            assert "Notorious" in app.screen.text
            await pilot.press("escape")
            await pilot.pause()
            await play_out(pilot)
            assert "Match over" in text_of(app.game_screen.query_one("#status", Static))

    run(body)


# ------------------------------------------------------------ menu and bots
def test_menu_lists_the_five_games_and_starts_one(tmp_path: Path) -> None:
    made: list[tuple[str, int]] = []

    def factory(name: str, players: int) -> Session:
        made.append((name, players))
        return Session.new(
            get_game(name),
            players=players,
            seed=1,
            save_path=tmp_path / "m.json",
            hint_spec="greedy",
        )

    async def body() -> None:
        app = PlayApp(None, rules=rules_text, new_session=factory, pace=0)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            assert isinstance(app.screen, MenuScreen)
            listing = app.screen.query_one("#menu-list", OptionList)
            prompts = [
                str(listing.get_option_at_index(i).prompt) for i in range(listing.option_count)
            ]
            assert len(prompts) == 5
            assert any("Façade" in p and "2–4 players" in p for p in prompts)
            assert any("Cabin" in p and "(1 player)" in p for p in prompts)
            names = [listing.get_option_at_index(i).id for i in range(listing.option_count)]
            for _ in range(names.index("notorious")):
                await pilot.press("down")
            await pilot.press("enter")
            await pilot.pause()
            assert "how many players" in text_of(app.screen.query_one("#menu-title", Static))
            await pilot.press("enter")
            await settle(pilot)
            assert made == [("notorious", 4)]
            assert app.game_screen.session.specs == ["human", "greedy", "greedy", "greedy"]

    run(body)


def test_bots_think_in_a_worker_visibly_and_the_screen_stays_responsive(tmp_path: Path) -> None:
    async def body() -> None:
        session = Session.new(
            get_game("corporation"),
            ["human", "ismcts:iters=50,seed=1", "greedy", "greedy"],
            seed=4,
            save_path=tmp_path / "c.json",
            hint_spec="greedy",
        )
        app = PlayApp(session, rules=rules_text, pace=0.6)  # every bot move takes 0.6 s
        async with app.run_test(size=SIZE) as pilot:
            screen = app.game_screen
            spinner = screen.query_one("#thinking")
            # Item 4: in a simultaneous round the person chooses first, then the bots.
            await settle(pilot)
            assert screen.asking == 0 and screen.thinking is None
            await pilot.press("enter")
            for _ in range(300):  # the spinner starts once a bot has thought a moment
                if spinner.has_class("-on"):
                    break
                await asyncio.sleep(0.005)
            assert screen.thinking is not None
            thinking = text_of(screen.query_one("#thinking-text", Static))
            assert "is thinking" in thinking
            assert "p2 (ismcts, 50 iterations)" in thinking or "(greedy)" in thinking
            assert spinner.has_class("-on")  # the spinner shows
            await pilot.press("question_mark")  # the interface answers meanwhile
            await pilot.pause()
            assert isinstance(app.screen, RulesScreen)
            await pilot.press("escape")
            await settle(pilot)
            assert screen.asking == 0 and screen.thinking is None
            assert not screen.query_one("#thinking").has_class("-on")

    run(body)


def test_undo_in_company_only_until_someone_else_acts_or_a_round_resolves() -> None:
    # Lonely Face: a flip that makes a pair is followed by the same player's take.
    cls = get_game("lonely-face")
    for seed in range(40):
        session = Session(cls.new(2, seed=seed), ["human", "greedy"], Path("unused.json"))
        state = session.state
        if state.to_act() != (0,):
            continue
        flips = [
            a for a in state.legal_actions(0) if state.action_to_string(0, a).startswith("flip")
        ]
        for flip in flips:
            trial = state.clone()
            trial.apply(0, flip)
            if trial.to_act() == (0,) and trial.view(0)["phase"] == "choose":
                break
        else:
            continue
        session.apply(0, flip)
        take = state.legal_actions(0)[0]
        session.apply(0, take)
        if state.to_act() == (0,):
            continue
        # The take and then the flip are p1's own, nobody has acted since: both undo.
        assert session.undo_point(0) == 1
        assert session.undo(0) and session.undo(0)
        assert session.state.history == [] and len(session.redo_stack) == 2
        assert session.redo() and len(session.state.history) == 1
        session.redo()
        # Once p2 has played, p1's moves are out of reach.
        bot = session.agents[1]
        assert bot is not None
        session.apply(1, bot.choose(session.state, 1))
        assert session.undo_point(0) is None and not session.undo(0)
        return
    raise AssertionError("no seeded deal with a pair-making first flip: widen the search")


def test_undo_never_reaches_back_over_a_revealed_round() -> None:
    cls = get_game("corporation")
    session = Session(cls.new(4, seed=1), ["human", "greedy", "greedy", "greedy"], Path("x.json"))
    for seat in (1, 2, 3):
        bot = session.agents[seat]
        assert bot is not None
        session.apply(seat, bot.choose(session.state, seat))
    session.apply(0, session.state.legal_actions(0)[0])  # the round resolves
    assert session.state.to_act() and 0 in session.state.to_act()
    assert session.undo_point(0) is None


def test_cards_are_drawn_with_rank_and_suit_shape_backs_and_places() -> None:
    zone = Zone(
        "Hand",
        (layout_card("TH"), layout_card("??"), layout_card("7C", up=False), layout_card(None)),
        "row",
    )
    drawing = draw_zone(zone)
    text = drawing.text().plain
    assert "10♥" in text and "░░░" in text and "7♣" in text and "┆" in text
    assert drawing.width == 4 * 5 + 3
    fan = draw_zone(Zone("Fan", tuple(layout_card(t) for t in ["2S", "3D", "4C"]), "fan"))
    assert fan.width == 4 * 2 + 5
    assert fan.key_at(1, 1) == "2S" and fan.key_at(9, 1) == "4C"
    column = draw_zone(Zone("s1", tuple(layout_card(t) for t in ["2S", "5S", "9S"]), "column"))
    assert column.height == 3 + 2 and column.key_at(2, 0) == "2S" and column.key_at(2, 3) == "9S"
    for sym in "♠♥♦♣★":
        assert (
            sym
            in draw_zone(Zone("x", (layout_card("5" + "SHDCX"["♠♥♦♣★".index(sym)]),))).text().plain
        )


def test_a_whole_table_wraps_to_the_width_and_maps_clicks_to_keys() -> None:
    zones = tuple(Zone(f"p{i}", (layout_card("AS"),) * 3, "row", key=f"p{i}") for i in range(1, 7))
    table = Table("T", (Row(zones, title="seats"),), "status")
    wide = draw_table(table, 200)
    narrow = draw_table(table, 60)
    assert narrow.height > wide.height and narrow.width <= 60
    box = narrow.zones[4]
    assert narrow.key_at(box.x0, box.y0) == "p5"  # the frame selects the zone
    assert narrow.key_at(box.x0 + 3, box.y0 + 2) == "AS"  # a card selects the card


def test_a_record_with_all_bots_is_played_out(tmp_path: Path) -> None:
    async def body() -> None:
        app = new_app(
            "notorious", tmp_path, ["random:seed=1", "greedy", "greedy"], options={"games": 1}
        )
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot, timeout=30)
            screen = app.game_screen
            assert screen.session.state.is_terminal()
            assert screen.query_one(TableView).table.viewer is None  # type: ignore[union-attr]
        assert json.loads((tmp_path / "notorious.json").read_text())["result"]["terminal"]

    run(body)


# ------------------------------------------------------- item 7: small terminals
SMALL_GAMES = [
    ("facade", ["human", "greedy"], {}),
    ("lonely-face", ["human", "greedy"], {}),
    ("cabin", None, {}),
    ("corporation", ["human", "greedy", "greedy", "greedy"], {}),
    ("notorious", ["human", "greedy", "greedy"], {"games": 1}),
]


@pytest.mark.parametrize(
    ("game", "specs", "options"), SMALL_GAMES, ids=[g for g, _, _ in SMALL_GAMES]
)
def test_item7_80x24_shows_hand_table_and_six_actions(
    tmp_path: Path, game: str, specs: list[str] | None, options: dict[str, Any]
) -> None:
    async def body() -> None:
        app = new_app(game, tmp_path, specs, seed=3, options=options)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            await pilot.pause()
            screen = app.game_screen
            assert screen.has_class("-short") and screen.has_class("-narrow")
            view = screen.query_one(TableView)
            # The table keeps most of the width and shows cards, not only a panel.
            assert view.size.width >= 40 and view.size.height >= 12
            # The playable part of the table (the hand) lies inside the visible rows,
            # and so does more of the table than the hand alone.
            rows = view.playable_rows()
            assert rows is not None
            top, bottom = rows
            visible = range(int(view.scroll_y), int(view.scroll_y) + view.size.height)
            assert top in visible and bottom in visible, (rows, visible)
            in_sight = [
                b for b in view.drawing.zones if b.y1 >= visible.start and b.y0 < visible.stop
            ]
            assert len(in_sight) >= 2
            # At least six legal actions are in sight (or all, when there are fewer).
            listing = screen.query_one("#actions", OptionList)
            wanted = min(6, len(screen.session.legal(screen.asking or 0)))
            assert listing.size.height >= wanted
            assert listing.region.bottom <= app.size.height

    run(body)


def test_item5_item3_hot_seat_resume_hands_over_first_and_leaves_the_file(
    tmp_path: Path,
) -> None:
    saved = tmp_path / "hot.json"
    session = Session.new(
        get_game("corporation"), ["human", "human", "greedy", "greedy"], seed=2, save_path=saved
    )
    session.apply(0, session.state.legal_actions(0)[0])
    session.save()
    original = saved.read_bytes()

    async def body() -> None:
        again = Session.resume(records.load(saved), hint_spec="greedy")
        app = PlayApp(again, rules=rules_text, pace=0)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            # Nobody's hand shows before the hand-over screen of the next player.
            assert isinstance(app.screen, HandOverScreen)
            table = app.game_screen.query_one(TableView).table
            assert table is not None and table.viewer is None
            await pilot.press("enter")
            await settle(pilot)
            assert app.game_screen.asking == 1 and app.game_screen.viewer == 1
        assert again.specs == ["human", "human", "greedy", "greedy"]

    run(body)
    assert saved.read_bytes() == original


def test_item6_item5_notorious_game_end_summary_then_hand_over(tmp_path: Path) -> None:
    async def body() -> None:
        app = new_app(
            "notorious", tmp_path, ["human", "human", "greedy"], seed=6, options={"games": 2}
        )
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            screen = app.game_screen
            for _ in range(200):
                if isinstance(app.screen, SummaryScreen):
                    break
                if isinstance(app.screen, HandOverScreen):
                    await pilot.press("enter")
                else:
                    screen.query_one("#actions", OptionList).action_select()
                await settle(pilot, redraw=False)
            assert isinstance(app.screen, SummaryScreen)
            lines = app.screen.lines
            assert lines[0] == "Game 1 is over."
            assert any(line.startswith("Game scores:") for line in lines)
            assert any("disqualified" in line for line in lines)
            # Nobody's hand is on the table under the summary.
            table = screen.query_one(TableView).table
            assert table is not None and table.viewer is None
            await pilot.press("enter")
            await settle(pilot)
            if screen.session.next_human() is not None and not isinstance(
                app.screen, HandOverScreen
            ):
                raise AssertionError("the next player's hand showed without a hand-over")

    run(body)
