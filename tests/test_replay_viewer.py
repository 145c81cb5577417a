"""Item 4 (part): ``replay --viewer`` and ``redact`` keep secrets.

For every game with hidden information, a mid-game save replayed ``--viewer pN``
shows no card seat pN has not been shown (its views along the game are the
reference, as for redacted records), and ``--viewer spectator`` none a spectator
has not. Differential checks: the viewer's part of the output is the same for
states that differ only in what it cannot see.
"""

from __future__ import annotations

import json
import random
import re
from collections import deque
from pathlib import Path

import pytest
from typer.testing import CliRunner

from decklab import cards
from decklab.cli import app
from decklab.engine import checks, records
from decklab.engine.registry import game_names, get_game
from decklab.engine.state import ALL, CHANCE, GameState, Viewer
from decklab.record_commands import replay_summary, replay_text

runner = CliRunner()
HIDDEN_GAMES = [g for g in game_names() if get_game(g).info.hidden_information]
SUITS = {"♠": "S", "♥": "H", "♦": "D", "♣": "C", "★": "X"}
CARD = re.compile(r"(?<![A-Za-z0-9])(10|[2-9TJQKA])([SHDCX♠♥♦♣★])(?![A-Za-z0-9])")


def card_tokens(text: str) -> set[str]:
    """Cards in command output, in K1 or with suit symbols (as render draws them)."""
    out = set()
    for rank, suit in CARD.findall(text):
        token = rank + SUITS.get(suit, suit)
        if cards.is_card_text(token):
            out.add(cards.to_str(cards.parse(token)))
    return out


def seen_by(state: GameState, viewer: Viewer) -> set[str]:
    """Every card ``viewer`` was shown at some point of the game (its views, step by step)."""
    assert state.initial_setup is not None
    walk = type(state).from_setup(state.num_players, state.options, state.initial_setup)
    walk._forced = deque(text for actor, text in state.history if actor == CHANCE)
    walk._strict_chance = True
    seen = checks._card_tokens(walk.view(viewer))
    for actor, action in state.history:
        if actor == CHANCE:
            continue
        walk.history.append((actor, action))
        walk._apply(actor, action)
        seen |= checks._card_tokens(walk.view(viewer))
    return seen


