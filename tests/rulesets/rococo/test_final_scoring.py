"""Rococo final scoring (rococo.md section 5), run by the generic engine.

Each test arranges a board position, runs the ruleset's `scoring` stage from its
first step (the engine's own course: livres, endgame, halls, fireworks, terrace,
statues, markers), answers the terrace decisions and checks the prestige each step
gave (the result's per-step breakdown) and the board afterwards.

Board values used (small side = 2-3 players, board/halls.yaml and board/spaces.yaml):
hall majorities 1: 6/3, 2: 5/2, 3: 4/2, 4: 4/1, 5: 3/1; fireworks majority 6/2;
master guest spaces s_hallN_guest3 (hall 1) and s_hallN_guest2 (halls 2-5);
fireworks 1-3 cost 10/13/16 and sit next to terraces x2/x2/x3.
Large side (4-5 players): hall 1 8/4, fireworks majority 7/3.
"""

from __future__ import annotations

import pytest

STEPS = ["livres", "endgame", "halls", "fireworks", "terrace", "statues", "markers"]


# --------------------------------------------------------------------- helpers
def blank(t, livres: int = 0):
    """No livres, thread or lace for anybody, so only the arranged position scores."""
    for seat in range(len(t.state.players)):
        t.set(seat, "livres", livres).set(seat, "thread", 0).set(seat, "lace", 0)
        t.set(seat, "prestige", 0)
    return t


def final_scoring(t, *answers: str):
    """Run the whole scoring stage from its first step, answering decisions in order."""
    game = t.game
    game.goto_scoring()
    t.answer(*answers)
    assert game.pending() == [], f"unanswered decision: {game.pending()}"
    assert game.is_over()
    return game.result()


def pts(result, seat: int, step: str) -> int:
    return result.breakdown[f"P{seat + 1}"].get(step, 0)


def step_points(result, step: str, players: int = 3) -> list[int]:
    return [pts(result, s, step) for s in range(players)]


# ------------------------------------------------------------------- order
def test_steps_run_in_the_books_order(table):
    result = final_scoring(blank(table))
    assert list(result.breakdown["P1"]) == ["play", *STEPS]


def test_total_is_the_sum_of_the_steps(table):
    t = blank(table)
    t.set(0, "livres", 23).set(0, "prestige", 4)
    t.own("s_hall1_guest1", 0, "D30")  # 3 prestige dress, hall 1 alone: 6
    t.own("s_statue1", 0)  # statue: 1 colour -> 2; printed 1
    result = final_scoring(t)
    p1 = result.breakdown["P1"]
    assert p1 == {
        "play": 4,
        "livres": 2,
        "endgame": 0,
        "halls": 6,
        "fireworks": 0,
        "terrace": 0,
        "statues": 2,
        "markers": 3 + 1,
    }
    assert result.scores["P1"] == sum(p1.values()) == 18


# ----------------------------------------------------------- 1. livres
@pytest.mark.parametrize(
    "livres, prestige, left", [(0, 0, 0), (9, 0, 9), (10, 1, 0), (37, 3, 7), (40, 4, 0), (99, 9, 9)]
)
def test_livres_convert_1_prestige_per_10_remainder_kept(table, livres, prestige, left):
    t = blank(table)
    t.set(1, "livres", livres)
    result = final_scoring(t)
    assert pts(result, 1, "livres") == prestige
    assert t.get(1, "livres") == left
    assert result.tiebreak["P2"] == [left]


# -------------------------------------------- 2. end-game bonuses, Favour card
def test_favour_card_holder_scores_3(table):
    t = blank(table)
    t.put("favour_card", "favour", 2)
    result = final_scoring(t)
    assert step_points(result, "endgame") == [0, 0, 3]


def test_favour_card_on_its_space_scores_nobody(table):
    result = final_scoring(blank(table))
    assert step_points(result, "endgame") == [0, 0, 0]


