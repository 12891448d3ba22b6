"""The Deluxe solo mode against Madame du Barry (rococo.md section 9),
rulesets/rococo/expansions/solo.yaml.

With 1 person the game has 2 seats: Madame du Barry (seat 0, a seat the rules drive,
never asked) and P1 (seat 1). Each test arranges an exact position, runs one of her
actions, her turn, a phase or the final scoring with the real engine and checks the
outcome.

Her designed cards used here (provisional): MB01 Favour (hall 1), MB02 Favour (hall 2),
MB04 Acquire drawer 1, MB07 Acquire position 2 across all drawers, MB10 Sew position 1
from the right, MB13 Sew position 4, MB18 Hire position 2, MB20 Hire position 4,
MB21 Fund fireworks, MB23 Fund musician, MB24 Fund fountain (Deluxe kitchen).
Small board side: guest spaces of hall 1 are livres 2 / none / master / none / tile;
hall 2: thread / master / none / lace; fireworks cost 10/13/16, fountain rows 6/9.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from rococo_positions import final_scoring, guest_ids, start_phase, storage, windows

from interpreter.agents import RandomAgent
from interpreter.engine.game import Game
from interpreter.log import writer
from interpreter.log.replay import replay
from interpreter.ruleset import load_or_raise

SOLO = ("deluxe", "solo")
BARRY, P1 = 0, 1


# --------------------------------------------------------------------- helpers
@pytest.fixture
def t(make_table):
    return make_table(1, expansions=SOLO)


def deck(t, *cards: str):
    """Her card reserve, top first (the other cards go to the box)."""
    t.clear("barry_deck")
    for card in cards:
        t.put(card, "barry_deck")
    return t


def hand(t, *cards: str):
    t.clear("hand", BARRY)
    for card in cards:
        t.put(card, "hand", BARRY)
    return t


def play_out(expansions, players: int, seed: int) -> Game:
    names = [f"P{i + 1}" for i in range(players)]
    game = Game(load_or_raise("rococo", list(expansions)), names, seed)
    agents = {s: RandomAgent(s, seed) for s in range(len(game.state.players))}
    while not game.is_over():
        decision = game.pending()[0]
        assert decision.player_name != "Madame du Barry"
        game.apply(decision.player, agents[decision.player].choose(game, decision))
    return game


# ===================================================================== setup
def test_setup_she_is_seat_0_and_start_player_with_no_livres(t):
    assert t.state.players == ("Madame du Barry", "P1")
    assert t.eval("start_player.automaton") and t.eval("player_count") == 1
    assert (t.get(BARRY, "livres"), t.get(BARRY, "thread"), t.get(BARRY, "lace")) == (0, 1, 1)
    assert (t.get(P1, "livres"), t.get(P1, "thread"), t.get(P1, "lace")) == (15, 1, 1)
    assert t.zone("reserve", BARRY) == ("S1-1", "S2-1", "S3-1", "S4-1", "S5-1")
    # phase 2: she drew 4 of her 25 cards; only the person is asked
    assert len(t.zone("hand", BARRY)) == 4 and len(t.zone("barry_deck")) == 21
    assert all(c.startswith("MB") for c in t.zone("hand", BARRY))
    assert [d.player for d in t.game.pending()] == [P1]
    assert all(w.startswith("s_") for w in t.game.tables.group_members["window"])
    assert t.eval("majority_places[player_count]") == 1


def test_her_action_cards_are_never_staff(t):
    staff = t.eval("staff(me)", BARRY)
    assert {str(c) for c in staff} >= {"S1-1", "S5-1"}
    hand(t, "MB01")
    t.act("barry_turn", BARRY)
    assert t.zone("hand", BARRY) == () and "MB01" in t.zone("barry_discard")
    assert not any(str(c).startswith("MB") for c in t.eval("staff(me)", BARRY))


def test_two_to_five_players_with_solo_play_as_deluxe():
    for players in (2, 3, 4, 5):
        deluxe = play_out(("deluxe",), players, seed=players)
        solo = play_out(SOLO, players, seed=players)
        assert solo.state.players == deluxe.state.players
        assert solo.events == deluxe.events
        assert solo.result().scores == deluxe.result().scores


def test_one_player_game_plays_to_the_end_and_replays_legally(tmp_path: Path):
    game = play_out(SOLO, 1, seed=1)
    assert game.is_over()
    assert set(game.result().scores) == {"Madame du Barry", "P1"}
    path = tmp_path / "solo.jsonl"
    with path.open("w", encoding="utf-8") as stream:
        writer.write(game, stream)
    verdict = replay(path, strict=True)
    assert verdict.kind == "legal", verdict.message
    assert verdict.game.result().scores == game.result().scores


# ===================================================================== turn
def test_her_turn_reveals_the_top_card_and_discards_it(t):
    hand(t, "MB02", "MB04")
    t.act("barry_turn", BARRY)
    assert t.zone("hand", BARRY) == ("MB04",)
    assert t.zone("barry_discard") == ("MB02",)
    assert t.zone("favour", BARRY) == ("favour_card",)
    assert t.get(BARRY, "prestige") == 3


def test_impossible_action_scores_3_prestige(t):
    storage(t, (), ("T18",), ())
    hand(t, "MB04")  # acquire drawer 1: empty
    t.act("barry_turn", BARRY)
    assert t.get(BARRY, "prestige") == 3 and t.zone("tiles", BARRY) == ()
    assert t.zone("barry_discard") == ("MB04",)


# ===================================================================== favour
def test_favour_taken_3_prestige_no_livres(t):
    t.act("barry_favour", BARRY, card="MB01")
    assert t.zone("favour", BARRY) == ("favour_card",)
    assert t.eval("favour_taker.automaton")
    assert (t.get(BARRY, "prestige"), t.get(BARRY, "livres")) == (3, 0)


def test_favour_already_taken_still_3_prestige(t):
    t.put("favour_card", "favour", P1)
    t.act("barry_favour", BARRY, card="MB01")
    assert t.zone("favour", P1) == ("favour_card",)
    assert t.get(BARRY, "prestige") == 3


# ===================================================================== acquire
def test_acquire_takes_every_tile_of_the_drawer(t):
    storage(t, ("T15", "T24", "T45"), ("T18",), ("T37",))
    t.act("barry_acquire", BARRY, card="MB04")
    assert t.zone("tiles", BARRY) == ("T15", "T24", "T45")
    assert t.zone("s_storage1") == () and t.zone("s_storage2") == ("T18",)
    assert t.get(BARRY, "livres") == 0


def drawers(t, *places):
    """The storage drawers place by place (left, centre, right; None = empty), as a
    refill would have left them and a purchase since emptied them."""
    storage(t, *((tile for tile in drawer if tile) for drawer in places))
    t.state.variables["barry_places"] = tuple(tile or "" for drawer in places for tile in drawer)
    return t


def test_acquire_one_place_across_all_drawers(t):
    drawers(t, ("T15", "T24", "T45"), ("T18", None, None), (None, "T48", "T37"))
    t.act("barry_acquire", BARRY, card="MB07")  # place 2, the centre
    assert sorted(t.zone("tiles", BARRY)) == ["T24", "T48"]
    assert t.zone("s_storage2") == ("T18",) and t.zone("s_storage3") == ("T37",)


def test_acquire_across_drawers_a_bought_tile_leaves_a_gap(t):
    # book p. 17: "no espaço em todas as 3 gavetas (esquerda, centro, direita)": the
    # person buys drawer 1's left tile; her centre card still takes the centre one
    assert t.zone("s_storage1") == ("T15", "T24", "T45")  # round 1's refill
    t.act("acquire", P1, card="S4-2")
    t.answer("take T15", "keep")
    t.act("barry_acquire", BARRY, card="MB07")  # place 2
    assert sorted(t.zone("tiles", BARRY)) == ["T24", "T44", "T48"]
    assert t.zone("s_storage1") == ("T45",)
    t.act("barry_acquire", BARRY, card="MB04")  # drawer 1: the right tile is still there
    assert t.zone("s_storage1") == () and "T45" in t.zone("tiles", BARRY)


def test_acquire_across_drawers_the_refill_fills_the_gap_in_its_place(t):
    t.act("acquire", P1, card="S4-2")
    t.answer("take T18", "keep")  # drawer 2's left tile: its place stays empty
    start_phase(t, "prepare", 2)
    refilled = t.zone("s_storage2")
    assert refilled[:2] == ("T44", "T42") and len(refilled) == 3  # new tile: the left place
    t.act("barry_acquire", BARRY, card="MB09")  # place 3, the right
    assert "T42" in t.zone("tiles", BARRY)
    assert t.zone("s_storage2") == ("T44", refilled[2])
    assert t.state.variables["barry_places"][3:5] == (refilled[2], "T44")


def test_acquire_across_drawers_a_short_refill_fills_left_to_right(t):
    for tile in ("T15", "T24"):  # drawer 1's left and centre tiles
        t.act("acquire", P1, card="S4-2")
        t.answer(f"take {tile}", "keep")
    t.clear("resource_discard").clear("resource_pile").put("T01", "resource_pile")
    start_phase(t, "prepare", 2)
    assert t.zone("s_storage1") == ("T45", "T01")  # T01 in the left place, the centre empty
    t.act("barry_acquire", BARRY, card="MB07")  # place 2, the centre
    assert sorted(t.zone("tiles", BARRY)) == ["T44", "T48"]
    assert t.zone("s_storage1") == ("T45", "T01")


# ===================================================================== sew
def test_sew_position_from_the_right_among_present_dresses_master_space_first(t):
    windows(t, s_window1="D16", s_window3="D36", s_window4="D07")
    deck(t, "MB01", "MB02")  # hall 1
    t.act("barry_sew", BARRY, card="MB10")  # position 1 from the right
    assert t.zone("s_hall1_guest3") == ("D07",)
    assert t.state.owners["s_hall1_guest3"] == BARRY
    assert t.zone("barry_discard") == ("MB01",) and t.zone("barry_deck") == ("MB02",)
    assert t.get(BARRY, "livres") == 0 and t.get(BARRY, "thread") == 1


def test_sew_fewer_dresses_than_the_position_the_dearest_window(t):
    windows(t, s_window3="D36", s_window4="D07")
    deck(t, "MB01")
    t.act("barry_sew", BARRY, card="MB13")  # position 4, only 2 dresses
    assert t.zone("s_hall1_guest3") == ("D36",)  # window 3 costs 4, window 4 costs 3


def test_sew_reward_preference_tile_then_thread_lace_then_livres(t):
    windows(t, s_window1="D16", s_window2="D42", s_window3="D36")
    t.own("s_hall1_guest3", P1)
    deck(t, "MB01", "MB01")
    t.act("barry_sew", BARRY, card="MB10")
    assert t.zone("s_hall1_guest5") == ("D36",)
    assert len(t.zone("tiles", BARRY)) == 1  # the tile reward: 1 random tile from the bag
    t.own("s_hall1_guest5", P1)  # (hers already; now take the next)
    deck(t, "MB06")  # hall 1
    t.act("barry_sew", BARRY, card="MB10")
    assert t.zone("s_hall1_guest1") == ("D42",)
    assert t.get(BARRY, "livres") == 0  # the livres reward is not hers


def test_sew_thread_reward(t):
    windows(t, s_window1="D16")
    t.own("s_hall2_guest2", P1)
    deck(t, "MB02")  # hall 2
    t.act("barry_sew", BARRY, card="MB10")
    assert t.zone("s_hall2_guest1") == ("D16",)
    assert t.get(BARRY, "thread") == 2


def test_sew_full_hall_reveals_again(t):
    windows(t, s_window1="D16")
    for s in guest_ids(t):
        if s.startswith("s_hall1"):
            t.own(s, P1)
    deck(t, "MB01", "MB06", "MB02", "MB03")  # halls 1, 1, 2, 3
    t.act("barry_sew", BARRY, card="MB10")
    assert t.zone("s_hall2_guest2") == ("D16",)
    assert t.zone("barry_discard") == ("MB01", "MB06", "MB02")
    assert t.zone("barry_deck") == ("MB03",)


def test_sew_reserve_runs_out_best_space_of_any_hall(t):
    windows(t, s_window1="D16")
    for s in guest_ids(t):
        if s.startswith("s_hall1"):
            t.own(s, P1)
    deck(t, "MB01")
    t.act("barry_sew", BARRY, card="MB10")
    assert t.zone("s_hall2_guest2") == ("D16",)


def test_sew_every_hall_full_is_impossible(t):
    windows(t, s_window1="D16")
    for s in guest_ids(t):
        t.own(s, P1)
    hand(t, "MB10")
    t.act("barry_turn", BARRY)
    assert t.get(BARRY, "prestige") == 3
    assert t.zone("s_window1") == ("D16",)


def test_sew_with_no_dress_is_impossible(t):
    windows(t)
    hand(t, "MB10")
    t.act("barry_turn", BARRY)
    assert t.get(BARRY, "prestige") == 3


# ===================================================================== hire
def test_hire_position_from_the_left_into_her_staff_and_an_extra_card(t):
    t.clear("hiring")
    for e in ("E06", "E05", "E03", "E04"):
        t.put(e, "hiring")
    hand(t)
    deck(t, "MB03", "MB01")
    t.act("barry_hire", BARRY, card="MB18")  # position 2
    assert t.zone("hiring") == ("E06", "E03", "E04")
    assert t.zone("reserve", BARRY)[-1] == "E05"
    assert t.zone("hand", BARRY) == ("MB03",)
    assert t.get(BARRY, "livres") == 0


def test_hire_beyond_the_cards_left_takes_the_rightmost(t):
    t.clear("hiring")
    for e in ("E06", "E05"):
        t.put(e, "hiring")
    deck(t, "MB03")
    t.act("barry_hire", BARRY, card="MB20")  # position 4
    assert t.zone("hiring") == ("E06",)
    assert t.zone("reserve", BARRY)[-1] == "E05"


@pytest.mark.parametrize(
    "thread, lace, taken",
    [(2, 2, "E26"), (0, 0, "E25")],  # 2 thread + lace pairs: E26 gives 6; none: E25 (staff)
)
def test_hire_in_rounds_5_to_7_takes_the_endgame_card_worth_most_to_her(t, thread, lace, taken):
    t.clear("hiring")
    for e in ("E06", "E25", "E26", "E04"):
        t.put(e, "hiring")
    t.set(BARRY, "thread", thread).set(BARRY, "lace", lace)
    t.state.counters["round"] = 5
    deck(t, "MB03")
    t.act("barry_hire", BARRY, card="MB17")  # position 1: E06, no end-game bonus
    assert t.zone("reserve", BARRY)[-1] == taken
    assert (t.get(BARRY, "thread"), t.get(BARRY, "lace")) == (thread, lace)  # only judged


def test_hire_before_round_5_keeps_to_the_position(t):
    t.clear("hiring")
    for e in ("E06", "E25", "E26", "E04"):
        t.put(e, "hiring")
    t.state.counters["round"] = 4
    deck(t, "MB03")
    t.act("barry_hire", BARRY, card="MB17")
    assert t.zone("reserve", BARRY)[-1] == "E06"


def test_hire_with_nobody_left_is_impossible(t):
    t.clear("hiring")
    hand(t, "MB18")
    t.act("barry_turn", BARRY)
    assert t.get(BARRY, "prestige") == 3


# ===================================================================== fund
def test_fund_cheapest_free_space_of_the_type(t):
    t.act("barry_fund", BARRY, card="MB21")
    assert t.state.owners["s_fireworks1"] == BARRY
    t.act("barry_fund", BARRY, card="MB21")
    assert t.state.owners["s_fireworks2"] == BARRY
    t.act("barry_fund", BARRY, card="MB23")
    assert t.state.owners["musician_hall1"] == BARRY
    assert t.get(BARRY, "livres") == 0


def test_fund_fountain_rows_limit_her(t):
    t.act("barry_fund", BARRY, card="MB24")
    assert t.state.owners["s_fountain_top1"] == BARRY
    t.act("barry_fund", BARRY, card="MB24")
    assert t.state.owners["s_fountain_bottom1"] == BARRY
    hand(t, "MB24")
    t.act("barry_turn", BARRY)  # one marker in each row: impossible
    assert t.get(BARRY, "prestige") == 3
    assert "s_fountain_top2" not in t.state.owners


# ===================================================================== income, scoring
def test_no_income_for_her(t):
    t.own("s_fountain_top1", BARRY)
    start_phase(t, "income", 1)
    assert t.get(BARRY, "livres") == 0
    assert t.get(P1, "livres") == 15 + 5


def blank(t):
    for seat in (BARRY, P1):
        for counter in ("livres", "thread", "lace", "prestige"):
            t.set(seat, counter, 0)
    return t


def test_final_scoring_1_prestige_per_2_tiles(t):
    blank(t)
    for tile in ("T15", "T24", "T45", "T18", "T44"):
        t.put(tile, "tiles", BARRY)
    result = final_scoring(t)
    assert result.breakdown["Madame du Barry"]["barry_tiles"] == 2
    assert result.breakdown["P1"]["barry_tiles"] == 0


def test_she_wins_ties(t):
    blank(t)
    t.set(BARRY, "prestige", 10).set(P1, "prestige", 10).set(P1, "livres", 9)
    result = final_scoring(t)
    assert result.scores == {"Madame du Barry": 10, "P1": 10}
    assert result.ranking == [["Madame du Barry"], ["P1"]]


def test_terrace_her_best_dress_on_the_best_terrace(t):
    blank(t)
    t.own("s_fireworks3", BARRY)  # next to the x3 terrace
    t.own("s_hall1_guest1", BARRY, "D07").own("s_hall1_guest2", BARRY, "D16")
    best = max(("D07", "D16"), key=lambda d: t.eval(f"{d}.prestige"))
    result = final_scoring(t)
    assert t.zone("s_terrace3") == (best,)
    assert result.scores["Madame du Barry"] > 0


# ===================================================================== with the Jewelry Box
SOLO_JB = ("deluxe", "jewelry_box", "solo")
DISPLAY = tuple(f"jewel_display{i}" for i in range(1, 6))
TASKS = ("task_silk_yellow_green", "task_silk_red_blue", "task_thread_lace", "task_fund")


@pytest.fixture
def jb(make_table):
    return make_table(1, expansions=SOLO_JB)


def find(t, text: str) -> str:
    return str(t.eval(text))


def of_type(t, kind: str) -> set[str]:
    return {str(e) for e in t.eval(f"filter(e in employee where e.type == '{kind}')")}


def test_jb_no_specialized_apprentice_for_her(jb):
    assert jb.zone("specialized", BARRY) == ()
    assert len(jb.zone("specialized", P1)) == 1
    assert jb.get(BARRY, "test_stage") == 0


def test_jb_acquire_marks_the_topmost_matching_craftsman_task(jb):
    red_only = find(
        jb,
        "first(r in resource where get(r.silk, 'red', 0) > 0 and get(r.silk, 'yellow', 0)"
        " + get(r.silk, 'green', 0) == 0 and r.bottom == 'none')",
    )
    storage(jb, (red_only,), (), ())
    jb.act("barry_acquire", BARRY, card="MB04")
    assert [jb.get(BARRY, task) for task in TASKS] == [0, 1, 0, 0]
    assert jb.zone("tiles", BARRY) == (red_only,)


def test_jb_fund_completes_the_craftsman_test_at_once_for_free(jb):
    for task in TASKS[:3]:
        jb.set(BARRY, task, 1)
    jb.clear("craftsman_pile")
    jb.put("JC1", "craftsman_pile")
    hand(jb)
    deck(jb, "MB03")
    staff_before = set(jb.zone("reserve", BARRY))
    jb.act("barry_fund", BARRY, card="MB21")
    assert jb.get(BARRY, "prestige") == 1 and jb.get(BARRY, "livres") == 0
    assert jb.get(BARRY, "test_stage") == 1
    assert [jb.get(BARRY, task) for task in TASKS] == [0, 0, 0, 0]
    reserve = set(jb.zone("reserve", BARRY))
    removed = staff_before - reserve
    assert len(removed) == 1 and removed <= of_type(jb, "apprentice")
    assert reserve - staff_before == {"JC1"}
    assert jb.zone("hand", BARRY) == ("MB03",)  # one more turn


def test_jb_sew_master_dress_completes_the_master_test_and_a_jewellery_decoration(jb):
    master_dress = find(jb, "first(d in dress where d.master_only)")
    windows(jb, s_window1=master_dress)
    jb.set(BARRY, "test_stage", 1).set(BARRY, "task_sew_lady", 1)
    jb.set(BARRY, "task_sew_gentleman", 1)
    journeymen = set(jb.zone("reserve", BARRY)) & of_type(jb, "journeyman")
    assert journeymen == {"S3-1"}
    jb.clear("master_pile")
    jb.put("JM1", "master_pile")
    hand(jb)
    deck(jb, "MB03", "MB01")  # MB03: hall 3, no jewel
    jb.act("barry_sew", BARRY, card="MB10")
    assert jb.zone("s_hall3_guest2") == (master_dress,)
    assert jb.get(BARRY, "prestige") == 1 and jb.get(BARRY, "test_stage") == 0
    assert jb.get(BARRY, "master_tests") == 1
    assert "JM1" in jb.zone("reserve", BARRY)
    left = set(jb.zone("reserve", BARRY)) & of_type(jb, "journeyman")
    assert len(left) == len(journeymen) - 1
    assert jb.zone("hand", BARRY) == ("MB01",)
    assert jb.state.owners["jewellery1"] == BARRY


def staff(jb, *cards: str):
    """Her staff (her base reserve, never played): exactly ``cards``."""
    jb.clear("reserve", BARRY)
    for card in cards:
        jb.put(card, "reserve", BARRY)


def test_jb_master_test_removes_a_journeyman_of_any_level(jb):
    # p. 18: the master test removes "1 Artesão" at random - no level is spared;
    # only the craftsman test's apprentice is "mas não do Nível VI"
    staff(jb, "S1-1", "S2-1", "S4-1", "S5-1", "E23")  # E23: the level VI journeyman
    jb.clear("master_pile")
    jb.act("barry_master_test", BARRY)
    assert "E23" in jb.zone("box")
    assert set(jb.zone("reserve", BARRY)) == {"S1-1", "S2-1", "S4-1", "S5-1"}


def test_jb_craftsman_test_never_removes_a_level_vi_apprentice(jb):
    staff(jb, "S1-1", "S2-1", "S3-1", "E25")  # E25: a level VI (end-game) apprentice
    jb.clear("craftsman_pile")
    jb.act("barry_craftsman_test", BARRY)
    assert set(jb.zone("reserve", BARRY)) == {"S1-1", "S2-1", "S3-1", "E25"}
    assert jb.get(BARRY, "test_stage") == 1


def yellow_lady_with_display(jb, **display):
    """A yellow lady's dress in window 1, her jewellery decoration, and the display
    holding ``display`` (space -> jewel)."""
    lady = find(jb, "first(d in dress where d.colour == 'yellow' and not d.master_only)")
    windows(jb, s_window1=lady)
    jb.own("jewellery1", BARRY)
    for space in DISPLAY:
        jb.clear(space)
    for space, jewel in display.items():
        jb.put(jewel, space)


def test_jb_sew_colour_symbol_cheapest_jewel_of_the_colour_and_a_tile(jb):
    yellow_lady_with_display(
        jb,
        jewel_display2="necklace_yellow-1",
        jewel_display3="necklace_yellow-2",
        jewel_display5="necklace_red-1",
    )
    deck(jb, "MB01")  # hall 1, colour symbol
    jb.act("barry_sew", BARRY, card="MB10")
    assert jb.zone("jewels", BARRY) == ("necklace_yellow-2",)
    assert len(jb.zone("tiles", BARRY)) == 1  # hall 1's master space has no tile: the colour bonus


def test_jb_sew_kind_symbol_cheapest_jewel_of_the_shape(jb):
    yellow_lady_with_display(
        jb,
        jewel_display2="necklace_yellow-1",
        jewel_display3="necklace_red-1",
        jewel_display5="ring_blue-1",
    )
    deck(jb, "MB02")  # hall 2, kind symbol
    jb.act("barry_sew", BARRY, card="MB10")
    assert jb.zone("jewels", BARRY) == ("necklace_red-1",)
    assert jb.zone("tiles", BARRY) == ()


def test_jb_no_jewel_without_a_jewellery_decoration(jb):
    lady = find(jb, "first(d in dress where d.colour == 'yellow' and not d.master_only)")
    windows(jb, s_window1=lady)
    deck(jb, "MB01")
    jb.act("barry_sew", BARRY, card="MB10")
    assert jb.zone("jewels", BARRY) == ()


def test_jb_one_player_game_plays_to_the_end_and_replays_legally(tmp_path: Path):
    game = play_out(SOLO_JB, 1, seed=2)
    path = tmp_path / "solo_jb.jsonl"
    with path.open("w", encoding="utf-8") as stream:
        writer.write(game, stream)
    verdict = replay(path, strict=True)
    assert verdict.kind == "legal", verdict.message
