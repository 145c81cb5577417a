"""Corporation: one test per ruling (P1–P9), the designer's example, records, options."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from decklab.engine import records
from decklab.engine.checks import canonical, random_playout
from decklab.engine.errors import IllegalAction, OptionError, RecordError, SetupError
from decklab.engine.state import ALL
from decklab.games.corporation.state import CorporationState

RECORDS = Path(__file__).parent / "records"


def play_round(state: CorporationState, values: list[int]) -> None:
    for seat, v in enumerate(values):
        state.apply(seat, v)


def test_P1_hands_hold_one_to_n_and_suits_do_not_matter() -> None:
    for n in (4, 7, 10):
        state = CorporationState.new(n)
        for seat in range(n):
            assert state.legal_actions(seat) == list(range(1, n + 1))
    assert state.view(0)["hand"] == list(range(1, 11))


def test_P1_top_value_option_widens_every_hand() -> None:
    state = CorporationState.new(5, {"top_value": 10})
    assert state.legal_actions(3) == list(range(1, 11))
    assert CorporationState.new(5).legal_actions(3) == [1, 2, 3, 4, 5]


def test_P2_choices_are_simultaneous_and_hidden_until_the_reveal() -> None:
    state = CorporationState.new(4)
    assert state.to_act() == (0, 1, 2, 3)
    state.apply(2, 4)
    assert state.to_act() == (0, 1, 3)
    assert state.view(0)["chosen"]["p3"] is True
    other = CorporationState.new(4)
    other.apply(2, 1)  # the same table, but p3 chose 1
    for seat in (0, 1, 3):
        assert canonical(state.view(seat)) == canonical(other.view(seat))
        assert state.render(seat) == other.render(seat)
    assert state.view(0)["my_choice"] is None
    assert state.view(2)["my_choice"] == 4
    assert "choices" not in state.view(0)
    # A second choice by the same seat is refused, and changes nothing.
    before = canonical(state.view(ALL))
    with pytest.raises(IllegalAction, match="already chosen"):
        state.apply(2, 1)
    assert canonical(state.view(ALL)) == before


def test_P2_a_card_face_up_in_front_cannot_be_played() -> None:
    state = CorporationState.new(4)
    play_round(state, [2, 2, 3, 4])
    assert 2 not in state.legal_actions(0)
    assert 2 not in state.legal_actions(1)
    assert 2 in state.legal_actions(2)
    with pytest.raises(IllegalAction, match="face up in front"):
        state.apply(0, state.parse_action(0, "play 2"))


def test_P3_an_unmatched_value_scores_its_value_and_returns_to_hand() -> None:
    state = CorporationState.new(4)
    play_round(state, [1, 2, 3, 4])
    assert state.scores() == [1, 2, 3, 4]
    assert all(state.legal_actions(s) == [1, 2, 3, 4] for s in range(4))


def test_P4_matching_values_form_corporations_scoring_nothing() -> None:
    state = CorporationState.new(6)
    play_round(state, [3, 3, 5, 5, 5, 6])
    assert state.scores() == [0, 0, 0, 0, 0, 6]
    assert state.corporations == [(3, (0, 1)), (5, (2, 3, 4))]
    assert state.view(None)["in_front"] == {"p1": 3, "p2": 3, "p3": 5, "p4": 5, "p5": 5, "p6": None}


def test_P5_corporate_rewards_when_all_members_and_only_they_match() -> None:
    state = CorporationState.new(5)
    play_round(state, [1, 1, 1, 4, 5])  # {p1,p2,p3}@1
    play_round(state, [3, 3, 3, 2, 5])  # all members play 3, nobody else: 3 × 3 each
    assert state.scores()[:3] == [9.0, 9.0, 9.0]
    # they also form a new Corporation at 3 (P5: on top of the usual resolution)
    assert (3, (0, 1, 2)) in state.corporations


def test_P5_no_reward_if_a_member_defects() -> None:
    state = CorporationState.new(5)
    play_round(state, [1, 1, 1, 4, 5])
    play_round(state, [3, 3, 2, 4, 5])
    assert state.scores()[:3] == [0, 0, 2]


def test_P5_no_reward_if_an_outsider_horns_in() -> None:
    state = CorporationState.new(5)
    play_round(state, [1, 1, 2, 4, 5])  # {p1,p2}@1
    play_round(state, [3, 3, 3, 4, 5])  # p3 also plays 3
    assert state.scores()[:3] == [0, 0, 2]


def test_P5_rewards_only_for_corporations_of_the_previous_round() -> None:
    state = CorporationState.new(4)
    play_round(state, [1, 1, 2, 3])  # {p1,p2}@1
    play_round(state, [2, 2, 1, 4])  # rewarded 2×2, new corp {p1,p2}@2
    assert state.scores() == [4, 4, 3, 7]
    play_round(state, [3, 4, 1, 1])  # corp @2 broken; corp {p3,p4}@1 formed
    play_round(state, [3, 4, 2, 2])  # p3,p4 rewarded 2×2; p1,p2 unmatched
    assert state.scores() == [4 + 3 + 3, 4 + 4 + 4, 3 + 4, 7 + 4]


def test_P6_previous_corporations_dissolve_and_cards_return() -> None:
    state = CorporationState.new(4)
    play_round(state, [1, 1, 2, 3])
    assert 1 not in state.legal_actions(0)
    play_round(state, [4, 2, 3, 1])
    assert state.legal_actions(0) == [1, 2, 3, 4]
    assert state.corporations == []


def test_P6_a_member_of_a_new_corporation_keeps_only_the_new_card_in_front() -> None:
    state = CorporationState.new(4)
    play_round(state, [1, 1, 2, 3])
    play_round(state, [2, 2, 3, 4])
    assert state.legal_actions(0) == [1, 3, 4]


def test_P7_ends_after_the_round_a_target_is_reached_and_shares_wins() -> None:
    state = CorporationState.new(4, {"target": 4})
    play_round(state, [1, 2, 4, 3])
    assert state.is_terminal()
    assert state.winners() == [2]
    tie = CorporationState.new(4, {"target": 4})
    play_round(tie, [1, 1, 2, 3])
    play_round(tie, [2, 2, 3, 4])  # p1, p2 get 4 each; p3 3, p4 3+4 = 7
    assert tie.is_terminal() and tie.winners() == [3]
    shared = CorporationState.new(4, {"target": 4})
    play_round(shared, [1, 1, 2, 2])  # nobody scores, two corporations
    assert not shared.is_terminal()
    play_round(shared, [2, 2, 1, 1])  # both rewarded: 2×2 for p1, p2; 1×2 for p3, p4
    assert shared.scores() == [4, 4, 2, 2]
    assert shared.is_terminal() and shared.winners() == [0, 1]


def test_P7_default_target_is_two_n_squared_and_max_rounds_ends_the_game() -> None:
    for n in range(4, 11):
        assert CorporationState.new(n).target == 2 * n * n
    state = CorporationState.new(4, {"max_rounds": 2})
    play_round(state, [1, 1, 1, 1])
    play_round(state, [2, 2, 2, 2])
    assert state.is_terminal()
    assert state.winners() == [0, 1, 2, 3]  # all on 0: a shared win


def test_P8_table_talk_is_public_so_no_private_view_of_other_choices() -> None:
    """P8 concerns the interfaces' chat; the engine's part is that no seat's view
    holds another seat's pending choice (the only private information)."""
    state = CorporationState.new(5)
    state.apply(0, 5)
    for seat in range(1, 5):
        assert state.view(seat)["my_choice"] is None
        assert state.render(seat).count("chose ??") == 1