def test_endgame_bonuses_count_the_whole_staff(table):
    """Crown cards score wherever they are in the staff: reserve, hand or discard."""
    t = blank(table)
    t.clear("reserve", 0)
    for card in ["S1-1", "S2-1", "S3-1", "S4-1", "E25"]:
        t.put(card, "reserve", 0)  # staff 7 (with the two below)
    t.put("E26", "hand", 0)
    t.put("E28", "discard", 0)
    t.set(0, "thread", 2).set(0, "lace", 3)  # 2 pairs -> 6
    t.own("s_hall1_guest1", 0, "D01")  # lady
    t.own("s_hall2_guest1", 0, "D14")  # gentleman -> 1 pair -> 2
    result = final_scoring(t)
    # E25 staff 7 -> 5; E26 2 pairs -> 6; E28 1 pair -> 2
    assert pts(result, 0, "endgame") == 5 + 6 + 2
    assert (t.get(0, "thread"), t.get(0, "lace")) == (0, 1)


def test_endgame_and_favour_add_up(table):
    t = blank(table)
    t.put("E27", "discard", 1)
    for space, dress in [
        ("s_hall1_guest3", "D30"),
        ("s_hall2_guest2", "D31"),
        ("s_hall3_guest2", "D01"),
        ("s_hall4_guest2", "D02"),
        ("s_hall5_guest2", "D03"),
    ]:
        t.own(space, 1, dress)  # 5 dresses on master spaces -> 2 x 3
    t.put("favour_card", "favour", 1)
    result = final_scoring(t)
    assert pts(result, 1, "endgame") == 6 + 3


# ------------------------------------------------------ 3. hall majorities
def test_hall_first_and_second_values(table):
    t = blank(table)
    t.own("s_hall1_guest1", 0, "D01").own("s_hall1_guest2", 0, "D02")
    t.own("s_hall1_guest4", 1, "D03")
    t.own("s_hall2_guest1", 2, "D04").own("s_hall2_guest3", 2, "D05")
    t.own("s_hall2_guest4", 2, "D07")
    t.own("s_hall2_guest2", 1, "D08")  # alone second in hall 2
    t.own("s_hall4_guest1", 0, "D09")  # alone in hall 4 -> first only
    result = final_scoring(t)
    # hall 1: P1 6, P2 3; hall 2: P3 5, P2 2; hall 4: P1 4
    assert step_points(result, "halls") == [6 + 4, 3 + 2, 5]


@pytest.mark.parametrize(
    "hall, first, second", [(1, 6, 3), (2, 5, 2), (3, 4, 2), (4, 4, 1), (5, 3, 1)]
)
def test_each_hall_scores_its_own_values(table, hall, first, second):
    t = blank(table)
    t.own(f"s_hall{hall}_guest1", 0, "D01").own(f"s_hall{hall}_guest3", 0, "D02")
    t.own(f"s_hall{hall}_guest4", 1, "D03")
    result = final_scoring(t)
    assert step_points(result, "halls") == [first, second, 0]


def test_rulebook_example_master_space_breaks_the_tie(table):
    """Eva and George each have 1 dress in a hall worth 3/1 (hall 5 on the 2-3
    player side); Eva's is on a master space -> Eva 3, George 1."""
    t = blank(table)
    t.own("s_hall5_guest2", 0, "D01")  # Eva, master guest space
    t.own("s_hall5_guest1", 1, "D02")  # George
    result = final_scoring(t)
    assert step_points(result, "halls") == [3, 1, 0]


def test_musician_breaks_a_tie_left_by_master_spaces(table):
    t = blank(table)
    t.own("s_hall3_guest1", 0, "D01")
    t.own("s_hall3_guest3", 1, "D02")
    t.own("musician_hall3", 1)
    result = final_scoring(t)
    assert step_points(result, "halls") == [2, 4, 0]


def test_master_space_beats_the_musician(table):
    t = blank(table)
    t.own("s_hall3_guest2", 0, "D01")  # master space
    t.own("s_hall3_guest3", 1, "D02")
    t.own("musician_hall3", 1)
    result = final_scoring(t)
    assert step_points(result, "halls") == [4, 2, 0]


