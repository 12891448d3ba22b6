"""The Jewelry Box expansion (rococo.md section 8), rulesets/rococo/expansions/jewelry_box.yaml.

Each test builds a game with Deluxe and the Jewelry Box, arranges an exact position,
runs one action, a phase or the final scoring with the real engine and checks the
outcome. Colour ids are the 2013 ones (yellow = Deluxe blue, green = Deluxe pink,
red = Deluxe green, blue = Deluxe orange): necklaces are yellow or red, rings green
or blue.

Designed values used here: jewel display prices 5, 4, 3, 2, 1 (jewel_display1-5, left
to right); jewellery decorations price 6-10, prestige 1, 1, 2, 2, 3; new journeymen
JC1-JC9 (level II), new masters JM1-JM9 (level V, JM6-JM9 end-game), specialized
apprentices SA01-SA10 (SA04: 30 livres, SA05: 3 jewels, SA09: a master test done).
"""

from __future__ import annotations

import pytest
from rococo_positions import final_scoring, start_phase, storage, windows

from interpreter.agents import RandomAgent
from interpreter.errors import GameError
from interpreter.language.values import Piece, ZoneRef

JB = ("deluxe", "jewelry_box")
JB_FANCY = ("deluxe", "fancy", "jewelry_box")
DISPLAY = tuple(f"jewel_display{i}" for i in range(1, 6))
NO_REWARD = "s_hall1_guest2"  # an ordinary guest space with no reward
NEW_MASTERS = tuple(f"JM{i}" for i in range(1, 10))
NEW_JOURNEYMEN = tuple(f"JC{i}" for i in range(1, 10))
SPECIALIZED = tuple(f"SA{i:02}" for i in range(1, 11))
CRAFTSMAN_TASKS = ("task_silk_yellow_green", "task_silk_red_blue", "task_thread_lace", "task_fund")
MASTER_TASKS = ("task_sew_lady", "task_sew_gentleman", "task_sew_master")


# --------------------------------------------------------------------- helpers
@pytest.fixture
def t(make_table):
    return make_table(3, expansions=JB)


def can(t, action: str, seat: int, **args) -> bool:
    text = ", ".join(f"{k}: {k}" for k in args)
    env = {k: Piece(v) if type(v) is str else v for k, v in args.items()}
    return t.eval(f"can {action}({text})", seat, **env)


def display(t, *jewels):
    """Set the jewel display left to right (None leaves a space empty)."""
    for space in DISPLAY:
        t.clear(space)
    for space, jewel in zip(DISPLAY, jewels, strict=False):
        if jewel is not None:
            t.put(jewel, space)
    return t


def jewels(t, seat: int, *ids: str):
    for jewel in ids:
        t.put(jewel, "jewels", seat)
    return t


def rent_until_jewel(t, dress: str, card: str, *silk: str, seat: int = 0):
    """Sew ``dress`` from the cost-0 window with ``silk`` tiles and choose to rent it."""
    windows(t, s_window6=dress)
    for tile in silk:
        t.put(tile, "tiles", seat)
    t.act("sew", seat, card=card)
    t.answer(f"sew {dress}", *(f"silk {tile}" for tile in silk), "rent")
    return t


def level_of(t, piece: str) -> int:
    return t.game.ruleset.pieces[piece].properties["level"]


# ====================================================================== setup
def test_setup_jewels_in_the_bag_and_the_display_filled(t):
    in_display = [j for s in DISPLAY for j in t.zone(s)]
    assert len(in_display) == 5  # round 1's phase 1 E filled all 5 spaces
    all_jewels = in_display + list(t.zone("jewel_bag"))
    assert len(all_jewels) == 24
    for design in ("necklace_yellow", "necklace_red", "ring_green", "ring_blue"):
        assert sum(j.rsplit("-", 1)[0] == design for j in all_jewels) == 6


