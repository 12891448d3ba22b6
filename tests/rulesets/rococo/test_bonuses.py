"""Rococo employee bonuses (rococo.md section 6), run by the generic engine.

Each bonus is an action of bonuses.yaml that the turn offers after the main action
(structure.yaml). The tests run a bonus in the engine's sandbox on a frozen game
(the game course does not run on after it), or a whole turn from the ruleset's
`actions` phase, and check the exact livres / prestige / zone outcomes.

Small-side board values used: workshop windows cost 8/6/4/3/1/0 (s_window1..6);
fountain 6 and 9, musicians 8, fireworks 10/13/16, statues 10/12/14; master guest
spaces s_hall1_guest3 and s_hallN_guest2 (N = 2..5).
"""

from __future__ import annotations

import pytest

from interpreter.engine.game import IllegalMove
from interpreter.language.values import Piece

WINDOWS = [f"s_window{i}" for i in range(1, 7)]
MASTER_SPACES = [
    "s_hall1_guest3",
    "s_hall2_guest2",
    "s_hall3_guest2",
    "s_hall4_guest2",
    "s_hall5_guest2",
]
# spare employee cards to build staffs of any size (starting copies of unused colours)
FILLER = [
    "S1-1",
    "S2-1",
    "S3-1",
    "S4-1",
    "S5-1",
    "S1-4",
    "S2-4",
    "S3-4",
    "S4-4",
    "S5-4",
    "S1-5",
    "S2-5",
    "S3-5",
    "S4-5",
    "S5-5",
]


# --------------------------------------------------------------------- helpers
@pytest.fixture
def t(table):
    """A 3-player table frozen between units: nothing runs on after a sandbox action."""
    return freeze(table)


def freeze(t):
    t.game.pause()
    return t


def staff(t, seat, reserve=(), hand=(), discard=()):
    for zone, cards in (("reserve", reserve), ("hand", hand), ("discard", discard)):
        t.clear(zone, seat)
        for card in cards:
            t.put(card, zone, seat)
    return t