def test_more_dresses_beat_tie_breaks(table):
    t = blank(table)
    t.own("s_hall1_guest3", 0, "D01").own("musician_hall1", 0)  # master + musician
    t.own("s_hall1_guest1", 1, "D02").own("s_hall1_guest2", 1, "D03")
    result = final_scoring(t)
    assert step_points(result, "halls") == [3, 6, 0]


def test_unbroken_tie_for_first_gives_all_first_and_nobody_second(table):
    t = blank(table)
    t.own("s_hall1_guest1", 0, "D01").own("s_hall1_guest2", 0, "D02")
    t.own("s_hall1_guest4", 1, "D03").own("s_hall1_guest5", 1, "D04")
    t.own("s_hall1_guest3", 2, "D05")  # 1 dress (even on a master space)
    result = final_scoring(t)
    assert step_points(result, "halls") == [6, 6, 0]


def test_unbroken_tie_for_second_gives_all_second(table):
    t = blank(table)
    t.own("s_hall1_guest1", 0, "D01").own("s_hall1_guest2", 0, "D02")
    t.own("s_hall1_guest4", 1, "D03")
    t.own("s_hall1_guest5", 2, "D04")
    result = final_scoring(t)
    assert step_points(result, "halls") == [6, 3, 3]


def test_three_way_unbroken_tie_all_get_first(table):
    t = blank(table)
    t.own("s_hall2_guest1", 0, "D01")
    t.own("s_hall2_guest3", 1, "D02")
    t.own("s_hall2_guest4", 2, "D03")
    result = final_scoring(t)
    assert step_points(result, "halls") == [5, 5, 5]


def test_partial_tie_break_master_space_then_rest_tie_for_second(table):
    """Decision: the tie-breaks separate only P1; P2 and P3 still tie for second."""
    t = blank(table)
    t.own("s_hall2_guest2", 0, "D01")  # master space
    t.own("s_hall2_guest1", 1, "D02")
    t.own("s_hall2_guest3", 2, "D03")
    result = final_scoring(t)
    assert step_points(result, "halls") == [5, 2, 2]


def test_partial_tie_break_ranks_by_master_then_musician(table):
    """Three tied on dresses: master space first, musician second, the rest nothing."""
    t = blank(table)
    t.own("s_hall2_guest2", 0, "D01")  # master space
    t.own("s_hall2_guest1", 1, "D02").own("musician_hall2", 1)
    t.own("s_hall2_guest3", 2, "D03")
    result = final_scoring(t)
    assert step_points(result, "halls") == [5, 2, 0]


def test_partial_tie_break_musician_alone_wins_first_others_tie_second(table):
    t = blank(table)
    t.own("s_hall4_guest1", 0, "D01")
    t.own("s_hall4_guest3", 1, "D02").own("musician_hall4", 1)
    t.own("s_hall4_guest4", 2, "D03")
    result = final_scoring(t)
    assert step_points(result, "halls") == [1, 4, 1]


def test_musician_without_a_dress_wins_no_majority(table):
    t = blank(table)
    t.own("musician_hall2", 0)
    t.own("s_hall2_guest1", 1, "D02")
    result = final_scoring(t)
    assert step_points(result, "halls") == [0, 5, 0]


def test_two_players_only_first_place_scores(make_table):
    t = blank(make_table(2))
    t.own("s_hall1_guest1", 0, "D01").own("s_hall1_guest2", 0, "D02")
    t.own("s_hall1_guest4", 1, "D03")
    t.own("s_hall5_guest2", 1, "D04")  # rulebook tie on master space
    t.own("s_hall5_guest1", 0, "D05")
    result = final_scoring(t)
    assert step_points(result, "halls", 2) == [6, 3]  # hall 1: P1 6; hall 5: P2 3


