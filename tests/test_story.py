"""Item 6: the story of the game (``engine/story.py`` and each game's ``story.py``).

A generic differential no-leak test over every game (two states that differ only
in cards the viewer cannot see narrate identically for that viewer), then each
game's story on situations built for it: a Façade reveal with a tie, a Corporation
round with a defection, a Notorious game end with a disqualification, the Cabin's
squid and sinking cards, and score breakdowns that add up.
"""

from __future__ import annotations

import random

import pytest

from decklab.bots.base import Hint
from decklab.engine import story
from decklab.engine.checks import canonical
from decklab.engine.registry import game_names, get_game
from decklab.engine.state import ALL, GameState

GAME_COUNTS = [
    (name, n)
    for name in game_names()
    for n in sorted({get_game(name).info.min_players, get_game(name).info.default_players})
]


def _step(state: GameState, seat: int, text: str) -> tuple[GameState, GameState]:
    before = state.clone()
    state.apply(seat, state.parse_action(seat, text))
    return before, state


@pytest.mark.parametrize(
    ("game", "players"), GAME_COUNTS, ids=[f"{g}-{n}p" for g, n in GAME_COUNTS]
)
def test_item6_story_never_tells_a_hidden_card(game: str, players: int) -> None:
    cls = get_game(game)
    rng = random.Random(players)
    state = cls.new(players, seed=11)
    compared = differing = 0
    for _ in range(150):
        if state.is_terminal():
            break
        actor = state.to_act()[0]
        action = rng.choice(state.legal_actions(actor))
        after = state.clone()
        after.apply(actor, action)
        for viewer in [None, *range(players)]:
            base = viewer if viewer is not None else (actor + 1) % players
            other = state.determinize(base, rng)
            if action not in other.legal_actions(actor):
                continue
            other_after = other.clone()
            other_after.apply(actor, action)
            if canonical(other_after.view(viewer)) != canonical(after.view(viewer)):
                continue  # chance drew something the viewer sees: not a hidden difference
            told = story.narrate(state, after, viewer)
            assert told == story.narrate(other, other_after, viewer), (viewer, told)
            assert story.summary(state, after, viewer) == story.summary(other, other_after, viewer)
            compared += 1
            if canonical(other.view(ALL)) != canonical(state.view(ALL)):
                differing += 1
        state = after
    assert compared >= 20
    if cls.info.hidden_information and players > 1:
        assert differing > 0, "no pair of states differed in hidden cards"


