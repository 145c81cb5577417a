"""Notorious: one test per ruling (RULINGS.md N1–N10), records, hidden information, options."""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from decklab import cards
from decklab.engine import checks, records
from decklab.engine.chance import Rng
from decklab.engine.errors import IllegalAction, OptionError, RecordError, SetupError
from decklab.engine.state import ALL, CHANCE
from decklab.games.notorious.state import PLAY, NotoriousState

RECORDS = Path(__file__).parent / "records"


def deck_for(n: int, hands: list[str], lead: int = 0, pack: str = "") -> str:
    """A setup deck (top first) that deals ``hands`` (one string per seat) with this lead-off.

    The pack starts with ``pack`` (top first); the rest of the deck(s) follows.
    """
    held = [cards.parse_many(h) for h in hands]
    size = len(held[0])
    assert all(len(h) == size for h in held)
    deck = [held[(lead + i) % n][i // n] for i in range(n * size)]
    deck += cards.parse_many(pack)
    rest = Counter(cards.deck() * (1 if n <= 7 else 2))
    rest.subtract(deck)
    assert all(v >= 0 for v in rest.values()), "a card used too often"
    for c in cards.deck():
        deck += [c] * rest[c]
    return cards.format_many(deck)


def make(n: int, hands: list[str], lead: int = 0, pack: str = "", **options: Any) -> NotoriousState:
    size = len(hands[0].split())
    opts: dict[str, Any] = {"games": 1, "rounds": 1, "hand_size": size, **options}
    setup = {"lead_off": f"p{lead + 1}", "deck": deck_for(n, hands, lead, pack)}
    return NotoriousState.from_setup(n, opts, setup)


def act(state: NotoriousState, *lines: str) -> None:
    """Apply 'pN text' lines, checking each actor is the one to act."""
    for line in lines:
        who, _, text = line.partition(" ")
        seat = int(who[1:]) - 1
        assert state.to_act() == (seat,), (line, state.to_act())
        state.apply(seat, state.parse_action(seat, text))
        state.check_invariants()


def legal_texts(state: NotoriousState, seat: int) -> list[str]:
    return [state.action_to_string(seat, a) for a in state.legal_actions(seat)]


# ------------------------------------------------------------------ N1
def test_N1_one_deck_up_to_seven_players() -> None:
    for n in (3, 7):
        s = NotoriousState.new(n, seed=1)
        assert len(s.export_setup()["deck"].split()) == 52
        s.check_invariants()


def test_N1_two_decks_for_eight_or_more() -> None:
    s = NotoriousState.new(8, seed=1)
    deck = s.export_setup()["deck"].split()
    assert len(deck) == 104
    assert Counter(deck) == Counter({cards.to_str(c): 2 for c in cards.deck()})
    s.check_invariants()


def test_N1_duplicate_cards_give_one_action_each() -> None:
    hands = [
        "7H 7H 2C",
        "3S 4S 5S",
        "3D 4D 5D",
        "3C 4C 5C",
        "6S 6D 6C",
        "8S 8D 8C",
        "9S 9D 9C",
        "TS TD TC",
    ]
    s = make(8, hands, rounds=1)
    legal = legal_texts(s, 0)
    assert len(legal) == len(set(legal)) == 2 * 8 * 2  # two distinct cards, 8 targets, up/down
    act(s, "p1 play 7H p2 up")
    assert s.hands[0] == cards.parse_many("7H 2C")  # the other copy stays in hand
    s.check_invariants()


def test_N1_setup_must_be_two_full_decks_for_eight() -> None:
    one = " ".join(cards.to_str(c) for c in cards.deck())
    with pytest.raises(SetupError, match="52 cards, not 104"):
        NotoriousState.from_setup(8, {}, {"lead_off": "p1", "deck": one})
    wrong = one + " " + one.replace("AS", "KH")
    with pytest.raises(SetupError, match="too many KH; missing AS"):
        NotoriousState.from_setup(8, {}, {"lead_off": "p1", "deck": wrong})


# ------------------------------------------------------------------ N2
def test_N2_deal_one_card_at_a_time_from_the_lead_off() -> None:
    deck = [cards.to_str(c) for c in cards.deck()]
    s = NotoriousState.from_setup(4, {}, {"lead_off": "p3", "deck": " ".join(deck)})
    # Position i goes to seat (lead + i) % n: p3 gets deck[0], deck[4], …
    assert [cards.to_str(c) for c in s.hands[2]] == sorted(deck[0:28:4], key=cards.parse)
    assert [cards.to_str(c) for c in s.hands[3]] == sorted(deck[1:28:4], key=cards.parse)
    assert [cards.to_str(c) for c in s.hands[0]] == sorted(deck[2:28:4], key=cards.parse)
    assert all(len(h) == 7 for h in s.hands)
    assert len(s.pack) == 52 - 28
    assert s.view(ALL)["pack"] == deck[28:]  # top first


@pytest.mark.parametrize("n", range(3, 11))
def test_N2_every_seat_is_dealt_its_cards_of_the_deck_sorted(n: int) -> None:
    # With one deck (n <= 7) and two (N1), at every table size: seat (lead + k) % n
    # holds the cards deck[k::n], sorted.
    for seed in range(4):
        s = NotoriousState.new(n, {"hand_size": 52 * (1 if n <= 7 else 2) // n}, seed=seed)
        deck = [cards.parse(t) for t in s.export_setup()["deck"].split()]
        dealt = n * s.hand_size
        for k in range(n):
            assert s.hands[(s.lead + k) % n] == sorted(deck[k:dealt:n])
        s.check_invariants()


def test_N2_hand_size_option() -> None:
    s = NotoriousState.new(5, {"hand_size": 9}, seed=2)
    assert all(len(h) == 9 for h in s.hands)
    assert len(s.pack) == 52 - 45


def test_N2_later_games_are_recorded_shuffles() -> None:
    s = NotoriousState.new(3, {"games": 2, "rounds": 1, "hand_size": 1}, seed=5)
    rng = random.Random(0)
    while s.game == 1:
        seat = s.to_act()[0]
        s.apply(seat, rng.choice(s.legal_actions(seat)))
    chance = [text for actor, text in s.history if actor == CHANCE]
    assert len(chance) == 1 and chance[0].startswith("shuffle ")
    # The line names the new game's lead-off (N8, public), then the deck top first.
    assert chance[0].split()[1] == f"lead=p{s.lead + 1}"
    deck = chance[0].split()[2:]
    assert Counter(deck) == Counter(cards.to_str(c) for c in cards.deck())
    dealt = [cards.to_str(c) for h in s.hands for c in h]
    assert sorted(dealt) == sorted(deck[:3])
    assert s.view(ALL)["pack"] == deck[3:]
    s.check_invariants()


def test_N2_shuffle_outcome_must_be_a_permutation() -> None:
    s = NotoriousState.new(3, {"games": 2, "rounds": 1, "hand_size": 1}, seed=5)
    checks.random_playout(s, random.Random(1))
    record = records.make_record(s)
    i = next(k for k, line in enumerate(record["actions"]) if line.startswith("chance "))
    good = record["actions"][i]
    for bad in (good.replace("AS", "KH"), good.rsplit(" ", 1)[0], good + " ZZ"):
        broken = dict(record, actions=[*record["actions"][:i], bad, *record["actions"][i + 1 :]])
        with pytest.raises(RecordError, match="bad chance outcome"):
            records.replay(broken)


def test_N2_match_is_games_games_of_rounds_rounds() -> None:
    s = NotoriousState.new(4, {"games": 3, "rounds": 2}, seed=9)
    checks.random_playout(s, random.Random(2))
    assert len(s.past) == 3
    assert all(len(p[1]) == 2 * 4 for p in s.past)  # rounds × players plays per game
    assert sum(1 for a, _ in s.history if a == CHANCE) == 2  # games 2 and 3 were shuffled


def test_N2_deals_come_from_the_engine_shuffle() -> None:
    # One shuffle for every game: the deal is the engine's Rng.shuffle of the deck.
    for seed in range(5):
        s = NotoriousState.new(4, seed=seed)
        rng = Rng(seed)
        lead = rng.below(4)
        deck = cards.deck()
        rng.shuffle(deck)
        assert s.export_setup() == NotoriousState.new(4, seed=seed).export_setup()
        assert s.lead == lead
        assert s.export_setup()["deck"] == " ".join(cards.to_str(c) for c in deck)
    # Later games' shuffles use the same generator: permutations of the deck(s) that vary.
    rng = Rng(4)
    seen = set()
    for _ in range(50):
        deck = cards.deck() * 2
        rng.shuffle(deck)
        assert sorted(deck) == sorted(cards.deck() * 2)
        seen.add(tuple(deck))
    assert len(seen) == 50


# ------------------------------------------------------------------ N3
def test_N3_clockwise_from_lead_off_any_target_any_face() -> None:
    s = make(4, ["AS 2S", "AH 2H", "AD 2D", "AC 2C"], lead=2, rounds=2)
    assert s.to_act() == (2,)
    legal = legal_texts(s, 2)
    assert legal[:8] == [
        "play AD p1 up",
        "play AD p1 down",
        "play AD p2 up",
        "play AD p2 down",
        "play AD p3 up",
        "play AD p3 down",
        "play AD p4 up",
        "play AD p4 down",
    ]
    assert len(legal) == 16
    act(s, "p3 play AD p3 up", "p4 play AC p1 down", "p1 play AS p4 up", "p2 play AH p2 down")
    assert s.round == 2 and s.to_act() == (2,)  # the lead-off starts every round


@pytest.mark.parametrize("n", [3, 4, 8, 10])
def test_N3_play_actions_follow_the_hand_through_whole_matches(n: int) -> None:
    # Each seat's list is kept from play to play (one card's run cut out), shared with
    # clones: at every decision it must be what the hand gives afresh, in its order, and
    # a clone taken before the play must keep its own.
    rng = random.Random(n)
    for seed in range(6):
        s = NotoriousState.new(n, {"games": 2, "hand_size": 9}, seed=seed)
        while not s.is_terminal():
            seat = s.to_act()[0]
            legal = s.legal_actions(seat)
            if s.phase == PLAY:
                fresh = [
                    (c << 5) | (t << 1) | down
                    for c in sorted(set(s.hands[seat]))
                    for t in range(n)
                    for down in (0, 1)
                ]
                assert legal == fresh
            before = list(legal)
            twin = s.clone()
            s.apply(seat, rng.choice(legal))
            assert legal == before  # a list handed out is never changed
            assert twin.legal_actions(seat) == before


def test_N3_face_down_value_known_only_to_its_player() -> None:
    s = make(3, ["KS 2S", "AH 2H", "AD 2D"], rounds=2)
    act(s, "p1 play KS p2 down")
    entry = {"card": "KS", "up": False, "round": 1, "by": "p1"}
    assert s.view(0)["in_front"]["p2"] == [entry]
    hidden = dict(entry, card="??")
    assert s.view(1)["in_front"]["p2"] == [hidden]  # where it lies is public, not what it is
    assert s.view(2)["in_front"]["p2"] == [hidden]
    assert s.view(None)["in_front"]["p2"] == [hidden]
    assert s.view(1)["game_scores"] is None  # a score would give the value away
    assert "KS" not in s.render(1) and "KS" not in s.render(None)


# ------------------------------------------------------------------ N4
def test_N4_bonus_is_six_minus_round_for_face_up_cards() -> None:
    s = make(3, ["AS 2S 3S 4S 5S", "AH 2H 3H 4H 5H", "AD 2D 3D 4D 5D"], rounds=5)
    for r in range(5):
        face = "up" if r != 2 else "down"
        act(
            s,
            f"p1 play {'A2345'[r]}S p2 {face}",
            f"p2 play {'A2345'[r]}H p2 down",
            f"p3 play {'A2345'[r]}D p3 down",
        )
    # p2 received face-up cards in rounds 1, 2, 4, 5: 5 + 4 + 2 + 1.
    assert s.past[0][3] == (0, 12, 0)


def test_N4_bonus_with_the_rounds_option() -> None:
    s = make(3, ["AS 2S", "AH 2H", "AD 2D"], rounds=2)
    act(s, "p1 play AS p1 up", "p2 play AH p1 up", "p3 play AD p3 down")
    assert s.bonus == [4, 0, 0]  # rounds + 1 - 1 twice
    act(s, "p1 play 2S p1 up", "p2 play 2H p2 down", "p3 play 2D p3 down")
    assert s.past[0][3] == (5, 0, 0)  # + (rounds + 1 - 2)


def test_N4_bonus_counts_even_for_the_disqualified() -> None:
    s = make(3, ["KS", "AH", "2D"])
    act(s, "p1 play KS p1 up", "p2 play AH p2 down", "p3 play 2D p3 down")
    assert s.past[0][5] == (0,)  # p1 disqualified (10 is the highest)
    assert s.scores() == [1.0, 1.0, 2.0]  # p1 keeps its bonus of 1 (rounds=1)


# ------------------------------------------------------------------ N5
def test_N5_face_values_up_and_down() -> None:
    hands = ["AS 2S 3S 4S", "TH JH QH KH", "5D 6D 7D 8D"]
    s = make(3, hands, rounds=4)
    for r in range(4):
        act(
            s,
            f"p1 play {hands[0].split()[r]} p3 {'up' if r % 2 else 'down'}",
            f"p2 play {hands[1].split()[r]} p1 down",
            f"p3 play {hands[2].split()[r]} p2 down",
        )
    assert s.past[0][4] == (40, 26, 10)  # TJQK = 40; 5+6+7+8 = 26; A+2+3+4 = 10


# ------------------------------------------------------------------ N6
def test_N6_single_highest_scores_nothing_others_add() -> None:
    s = make(4, ["9S", "8H", "7D", "6C"])
    act(s, "p1 play 9S p2 down", "p2 play 8H p3 down", "p3 play 7D p4 down", "p4 play 6C p1 down")
    assert s.past[0][4] == (6, 9, 8, 7)
    assert s.past[0][5] == (1,)
    assert s.scores() == [6.0, 0.0, 8.0, 7.0]
    assert s.is_terminal() and s.winners() == [2]


# ------------------------------------------------------------------ N7
def test_N7_two_tied_each_gives_one_card_in_turn_order() -> None:
    s = make(3, ["5S 3D 9D", "5H 4D 8D", "2C 3C 4C"], lead=0)
    act(s, "p1 play 5S p1 up", "p2 play 5H p2 up", "p3 play 2C p3 down")
    assert s.phase == 1 and s.tied == [0, 1] and s.to_act() == (0,)
    assert s.view(2)["game_scores"] == {"p1": 5, "p2": 5, "p3": 2}  # all revealed now
    assert legal_texts(s, 0) == ["give 3D p2", "give 9D p2"]  # any hand card, to the other
    act(s, "p1 give 3D p2")
    assert s.to_act() == (1,)  # the pass goes on before anything is recomputed
    assert legal_texts(s, 1) == ["give 4D p1", "give 8D p1"]
    act(s, "p2 give 4D p1")
    assert s.is_terminal()
    assert s.past[0][4] == (9, 8, 2) and s.past[0][5] == (0,)


def test_N7_tiebreak_card_stays_with_the_eventual_second_place() -> None:
    s = make(3, ["5S 3D 9D", "5H 4D 8D", "2C 3C 4C"], lead=0)
    act(
        s,
        "p1 play 5S p1 up",
        "p2 play 5H p2 up",
        "p3 play 2C p3 down",
        "p1 give 3D p2",
        "p2 give 4D p1",
    )
    # p1 (9) is disqualified; p2 keeps the 3D p1 gave it: 5 + 3 = 8, plus bonus 1.
    assert s.scores() == [1.0, 9.0, 2.0]
    assert s.view(None)["past_games"][0]["in_front"]["p2"][-1] == {
        "card": "3D",
        "up": True,
        "tiebreak": True,
        "by": "p1",
        "from": "hand",
    }


def test_N7_still_tied_repeat_with_the_last_hand_card() -> None:
    s = make(3, ["5S 3D 9D", "5H 3H 8D", "2C 3C 4C"], lead=0)
    act(
        s,
        "p1 play 5S p1 up",
        "p2 play 5H p2 up",
        "p3 play 2C p3 down",
        "p1 give 3D p2",
        "p2 give 3H p1",
    )
    assert s.tied == [0, 1] and s.to_act() == (0,)  # 8 each: a second pass
    assert legal_texts(s, 0) == ["give 9D p2"]  # one legal action is still a decision
    act(s, "p1 give 9D p2", "p2 give 8D p1")
    assert s.past[0][4] == (16, 17, 2) and s.past[0][5] == (1,)
    assert s.scores() == [1.0 + 16, 1.0, 2.0]


def test_N7_three_tied_choose_target_and_card() -> None:
    s = make(3, ["5S 2S 3S", "5H 4H 6H", "5D AD 7D"], lead=1)
    act(s, "p2 play 5H p2 up", "p3 play 5D p3 up", "p1 play 5S p1 up")
    assert s.tied == [1, 2, 0]  # turn order from the lead-off p2
    assert legal_texts(s, 1) == ["give 4H p3", "give 4H p1", "give 6H p3", "give 6H p1"]
    act(s, "p2 give 6H p1")
    assert legal_texts(s, 2) == ["give AD p2", "give AD p1", "give 7D p2", "give 7D p1"]
    act(s, "p3 give AD p2")
    assert legal_texts(s, 0) == ["give 2S p2", "give 2S p3", "give 3S p2", "give 3S p3"]
    with pytest.raises(IllegalAction, match="another tied player"):
        s.parse_action(0, "give 2S p1")
    act(s, "p1 give 3S p2")
    # p1 11, p2 9, p3 5: p1 alone is highest.
    assert s.past[0][4] == (11, 9, 5) and s.past[0][5] == (0,)


def test_N7_tied_set_shrinks_to_those_still_tied() -> None:
    s = make(4, ["5S 2S 3S", "5H 2H 4H", "5D 2D 3D", "AC 2C 3C"], lead=0)
    act(s, "p1 play 5S p1 up", "p2 play 5H p2 up", "p3 play 5D p3 up", "p4 play AC p4 up")
    assert s.tied == [0, 1, 2]
    act(s, "p1 give 2S p2", "p2 give 2H p3", "p3 give 2D p1")
    assert s.tied == [0, 1, 2] and s.gscore[:3] == [7, 7, 7]  # all still tied
    act(s, "p1 give 3S p3", "p2 give 4H p1", "p3 give 3D p1")
    # p1 14, p2 7, p3 10 → p1 alone.
    assert s.past[0][5] == (0,)
    s2 = make(4, ["5S 2S 3S", "5H 2H 4H", "5D 2D 3D", "AC 2C 3C"], lead=0)
    act(
        s2,
        "p1 play 5S p1 up",
        "p2 play 5H p2 up",
        "p3 play 5D p3 up",
        "p4 play AC p4 up",
        "p1 give 2S p2",
        "p2 give 4H p3",
        "p3 give 2D p2",
    )
    # p1 5, p2 9, p3 9: only p2 and p3 are still tied; p1 is out of the tie-break.
    assert s2.tied == [1, 2] and s2.to_act() == (1,)
    assert legal_texts(s2, 1) == ["give 2H p3"]


def test_N7_no_hand_card_left_draws_the_top_of_the_pack() -> None:
    s = make(3, ["5S", "5H", "2C"], pack="7D 7C KS 9H")
    act(s, "p1 play 5S p1 up", "p2 play 5H p2 up", "p3 play 2C p3 down")
    assert s.to_act() == (0,) and s.hands[0] == []
    assert s.view(0)["drawn"] == "7D"  # the drawer sees its card …
    assert s.view(1)["drawn"] is None and s.view(1)["drawn_by"] == "p1"  # … the others don't
    assert s.view(None)["pack_count"] == 52 - 3 - 1
    assert legal_texts(s, 0) == ["give 7D p2"]
    act(s, "p1 give 7D p2", "p2 give 7C p1")  # 12 each: another pass
    act(s, "p1 give KS p2", "p2 give 9H p1")
    assert s.past[0][4] == (21, 22, 2) and s.past[0][5] == (1,)
    assert s.past[0][2][0] == (0, cards.parse("7D"), 1, True)


def test_N7_pack_runs_out_everyone_still_tied_is_disqualified() -> None:
    spades = " ".join(cards.to_str(cards.card(r, 0)) for r in range(13, 0, -1))
    hearts = spades.replace("S", "H")
    s = make(
        4,
        [spades, hearts, cards.format_many(cards.deck([2])), cards.format_many(cards.deck([3]))],
        lead=1,
        games=2,
    )
    assert len(s.pack) == 0
    act(s, "p2 play KH p2 up", "p3 play AD p3 up", "p4 play AC p4 up", "p1 play KS p1 up")
    assert s.tied == [1, 0]
    for r in range(12, 0, -1):  # equal cards both ways: still tied after every pass
        face = cards.RANK_LETTERS[r - 1]
        act(s, f"p2 give {face}H p1", f"p1 give {face}S p2")
    # p2 is first to give again: no hand card, no pack → both disqualified (N7) …
    assert s.past[0][5] == (1, 0)
    assert s.scores() == [1.0, 1.0, 1.0 + 1, 1.0 + 1]
    # … and the next lead-off is the first of them in turn order from p2 (N8).
    assert s.game == 2 and s.lead == 1 and s.to_act() == (1,)


def test_N7_pack_running_out_mid_pass_disqualifies_the_highest_then() -> None:
    # 3 × 17 = 51 cards dealt: a one-card pack (KC).
    p1 = cards.format_many(cards.deck([0]) + cards.parse_many("AD 2D 3D 4D"))
    p2 = cards.format_many(cards.deck([1]) + cards.parse_many("AC 2C 3C 4C"))
    p3 = "5D 6D 7D 8D 9D TD JD QD KD 5C 6C 7C 8C 9C TC JC QC"
    s = make(3, [p1, p2, p3], pack="KC")
    act(s, "p1 play KS p1 up", "p2 play KH p2 up", "p3 play 5D p3 down")
    pairs = [
        (cards.to_str(a), cards.to_str(b)) for a, b in zip(s.hands[0], s.hands[1], strict=True)
    ]
    for mine, theirs in pairs:
        act(s, f"p1 give {mine} p2", f"p2 give {theirs} p1")
    assert s.gscore[0] == s.gscore[1] and s.view(0)["drawn"] == "KC"
    act(s, "p1 give KC p2")
    # p2 must draw but the pack is empty: p2 alone is highest, so only p2 is out.
    assert s.is_terminal() and s.past[0][5] == (1,)


# ------------------------------------------------------------------ N8
def test_N8_disqualified_player_leads_off_next_game() -> None:
    s = make(4, ["9S", "8H", "7D", "6C"], games=2)
    act(s, "p1 play 9S p2 down", "p2 play 8H p3 down", "p3 play 7D p4 down", "p4 play 6C p1 down")
    assert s.game == 2 and s.lead == 1 and s.to_act() == (1,)
    assert s.view(None)["lead_off"] == "p2"


def test_N8_lead_off_option_and_random_draw() -> None:
    s = NotoriousState.new(5, {"lead_off": "p4"}, seed=1)
    assert s.lead == 3 and s.export_setup()["lead_off"] == "p4" and s.to_act() == (3,)
    leads = {NotoriousState.new(5, seed=k).export_setup()["lead_off"] for k in range(40)}
    assert leads == {"p1", "p2", "p3", "p4", "p5"}  # drawn at random, written into the setup
    with pytest.raises(SetupError, match="contradicts"):
        NotoriousState.from_setup(5, {"lead_off": "p2"}, {**s.export_setup(), "lead_off": "p3"})


# ------------------------------------------------------------------ N9
def test_N9_highest_match_total_wins_ties_share() -> None:
    s = make(4, ["9S", "8H", "7D", "7C"])
    act(s, "p1 play 9S p1 down", "p2 play 8H p2 down", "p3 play 7D p3 down", "p4 play 7C p4 down")
    assert s.scores() == [0.0, 8.0, 7.0, 7.0] and s.winners() == [1]
    t = make(4, ["9S", "7H", "7D", "AC"])
    act(t, "p1 play 9S p1 down", "p2 play 7H p2 down", "p3 play 7D p3 down", "p4 play AC p4 down")
    assert t.winners() == [1, 2] and t.result()["winners"] == ["p2", "p3"]


# ------------------------------------------------------------------ N10
def test_N10_designer_example_rounds_1_2_4_give_11() -> None:
    s = make(3, ["AS 2S 3S 4S 5S", "AH 2H 3H 4H 5H", "AD 2D 3D 4D 5D"], rounds=5)
    faces = ["up", "up", "down", "up", "down"]
    for r in range(5):
        rank = "A2345"[r]
        act(
            s,
            f"p1 play {rank}S p1 {faces[r]}",
            f"p2 play {rank}H p2 down",
            f"p3 play {rank}D p3 down",
        )
    assert s.bonus[0] == 5 + 4 + 2 == 11
    assert s.totals[0] == 11  # in the match total at once, tie-break or not (N4)


# ------------------------------------------------------------- hidden info
def test_hidden_face_down_card_never_leaks() -> None:
    s = make(3, ["QS 2S", "AH 2H", "AD 2D"], rounds=2, games=2)
    act(s, "p1 play QS p3 down")
    for viewer in (1, 2, None):
        assert "QS" not in checks.canonical(s.view(viewer))
        rec = records.make_record(s, viewer=viewer, date="-")
        assert "QS" not in json.dumps(rec["actions"]) and "QS" not in json.dumps(rec["setup"])
    assert records.make_record(s, viewer=1, date="-")["actions"] == ["p1 play ?? p3 down"]
    assert records.make_record(s, viewer=0, date="-")["actions"] == ["p1 play QS p3 down"]
    # p2 names the hidden card in an illegal action: the message only speaks of p2's hand.
    with pytest.raises(IllegalAction) as err:
        s.parse_action(1, "play QS p1 up")
    assert str(err.value).endswith("p2 holds no QS")
    with pytest.raises(IllegalAction) as err:
        s.apply(1, (cards.parse("QS") << 5) | 1)
    assert str(err.value) == "p2 cannot play 'play QS p1 down': p2 holds no QS"
    # Once the game ends, the card is public.
    act(
        s,
        "p2 play AH p2 up",
        "p3 play AD p3 up",
        "p1 play 2S p1 up",
        "p2 play 2H p2 up",
        "p3 play 2D p3 up",
    )
    rec = records.make_record(s, viewer=1, date="-")
    assert rec["actions"][0] == "p1 play QS p3 down"
    # The next deal stays hidden; its lead-off (N8, the disqualified seat) is public.
    assert rec["actions"][6] == f"chance shuffle lead=p{s.lead + 1} ??"


def test_hidden_redacted_setup_shows_only_own_cards() -> None:
    s = NotoriousState.new(4, seed=8)
    setup = s.export_setup()
    mine = s.redact_setup(setup, 0)["deck"].split()
    assert sorted(t for t in mine if t != "??") == sorted(cards.to_str(c) for c in s.hands[0])
    assert set(s.redact_setup(setup, None)["deck"].split()) == {"??"}


def test_hidden_determinize_resamples_consistently() -> None:
    s = make(3, ["QS 2S 3S", "AH 2H 3H", "AD 2D 3D"], rounds=2, games=2)
    act(s, "p1 play QS p3 down", "p2 play AH p2 down")
    rng = random.Random(3)
    seen = set()
    for _ in range(30):
        d = s.determinize(1, rng)
        d.check_invariants()
        assert d.hands[1] == s.hands[1] and d.plays[1] == s.plays[1]  # p2's own play kept
        assert checks.canonical(d.view(1)) == checks.canonical(s.view(1))
        seen.add(d.plays[0] >> 5)
        assert d.history[0] == (0, d.plays[0])  # history follows the resampled card
    assert len(seen) > 5


def test_hidden_determinize_rewrites_the_current_shuffle_line() -> None:
    s = NotoriousState.new(4, {"games": 2}, seed=4)
    rng = random.Random(0)
    while s.game == 1:
        seat = s.to_act()[0]
        s.apply(seat, rng.choice(s.legal_actions(seat)))
    for _ in range(3):
        seat = s.to_act()[0]
        s.apply(seat, rng.choice(s.legal_actions(seat)))
    d = s.determinize(0, random.Random(1))
    line = next(t for a, t in reversed(d.history) if a == CHANCE)
    assert line.split()[1] == f"lead=p{d.lead + 1}"
    deck = cards.parse_many(line.split()[2:])
    lead, n = d.lead, 4
    for seat in range(n):
        dealt = [deck[i] for i in range(28) if (lead + i) % n == seat]
        played = [a >> 5 for k, a in enumerate(d.plays) if d.order[k % n] == seat]
        assert sorted(dealt) == sorted(played + d.hands[seat])


# -------------------------------------------------------------- options
@pytest.mark.parametrize(
    ("n", "options", "message"),
    [
        (4, {"hand_size": 3}, "hand_size=3 is below rounds=5"),
        (4, {"hand_size": 14}, "do not fit in the 52-card deck"),
        (10, {"hand_size": 11}, "do not fit in the 104-card deck"),
        (4, {"games": 0}, "games=0 is below the minimum 1"),
        (4, {"rounds": 0}, "rounds=0 is below the minimum 1"),
        (4, {"lead_off": "p5"}, "no such seat"),
        (4, {"lead_off": "x"}, "is a seat such as p1"),
        (2, {}, "for 3–10 players"),
        (11, {}, "for 3–10 players"),
        (4, {"colour": 1}, "no option 'colour'"),
    ],
)
def test_bad_options_raise_option_error(n: int, options: dict[str, Any], message: str) -> None:
    with pytest.raises(OptionError, match=message):
        NotoriousState.new(n, options, seed=1)


def test_setup_errors_are_precise() -> None:
    good = NotoriousState.new(3, seed=1).export_setup()
    with pytest.raises(SetupError, match="unknown setup key"):
        NotoriousState.from_setup(3, {}, {**good, "hand": []})
    with pytest.raises(SetupError, match="not both"):
        NotoriousState.from_setup(3, {}, {**good, "hands": {}})
    with pytest.raises(SetupError, match="'ZZ' is not a card"):
        NotoriousState.from_setup(3, {}, {**good, "deck": good["deck"].replace("AS", "ZZ")})
    with pytest.raises(SetupError, match="too many KH; missing AS"):
        NotoriousState.from_setup(3, {}, {**good, "deck": good["deck"].replace("AS", "KH")})
    with pytest.raises(SetupError, match="needs 'lead_off'"):
        NotoriousState.from_setup(3, {}, {"deck": good["deck"]})
    with pytest.raises(SetupError, match="needs 'deck'"):
        NotoriousState.from_setup(3, {}, {"lead_off": "p1"})
    with pytest.raises(SetupError, match="no seat"):
        NotoriousState.from_setup(3, {}, {**good, "lead_off": "p4"})


# -------------------------------------------------------- action text
def test_action_text_is_case_insensitive_and_no_word_is_a_card() -> None:
    s = make(3, ["TH 2S", "AH 3S", "AD 4S"], rounds=2)
    a = s.parse_action(0, "PLAY 10h P2 Down")
    assert s.action_to_string(0, a) == "play TH p2 down"
    for word in ("play", "give", "up", "down", *(f"p{k}" for k in range(1, 11))):
        assert not cards.is_card_text(word)
    with pytest.raises(IllegalAction, match="write 'play CARD pN up'"):
        s.parse_action(0, "play TH p2 sideways")
    with pytest.raises(IllegalAction, match="p1 holds no 9S"):
        s.parse_action(0, "play 9S p2 up")
    with pytest.raises(IllegalAction, match="not p2's turn"):
        s.parse_action(1, "play AH p2 up")
    with pytest.raises(IllegalAction, match="no seat 'p4'"):
        s.parse_action(0, "play TH p4 up")
    with pytest.raises(IllegalAction, match="'give' is for the tie-break"):
        s.parse_action(0, "give TH p2")


def test_illegal_apply_changes_nothing() -> None:
    s = make(3, ["TH 2S", "AH 3S", "AD 4S"], rounds=2)
    before = checks.canonical(s.view(ALL))
    for seat, action in (
        (0, (cards.parse("9S") << 5) | 2),
        (1, cards.parse("AH") << 5),
        (0, 31),
        (0, -1),
    ):
        with pytest.raises(IllegalAction):
            s.apply(seat, action)
    assert checks.canonical(s.view(ALL)) == before and s.history == []


# ------------------------------------------------------------- records
def _record_files() -> list[Path]:
    return sorted(RECORDS.glob("notorious_*.json"))


def test_records_exist() -> None:
    names = {p.name for p in _record_files()}
    assert {
        "notorious_3p_short.json",
        "notorious_3p_tiebreak.json",
        "notorious_illegal.json",
    } <= names


def test_record_short_game_replays() -> None:
    state, applied = records.replay(records.load(RECORDS / "notorious_3p_short.json"))
    assert applied == 6 and state.is_terminal()
    assert state.scores() == [11.0, 1.0, 4.0]
    assert state.result()["winners"] == ["p1"]


def test_record_tiebreak_match_replays() -> None:
    record = records.load(RECORDS / "notorious_3p_tiebreak.json")
    state, applied = records.replay(record)
    assert applied == 11 and state.is_terminal()  # record lines, the chance line included
    assert state.scores() == [float(v) for v in record["result"]["scores"].values()]
    assert state.result() == record["result"]
    assert state.scores() == [19.0, 8.0, 2.0]


def test_record_illegal_action_is_reported() -> None:
    record = records.load(RECORDS / "notorious_illegal.json")
    with pytest.raises(RecordError) as err:
        records.replay(record)
    assert err.value.index == len(record["actions"]) - 1
    assert "p2 holds no KS" in err.value.reason


def test_records_roundtrip_through_make_record() -> None:
    for path in _record_files():
        if "illegal" in path.name:
            continue
        state, _ = records.replay(records.load(path))
        checks.check_record_roundtrip(state)
        checks.check_redacted_record(state)


def test_hidden_generic_checks_during_a_tiebreak_with_a_drawn_card() -> None:
    s = make(3, ["5S", "5H", "2C"], pack="7D 7C KS 9H", games=2)
    act(s, "p1 play 5S p1 up", "p2 play 5H p2 up", "p3 play 2C p3 down")
    assert s.drawn == cards.parse("7D")
    rng = random.Random(2)
    assert checks.check_no_leak(s, rng, samples=4)
    drawn = {s.determinize(1, rng).drawn for _ in range(20)}
    assert len(drawn) > 3  # p2 does not know what p1 drew
    assert {s.determinize(0, rng).drawn for _ in range(5)} == {s.drawn}  # p1 does
    checks.check_redacted_record(s)
    checks.check_illegal_changes_nothing(s, rng)
    checks.check_action_strings(s)
    with pytest.raises(IllegalAction, match="drew 7D from the pack and must give that card"):
        s.parse_action(0, "give KS p2")
    with pytest.raises(IllegalAction) as err:
        s.parse_action(1, "give 7D p1")
    assert "7D" not in err.value.reason  # p2's message names nothing p2 cannot see


def test_hidden_determinize_rewrites_every_deal_consistently() -> None:
    # Past games' decks (the setup and earlier shuffle lines) are resampled too: the
    # sample replays from its own setup and chance lines to exactly itself, keeps the
    # seat's own dealt hands, and no longer carries the true unseen cards' order.
    from collections import deque

    s = NotoriousState.new(4, {"games": 3}, seed=6)
    rng = random.Random(2)
    while s.game < 3 or len(s.plays) < 5:
        seat = s.to_act()[0]
        s.apply(seat, rng.choice(s.legal_actions(seat)))
    true_lines = [t for a, t in s.history if a == CHANCE]
    d = s.determinize(2, random.Random(9))
    walk = NotoriousState.from_setup(4, d.options, d.export_setup())
    walk._forced = deque(t for a, t in d.history if a == CHANCE)
    walk._strict_chance = True
    for actor, action in d.history:
        if actor != CHANCE:
            walk.history.append((actor, action))
            walk._apply(actor, action)
    assert checks.canonical(walk.view(ALL)) == checks.canonical(d.view(ALL))
    assert walk.history == d.history
    new_lines = [t for a, t in d.history if a == CHANCE]
    decks = [s.export_setup()["deck"], *(t.split(" ", 2)[2] for t in true_lines)]
    new_decks = [d.export_setup()["deck"], *(t.split(" ", 2)[2] for t in new_lines)]
    for g, (old, new) in enumerate(zip(decks, new_decks, strict=True)):
        lead = s.past[g][0] if g < len(s.past) else s.lead
        mine_old = old.split()[(2 - lead) % 4 : 28 : 4]
        mine_new = new.split()[(2 - lead) % 4 : 28 : 4]
        assert sorted(mine_old) == sorted(mine_new)  # p3's own dealt cards are kept
    assert new_decks != decks


def test_greedy_breaks_ties_from_its_own_seat_not_by_seat_number() -> None:
    """Equal plays go to the first seat after the player (itself first), at every seat.

    Ties once went to the lowest seat number, so with greedy everywhere p1 received
    the unwanted cards: 17.8–20.5% of the wins at 4 players (issue 20, docs/strength.md).
    """
    from decklab.games.notorious.greedy import best_of

    n = 4
    for seat in range(n):
        legal = [(7 << 5) | (t << 1) | down for t in range(n) for down in (0, 1)]
        level = dict.fromkeys(legal, 1.0)
        assert (best_of(level, legal, seat, n) >> 1) & 15 == seat
        others = {a: (0.0 if (a >> 1) & 15 == seat else 1.0) for a in legal}
        assert (best_of(others, legal, seat, n) >> 1) & 15 == (seat + 1) % n
        better = dict(others)
        better[legal[1]] = 2.0  # a strictly better move wins wherever it points
        assert best_of(better, legal, seat, n) == legal[1]