def midgame(game: str, seed: int) -> GameState:
    cls = get_game(game)
    state = cls.new(None, None, seed=seed)
    rng = random.Random(seed)
    total = 0
    probe = state.clone()
    while not probe.is_terminal():
        seat = probe.to_act()[0]
        probe.apply(seat, rng.choice(probe.legal_actions(seat)))
        total += 1
    rng = random.Random(seed)
    for _ in range(max(1, total // 2)):
        seat = state.to_act()[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    assert not state.is_terminal()
    return state


def _viewers(state: GameState) -> list[tuple[str, Viewer]]:
    return [("spectator", None), *((f"p{s + 1}", s) for s in range(state.num_players))]


@pytest.mark.parametrize("game", HIDDEN_GAMES)
@pytest.mark.parametrize("seed", [1, 2])
def test_item4_replay_viewer_shows_no_card_the_viewer_cannot_see(
    game: str, seed: int, tmp_path: Path
) -> None:
    state = midgame(game, seed)
    path = tmp_path / "save.json"
    records.save(path, records.make_record(state))
    everything = runner.invoke(app, ["replay", str(path), "--log", "--legal"])
    assert everything.exit_code == 0
    for name, viewer in _viewers(state):
        allowed = seen_by(state, viewer)
        for extra in (["--json"], []):
            result = runner.invoke(
                app, ["replay", str(path), "--viewer", name, "--log", "--legal", *extra]
            )
            assert result.exit_code == 0, result.output
            shown = card_tokens(result.stdout)
            leaked = shown - allowed
            assert not leaked, f"--viewer {name} shows unseen {sorted(leaked)}"
            assert "shows every hidden card" not in result.output
    # Viewer all (the default) says on stderr that it shows hidden cards, naming --viewer.
    assert "--viewer" in everything.stderr and "hidden" in everything.stderr
    spectator = runner.invoke(app, ["replay", str(path), "--viewer", "spectator", "--log"])
    assert spectator.stdout != everything.stdout  # the position does hide something


@pytest.mark.parametrize("game", HIDDEN_GAMES)
def test_item4_viewer_output_is_the_same_for_states_differing_only_in_hidden_cards(
    game: str,
) -> None:
    """Differential: determinize(seat) resamples exactly what seat cannot see; the
    state part of replay's answer for that seat (render, scores, to act, legal)
    must not change. (The log part is the engine's redacted record, tested apart.)"""
    rng = random.Random(7)
    for seed in (1, 2, 3):
        state = midgame(game, seed)
        for _, viewer in _viewers(state):
            seat = viewer if viewer is not None else 0
            mine = replay_summary(state, 0, viewer, legal=True, log=False)
            text = replay_text(state, mine, viewer)
            for _ in range(3):
                other = state.determinize(seat, rng)
                theirs = replay_summary(other, 0, viewer, legal=True, log=False)
                assert theirs == mine
                assert replay_text(other, theirs, viewer) == text


SIMULTANEOUS = [g for g in game_names() if get_game(g).info.simultaneous]


@pytest.mark.parametrize("game", SIMULTANEOUS)
def test_item4_pending_face_down_choices_do_not_change_the_viewers_output(
    game: str, tmp_path: Path
) -> None:
    """A save in the middle of a simultaneous round: the others have chosen face
    down, p1 has not. Two saves differing only in those choices replay identically
    for --viewer p1 and spectator (the log included)."""
    for seed in range(1, 30):
        base = get_game(game).new(None, None, seed=seed)
        rng = random.Random(seed)
        for _ in range(rng.randrange(0, 6)):
            seat = base.to_act()[0]
            base.apply(seat, rng.choice(base.legal_actions(seat)))
        if base.is_terminal() or 0 not in base.to_act() or len(base.to_act()) < 2:
            continue
        others = [s for s in base.to_act() if s != 0]
        choices = [{s: base.legal_actions(s) for s in others}]
        if all(len(a) < 2 for a in choices[0].values()):
            continue
        outputs: dict[str, set[str]] = {}
        for variant in range(2):
            state = base.clone()
            state.initial_setup = base.initial_setup
            for s in others:
                acts = state.legal_actions(s)
                state.apply(s, acts[variant % len(acts)] if variant else acts[-1])
            path = tmp_path / f"v{variant}.json"
            records.save(path, records.make_record(state, date="-"))
            for name in ("p1", "spectator"):
                result = runner.invoke(
                    app, ["replay", str(path), "--viewer", name, "--log", "--legal", "--json"]
                )
                assert result.exit_code == 0, result.output
                outputs.setdefault(name, set()).add(result.stdout)
            full = runner.invoke(app, ["replay", str(path), "--log", "--json"])
            outputs.setdefault("all", set()).add(full.stdout)
        assert len(outputs["p1"]) == 1 and len(outputs["spectator"]) == 1
        assert len(outputs["all"]) == 2, "the two saves should differ in hidden choices"
        return
    pytest.fail(f"no {game} position with a pending simultaneous round was found")


@pytest.mark.parametrize("game", HIDDEN_GAMES)
def test_item4_redact_prints_the_engines_redacted_copy(game: str, tmp_path: Path) -> None:
    state = midgame(game, 3)
    path = tmp_path / "save.json"
    records.save(path, records.make_record(state, date="d"))
    for name, viewer in _viewers(state):
        result = runner.invoke(app, ["redact", str(path), "--seat", name])
        assert result.exit_code == 0, result.output
        copy = json.loads(result.stdout)
        expected = records.make_record(state, viewer=viewer, date="d")
        assert copy["setup"] == expected["setup"] and copy["actions"] == expected["actions"]
        assert copy["viewer"] == name
        assert card_tokens(result.stdout) <= seen_by(state, viewer)


def test_item4_redact_out_never_overwrites_without_force(tmp_path: Path) -> None:
    state = midgame("facade", 1)
    path = tmp_path / "save.json"
    records.save(path, records.make_record(state))
    out = tmp_path / "p2.json"
    out.write_text("mine", encoding="utf-8")
    refused = runner.invoke(app, ["redact", str(path), "--seat", "p2", "--out", str(out)])
    assert refused.exit_code == 2 and "--force" in refused.output
    assert out.read_text(encoding="utf-8") == "mine"
    forced = runner.invoke(app, ["redact", str(path), "--seat", "p2", "--out", str(out), "--force"])
    assert forced.exit_code == 0 and json.loads(out.read_text(encoding="utf-8"))["viewer"] == "p2"
    fresh = tmp_path / "new.json"
    made = runner.invoke(app, ["redact", str(path), "--seat", "spectator", "--out", str(fresh)])
    assert (
        made.exit_code == 0
        and json.loads(fresh.read_text(encoding="utf-8"))["viewer"] == "spectator"
    )
    for bad in ("all", "p9", "nobody"):
        result = runner.invoke(app, ["redact", str(path), "--seat", bad])
        assert result.exit_code == 2 and "Traceback" not in result.output


def test_item4_replay_viewer_all_is_unchanged_and_bad_viewers_are_refused(tmp_path: Path) -> None:
    path = Path(__file__).parent / "records" / "corporation_p9.json"
    default = runner.invoke(app, ["replay", str(path), "--json"])
    explicit = runner.invoke(app, ["replay", str(path), "--json", "--viewer", "all"])
    assert default.stdout == explicit.stdout and "viewer" not in json.loads(default.stdout)
    for bad in ("p0", "p6", "god"):
        result = runner.invoke(app, ["replay", str(path), "--json", "--viewer", bad])
        assert result.exit_code == 2 and "viewer" in json.loads(result.stdout)["error"]["reason"]
    assert ALL == -2  # the engine's "everything" viewer, spelled "all" on the command line


def test_item4_json_with_legal_of_an_unfinished_game_notes_hidden_cards_on_stderr(
    tmp_path: Path,
) -> None:
    state = midgame("facade", 2)
    path = tmp_path / "save.json"
    records.save(path, records.make_record(state))
    noted = runner.invoke(app, ["replay", str(path), "--json", "--legal"])
    assert "--viewer" in noted.stderr and json.loads(noted.stdout)["legal"]
    quiet = runner.invoke(app, ["replay", str(path), "--json"])
    assert quiet.stderr == ""  # no card in this answer: nothing to warn about
    mine = runner.invoke(app, ["replay", str(path), "--json", "--legal", "--viewer", "p1"])
    assert mine.stderr == ""