def test_setup_level_v_and_ii_with_two_cards_of_each_pile(t):
    deck = t.zone("employee_deck") + t.zone("hiring")
    level5 = [e for e in deck if level_of(t, e) == 5]
    level2 = [e for e in deck if level_of(t, e) == 2]
    assert len(level5) == 4 and {"E19", "E22"} <= set(level5)
    assert len(level2) == 4 and {"E08", "E09"} <= set(level2)
    masters = set(level5) - {"E19", "E22"}
    journeymen = set(level2) - {"E08", "E09"}
    assert masters <= {"E20", "E21", *NEW_MASTERS}
    assert journeymen <= {"E07", "E10", *NEW_JOURNEYMEN}
    assert sorted(t.zone("master_pile") + tuple(masters)) == sorted({"E20", "E21", *NEW_MASTERS})
    assert sorted(t.zone("craftsman_pile") + tuple(journeymen)) == sorted(
        {"E07", "E10", *NEW_JOURNEYMEN}
    )
    # the deck keeps its levels in order: I on top ... VI at the bottom
    levels = [level_of(t, e) for e in t.zone("employee_deck")]
    assert levels == sorted(levels)
    assert len(t.zone("employee_deck")) == 28 - 4  # 4 on the hiring spaces


def test_setup_one_specialized_apprentice_each_outside_the_staff(t):
    dealt = [t.zone("specialized", seat) for seat in range(3)]
    assert all(len(z) == 1 and z[0] in SPECIALIZED for z in dealt)
    rest = set(SPECIALIZED) - {z[0] for z in dealt}
    assert rest <= set(t.zone("box")) and len(rest) == 7
    for seat in range(3):
        staff = t.eval("staff(me)", seat)
        assert len(staff) == 5 and not any(str(c).startswith("SA") for c in staff)


def test_without_the_jewelry_box_nothing_of_it(make_table):
    t = make_table(3, expansions=("deluxe",))
    pieces = t.game.ruleset.pieces
    assert not {"JM1", "JC1", "SA01", "necklace_red-1"} & set(pieces)
    assert "craftsman_test" not in [str(a) for a in t.eval("main_actions")]


# ================================================================ phase 1 E
def test_phase1_e_discards_the_rightmost_slides_and_fills_right_to_left(t):
    display(t, "ring_blue-1", "ring_blue-2", None, "necklace_red-1", "ring_green-1")
    t.clear("jewel_bag")
    t.put("necklace_yellow-1", "jewel_bag")
    start_phase(t, "prepare", 2)
    # the slide closes the gap: ring_blue-1, ring_blue-2, necklace_red-1 end up rightmost
    assert [t.zone(s) for s in DISPLAY][2:] == [
        ("ring_blue-1",),
        ("ring_blue-2",),
        ("necklace_red-1",),
    ]
    assert t.zone(DISPLAY[1]) == ("necklace_yellow-1",) and t.zone(DISPLAY[0]) == ()
    assert "ring_green-1" in t.zone("box")


def test_phase1_e_full_display_shifts_by_one(t):
    display(t, "ring_blue-1", "ring_blue-2", "ring_blue-3", "necklace_red-1", "ring_green-1")
    t.clear("jewel_bag")
    t.put("necklace_yellow-1", "jewel_bag").put("necklace_yellow-2", "jewel_bag")
    start_phase(t, "prepare", 3)
    assert [t.zone(s)[0] for s in DISPLAY[1:]] == [
        "ring_blue-1",
        "ring_blue-2",
        "ring_blue-3",
        "necklace_red-1",
    ]
    assert t.zone(DISPLAY[0])[0] in ("necklace_yellow-1", "necklace_yellow-2")
    assert len(t.zone("jewel_bag")) == 1
    assert "ring_green-1" in t.zone("box")


def test_phase1_e_empty_bag_leaves_the_left_empty(t):
    display(t, None, None, None, "necklace_red-1", "ring_green-1")
    t.clear("jewel_bag")
    start_phase(t, "prepare", 4)
    assert [t.zone(s) for s in DISPLAY] == [(), (), (), (), ("necklace_red-1",)]


# ================================================================ jewellery
def test_jewellery_is_a_decoration_at_most_one_per_player(t):
    t.set(0, "livres", 30)
    t.act("fund", 0, card="S4-1")
    assert {f"fund jewellery{i}" for i in range(1, 6)} <= set(t.options(0))
    t.answer("fund jewellery2")
    assert t.get(0, "livres") == 23
    assert t.eval("decorations_of(me)", 0) == 1
    t.act("fund", 0, card="S4-1")
    assert not any("jewellery" in o for o in t.options(0))
    assert not can(t, "fund_space", 0, space=ZoneRef("jewellery3"))
    with pytest.raises(GameError, match="at most 1 jewellery decoration"):
        t.act("fund_space", 0, space=ZoneRef("jewellery3"))
    # another player may still fund one
    t.act("fund", 1, card="S4-2")
    assert "fund jewellery3" in t.options(1)