def test_two_players_unbroken_tie_both_get_first(make_table):
    t = blank(make_table(2))
    t.own("s_hall3_guest1", 0, "D01")
    t.own("s_hall3_guest3", 1, "D02")
    result = final_scoring(t)
    assert step_points(result, "halls", 2) == [4, 4]


def test_large_side_hall_values(make_table):
    t = blank(make_table(4))
    t.own("l_hall1_guest1", 0, "D01").own("l_hall1_guest2", 0, "D02")
    t.own("l_hall1_guest4", 1, "D03")
    t.own("l_hall1_guest6", 2, "D04")
    t.own("l_hall1_guest3", 3, "D05")  # master space beats P2 and P3
    result = final_scoring(t)
    assert step_points(result, "halls", 4) == [8, 0, 0, 4]


# -------------------------------------------------- 4. fireworks majority
def test_fireworks_most_6_second_2(table):
    t = blank(table)
    t.own("s_fireworks1", 0).own("s_fireworks2", 0)
    t.own("s_fireworks3", 1)  # dearer, but fewer
    result = final_scoring(t)
    assert step_points(result, "fireworks") == [6, 2, 0]


def test_fireworks_tie_goes_to_the_dearest_space(table):
    """The rulebook's Mike-and-Eva tie: one fireworks each, the dearer space wins."""
    t = blank(table)
    t.own("s_fireworks1", 0)  # Eva, 10
    t.own("s_fireworks2", 2)  # Mike, 13
    t.own("s_fireworks3", 1)  # George, 16
    result = final_scoring(t)
    assert step_points(result, "fireworks") == [0, 6, 2]


def test_fireworks_rulebook_example_on_large_side(make_table):
    """George most fireworks; Mike and Eva tie, Mike's space is dearer: 4-5 player
    side values 7/3."""
    t = blank(make_table(4))
    t.own("l_fireworks2", 1).own("l_fireworks4", 1)  # George
    t.own("l_fireworks1", 0)  # Eva, 10
    t.own("l_fireworks5", 2)  # Mike, 18
    result = final_scoring(t)
    assert step_points(result, "fireworks", 4) == [0, 7, 3, 0]


def test_fireworks_two_players_only_first(make_table):
    t = blank(make_table(2))
    t.own("s_fireworks1", 0).own("s_fireworks2", 0)
    t.own("s_fireworks3", 1)
    result = final_scoring(t)
    assert step_points(result, "fireworks", 2) == [6, 0]


def test_fireworks_nobody_without_fireworks(table):
    t = blank(table)
    t.own("s_fireworks3", 2)
    result = final_scoring(t)
    assert step_points(result, "fireworks") == [0, 0, 6]


# ---------------------------------------------------- 5. terrace
def test_terrace_one_decision_per_fireworks_space(table):
    t = blank(table)
    t.own("s_fireworks1", 0).own("s_fireworks3", 0)  # next to x2 and x3 terraces
    t.own("s_hall1_guest1", 0, "D35")  # prestige 4
    t.own("s_hall1_guest2", 0, "D01")  # prestige 2
    t.own("s_hall1_guest4", 0, "D14")  # prestige 2
    game = t.game
    game.goto_scoring()
    # first decision: the x2 terrace next to s_fireworks1
    assert t.options() == (
        "terrace s_hall1_guest1",
        "terrace s_hall1_guest2",
        "terrace s_hall1_guest4",
        "pass",
    )
    t.answer("terrace s_hall1_guest2")
    # second decision: the x3 terrace next to s_fireworks3; the moved dress is gone
    assert t.options() == ("terrace s_hall1_guest1", "terrace s_hall1_guest4", "pass")
    t.answer("terrace s_hall1_guest1")
    assert game.is_over()
    result = game.result()
    assert t.zone("s_terrace1") == ("D01",) and t.state.owners.get("s_terrace1") == 0
    assert t.zone("s_terrace3") == ("D35",) and t.state.owners.get("s_terrace3") == 0
    assert t.zone("s_terrace2") == ()
    assert t.zone("s_hall1_guest1") == () and "s_hall1_guest1" not in t.state.owners
    assert t.zone("s_hall1_guest2") == () and "s_hall1_guest2" not in t.state.owners
    assert t.zone("s_hall1_guest4") == ("D14",)
    # hall majorities counted the three dresses before they moved
    assert pts(result, 0, "halls") == 6
    # markers: D01 2x2 + D35 4x3 + D14 2 + fireworks printed 2 + 4
    assert pts(result, 0, "markers") == 4 + 12 + 2 + 2 + 4
    assert pts(result, 0, "terrace") == 0