@pytest.mark.parametrize(
    ("game", "players"), GAME_COUNTS, ids=[f"{g}-{n}p" for g, n in GAME_COUNTS]
)
def test_item6_score_breakdown_adds_up_to_each_score(game: str, players: int) -> None:
    state = get_game(game).new(players, seed=5)
    rng = random.Random(5)
    while not state.is_terminal():
        seat = state.to_act()[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    breakdown = story.score_breakdown(state, None)
    for name, total in state.result()["scores"].items():
        seat = breakdown["seats"][name]
        assert seat["total"] == total
        assert sum(row["points"] for row in seat["rows"]) == pytest.approx(total)
        assert all(row["label"] for row in seat["rows"])


def test_item6_F6_facade_reveal_tells_bids_winners_and_a_tie() -> None:
    state = get_game("facade").new(2, {"first_bidder": "p1"}, seed=1)
    a, b, c, d = state.view(0)["supply"]
    # p1 (hearts) and p2 (clubs) alternate; on a both bid 4 (K against Q): a tie.
    plan = [
        (0, f"bid KH {a}"),
        (1, f"bid QC {a}"),
        (0, f"bid AH {b}"),
        (1, f"bid KC {b}"),
        (0, f"bid JH {c}"),
        (1, f"bid AC {c}"),
        (0, f"bid QH {d}"),
    ]
    for seat, text in plan:
        _step(state, seat, text)
    before, after = _step(state, 1, f"bid JC {d}")
    told = story.narrate(before, after, None)
    assert "The bids are turned up." in told
    assert (
        f"{a}: p1 KH (4), p2 QC (4) — a tie at 4 between p1 and p2; it stays in the supply." in told
    )
    assert f"{b}: p1 AH (1), p2 KC (4) — p2 takes it." in told
    assert f"{c}: p1 JH (2), p2 AC (1) — p1 takes it." in told
    assert f"{d}: p1 QH (4), p2 JC (2) — p1 takes it." in told
    # Before the reveal, a bid tells only where it lies.
    assert story.narrate(
        *_step(get_game("facade").new(2, {"first_bidder": "p1"}, seed=1), 0, f"bid KH {a}"), 1
    ) == [f"p1 puts a bid card face down on {a}."]


def test_item6_P5_corporation_round_tells_cards_corporations_defection_and_rewards() -> None:
    state = get_game("corporation").new(4, seed=1)
    for seat, v in ((0, 3), (1, 3), (2, 1)):
        _step(state, seat, f"play {v}")
    before, after = _step(state, 3, "play 2")
    told = story.narrate(before, after, 0)
    assert told[1] == "Round 1 revealed: p1 3, p2 3, p3 A, p4 2."
    assert any("p1 and p2 form a Corporation of 3s" in t for t in told)
    assert told[-1] == "Points: p3 +1, p4 +2."
    stuck = after.clone()
    for seat, v in ((0, 4), (1, 4), (2, 1)):
        _step(stuck, seat, f"play {v}")
    told = story.narrate(*_step(stuck, 3, "play 2"), None)
    assert "The Corporation of 3s (p1 and p2) stuck together on 4: +8 each." in told
    broke = after.clone()
    for seat, v in ((0, 4), (1, 2), (2, 1)):
        _step(broke, seat, f"play {v}")
    told = story.narrate(*_step(broke, 3, "play 3"), None)
    assert "The Corporation of 3s (p1 and p2) broke up: p1 played 4, p2 played 2." in told
    rows = story.score_breakdown(broke, None)["seats"]["p1"]["rows"]
    assert {"label": "round 2: lone 4", "points": 4} in rows


def test_item6_N6_notorious_game_end_turns_cards_up_and_names_the_disqualified() -> None:
    state = get_game("notorious").new(3, {"games": 2}, seed=4)
    rng = random.Random(4)
    while True:
        seat = state.to_act()[0]
        before = state.clone()
        state.apply(seat, rng.choice(state.legal_actions(seat)))
        if len(state.view(None)["past_games"]) == 1:
            break
    game = state.view(None)["past_games"][0]
    told = story.narrate(before, state, 1)
    assert told[1] == "Game 1 is over."
    face_down = [
        f"{c['card']} (from {c['by']})"
        for lying in game["in_front"].values()
        for c in lying
        if not c["up"]
    ]
    turned = next(t for t in told if t.startswith("The face-down cards are turned up"))
    assert all(card in turned for card in face_down)
    dq = game["disqualified"]
    assert any(t.startswith(" and ".join(dq)) and "disqualified" in t for t in told)
    assert story.summary(before, state, 1) == told[1:]  # a summary screen before game 2
    assert any(t.startswith("Game 2 begins") for t in told)


def test_item6_C5_cabin_names_sea_cards_squid_and_sinking_cards() -> None:
    squid_told = sink_told = washed = False
    for seed in range(40):
        state = get_game("cabin").new(1, {"stacks": 1}, seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            before = state.clone()
            legal = state.legal_actions(0)
            # Empty the cabin and the beach early, so the sea's last cards can only sink.
            eager = [a for a in legal if state.action_to_string(0, a).startswith("anchor ")]
            state.apply(0, rng.choice(eager or legal))
            told = " ".join(story.narrate(before, state, 0))
            lost = len(state.view(0)["squid"]) - len(before.view(0)["squid"])
            if lost:
                card = state.view(0)["squid"][0]
                assert "The squid takes the " in told and f"({card})" in told
                squid_told = True
            if "sinks to the deep sea" in told:
                sink_told = True
            if "The sea washes up the" in told:
                washed = True
        if squid_told and washed:
            break
    # C3's last case (a sea card sinking by itself) needs the cabin and the beach empty
    # (28 cards) before the sea (23): dealt games hardly reach it, so it is not required.
    assert squid_told and washed
    del sink_told
    rows = story.score_breakdown(state, 0)["seats"]["p1"]["rows"]
    assert rows and all("squid" in r["label"] for r in rows)


def test_item6_solo_result_reads_as_one_and_hints_speak_the_players_language() -> None:
    assert story.solo_result(17, "squid points", 42, 12) == (
        "17 squid points — deal 42; your best on this deal: 12"
    )
    state = get_game("facade").new(2, {"first_bidder": "p1"}, seed=1)
    supply = state.view(0)["supply"]
    a, b = f"bid KH {supply[0]}", f"bid AH {supply[1]}"
    hint = Hint(state.parse_action(0, a), a, "search figures", values={a: 2.4, b: 1.0})
    told = story.explain_hint(state, 0, hint)
    assert told.sentence.startswith(f"puts your KH (worth 4) on {supply[0]}")
    assert told.sentence.endswith("expected +1.4 points over the next best")
    assert told.figures == "search figures"


def test_item6_L7_lonely_face_hint_names_the_pair_a_move_makes() -> None:
    from decklab.games.lonely_face.story import explain_action

    view = {
        "grid": [
            ["QH", "2C", "3D", "4S"],
            ["5H", "KS", "7D", "8C"],
            ["9S", "TD", "JC", "AH"],
            ["2D", "3C", "4D", "5S"],
        ]
    }
    # QH at a1 and KS at b2 are not neighbours; flipping a1 with b1 puts QH next to KS.
    assert explain_action(view, "flip a1 b1") == (
        "flips a1 and b1 to make the pair QH KS at b1 b2 (+3)"
    )
    assert explain_action(view, "take a1 a2") == "takes the pair QH 5H now (+1)"
    assert explain_action(view, "swap 6S a4").startswith("swaps your 6S for the 2D at a4")


def test_item6_C3_cabin_story_names_a_card_that_sinks_and_a_card_taken() -> None:
    """C3's last case cannot arise from a dealt game (the cabin and the beach hold more
    cards than the sea), so the hook is given the two views directly: it reads nothing else."""
    from decklab.games.cabin import story as cabin_story

    base = {
        "card": "9C",
        "card_from": "sea",
        "sea": 3,
        "deep": ["2S"],
        "squid": [],
        "squid_points": 0,
        "beach": {"count": 0, "seen": [], "hidden": 0},
        "stacks": {},
        "stacks_allowed": 8,
        "terminal": False,
    }
    after = {**base, "card": "7H", "sea": 1, "deep": ["4D", "2S"]}
    moment = story.Moment(base, after, (story.Move("p1", "build 9C s1"),), "", "p1")
    told = cabin_story.narrate(moment)
    assert "The four of diamonds (4D) can go nowhere and sinks to the deep sea (C3)." in told
    assert "The sea washes up the seven of hearts (7H)." in told
    taken = {**base, "card": "5H", "card_from": "cabin", "sea": 2, "deep": ["9C", "2S"]}
    told = cabin_story.narrate(
        story.Moment(base, taken, (story.Move("p1", "anchor cabin"),), "", "p1")
    )
    assert told == ["From the cabin pile comes the five of hearts (5H): it must be built (C3)."]