def test_jewellery_scores_its_prestige_and_counts_for_income(t):
    for seat in range(3):
        t.set(seat, "livres", 0)
    t.own("jewellery5", 0).own("s_fountain_top1", 0)
    start_phase(t, "income", 2)
    assert t.get(0, "livres") == 5 + 2  # fountain top: 1 per decoration (jewellery counts)
    result = final_scoring(t)
    assert result.breakdown["P1"]["markers"] == 3 + 1


# =========================================================== jewel purchase
def test_jewel_bought_when_renting_shape_and_price(t):
    t.own("jewellery1", 0)
    display(t, "necklace_red-1", "ring_green-1", "necklace_red-2", "necklace_yellow-1", None)
    t.clear("resource_pile")
    t.put("T29", "resource_pile")
    rent_until_jewel(t, "D27", "S3-1", "T30")  # a red lady's dress: necklaces only
    assert t.options(0) == (
        "jewel necklace_red-1",
        "jewel necklace_red-2",
        "jewel necklace_yellow-1",
        "pass",
    )
    t.answer("jewel necklace_red-2")  # 3 livres; red = the dress's colour: a tile too
    assert t.options(0) == ("keep", "convert")
    t.answer("keep")
    assert t.zone("tiles", 0) == ("T29",)
    t.answer(f"rent {NO_REWARD}")
    assert t.get(0, "livres") == 15 - 3
    assert t.zone("jewels", 0) == ("necklace_red-2",)
    assert t.zone(NO_REWARD) == ("D27",) and t.state.owners[NO_REWARD] == 0


def test_jewel_of_another_colour_draws_no_tile(t):
    t.own("jewellery1", 0)
    display(t, "ring_blue-1", "ring_green-1", None, None, "necklace_red-1")
    rent_until_jewel(t, "D14", "S3-1", "T15")  # a green coat: rings only
    assert t.options(0) == ("jewel ring_blue-1", "jewel ring_green-1", "pass")
    t.answer("jewel ring_blue-1")  # 5 livres, another colour
    assert t.options(0)[0].startswith("rent ")
    t.answer(f"rent {NO_REWARD}")
    assert t.get(0, "livres") == 10 and t.zone("tiles", 0) == ()
    assert t.zone("jewels", 0) == ("ring_blue-1",)


def test_jewel_only_affordable_and_may_pass(t):
    t.own("jewellery1", 0)
    t.set(0, "livres", 2)
    display(t, "ring_green-1", "ring_green-2", "ring_blue-1", "ring_blue-2", None)
    rent_until_jewel(t, "D14", "S3-1", "T15")
    assert t.options(0) == ("jewel ring_blue-2", "pass")
    t.answer("pass", f"rent {NO_REWARD}")
    assert t.zone("jewels", 0) == () and t.get(0, "livres") == 2


def test_no_jewel_without_a_jewellery_decoration(t):
    t.own("jewellery1", 1)  # someone else's
    display(t, "ring_green-1", None, None, None, None)
    rent_until_jewel(t, "D14", "S3-1", "T15")
    assert all(o.startswith("rent ") for o in t.options(0))
    assert not can(t, "buy_jewel", 0, jewel="ring_green-1", dress="D14")
    with pytest.raises(GameError, match="jewellery decoration"):
        t.act("buy_jewel", 0, jewel=Piece("ring_green-1"), dress=Piece("D14"))


def test_jewel_income_and_final_prestige(t):
    for seat in range(3):
        t.set(seat, "livres", 0)
    jewels(t, 0, "ring_green-1", "ring_blue-1", "necklace_red-1")
    jewels(t, 1, "ring_green-2")
    start_phase(t, "income", 2)
    assert [t.get(s, "livres") for s in range(3)] == [8, 6, 5]
    t.set(0, "livres", 19)
    result = final_scoring(t)
    steps = list(result.breakdown["P1"])
    assert steps[:3] == ["play", "livres", "jewels"]
    assert result.breakdown["P1"]["livres"] == 1 and result.breakdown["P1"]["jewels"] == 3
    assert result.breakdown["P2"]["jewels"] == 1
    assert result.breakdown["P3"].get("jewels", 0) == 0