def test_P9_the_designers_example() -> None:
    state = CorporationState.new(5, {"top_value": 10, "target": 50})
    play_round(state, [3, 10, 3, 10, 3])
    assert state.corporations == [(3, (0, 2, 4)), (10, (1, 3))]
    assert state.scores() == [0, 0, 0, 0, 0]
    play_round(state, [7, 5, 7, 7, 7])
    assert state.scores() == [0, 5, 0, 0, 0]
    assert state.corporations == [(7, (0, 2, 3, 4))]
    play_round(state, [5, 10, 5, 5, 5])
    assert state.scores() == [20, 15, 20, 20, 20]
    assert not state.is_terminal()


def test_P9_as_a_hand_written_record() -> None:
    state, applied = records.replay(records.load(RECORDS / "corporation_p9.json"))
    assert applied == 15
    assert state.result()["scores"] == {"p1": 20, "p2": 15, "p3": 20, "p4": 20, "p5": 20}
    assert not state.is_terminal()


def test_full_four_player_record_replays_to_its_scores() -> None:
    state, _ = records.replay(records.load(RECORDS / "corporation_4p_full.json"))
    assert state.is_terminal()
    assert state.scores() == [11, 8, 3, 9]
    assert state.winners() == [0]


def test_illegal_record_names_the_line_and_the_reason() -> None:
    with pytest.raises(RecordError) as info:
        records.replay(records.load(RECORDS / "corporation_illegal.json"))
    assert info.value.index == 5
    assert info.value.action == "p1 play 3"
    assert "face up" in info.value.reason


@pytest.mark.parametrize("players", [4, 10])
def test_full_games_at_four_and_ten_players(players: int) -> None:
    for seed in range(20):
        state = CorporationState.new(players, seed=seed)
        random_playout(state, random.Random(seed))
        assert state.is_terminal()
        assert max(state.scores()) >= state.target or state.round == state.max_rounds


def test_options_are_validated() -> None:
    with pytest.raises(OptionError, match="top_value"):
        CorporationState.new(5, {"top_value": 1})
    with pytest.raises(OptionError, match="4–10 players"):
        CorporationState.new(11)
    with pytest.raises(OptionError, match="no option"):
        CorporationState.new(5, {"targt": 3})
    with pytest.raises(SetupError):
        CorporationState.from_setup(5, {}, {"hands": []})


def test_redacted_record_hides_pending_choices_only() -> None:
    state = CorporationState.new(4)
    play_round(state, [1, 2, 3, 4])
    state.apply(1, 3)
    mine = records.make_record(state, viewer=0)
    theirs = records.make_record(state, viewer=1)
    assert mine["actions"][-1] == "p2 play ??"
    assert theirs["actions"][-1] == "p2 play 3"
    assert mine["actions"][:4] == ["p1 play 1", "p2 play 2", "p3 play 3", "p4 play 4"]


def test_parse_accepts_ace_and_bare_values() -> None:
    state = CorporationState.new(4)
    assert state.parse_action(0, "play A") == 1
    assert state.parse_action(0, "3") == 3
    with pytest.raises(IllegalAction, match="1 to 4"):
        state.parse_action(0, "play 9")


def test_P2_undo_is_allowed_within_a_round_but_never_across_a_reveal() -> None:
    state = CorporationState.new(4)
    state.apply(0, 2)
    state.apply(1, 3)
    assert state.undo_barrier(0) == 0  # p1's choice is still face down: it may be taken back
    state.apply(2, 1)
    state.apply(3, 4)  # the reveal
    assert state.undo_barrier(0) == 4  # the revealed round is out of reach