def test_terrace_moves_leave_hall_1_after_the_majorities(table):
    """P1 moves their only hall-1 dress to the terrace; P2 (no fireworks) keeps one
    there. The majorities were decided before: a tie, so both have first place."""
    t = blank(table)
    t.own("s_fireworks2", 0)
    t.own("s_hall1_guest1", 0, "D30")
    t.own("s_hall1_guest2", 1, "D31")
    result = final_scoring(t, "terrace s_hall1_guest1")
    assert step_points(result, "halls") == [6, 6, 0]
    assert t.zone("s_terrace2") == ("D30",)
    assert pts(result, 0, "markers") == 3 * 2 + 3  # dress x2 + fireworks printed 3


def test_terrace_fewer_dresses_leave_spaces_empty(table):
    t = blank(table)
    t.own("s_fireworks1", 0).own("s_fireworks2", 0).own("s_fireworks3", 0)
    t.own("s_hall1_guest5", 0, "D37")  # one dress in hall 1
    game = t.game
    game.goto_scoring()
    assert t.options() == ("terrace s_hall1_guest5", "pass")
    t.answer("terrace s_hall1_guest5")
    # nothing is left to move: no empty decision for the other two terraces
    assert game.pending() == []
    assert game.is_over()
    assert [t.zone(f"s_terrace{i}") for i in (1, 2, 3)] == [("D37",), (), ()]
    assert pts(game.result(), 0, "markers") == 3 * 2 + 2 + 3 + 4


def test_terrace_pass_keeps_the_dress_in_hall_1(table):
    t = blank(table)
    t.own("s_fireworks3", 0)
    t.own("s_hall1_guest1", 0, "D30")
    result = final_scoring(t, "pass")
    assert t.zone("s_hall1_guest1") == ("D30",) and t.zone("s_terrace3") == ()
    assert pts(result, 0, "markers") == 3 + 4


def test_terrace_only_for_own_fireworks_and_own_hall_1_dresses(table):
    t = blank(table)
    t.own("s_fireworks1", 1)  # P2's fireworks
    t.own("s_hall1_guest1", 0, "D30")  # P1's dress in hall 1
    t.own("s_hall2_guest1", 1, "D31")  # P2's dress, not in hall 1
    result = final_scoring(t)  # no decision at all
    assert t.zone("s_terrace1") == ()
    assert t.zone("s_hall1_guest1") == ("D30",)
    assert step_points(result, "markers") == [3, 3 + 2, 0]


# ------------------------------------------------------------ 6. statues
def test_statues_rulebook_example_8_plus_4(table):
    """2 statues, 7 dresses with all 4 colours and a second set of 2 colours."""
    t = blank(table)
    t.own("s_statue1", 2).own("s_statue2", 2)
    for space, dress in [
        ("s_hall1_guest1", "D01"),
        ("s_hall1_guest2", "D02"),
        ("s_hall1_guest4", "D03"),  # 3 yellow
        ("s_hall2_guest1", "D14"),
        ("s_hall2_guest3", "D15"),  # 2 green
        ("s_hall3_guest1", "D27"),  # 1 red
        ("s_hall4_guest1", "D37"),
    ]:  # 1 blue
        t.own(space, 2, dress)
    result = final_scoring(t)
    assert pts(result, 2, "statues") == 8 + 4