# ===================================================================== tasks
def test_craftsman_task_acquire_kept_silk(t):
    storage(t, ["T01"], [], [])
    t.act("acquire", 0, card="S4-1")
    t.answer("take T01", "keep")
    assert t.get(0, "task_silk_yellow_green") == 1
    assert t.get(0, "task_silk_red_blue") == 0 and t.get(0, "task_thread_lace") == 0


def test_craftsman_task_acquire_converted_and_not_with_a_master(t):
    storage(t, ["T05"], ["T29"], [])
    t.act("acquire", 0, card="S1-1")  # a master: no task
    t.answer("take T29", "keep")
    assert t.get(0, "task_silk_red_blue") == 0
    t.act("acquire", 0, card="S5-1")
    t.answer("take T05", "convert")
    assert t.get(0, "task_thread_lace") == 1 and t.get(0, "task_silk_yellow_green") == 0
    assert t.get(0, "thread") == 2


def test_craftsman_task_converted_tile_without_thread_or_lace_marks_nothing(t):
    storage(t, ["T01"], [], [])
    t.act("acquire", 0, card="S4-1")
    t.answer("take T01", "convert")
    assert all(t.get(0, task) == 0 for task in CRAFTSMAN_TASKS)


def test_craftsman_task_two_possible_the_player_chooses_one(make_table):
    t = make_table(3, expansions=JB_FANCY)
    storage(t, ["FT1"], [], [])  # 2 yellow + 1 red silk
    t.act("acquire", 0, card="S4-1")
    t.answer("take FT1", "keep")
    assert t.options(0) == ("task silk_yellow_green", "task silk_red_blue")
    t.answer("task silk_red_blue")
    assert (t.get(0, "task_silk_yellow_green"), t.get(0, "task_silk_red_blue")) == (0, 1)


def test_craftsman_task_fund_with_an_apprentice_only_in_the_craftsman_stage(t):
    t.set(0, "livres", 50)
    t.act("fund", 0, card="S1-1")
    t.answer("fund s_statue1")
    assert t.get(0, "task_fund") == 0
    t.act("fund", 0, card="S4-1")
    t.answer("fund s_statue2")
    assert t.get(0, "task_fund") == 1
    t.set(1, "test_stage", 1)  # master test stage: no craftsman task
    t.set(1, "livres", 50)
    t.act("fund", 1, card="S4-2")
    t.answer("fund s_statue3")
    assert t.get(1, "task_fund") == 0


@pytest.mark.parametrize(
    "dress,card,silk,task",
    [
        ("D01", "S3-1", "T01", "task_sew_lady"),
        ("D14", "S3-1", "T15", "task_sew_gentleman"),
        ("D14", "S1-1", "T15", "task_sew_master"),
    ],
)
def test_master_tasks_by_sewing(t, dress, card, silk, task):
    t.set(0, "test_stage", 1)
    windows(t, s_window6=dress)
    t.put(silk, "tiles", 0)
    t.act("sew", 0, card=card)
    t.answer(f"sew {dress}", f"silk {silk}", "sell")
    assert [t.get(0, x) for x in MASTER_TASKS] == [int(x == task) for x in MASTER_TASKS]


def test_master_tasks_not_in_the_craftsman_stage(t):
    windows(t, s_window6="D01")
    t.put("T01", "tiles", 0)
    t.act("sew", 0, card="S3-1")
    t.answer("sew D01", "silk T01", "sell")
    assert all(t.get(0, x) == 0 for x in MASTER_TASKS)


# ===================================================================== tests
def test_craftsman_test_requirements(t):
    assert "craftsman_test" in [str(a) for a in t.eval("main_actions")]
    assert not can(t, "craftsman_test", 0, card="S4-1")
    with pytest.raises(GameError, match="0 of the 4 craftsman tasks"):
        t.act("craftsman_test", 0, card="S4-1")
    for task in CRAFTSMAN_TASKS:
        t.set(0, task, 1)
    assert can(t, "craftsman_test", 0, card="S4-1")
    assert t.eval("can craftsman_test(card: c, main: true)", 0, c=Piece("S4-1"))
    assert not t.eval("can craftsman_test(card: c, main: true)", 0, c=Piece("S3-1"))
    t.set(0, "livres", 4)
    with pytest.raises(GameError, match="the test costs 5"):
        t.act("craftsman_test", 0, card="S4-1")