def staff_of_size(t, seat, played, size):
    """``played`` in the discard (where a played card is), ``size - 1`` fillers around."""
    others = FILLER[: size - 1]
    return staff(
        t,
        seat,
        reserve=others[: len(others) // 2],
        hand=others[len(others) // 2 :],
        discard=[played],
    )


def workshop(t, *dresses):
    """Dresses in the windows, left to right from s_window1; the rest empty."""
    for window in WINDOWS:
        t.clear(window)
    for window, dress in zip(WINDOWS, dresses, strict=False):
        if dress:
            t.put(dress, window)
    return t


def tiles(t, seat, *ids):
    t.clear("tiles", seat)
    for tile in ids:
        t.put(tile, "tiles", seat)
    return t


def can(t, action, seat, card):
    return t.eval(f"can {action}(card: c)", seat, c=Piece(card))


def turn(t, seat):
    """Start ``seat``'s turn: the ruleset's `actions` phase effect."""
    t.game.run_step("actions", seat)
    return t


def end_scoring(t):
    """Run the final scoring stage; return every player's endgame-step points."""
    game = t.game
    game.goto_scoring()
    while game.pending():
        t.answer("pass")
    result = game.result()
    return [result.breakdown[f"P{s + 1}"]["endgame"] for s in range(len(t.state.players))]


def money(t, seat=0):
    return t.get(seat, "livres"), t.get(seat, "prestige")


# -------------------------------------------------------- card -> bonus map
EXPECTED_CARDS = {
    "E01": (1, "gain_1_livre"),
    "E02": (1, "dismiss_use_bonus"),
    "E03": (1, "buy_random_tile"),
    "E04": (1, "extra_acquire"),
    "E05": (1, "free_random_tile"),
    "E06": (1, "free_thread_or_lace"),
    "E07": (2, "livres_per_yellow_red"),
    "E08": (2, "extra_sew_yellow_green"),
    "E09": (2, "dismiss_for_money"),
    "E10": (2, "prestige_per_2_decorations"),
    "E11": (3, "livre_per_decoration"),
    "E12": (3, "prestige_per_3_dresses"),
    "E13": (3, "extra_fund_minus_5"),
    "E14": (3, "livres_by_staff_size"),
    "E15": (4, "livres_by_staff_size_small"),
    "E16": (4, "extra_sew_red"),
    "E17": (4, "livres_green_prestige_blue"),
    "E18": (4, "prestige_per_4_livres"),
    "E19": (5, "livre_per_dress"),
    "E20": (5, "prestige_per_2_decorations_v"),
    "E21": (5, "prestige_per_2_dresses"),
    "E22": (5, "cash_in_tiles"),
    "E23": (6, "prestige_per_3_livres"),
    "E24": (6, "extra_fund_minus_10"),
    "E25": (6, "endgame_staff_size"),
    "E26": (6, "endgame_thread_lace_pairs"),
    "E27": (6, "endgame_master_spaces"),
    "E28": (6, "endgame_lady_gentleman_pairs"),
}


def test_cards_carry_the_books_bonuses_by_level(t):
    cards = t.eval("filter(e in employee where e.level > 0)")
    found = {str(c): (t.eval("c.level", c=c), str(t.eval("c.bonus", c=c))) for c in cards}
    assert found == EXPECTED_CARDS
    ends = {str(c) for c in t.eval("filter(e in employee where e.endgame)")}
    assert ends == {"E25", "E26", "E27", "E28"}
    assert all(t.eval("c.type", c=Piece(c)) == "apprentice" for c in ends)


def test_starting_cards_bonuses(t):
    """Two masters without a bonus; the other three carry the three starting bonuses."""
    cards = [f"S{i}-1" for i in range(1, 6)]
    bonus = {c: t.eval("c.bonus", c=Piece(c)) for c in cards}
    kind = {c: t.eval("c.type", c=Piece(c)) for c in cards}
    without = [c for c in cards if bonus[c] is None]
    assert len(without) == 2 and all(kind[c] == "master" for c in without)
    assert sorted(str(bonus[c]) for c in cards if c not in without) == [
        "extra_acquire",
        "gain_2_livres",
        "thread_or_lace_for_1",
    ]
    assert t.eval("staff_size(me)", 0) == 5


# ------------------------------------------------------------ starting bonuses
def test_start_gain_2_livres(t):
    t.act("gain_2_livres", 0, "S3-1")
    assert money(t) == (17, 0)


@pytest.mark.parametrize("pick", ["thread", "lace"])
def test_start_pay_1_livre_for_thread_or_lace(t, pick):
    t.act("thread_or_lace_for_1", 0, "S5-1")
    assert t.options() == ("thread", "lace")
    t.answer(pick)
    assert t.get(0, "livres") == 14
    assert (t.get(0, "thread"), t.get(0, "lace")) == ((2, 1) if pick == "thread" else (1, 2))


def test_start_thread_or_lace_needs_1_livre(t):
    t.set(0, "livres", 0)
    assert can(t, "thread_or_lace_for_1", 0, "S5-1") is False
    with pytest.raises(IllegalMove):
        t.act("thread_or_lace_for_1", 0, "S5-1")


# ------------------------------------------------------------------ level I
def test_gain_1_livre(t):
    t.act("gain_1_livre", 0, "E01")
    assert money(t) == (16, 0)


@pytest.mark.parametrize("card", ["S4-1", "E04"])
def test_extra_acquire_prices_by_section_and_keep(t, card):
    for i in (1, 2, 3):
        t.clear(f"s_storage{i}")
    for tile in ("T01", "T02", "T03"):
        t.put(tile, "s_storage1")  # 3 tiles: 2 livres
    for tile in ("T15", "T16"):
        t.put(tile, "s_storage2")  # 2 tiles: 1 livre
    t.put("T41", "s_storage3")  # the last: free
    tiles(t, 0)
    t.act("extra_acquire", 0, card)
    assert t.options() == ("take T01", "take T02", "take T03", "take T15", "take T16", "take T41")
    t.answer("take T15")
    assert t.options() == ("keep", "convert")
    t.answer("keep")
    assert t.zone("tiles", 0) == ("T15",)
    assert t.get(0, "livres") == 14
    t.act("extra_acquire", 0, card).answer("take T41", "keep")
    assert t.get(0, "livres") == 14 and t.zone("tiles", 0) == ("T15", "T41")
    t.act("extra_acquire", 0, card).answer("take T01", "keep")
    assert t.get(0, "livres") == 12


def test_extra_acquire_convert_either_tile(t):
    for i in (1, 2, 3):
        t.clear(f"s_storage{i}")
    t.put("T11", "s_storage1")  # 1 yellow + 1 red, thread/lace (either)
    t.act("extra_acquire", 0, "E04").answer("take T11", "convert")
    assert t.options() == ("thread", "lace")
    t.answer("lace")
    assert (t.get(0, "thread"), t.get(0, "lace"), t.get(0, "livres")) == (1, 2, 15)
    assert "T11" in t.zone("resource_discard")


def _pile(t, *ids):
    t.clear("resource_pile")
    t.clear("resource_discard")
    for tile in ids:
        t.put(tile, "resource_pile")


def test_buy_random_tile_pays_1_and_keeps(t):
    _pile(t, "T41")
    tiles(t, 0)
    t.act("buy_random_tile", 0, "E03")
    assert t.options() == ("keep", "convert")
    t.answer("keep")
    assert t.zone("tiles", 0) == ("T41",) and t.get(0, "livres") == 14
    assert t.zone("resource_pile") == ()


def test_buy_random_tile_convert_and_needs_a_livre(t):
    _pile(t, "T05")  # thread below
    t.act("buy_random_tile", 0, "E03").answer("convert")
    assert (t.get(0, "livres"), t.get(0, "thread")) == (14, 2)
    assert t.zone("resource_discard") == ("T05",)
    t.set(0, "livres", 0)
    assert can(t, "buy_random_tile", 0, "E03") is False


def test_free_random_tile(t):
    _pile(t, "T07")  # lace below
    t.act("free_random_tile", 0, "E05").answer("convert")
    assert (t.get(0, "livres"), t.get(0, "lace"), t.get(0, "thread")) == (15, 2, 1)
    _pile(t, "T29")
    t.set(0, "livres", 0)
    t.act("free_random_tile", 0, "E05").answer("keep")
    assert "T29" in t.zone("tiles", 0) and t.get(0, "livres") == 0


def test_random_tile_refills_pile_from_discard(t):
    t.clear("resource_pile")
    t.clear("resource_discard")
    t.put("T30", "resource_discard")
    t.act("free_random_tile", 0, "E05").answer("keep")
    assert "T30" in t.zone("tiles", 0)
    t.clear("resource_discard")
    assert can(t, "free_random_tile", 0, "E05") is False


@pytest.mark.parametrize("pick", ["thread", "lace"])
def test_free_thread_or_lace(t, pick):
    t.act("free_thread_or_lace", 0, "E06")
    assert t.options() == ("thread", "lace")
    t.answer(pick)
    assert t.get(0, pick) == 2 and t.get(0, "livres") == 15


# ---------------------------------------------------------- dismiss bonuses
def test_dismiss_use_bonus_offers_the_whole_staff_and_gives_no_money(t):
    staff(t, 0, reserve=["S1-1", "S2-1"], hand=["S3-1"], discard=["S4-1", "E02"])
    t.act("dismiss_use_bonus", 0, "E02")
    assert t.options() == (
        "dismiss S1-1",
        "dismiss S2-1",
        "dismiss S3-1",
        "dismiss S4-1",
        "dismiss E02",
    )
    t.answer("dismiss S1-1")  # a master without a bonus
    assert money(t) == (15, 0)  # no dismissal money
    assert "S1-1" in t.zone("box") and "S1-1" not in t.zone("reserve", 0)
    assert t.game.pending() == []


def test_dismiss_use_bonus_uses_the_dismissed_cards_bonus(t):
    staff(t, 0, reserve=["S1-1", "S2-1", "S3-1", "S4-1"], discard=["E02"])
    t.act("dismiss_use_bonus", 0, "E02").answer("dismiss S3-1")
    assert t.options() == ("bonus", "no bonus")
    t.answer("bonus")
    assert money(t) == (17, 0)  # its bonus (gain 2 livres), no money
    assert "S3-1" in t.zone("box")


def test_dismiss_use_bonus_its_bonus_may_be_declined(t):
    """Czech book: 'Můžeš využít jeho bonus' - you MAY use its bonus."""
    staff(t, 0, reserve=["S1-1", "S2-1", "S3-1", "S4-1"], discard=["E02"])
    t.act("dismiss_use_bonus", 0, "E02").answer("dismiss S4-1")  # extra Acquire
    assert t.options() == ("bonus", "no bonus")
    t.answer("no bonus")
    assert money(t) == (15, 0) and t.zone("tiles", 0) == ()
    assert "S4-1" in t.zone("box")


def test_dismiss_use_bonus_of_itself_or_a_crown_card_gives_nothing(t):
    staff(t, 0, reserve=["S1-1", "S2-1", "E25"], hand=["S3-1"], discard=["S4-1", "E02"])
    t.act("dismiss_use_bonus", 0, "E02").answer("dismiss E25")
    assert t.game.pending() == [] and money(t) == (15, 0)
    t.act("dismiss_use_bonus", 0, "E02").answer("dismiss E02")
    assert t.game.pending() == [] and money(t) == (15, 0)
    assert {"E25", "E02"} <= set(t.zone("box"))


def test_dismiss_use_bonus_the_played_cards_type_counts(make_table):
    """Digest section 6 Decision / bonuses.yaml header: a bonus is done by the PLAYED card,
    whose type counts wherever the rules ask who did it. E02 (a master) dismisses an
    apprentice and uses its extra Acquire: with the Jewelry Box an Acquire by an
    apprentice marks a craftsman task, but this Acquire was done by a master."""
    t = freeze(make_table(3, expansions=("deluxe", "jewelry_box")))
    assert t.eval("c.type", 0, c=Piece("E02")) == "master"
    assert t.eval("c.type", 0, c=Piece("S4-1")) == "apprentice"
    staff(t, 0, reserve=["S1-1", "S2-1", "S3-1", "S4-1"], discard=["E02"])
    storage = ("s_storage1", "s_storage2", "s_storage3")
    for section in storage:
        t.clear(section)
    t.put("T01", "s_storage1")  # 3 yellow silk, the last tile of its section: free
    t.act("dismiss_use_bonus", 0, "E02").answer("dismiss S4-1", "bonus", "take T01", "keep")
    assert t.game.pending() == []
    assert t.zone("tiles", 0) == ("T01",) and "S4-1" in t.zone("box")
    assert t.get(0, "task_silk_yellow_green") == 0  # done by the master, not the apprentice
    # the same bonus on the apprentice's own play does mark it
    t.put("T02", "s_storage1").put("S4-2", "discard", 0)
    t.act("extra_acquire", 0, "S4-2").answer("take T02", "keep")
    assert t.get(0, "task_silk_yellow_green") == 1


@pytest.mark.parametrize(
    "action, card", [("dismiss_use_bonus", "E02"), ("dismiss_for_money", "E09")]
)
def test_dismiss_bonuses_keep_4_cards(t, action, card):
    staff(t, 0, reserve=["S1-1", "S2-1"], hand=["S3-1"], discard=[card])  # 4 cards
    assert can(t, action, 0, card) is False
    with pytest.raises(IllegalMove):
        t.act(action, 0, card)
    staff(t, 0, reserve=["S1-1", "S2-1", "S5-1"], hand=["S3-1"], discard=[card])  # 5
    assert can(t, action, 0, card) is True


@pytest.mark.parametrize(
    "action, card", [("dismiss_use_bonus", "E02"), ("dismiss_for_money", "E09")]
)
def test_turn_offers_no_dismiss_bonus_with_4_cards(t, action, card):
    staff(t, 0, reserve=["S1-1", "S2-1", "S3-1"], hand=[card])
    turn(t, 0).answer(f"play {card}", "no action")
    assert t.game.pending() == []  # no "bonus" decision
    assert money(t) == (15, 0)


@pytest.mark.parametrize("victim, livres", [("S1-1", 8), ("S3-1", 5), ("S4-1", 2)])
def test_dismiss_for_money_by_type_bonus_not_used(t, victim, livres):
    staff(t, 0, reserve=["S1-1", "S2-1", "S3-1"], hand=["S4-1"], discard=["E09"])
    t.act("dismiss_for_money", 0, "E09")
    assert t.options() == (
        "dismiss S1-1",
        "dismiss S2-1",
        "dismiss S3-1",
        "dismiss S4-1",
        "dismiss E09",
    )
    t.answer(f"dismiss {victim}")
    assert t.game.pending() == []  # its bonus is not used
    assert money(t) == (15 + livres, 0)
    assert victim in t.zone("box")


def test_dismiss_main_action_then_its_own_bonus(t):
    """The dismissed card's bonus may still be used after the Dismiss main action."""
    staff(t, 0, reserve=["S1-1", "S2-1", "S3-1", "S4-1", "S5-1"], hand=["E09"])
    turn(t, 0).answer("play E09", "dismiss")
    assert money(t) == (19, 0)  # apprentice: 4
    assert t.options() == ("bonus", "no bonus")
    t.answer("bonus", "dismiss S1-1")  # staff 5 -> 4
    assert money(t) == (27, 0)
    assert "E09" in t.zone("box") and "S1-1" in t.zone("box")


@pytest.mark.parametrize(
    "card, dismissal, bonus", [("E14", 7, 6), ("E15", 4, 3)]
)  # staff 7 counts 6 / 3 livres; staff 6 would count 2 / 1
def test_dismiss_main_action_staff_bonus_counts_the_dismissed_card(t, card, dismissal, bonus):
    """Czech book p.5: use the dismissed card's bonus, 'Až pak ji odstraňte ze hry' (only
    then remove it from the game): a staff-size bonus still counts the dismissed card."""
    staff(t, 0, reserve=FILLER[:6], hand=[card])  # staff 7, the played card included
    turn(t, 0).answer(f"play {card}", "dismiss")
    assert money(t) == (15 + dismissal, 0)
    assert t.options() == ("bonus", "no bonus")
    t.answer("bonus")
    assert money(t) == (15 + dismissal + bonus, 0)  # staff 7: the dismissed card counts
    assert t.game.pending() == []
    assert card in t.zone("box")  # then it leaves the game
    assert card not in t.zone("discard", 0) and t.eval("staff_size(me)", 0) == 6


def test_dismiss_main_action_pending_card_keeps_the_4_card_minimum(t):
    """While its bonus is used the dismissed card still counts as staff, yet a dismiss
    bonus may not take the staff below 4 once it has left: staff 5 -> no second dismissal."""
    staff(t, 0, reserve=["S1-1", "S2-1", "S3-1", "S4-1"], hand=["E09"])  # staff 5
    turn(t, 0).answer("play E09", "dismiss")
    assert money(t) == (19, 0)
    assert t.game.pending() == []  # its dismiss bonus is not offered
    assert "E09" in t.zone("box") and t.eval("staff_size(me)", 0) == 4


def test_dismiss_main_action_card_cannot_be_dismissed_again_by_its_bonus(t):
    staff(t, 0, reserve=["S1-1", "S2-1", "S3-1", "S4-1", "S5-1"], hand=["E09"])
    turn(t, 0).answer("play E09", "dismiss", "bonus")
    assert "dismiss E09" not in t.options()  # no second payment for the same card
    assert t.options() == tuple(f"dismiss {c}" for c in ("S1-1", "S2-1", "S3-1", "S4-1", "S5-1"))


# ----------------------------------------------------- board-counting bonuses
def _board(t, seat=0):
    """P1: yellow D01, D02 (D02 on the terrace), red D27, green D14, D15, blue D37;
    P2: yellow D03, red D28, blue D38 (not P1's)."""
    t.own("s_hall1_guest1", seat, "D01").own("s_terrace1", seat, "D02")
    t.own("s_hall2_guest1", seat, "D27")
    t.own("s_hall3_guest1", seat, "D14").own("s_hall3_guest3", seat, "D15")
    t.own("s_hall4_guest1", seat, "D37")
    t.own("s_hall5_guest1", 1, "D03").own("s_hall5_guest3", 1, "D28")
    t.own("s_hall4_guest3", 1, "D38")
    return t


def test_livres_per_yellow_and_red(t):
    _board(t).act("livres_per_yellow_red", 0, "E07")
    assert money(t) == (15 + 2 + 2, 0)


def test_livres_green_prestige_blue(t):
    _board(t).act("livres_green_prestige_blue", 0, "E17")
    assert money(t) == (15 + 4, 1)


@pytest.mark.parametrize("dresses, livres", [(0, 0), (1, 1), (6, 6)])
def test_livre_per_dress(t, dresses, livres):
    if dresses:
        _board(t) if dresses == 6 else t.own("s_hall1_guest1", 0, "D01")
    t.act("livre_per_dress", 0, "E19")
    assert money(t) == (15 + livres, 0)


@pytest.mark.parametrize(
    "action, card, per",
    [("prestige_per_3_dresses", "E12", 3), ("prestige_per_2_dresses", "E21", 2)],
)
@pytest.mark.parametrize("dresses", [0, 1, 2, 3, 5, 6, 7])
def test_prestige_per_n_dresses(t, action, card, per, dresses):
    spaces = [str(s) for s in t.eval("filter(s in guest)")]
    for space, dress in zip(
        spaces, ["D01", "D02", "D03", "D04", "D05", "D07", "D08"][:dresses], strict=False
    ):
        t.own(space, 0, dress)
    t.own("s_hall5_guest4", 1, "D09")  # another player's dress does not count
    t.act(action, 0, card)
    assert money(t) == (15, dresses // per)


DECORATIONS = [
    "musician_hall1",
    "s_fireworks1",
    "s_statue1",
    "s_fountain_top1",
    "s_fountain_bottom1",
    "musician_hall2",
]


@pytest.mark.parametrize(
    "action, card", [("prestige_per_2_decorations", "E10"), ("prestige_per_2_decorations_v", "E20")]
)
@pytest.mark.parametrize("n", [0, 1, 2, 3, 5, 6])
def test_prestige_per_2_decorations_without_all_halls(t, action, card, n):
    for space in DECORATIONS[:n]:
        t.own(space, 0)
    t.own("all_halls1", 0)  # never a decoration
    t.own("musician_hall3", 1)
    t.act(action, 0, card)
    assert money(t) == (15, n // 2)


@pytest.mark.parametrize("n", [0, 1, 3, 6])
def test_livre_per_decoration_without_all_halls(t, n):
    for space in DECORATIONS[:n]:
        t.own(space, 0)
    t.own("all_halls1", 0)
    t.act("livre_per_decoration", 0, "E11")
    assert money(t) == (15 + n, 0)


# ------------------------------------------------------ staff-size bonuses
STAFF_TABLE = {
    4: (0, 0, 0),
    5: (2, 1, 2),
    6: (2, 1, 2),
    7: (6, 3, 5),
    8: (6, 3, 5),
    9: (10, 5, 8),
    10: (10, 5, 8),
    11: (14, 7, 11),
    12: (14, 7, 11),
}


@pytest.mark.parametrize("size", sorted(STAFF_TABLE))
def test_livres_by_staff_size_2_6_10_14(t, size):
    staff_of_size(t, 0, "E14", size)
    assert t.eval("staff_size(me)", 0) == size
    t.act("livres_by_staff_size", 0, "E14")
    assert money(t) == (15 + STAFF_TABLE[size][0], 0)


@pytest.mark.parametrize("size", sorted(STAFF_TABLE))
def test_livres_by_staff_size_1_3_5_7(t, size):
    staff_of_size(t, 0, "E15", size)
    t.act("livres_by_staff_size_small", 0, "E15")
    assert money(t) == (15 + STAFF_TABLE[size][1], 0)


# --------------------------------------------------------- buying prestige
@pytest.mark.parametrize(
    "action, card, price",
    [("prestige_per_4_livres", "E18", 4), ("prestige_per_3_livres", "E23", 3)],
)
@pytest.mark.parametrize("livres, buy", [(13, 0), (13, 1), (13, 3), (12, 3), (2, 0)])
def test_prestige_for_livres_any_number_of_times(t, action, card, price, livres, buy):
    t.set(0, "livres", livres)
    t.act(action, 0, card)
    assert t.options() == tuple(f"buy {n}" for n in range(livres // price + 1))
    t.answer(f"buy {buy}")
    assert money(t) == (livres - price * buy, buy)


# --------------------------------------------------------------- cash in tiles
def test_cash_in_tiles_blue_red_and_pooled_green_yellow(t):
    tiles(t, 0, "T41", "T38", "T14", "T27", "T09")  # 3 blue, 1 red, 1 Y, 1 G, 2 Y
    t.act("cash_in_tiles", 0, "E22")
    assert t.options() == (
        "cash in T41",
        "cash in T38",
        "cash in T14",
        "cash in T27",
        "cash in T09",
        "pass",
    )
    t.answer("cash in T41", "cash in T38", "cash in T14", "cash in T27", "pass")
    # blue 3 + red 1 + (1 yellow + 1 green) // 2
    assert money(t) == (15, 3 + 1 + 1)
    assert t.zone("tiles", 0) == ("T09",)
    assert {"T41", "T38", "T14", "T27"} <= set(t.zone("resource_discard"))
    assert t.zone("handing", 0) == ()


@pytest.mark.parametrize(
    "cash, prestige",
    [
        (["T14"], 0),  # 1 yellow
        (["T09", "T14"], 1),  # 3 yellow
        (["T24", "T09"], 2),  # 2 green + 2 yellow
        (["T35", "T43"], 4),  # 2 red + 2 blue
        ([], 0),  # any number, also none
    ],
)
def test_cash_in_tiles_values(t, cash, prestige):
    tiles(t, 0, "T14", "T09", "T24", "T35", "T43")
    t.act("cash_in_tiles", 0, "E22")
    t.answer(*[f"cash in {x}" for x in cash], "pass")
    assert money(t) == (15, prestige)
    assert len(t.zone("tiles", 0)) == 5 - len(cash)


def test_cash_in_all_tiles_ends_without_a_pass(t):
    tiles(t, 0, "T42")
    t.act("cash_in_tiles", 0, "E22").answer("cash in T42")
    assert t.game.pending() == [] and money(t) == (15, 3)


# ------------------------------------------------------------- extra Sew
def test_extra_sew_yellow_green_one_bale_fewer(t):
    workshop(t, "D27", "D06", "D07", "D04", "D17", "D34")
    tiles(t, 0, "T09", "T24", "T38", "T01")  # 2Y, 2G, 1R, 3Y
    t.act("extra_sew_yellow_green", 0, "E08")
    # D27 (2 red: no red discount), D06 (master-only), D34 (4 red) are not offered
    assert t.options() == ("sew D07", "sew D04", "sew D17")
    t.answer("sew D04")  # 3 yellow, window 4 costs 3
    assert t.options() == ("silk T09", "silk T01")
    t.answer("silk T09")  # 2 yellow are enough
    assert t.options() == ("rent", "sell")
    t.answer("sell")
    assert money(t) == (15 - 3 + 9, 0)
    assert t.zone("tiles", 0) == ("T24", "T38", "T01")
    assert "T09" in t.zone("resource_discard") and "D04" in t.zone("dress_discard")


@pytest.mark.parametrize(
    "dress, tile, offered",
    [
        ("D17", "T24", True),  # 3 green with 2 green
        ("D19", "T24", True),  # 2 green + 1 yellow with 2 green: the yellow bale fewer
        ("D07", "T14", False),  # 2 yellow + 1 green with 1 yellow: yellow AND green short
        ("D04", "T14", False),  # 3 yellow with 1 yellow: 2 short
        ("D27", "T38", False),  # red is not discounted
        ("D06", "T01", False),  # master-only, even with the silk and a master card
    ],
)
def test_extra_sew_yellow_green_which_dresses(t, dress, tile, offered):
    workshop(t, None, None, None, dress)
    tiles(t, 0, tile)
    assert can(t, "extra_sew_yellow_green", 0, "E08") is offered


def test_extra_sew_yellow_green_never_master_only(t):
    workshop(t, None, None, None, "D06")  # 3 yellow + 1 lace, gold thimble
    tiles(t, 0, "T01")
    assert can(t, "sew", 0, "E08") is True  # a master's main Sew may
    assert can(t, "extra_sew_yellow_green", 0, "E08") is False
    tiles(t, 0, "T09")  # discount would make it affordable
    assert can(t, "extra_sew_yellow_green", 0, "E08") is False


def test_extra_sew_yellow_green_choose_which_colour(t):
    workshop(t, None, None, None, "D07")  # 2 yellow + 1 green + 1 thread
    tiles(t, 0, "T09", "T27")  # 2 yellow, 1 green: either fewer
    t.act("extra_sew_yellow_green", 0, "E08").answer("sew D07")
    assert t.options() == ("fewer yellow", "fewer green")
    t.answer("fewer green")
    assert t.options() == ("silk T09",)  # no green tile needed
    t.answer("silk T09", "sell")
    assert t.zone("tiles", 0) == ("T27",)
    assert money(t) == (15 - 3 + 11, 0) and t.get(0, "thread") == 0


def test_main_sew_gets_no_discount(t):
    workshop(t, None, None, None, "D04")
    tiles(t, 0, "T09")
    assert can(t, "sew", 0, "E08") is False
    assert can(t, "extra_sew_yellow_green", 0, "E08") is True


@pytest.mark.parametrize(
    "dress, tile, offered",
    [
        ("D30", "T38", True),  # 3 red with 1 red: 2 fewer
        ("D27", None, True),  # 2 red with no silk at all
        ("D34", "T38", False),  # 4 red + lace with 1 red: 3 short
        ("D29", None, False),  # 2 red + 1 yellow: yellow is not discounted
        ("D29", "T14", True),
        ("D32", "T29", False),  # master-only red
        ("D04", "T14", False),  # yellow is not discounted by this bonus
    ],
)
def test_extra_sew_red_which_dresses(t, dress, tile, offered):
    workshop(t, None, None, None, dress)
    tiles(t, 0, *([tile] if tile else []))
    assert can(t, "extra_sew_red", 0, "E16") is offered


def test_extra_sew_red_up_to_2_fewer(t):
    workshop(t, None, None, "D30", "D27")  # window 3 costs 4, window 4 costs 3
    tiles(t, 0, "T38", "T30")  # 1 red, 3 red
    t.act("extra_sew_red", 0, "E16")
    assert t.options() == ("sew D30", "sew D27")
    t.answer("sew D30")
    assert t.options() == ("silk T38", "silk T30")
    t.answer("silk T38", "sell")  # 1 of 3 red bales handed in
    assert t.zone("tiles", 0) == ("T30",)
    assert money(t) == (15 - 4 + 12, 0)
    t.act("extra_sew_red", 0, "E16").answer("sew D27", "sell")  # 2 red, no silk
    assert t.zone("tiles", 0) == ("T30",)
    assert money(t) == (23 - 3 + 8, 0)


# --------------------------------------------------------------- extra Fund
def test_extra_fund_5_cheaper(t):
    t.set(0, "livres", 3)
    t.act("extra_fund_minus_5", 0, "E13")
    # price - 5 <= 3: fountain 6 (1), musicians 8 (3); not fountain 9, fireworks, statues
    assert t.options() == (
        "fund musician_hall1",
        "fund musician_hall2",
        "fund musician_hall3",
        "fund musician_hall4",
        "fund musician_hall5",
        "fund s_fountain_top1",
        "fund s_fountain_bottom1",
    )
    t.answer("fund musician_hall2")
    assert money(t) == (0, 0) and t.state.owners["musician_hall2"] == 0


def test_extra_fund_5_cheaper_price_paid(t):
    t.set(0, "livres", 20)
    t.act("extra_fund_minus_5", 0, "E13").answer("fund s_fireworks3")  # 16 - 5
    assert money(t) == (9, 0) and t.state.owners["s_fireworks3"] == 0


def test_extra_fund_10_cheaper_never_below_0(t):
    t.set(0, "livres", 5)
    t.act("extra_fund_minus_10", 0, "E24").answer("fund s_fountain_top1")  # 6 - 10
    assert money(t) == (5, 0) and t.state.owners["s_fountain_top1"] == 0
    t.set(0, "livres", 0)
    t.act("extra_fund_minus_10", 0, "E24")
    assert set(t.options()) == {
        "fund musician_hall1",
        "fund musician_hall2",
        "fund musician_hall3",
        "fund musician_hall4",
        "fund musician_hall5",
        "fund s_fireworks1",
        "fund s_statue1",
        "fund s_fountain_bottom1",
        "fund s_fountain_bottom2",
    }
    t.answer("fund s_statue1")  # 10 - 10
    assert money(t) == (0, 0) and t.state.owners["s_statue1"] == 0


def test_extra_fund_keeps_the_fountain_row_limit(t):
    t.own("s_fountain_top1", 0)
    t.set(0, "livres", 0)
    t.act("extra_fund_minus_10", 0, "E24")
    assert "fund s_fountain_top2" not in t.options()
    assert "fund s_fountain_bottom2" in t.options()


def test_extra_fund_5_nothing_affordable(t):
    t.set(0, "livres", 0)
    assert can(t, "extra_fund_minus_5", 0, "E13") is False
    assert can(t, "extra_fund_minus_10", 0, "E24") is True


# ------------------------------------------------------ end-game (crown) bonuses
CROWN = ["E25", "E26", "E27", "E28"]


def _crown_position(t):
    """A position in which every crown bonus would be worth something."""
    t.set(0, "thread", 2).set(0, "lace", 2)
    t.own("s_hall1_guest3", 0, "D01").own("s_hall2_guest2", 0, "D14")
    staff(t, 0, reserve=["S1-1", "S2-1", "S3-1", "S4-1", "S5-1"])
    return t


@pytest.mark.parametrize("card", CROWN)
def test_crown_bonus_gives_nothing_during_play(t, card):
    _crown_position(t).put(card, "hand", 0)
    turn(t, 0)
    t.answer(f"play {card}")
    assert "no action" in t.options()
    t.answer("no action")
    assert t.game.pending() == []  # the turn offers no "bonus"
    assert money(t) == (15, 0)
    assert (t.get(0, "thread"), t.get(0, "lace")) == (2, 2)
    assert t.zone("discard", 0) == (card,)


def test_crown_bonus_not_usable(t):
    for card in CROWN:
        assert t.eval("bonus_usable(c)", 0, c=Piece(card)) is False
    assert t.eval("bonus_usable(c)", 0, c=Piece("E01")) is True


@pytest.mark.parametrize("size", sorted(STAFF_TABLE))
def test_endgame_staff_size_2_5_8_11(t, size):
    staff_of_size(t, 0, "E25", size)
    assert end_scoring(t)[0] == STAFF_TABLE[size][2]


@pytest.mark.parametrize("thread, lace, pairs", [(0, 3, 0), (1, 1, 1), (3, 2, 2), (4, 4, 4)])
def test_endgame_thread_lace_pairs(t, thread, lace, pairs):
    staff(t, 1, reserve=["S1-2", "S2-2", "S3-2", "S4-2"], discard=["E26"])
    t.set(1, "thread", thread).set(1, "lace", lace)
    assert end_scoring(t)[1] == 3 * pairs
    assert (t.get(1, "thread"), t.get(1, "lace")) == (thread - pairs, lace - pairs)


@pytest.mark.parametrize("n, prestige", [(0, 0), (1, 0), (2, 3), (3, 3), (4, 6), (5, 6)])
def test_endgame_master_spaces(t, n, prestige):
    staff(t, 2, reserve=["S1-3", "S2-3", "S3-3", "S4-3"], hand=["E27"])
    for space, dress in zip(MASTER_SPACES[:n], ["D01", "D02", "D03", "D04", "D05"], strict=False):
        t.own(space, 2, dress)
    t.own("s_hall1_guest1", 2, "D07")  # not a master space
    assert end_scoring(t)[2] == prestige


@pytest.mark.parametrize("ladies, gentlemen, pairs", [(0, 2, 0), (1, 1, 1), (3, 2, 2), (2, 4, 2)])
def test_endgame_lady_gentleman_pairs(t, ladies, gentlemen, pairs):
    staff(t, 0, reserve=["S1-1", "S2-1", "S3-1", "S4-1"], discard=["E28"])
    spaces = iter(str(s) for s in t.eval("filter(s in guest)"))
    for dress in ["D01", "D27", "D02"][:ladies] + ["D14", "D37", "D15", "D16"][:gentlemen]:
        t.own(next(spaces), 0, dress)
    assert end_scoring(t)[0] == 2 * pairs


def test_dismissed_crown_card_scores_nothing(t):
    staff(t, 0, reserve=["S1-1", "S2-1", "S3-1", "S4-1"], discard=["E02"])
    t.put("E25", "box")
    assert end_scoring(t)[0] == 0


# ------------------------------------------------ Decision: bonus actions
def test_bonus_sew_by_master_card_may_use_master_guest_space(t):
    """A dress sewn with a master card's bonus was sewn by a master."""
    workshop(t, None, None, None, "D04")
    tiles(t, 0, "T09")
    staff(t, 0, reserve=["S1-1", "S2-1", "S3-1", "S4-1"], hand=["E08"])
    turn(t, 0).answer("play E08", "no action")
    assert t.options() == ("bonus", "no bonus")
    t.answer("bonus", "sew D04", "silk T09", "rent")
    offered = t.options()
    assert set(MASTER_SPACES) <= {o.removeprefix("rent ") for o in offered}
    t.answer("rent s_hall2_guest2")
    assert t.zone("s_hall2_guest2") == ("D04",) and t.state.owners["s_hall2_guest2"] == 0
    assert t.get(0, "livres") == 15 - 3
    assert t.game.pending() == []


@pytest.mark.parametrize("card", ["S4-1", "S3-1"])  # apprentice, journeyman
def test_bonus_sew_not_restricted_by_card_type_but_type_counts(t, card):
    """The who-may-do-which table does not restrict a bonus (an apprentice may not
    sew as a main action), but a non-master's dress never goes to a master space."""
    workshop(t, None, None, None, "D04")
    tiles(t, 0, "T09")
    assert can(t, "extra_sew_yellow_green", 0, card) is True
    t.act("extra_sew_yellow_green", 0, card).answer("sew D04", "silk T09", "rent")
    offered = {o.removeprefix("rent ") for o in t.options()}
    assert offered and not offered & set(MASTER_SPACES)
    assert len(offered) == 21 - 5


def test_main_sew_needs_a_sewing_type_but_bonus_does_not(t):
    workshop(t, None, None, None, "D01")
    tiles(t, 0, "T09")
    assert t.eval("may_do_main('sew', c)", 0, c=Piece("S4-1")) is False
    assert can(t, "extra_sew_yellow_green", 0, "S4-1") is True