@pytest.mark.parametrize(
    "statues, dresses, expected",
    [
        (1, ["D01"], 2),
        (1, ["D01", "D02", "D14"], 4),
        (1, ["D01", "D14", "D27", "D37", "D38"], 8),  # max 4 colours per set
        (2, ["D01", "D02"], 2 + 2),  # a second yellow is a set
        (3, ["D01", "D14", "D27", "D37", "D02", "D15", "D03"], 8 + 4 + 2),
        (3, ["D01"], 2),  # no dresses for the others
        (1, [], 0),
        (0, ["D01", "D14", "D27", "D37"], 0),
    ],
)
def test_statues_disjoint_sets(table, statues, dresses, expected):
    t = blank(table)
    for i in range(statues):
        t.own(f"s_statue{i + 1}", 0)
    spaces = [s for s in t.eval("filter(s in guest)")]
    for space, dress in zip(spaces, dresses, strict=False):
        t.own(str(space), 0, dress)
    result = final_scoring(t)
    assert pts(result, 0, "statues") == expected


def test_statues_count_terrace_dresses_and_only_own_dresses(table):
    t = blank(table)
    t.own("s_statue1", 0).own("s_fireworks1", 0)
    t.own("s_hall1_guest1", 0, "D37")  # blue, goes to the terrace
    t.own("s_hall2_guest1", 1, "D27")  # P2's red: not P1's
    result = final_scoring(t, "terrace s_hall1_guest1")
    assert t.zone("s_terrace1") == ("D37",)
    assert pts(result, 0, "statues") == 2


# ------------------------------------------------------------ 7. markers
def test_markers_dresses_decorations_and_all_halls(table):
    t = blank(table)
    t.own("s_hall2_guest1", 0, "D35")  # dress prestige 4
    t.own("s_hall3_guest1", 0, "D01")  # dress prestige 2
    t.own("musician_hall1", 0)  # 2
    t.own("s_statue3", 0)  # 3
    t.own("s_fountain_top2", 0)  # 2
    t.own("s_fountain_bottom1", 0)  # 1
    t.own("s_fireworks2", 1)  # 3
    t.own("all_halls1", 0)  # 8
    t.own("all_halls2", 1)  # 5
    t.own("all_halls3", 2)  # 2
    result = final_scoring(t)
    assert step_points(result, "markers") == [4 + 2 + 2 + 3 + 2 + 1 + 8, 3 + 5, 2]


def test_markers_large_side_terrace_x3(make_table):
    t = blank(make_table(4))
    t.own("l_fireworks4", 3)  # next to l_terrace4 (x3)
    t.own("l_hall1_guest2", 3, "D42")  # prestige 4
    result = final_scoring(t, "terrace l_hall1_guest2")
    assert t.zone("l_terrace4") == ("D42",)
    assert pts(result, 3, "markers") == 4 * 3 + 3


# ------------------------------------------------------------- winner
def test_winner_by_prestige_then_livres(table):
    t = blank(table)
    t.set(0, "livres", 19)  # 1 prestige, 9 left
    t.set(1, "livres", 15)  # 1 prestige, 5 left
    t.set(2, "livres", 3).set(2, "prestige", 1)  # 1 prestige, 3 left
    result = final_scoring(t)
    assert result.scores == {"P1": 1, "P2": 1, "P3": 1}
    assert result.ranking == [["P1"], ["P2"], ["P3"]]


def test_winner_prestige_beats_livres(table):
    t = blank(table)
    t.set(0, "livres", 9)
    t.own("s_hall5_guest1", 1, "D01")  # hall 5: 3, marker 2
    result = final_scoring(t)
    assert result.scores == {"P1": 0, "P2": 5, "P3": 0}
    assert result.ranking == [["P2"], ["P1"], ["P3"]]


def test_full_tie_shares_the_place(table):
    t = blank(table, livres=12)
    result = final_scoring(t)
    assert result.ranking == [["P1", "P2", "P3"]]