def test_craftsman_test_effect(t):
    for task in CRAFTSMAN_TASKS:
        t.set(0, task, 1)
    t.clear("craftsman_pile")
    t.put("JC3", "craftsman_pile").put("JC7", "craftsman_pile")
    t.put("S4-1", "discard", 0)
    t.act("craftsman_test", 0, card="S4-1")
    assert t.options(0) == ("take JC3", "take JC7")
    t.answer("take JC7")
    assert t.get(0, "livres") == 10 and t.get(0, "prestige") == 1
    assert "S4-1" in t.zone("box") and "JC7" in t.zone("hand", 0)
    assert t.zone("craftsman_pile") == ("JC3",)
    assert all(t.get(0, task) == 0 for task in CRAFTSMAN_TASKS)
    assert t.get(0, "test_stage") == 1
    assert not can(t, "craftsman_test", 0, card="S5-1")


def test_master_test_effect_and_back_to_the_craftsman_test(t):
    t.set(0, "test_stage", 1)
    for task in MASTER_TASKS[:2]:
        t.set(0, task, 1)
    with pytest.raises(GameError, match="2 of the 3 master tasks"):
        t.act("master_test", 0, card="S3-1")
    t.set(0, MASTER_TASKS[2], 1)
    assert not t.eval("can master_test(card: c, main: true)", 0, c=Piece("S1-1"))
    assert t.eval("can master_test(card: c, main: true)", 0, c=Piece("S3-1"))
    t.clear("master_pile")
    t.put("JM4", "master_pile")
    t.act("master_test", 0, card="S3-1")
    t.answer("take JM4")
    assert t.get(0, "livres") == 10 and t.get(0, "prestige") == 1
    assert "S3-1" in t.zone("box") and "JM4" in t.zone("hand", 0)
    assert all(t.get(0, task) == 0 for task in MASTER_TASKS)
    assert t.get(0, "test_stage") == 0 and t.get(0, "master_tests") == 1


# =========================================================== specialized hire
def test_hire_specialized_apprentice_when_its_condition_holds(t):
    t.clear("specialized", 0)
    t.put("SA04", "specialized", 0)  # 30 livres
    assert not t.eval("can hire_specialized(card: c, main: true)", 0, c=Piece("S1-1"))
    with pytest.raises(GameError, match="hiring condition of SA04"):
        t.act("hire_specialized", 0, card="S1-1")
    assert not t.eval("can cond_30_livres()", 0)
    t.set(0, "livres", 30)
    assert t.eval("can hire_specialized(card: c, main: true)", 0, c=Piece("S1-1"))
    assert not t.eval("can hire_specialized(card: c, main: true)", 0, c=Piece("S3-1"))
    t.act("hire_specialized", 0, card="S1-1")
    assert t.get(0, "livres") == 30  # free
    assert t.zone("hand", 0)[-1] == "SA04" and t.zone("specialized", 0) == ()
    with pytest.raises(GameError, match="already hired"):
        t.act("hire_specialized", 0, card="S1-1")
    t.act("specialized_prestige", 0, card="SA04")
    assert t.get(0, "prestige") == 3


@pytest.mark.parametrize(
    "condition,arrange",
    [
        ("cond_three_jewels", lambda t: jewels(t, 0, "ring_blue-1", "ring_blue-2", "ring_blue-3")),
        ("cond_master_test", lambda t: t.set(0, "master_tests", 1)),
        ("cond_five_prestige", lambda t: t.set(0, "prestige", 5)),
        (
            "cond_tiles_thread_lace",
            lambda t: (
                [t.put(x, "tiles", 0) for x in ("T01", "T02", "T03", "T04")]
                and t.set(0, "thread", 2).set(0, "lace", 2)
            ),
        ),
        (
            "cond_three_decoration_types",
            lambda t: t.own("jewellery1", 0).own("s_statue1", 0).own("s_fountain_top1", 0),
        ),
        (
            "cond_three_ladies",
            lambda t: (
                t.own("s_hall1_guest1", 0, "D01")
                .own("s_hall2_guest1", 0, "D02")
                .own("s_hall3_guest1", 0, "D27")
            ),
        ),
        (
            "cond_three_coats",
            lambda t: (
                t.own("s_hall1_guest1", 0, "D14")
                .own("s_hall2_guest1", 0, "D15")
                .own("s_hall3_guest1", 0, "D16")
            ),
        ),
        (
            "cond_three_master_spaces",
            lambda t: (
                t.own("s_hall1_guest3", 0, "D01")
                .own("s_hall2_guest2", 0, "D02")
                .own("s_hall3_guest2", 0, "D03")
            ),
        ),
        (
            "cond_all_halls",
            lambda t: [t.own(f"s_hall{h}_guest1", 0, f"D0{h}") for h in range(1, 6)],
        ),
        ("cond_30_livres", lambda t: t.set(0, "livres", 30)),
    ],
)
def test_hiring_conditions(t, condition, arrange):
    t.set(0, "livres", 0)
    assert not t.eval(f"can {condition}()", 0)
    arrange(t)
    assert t.eval(f"can {condition}()", 0)


def test_decoration_types_count_the_kitchen_once(t):
    t.own("s_fountain_top1", 0).own("s_fountain_bottom1", 0).own("s_statue1", 0)
    assert t.eval("decoration_types(me)", 0) == 2
    assert not t.eval("can cond_three_decoration_types()", 0)


# =================================================================== bonuses
def test_bonus_livre_per_hall_and_small_staff(t):
    t.set(0, "livres", 0)
    t.own("s_hall1_guest1", 0, "D01").own("musician_hall3", 0)
    t.act("jb_livre_per_hall", 0, card="JC3")
    assert t.get(0, "livres") == 2
    t.act("jb_livres_small_staff", 0, card="JC4")  # 5 cards in the staff
    assert t.get(0, "livres") == 2 + 5


def test_bonus_jewel_counts(t):
    t.set(0, "livres", 0)
    jewels(t, 0, "ring_blue-1", "ring_green-1", "ring_green-2", "necklace_red-1", "necklace_red-2")
    t.act("jb_livres_per_2_rings", 0, card="JC8")
    assert t.get(0, "livres") == 3
    t.act("jb_prestige_per_3_jewels", 0, card="JC9")
    assert t.get(0, "prestige") == 1
    t.act("jb_livres_per_2_jewels", 0, card="JM4")
    assert t.get(0, "livres") == 3 + 6


def test_bonus_copy_an_opponents_top_discard(t):
    t.set(0, "livres", 0)
    t.put("S3-2", "discard", 1)  # gain 2 livres
    t.put("S1-3", "discard", 2)  # no bonus: not offered
    t.act("jb_copy_discard_top", 0, card="JC2")
    assert t.options(0) == ("copy S3-2",)
    t.answer("copy S3-2")
    assert t.get(0, "livres") == 2


def test_bonus_copy_acts_as_the_copied_employee(t):
    # book p. 16: "as if you had just played that employee" - P2's apprentice's extra
    # Acquire, copied by P1's journeyman, is an apprentice's Acquire: it marks a task
    storage(t, ["T01"], [], [])  # yellow silk
    t.put("S4-2", "discard", 1)  # P2's apprentice: 1 extra Acquire
    t.act("jb_copy_discard_top", 0, card="JC2")
    t.answer("copy S4-2", "take T01", "keep")
    assert t.zone("tiles", 0) == ("T01",)
    assert t.get(0, "task_silk_yellow_green") == 1


def test_bonus_reserve_card_to_discard_and_its_bonus(t):
    t.set(0, "livres", 0)
    t.act("jb_reserve_bonus", 0, card="JC1")
    t.answer("discard S3-1")
    assert t.zone("discard", 0)[-1] == "S3-1"
    assert t.options(0) == ("bonus", "no bonus")
    t.answer("bonus")
    assert t.get(0, "livres") == 2


def test_bonus_extra_sew_must_sell_and_gains_1_prestige(t):
    windows(t, s_window6="D01")
    t.put("T01", "tiles", 0)
    t.act("jb_extra_sew_sell", 0, card="JC6")
    t.answer("sew D01", "silk T01")
    assert t.options(0) == ("sell",)
    t.answer("sell")
    assert t.get(0, "livres") == 15 + 6 and t.get(0, "prestige") == 1
    assert t.state.counters["selling_only"] == 0


def test_bonus_hall_choices(t):
    t.set(0, "livres", 0)
    t.own("s_hall2_guest1", 0, "D01").own("s_hall2_guest2", 0, "D02")
    t.act("jb_prestige_per_2_in_hall", 0, card="JC7")
    t.answer("hall 2")
    assert t.get(0, "prestige") == 1
    t.act("jb_livres_per_dress_in_hall", 0, card="JM1")
    t.answer("hall 2")
    assert t.get(0, "livres") == 4


def test_bonus_dress_colours(t):
    t.set(0, "livres", 0)
    t.own("s_hall1_guest1", 0, "D01").own("s_hall2_guest1", 0, "D27")
    t.act("jb_prestige_blue_green_pairs", 0, card="JM2")
    assert t.get(0, "prestige") == 1
    t.act("jb_livres_no_green_orange", 0, card="JM5")  # a red dress, no blue coat
    assert t.get(0, "livres") == 5


def test_endgame_master_bonuses_in_final_scoring(t):
    for seat in range(3):
        t.set(seat, "livres", 0)
    for card in ("JM6", "JM7", "JM8", "JM9"):
        t.put(card, "discard", 0)
    jewels(t, 0, "necklace_yellow-1", "necklace_red-1", "ring_green-1", "ring_blue-1")
    jewels(t, 0, "necklace_red-2")
    t.own("s_statue1", 0)
    result = final_scoring(t)
    # sets 6 + necklaces 3 * (3 // 2) + decorations 1 + apprentices 3 * (2 // 2)
    assert result.breakdown["P1"]["endgame"] == 6 + 3 + 1 + 3
    assert result.breakdown["P1"]["jewels"] == 5


@pytest.mark.parametrize("players,seed", [(2, 1), (4, 3), (5, 5)])
def test_whole_games_play_and_keep_every_piece(make_table, players, seed):
    game = make_table(players, seed=seed, expansions=JB).game
    agents = [RandomAgent(s, seed) for s in range(players)]
    while not game.is_over():
        decision = game.pending()[0]
        assert decision.options
        game.apply(decision.player, agents[decision.player].choose(game, decision))
    placed = [p for items in game.state.zones.values() for p in items]
    assert sorted(placed) == sorted(game.ruleset.pieces)


def test_craftsman_test_offered_in_the_turn_then_the_cards_bonus(t):
    """The test is a main action of the turn; the played apprentice's bonus is the
    turn's bonus step, offered after the test (decision `test_bonus_is_the_turn_bonus`)."""
    for task in CRAFTSMAN_TASKS:
        t.set(0, task, 1)
    t.clear("craftsman_pile")
    t.put("JC5", "craftsman_pile")
    t.answer("take S5-1", "take S1-1", "take S2-1")  # phase 2: seat 0's hand
    for seat in (1, 2):
        t.answer(*(f"take {c}" for c in t.zone("reserve", seat)[:3]))
    assert t.options(0) == ("play S5-1", "play S1-1", "play S2-1")
    t.answer("play S5-1")
    assert "craftsman_test" in t.options(0) and "hire_specialized" not in t.options(0)
    t.answer("craftsman_test", "take JC5")
    assert t.options(0) == ("bonus", "no bonus")  # S5: pay 1 livre for thread or lace
    t.answer("bonus", "lace")
    assert t.get(0, "livres") == 15 - 5 - 1 and t.get(0, "lace") == 2
    assert "S5-1" in t.zone("box") and "JC5" in t.zone("hand", 0)
    assert t.get(0, "prestige") == 1 and t.get(0, "test_stage") == 1


def test_bonus_extra_sew_sell_never_a_dress_that_cannot_be_sold(make_table):
    t = make_table(3, expansions=("deluxe", "festive", "jewelry_box"))
    windows(t, s_window6="FE1")  # a festive dress: never sold, so not sewn here
    t.put("T29", "tiles", 0).put("T02", "tiles", 0)
    assert t.eval("can jb_extra_sew_sell(card: c)", 0, c=Piece("JC6"))
    t.act("jb_extra_sew_sell", 0, card="JC6")
    assert t.options(0) == () and t.get(0, "prestige") == 0  # nothing sewn, no prestige
    assert t.zone("s_window6") == ("FE1",) and t.state.counters["selling_only"] == 0
    t.put("D01", "s_window5")
    t.act("jb_extra_sew_sell", 0, card="JC6")
    assert t.options(0) == ("sew D01",)
    t.answer("sew D01", "silk T02", "sell")
    assert t.get(0, "prestige") == 1 and t.get(0, "livres") == 15 - 1 + 6


# ============================================= Haute Couture with the Jewelry Box
JB_HAUTE = ("deluxe", "jewelry_box", "haute_couture")


def test_haute_couture_extra_sew_sell_sews_the_green_dress_only(make_table):
    # book p. 19: Haute Couture dresses are rent-only "com exceção do vestido verde que
    # dá 14 Libras se for alugado ou vendido" - the must-sell Sew may take HC5, not HC3
    t = make_table(3, expansions=JB_HAUTE)
    red = str(t.eval("first(r in resource where get(r.silk, 'red', 0) >= 3)"))
    blue = str(t.eval("first(r in resource where get(r.silk, 'blue', 0) >= 3)"))
    windows(t, s_window5="HC3", s_window6="HC5")  # HC3: rent-only blue coat
    t.put(red, "tiles", 0).put(blue, "tiles", 0)
    t.act("jb_extra_sew_sell", 0, card="JC6")
    assert t.options(0) == ("sew HC5",)
    t.answer("sew HC5", f"silk {red}")
    assert t.options(0) == ("sell",)
    t.answer("sell")
    assert t.get(0, "livres") == 15 + 14 and t.get(0, "prestige") == 1
    assert "HC5" in t.zone("dress_discard") and t.zone("s_window5") == ("HC3",)


def test_haute_couture_jewel_dresses_only_with_both(make_table):
    with_both = make_table(2, expansions=JB_HAUTE).game.ruleset.pieces
    assert {"HC4", "HC6"} <= set(with_both)
    for expansions in (("deluxe", "haute_couture"), JB):
        assert not {"HC4", "HC6"} & set(make_table(2, expansions=expansions).game.ruleset.pieces)


def test_haute_couture_free_jewel_of_any_shape_and_colour_match(make_table):
    t = make_table(3, expansions=JB_HAUTE)
    t.own("jewellery1", 0)
    display(t, "ring_blue-1", "necklace_yellow-1", None, None, None)
    t.clear("resource_pile")
    t.put("T29", "resource_pile")
    rent_until_jewel(t, "HC4", "S3-1", "T01", "T30")  # a yellow lady's dress
    t.answer("pass")  # no jewel bought before placing
    t.answer(f"rent {NO_REWARD}")
    assert t.options(0) == ("jewel ring_blue-1", "jewel necklace_yellow-1")  # any shape, free
    t.answer("jewel necklace_yellow-1")  # yellow = the dress's colour: a tile too
    t.answer("keep")
    assert t.zone("jewels", 0) == ("necklace_yellow-1",)
    assert t.zone("tiles", 0) == ("T29",)
    assert t.get(0, "livres") == 15


def test_haute_couture_free_jewel_needs_a_jewellery_decoration(make_table):
    t = make_table(3, expansions=JB_HAUTE)
    display(t, "ring_blue-1", None, None, None, None)
    rent_until_jewel(t, "HC4", "S3-1", "T01", "T30")
    t.answer(f"rent {NO_REWARD}")
    assert t.game.pending() == [] and t.zone("jewels", 0) == ()


@pytest.mark.parametrize("bought, prestige", [("ring_green-1", 2), ("ring_blue-1", 0), (None, 0)])
def test_haute_couture_prestige_for_a_jewel_of_its_colour(make_table, bought, prestige):
    t = make_table(3, expansions=JB_HAUTE)
    t.own("jewellery1", 0)
    display(t, "ring_green-1", "ring_blue-1", None, None, None)
    t.clear("resource_pile")
    t.put("T29", "resource_pile")
    t.set(0, "thread", 1)
    rent_until_jewel(t, "HC6", "S3-1", "T15", "T24")  # a green gentleman's coat
    if bought is None:
        t.answer("pass")
    else:
        t.answer(f"jewel {bought}")
        if bought == "ring_green-1":
            t.answer("keep")  # the colour match draws a tile
    before = t.get(0, "prestige")
    t.answer(f"rent {NO_REWARD}")
    assert t.get(0, "prestige") - before == prestige


def test_bonus_livres_per_two_dresses_on_master_spaces(t):
    t.own("s_hall1_guest3", 0, "D01").own("s_hall2_guest2", 0, "D02").own(
        "s_hall3_guest2", 0, "D03"
    )
    t.set(0, "livres", 0)
    t.act("jb_livres_master_spaces", 0, card="JM3")
    assert t.get(0, "livres") == 3  # 3 dresses on master spaces: one pair
