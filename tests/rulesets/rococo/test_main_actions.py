"""Rococo main actions (rococo.md section 4, phase 3), the all-halls bonus and the
rulebook's sewing example.

Actions run in the engine's sandbox (``Table.act``) on an exact position; after a
sandbox action the game's course waits (``Game.paused``) until ``resume()``, so
nothing but the action changes the position. Phases are run with ``start_phase``,
which points the course at one phase of a round and resumes it.
"""

from __future__ import annotations

import pytest
from rococo_positions import (
    MASTER_SPACES,
    SMALL_STORAGE,
    guest_ids,
    start_phase,
    storage,
    windows,
)
from rules_test_support import ROCOCO

from interpreter.errors import GameError
from interpreter.language.values import Piece, Player

# --------------------------------------------------------------------- helpers


def can(t, action: str, seat: int, card: str, **extra) -> bool:
    args = ", ".join(["card: c"] + [f"{k}: {v}" for k, v in extra.items()])
    return t.eval(f"can {action}({args})", seat, c=Piece(card))


def all_guests_taken_but(t, *free, owner=2):
    for s in guest_ids(t):
        if s not in free:
            t.own(s, owner)


@pytest.fixture
def t(table):
    return table


# ==================================================================== favour
def test_favour_gives_5_livres_and_the_card(t):
    t.set(1, "livres", 3)
    t.act("favour", 1, card="S3-2")
    assert t.get(1, "livres") == 8
    assert t.zone("favour", 1) == ("favour_card",)
    assert t.zone("favour_space") == ()
    assert int(t.state.variables["favour_taker"]) == 1
    assert not t.game.pending()


def test_favour_once_per_round_even_for_the_start_player(t):
    assert int(t.state.variables["start_player"]) == 0
    assert can(t, "favour", 0, "S1-1")  # the start player may take it
    t.act("favour", 0, card="S1-1")
    assert t.get(0, "livres") == 20
    assert not can(t, "favour", 0, "S2-1")
    assert not can(t, "favour", 1, "S1-2")
    with pytest.raises(GameError, match="already taken"):
        t.act("favour", 1, card="S1-2")
    assert t.get(1, "livres") == 15


def test_favour_not_offered_in_phase_3_once_taken(table):
    t = table
    t.put("favour_card", "favour", 2)
    t.state.variables["favour_taker"] = Player(2)
    t.put("S1-1", "hand", 0)
    start_phase(t, "actions", 2)
    t.answer("play S1-1")
    assert "favour" not in t.options(0)
    assert t.options(0)[0] == "acquire"


def test_favour_makes_the_taker_start_player_next_round(table):
    t = table
    t.put("S3-3", "hand", 2).put("S1-1", "hand", 0)
    start_phase(t, "actions", 2)
    t.answer("play S1-1", "no action")
    t.answer("play S3-3", "favour")
    assert t.get(2, "livres") == 20
    t.answer("no bonus")
    # round 2 ended (income), round 3 prepared: seat 2 starts, the card is back
    assert t.state.counters["round"] == 3
    assert int(t.state.variables["start_player"]) == 2
    assert t.zone("favour_space") == ("favour_card",)
    assert t.zone("favour", 2) == ()
    assert t.get(2, "livres") == 25


# =================================================================== acquire
@pytest.mark.parametrize("section,tile,price", [(0, "T15", 2), (1, "T24", 1), (2, "T45", 0)])
def test_acquire_price_by_tiles_in_the_section(t, section, tile, price):
    storage(t, ["T15", "T16", "T17"], ["T24", "T25"], ["T45"])
    t.act("acquire", 0, card="S4-1")
    assert t.options(0) == ("take T15", "take T16", "take T17", "take T24", "take T25", "take T45")
    t.answer(f"take {tile}")
    assert t.get(0, "livres") == 15 - price
    assert t.options(0) == ("keep", "convert")
    t.answer("keep")
    assert t.zone("tiles", 0) == (tile,)
    assert t.zone(SMALL_STORAGE[section]) == tuple(
        x for x in (["T15", "T16", "T17"], ["T24", "T25"], ["T45"])[section] if x != tile
    )
    assert (t.get(0, "thread"), t.get(0, "lace")) == (1, 1)


def test_acquire_price_2_with_4_tiles_on_the_large_side(make_table):
    t = make_table(4)
    for s in ("l_storage1", "l_storage2", "l_storage3"):
        t.clear(s)
    for tile in ("T01", "T02", "T03", "T04"):
        t.put(tile, "l_storage2")
    t.act("acquire", 3, card="S1-4")
    assert t.options(3) == ("take T01", "take T02", "take T03", "take T04")
    t.answer("take T03", "keep")
    assert t.get(3, "livres") == 13
    assert t.zone("l_storage2") == ("T01", "T02", "T04")
    assert t.zone("tiles", 3) == ("T03",)


def test_acquire_only_affordable_tiles_offered(t):
    storage(t, ["T15", "T16", "T17"], ["T24", "T25"], ["T45"])
    t.set(0, "livres", 0)
    t.act("acquire", 0, card="S4-1")
    assert t.options(0) == ("take T45",)
    t.answer("take T45", "keep")
    assert t.get(0, "livres") == 0
    t.set(1, "livres", 1)
    t.act("acquire", 1, card="S4-2")
    assert t.options(1) == ("take T24", "take T25")


@pytest.mark.parametrize(
    "tile,answers,thread,lace",
    [
        ("T05", [], 2, 1),  # thread
        ("T07", [], 1, 2),  # lace
        ("T13", [], 2, 2),  # thread + lace: both
        ("T11", ["thread"], 2, 1),  # thread / lace: the taker chooses
        ("T11", ["lace"], 1, 2),
        ("T01", [], 1, 1),  # nothing below: nothing gained
    ],
)
def test_acquire_convert_gives_the_thread_and_lace_shown(t, tile, answers, thread, lace):
    storage(t, [tile])
    t.act("acquire", 0, card="S1-1")
    t.answer(f"take {tile}", "convert")
    if answers:
        assert t.options(0) == ("thread", "lace")
        t.answer(*answers)
    assert not t.game.pending()
    assert (t.get(0, "thread"), t.get(0, "lace")) == (thread, lace)
    assert t.zone("resource_discard") == (tile,)
    assert t.zone("tiles", 0) == ()


def test_acquire_not_allowed_with_an_empty_storage(t):
    storage(t)
    assert not can(t, "acquire", 0, "S1-1")
    with pytest.raises(GameError, match="storage is empty"):
        t.act("acquire", 0, card="S1-1")


def test_acquire_not_offered_in_phase_3_with_an_empty_storage(table):
    t = storage(table)
    t.put("S4-1", "hand", 0)
    start_phase(t, "actions", 2)
    t.answer("play S4-1")
    assert t.options(0) == ("dismiss", "fund", "no action")


# ======================================================================= sew
@pytest.mark.parametrize(
    "window,cost",
    [
        ("s_window1", 8),
        ("s_window2", 6),
        ("s_window3", 4),
        ("s_window4", 3),
        ("s_window5", 1),
        ("s_window6", 0),
    ],
)
def test_sew_pays_the_cost_of_the_window(t, window, cost):
    windows(t, **{window: "D04"})  # 3 yellow silk
    t.put("T01", "tiles", 0).set(0, "livres", 10)
    t.act("sew", 0, card="S3-1")
    t.answer("sew D04", "silk T01")
    assert t.get(0, "livres") == 10 - cost
    assert t.zone("resource_discard") == ("T01",) and t.zone("tiles", 0) == ()
    assert t.options(0) == ("rent", "sell")


def test_sew_not_allowed_without_the_window_cost(t):
    windows(t, s_window1="D04")  # cost 8
    t.put("T01", "tiles", 0).set(0, "livres", 7)
    assert not can(t, "sew", 0, "S1-1")
    t.set(0, "livres", 8)
    assert can(t, "sew", 0, "S1-1")


def test_sew_whole_tiles_extra_bales_lost(t):
    windows(t, s_window6="D01")  # 2 yellow, cost 0
    t.put("T01", "tiles", 0)  # 3 yellow
    t.act("sew", 0, card="S3-1")
    t.answer("sew D01", "silk T01", "sell")
    assert t.zone("tiles", 0) == ()
    assert t.zone("resource_discard") == ("T01",)
    assert t.get(0, "livres") == 15 + 6


def test_sew_hands_in_tiles_until_the_silk_is_covered(t):
    windows(t, s_window6="D09")  # 4 yellow
    for tile in ("T09", "T10", "T14", "T29"):  # 2, 2, 1 yellow and 3 red
        t.put(tile, "tiles", 0)
    t.act("sew", 0, card="S3-1")
    t.answer("sew D09")
    assert t.options(0) == ("silk T09", "silk T10", "silk T14")  # red silk is no use
    t.answer("silk T14")
    assert t.options(0) == ("silk T09", "silk T10")
    t.answer("silk T10")
    assert t.options(0) == ("silk T09",)
    t.answer("silk T09")
    assert t.options(0) == ("rent", "sell")
    assert t.zone("tiles", 0) == ("T29",)
    assert sorted(t.zone("resource_discard")) == ["T09", "T10", "T14"]


def test_sew_two_colours_and_a_thread_token(t):
    windows(t, s_window6="D07")  # 2 yellow + 1 green, 1 thread
    t.put("T09", "tiles", 0).put("T28", "tiles", 0)
    t.act("sew", 0, card="S3-1")
    t.answer("sew D07", "silk T09", "silk T28", "sell")
    assert (t.get(0, "thread"), t.get(0, "lace")) == (0, 1)
    assert t.get(0, "livres") == 15 + 11


@pytest.mark.parametrize("dress,counter", [("D02", "thread"), ("D03", "lace")])
def test_sew_thread_and_lace_only_as_tokens(t, dress, counter):
    windows(t, s_window6=dress)  # 2 yellow + 1 thread / 1 lace
    t.set(0, counter, 0)
    # tiles showing thread and lace on their bottom half do not count
    for tile in ("T09", "T10", "T13"):
        t.put(tile, "tiles", 0)
    assert not can(t, "sew", 0, "S1-1")
    with pytest.raises(GameError, match="can be paid for"):
        t.act("sew", 0, card="S1-1")
    t.set(0, counter, 1)
    assert can(t, "sew", 0, "S1-1")
    t.act("sew", 0, card="S1-1")
    t.answer(f"sew {dress}", "silk T09", "sell")
    assert t.get(0, counter) == 0
    assert t.zone("tiles", 0) == ("T10", "T13")


def test_sew_master_only_dress_needs_a_master(t):
    windows(t, s_window3="D06", s_window4="D04")  # D06 master-only
    t.put("T01", "tiles", 0).set(0, "livres", 10)
    t.act("sew", 0, card="S3-1")  # journeyman
    assert t.options(0) == ("sew D04",)
    t.act("sew", 0, card="S1-1")  # master
    assert t.options(0) == ("sew D06", "sew D04")
    windows(t, s_window3="D06")
    assert not can(t, "sew", 0, "S3-1")
    with pytest.raises(GameError, match="need a master"):
        t.act("sew", 0, card="S3-1")
    assert can(t, "sew", 0, "S1-1")


@pytest.mark.parametrize("card,master", [("S1-1", True), ("S3-1", False)])
def test_sew_master_guest_spaces_only_for_a_master(t, card, master):
    windows(t, s_window6="D04")
    t.put("T01", "tiles", 0)
    t.own("s_hall1_guest1", 1, "D14")  # taken spaces are not offered
    t.act("sew", 0, card=card)
    t.answer("sew D04", "silk T01", "rent")
    expected = [
        s for s in guest_ids(t) if s != "s_hall1_guest1" and (master or s not in MASTER_SPACES)
    ]
    assert t.options(0) == tuple(f"rent {s}" for s in expected)
    assert not any("terrace" in o for o in t.options(0))
    if master:
        t.answer("rent s_hall2_guest2")
        assert t.zone("s_hall2_guest2") == ("D04",)
        assert t.state.owners["s_hall2_guest2"] == 0


def test_sew_master_dress_without_thimble_may_use_a_master_space(t):
    windows(t, s_window6="D04")  # no gold thimble
    t.put("T01", "tiles", 0)
    all_guests_taken_but(t, "s_hall3_guest2")
    t.act("sew", 0, card="S2-1")
    t.answer("sew D04", "silk T01", "rent")
    assert t.options(0) == ("rent s_hall3_guest2",)


@pytest.mark.parametrize(
    "space,livres,thread,lace",
    [
        ("s_hall1_guest1", 17, 1, 1),  # 2 livres
        ("s_hall2_guest1", 15, 2, 1),  # 1 thread
        ("s_hall2_guest4", 15, 1, 2),  # 1 lace
        ("s_hall1_guest2", 15, 1, 1),  # no reward
    ],
)
def test_sew_rent_gains_the_space_reward(t, space, livres, thread, lace):
    windows(t, s_window6="D04")
    t.put("T01", "tiles", 0)
    t.act("sew", 0, card="S3-1")
    t.answer("sew D04", "silk T01", "rent", f"rent {space}")
    assert not t.game.pending()
    assert (t.get(0, "livres"), t.get(0, "thread"), t.get(0, "lace")) == (livres, thread, lace)
    assert t.zone(space) == ("D04",)
    assert t.state.owners[space] == 0
    assert t.eval("count(dresses_of(me))", 0) == 1
    assert t.zone("dress_discard") == ()


@pytest.mark.parametrize("answer,tiles,thread", [("keep", ("T24",), 1), ("convert", (), 2)])
def test_sew_rent_tile_reward_free_tile_keep_or_convert(t, answer, tiles, thread):
    windows(t, s_window6="D04")
    t.put("T01", "tiles", 0).set(0, "livres", 0)
    storage(t, ["T15", "T16", "T17"], ["T24"], ["T45", "T46"])
    t.act("sew", 0, card="S3-1")
    t.answer("sew D04", "silk T01", "rent", "rent s_hall1_guest5")
    # a free tile from any section, whatever its price, even with 0 livres
    assert t.options(0) == ("take T15", "take T16", "take T17", "take T24", "take T45", "take T46")
    t.answer("take T24")
    assert t.options(0) == ("keep", "convert")
    t.answer(answer)
    assert t.get(0, "livres") == 0
    assert t.zone("tiles", 0) == tiles
    assert t.get(0, "thread") == thread
    assert t.zone("s_storage2") == ()


def test_sew_rent_tile_reward_with_an_empty_storage_gives_nothing(t):
    windows(t, s_window6="D04")
    t.put("T01", "tiles", 0)
    storage(t)
    t.act("sew", 0, card="S3-1")
    t.answer("sew D04", "silk T01", "rent", "rent s_hall5_guest4")
    assert not t.game.pending()
    assert t.state.owners["s_hall5_guest4"] == 0
    assert t.zone("tiles", 0) == () and t.get(0, "livres") == 15


def test_sew_sell_gains_the_sale_value(t):
    windows(t, s_window2="D27")  # 2 red, sale 8, cost 6
    t.put("T35", "tiles", 0)
    t.act("sew", 0, card="S3-1")
    t.answer("sew D27", "silk T35", "sell")
    assert t.get(0, "livres") == 15 - 6 + 8
    assert t.zone("dress_discard") == ("D27",)
    assert not any(o == 0 for o in t.state.owners.values())
    assert t.zone("s_window2") == ()


def test_sew_must_sell_without_a_free_guest_space(t):
    windows(t, s_window6="D04")
    t.put("T01", "tiles", 0)
    all_guests_taken_but(t, "s_hall2_guest2")  # only a master space is free
    t.act("sew", 0, card="S3-1")  # ... and a journeyman sews
    t.answer("sew D04", "silk T01")
    assert t.options(0) == ("sell",)
    t.answer("sell")
    assert t.get(0, "livres") == 15 + 9
    all_guests_taken_but(t)
    windows(t, s_window6="D05")
    t.set(0, "livres", 0).put("T02", "tiles", 0)
    t.act("sew", 0, card="S1-1")
    t.answer("sew D05", "silk T02")
    assert t.options(0) == ("sell",)


def test_sew_not_allowed_without_a_dress_in_the_workshop(t):
    windows(t)
    t.put("T01", "tiles", 0)
    assert not can(t, "sew", 0, "S1-1")
    with pytest.raises(GameError, match="no dress in the workshop"):
        t.act("sew", 0, card="S1-1")


def test_sew_not_allowed_without_the_silk(t):
    windows(t, s_window6="D04")  # 3 yellow
    t.put("T09", "tiles", 0).put("T29", "tiles", 0)  # 2 yellow, 3 red
    assert not can(t, "sew", 0, "S1-1")


TWO_COLOUR_TILE = "T11"  # resources.yaml: 1 yellow + 1 red bale (designed, provisional)


def test_shipped_data_has_the_two_colour_tile_of_the_example(t):
    silk = t.eval("x.silk", x=Piece(TWO_COLOUR_TILE))
    assert dict(silk) == {"yellow": 1, "red": 1}
    assert t.eval("count(resource)") == 48  # components.md: 48 tiles, none added
    # a designed value: marked provisional in the YAML like every designed tile
    text = (ROCOCO / "components" / "resources.yaml").read_text(encoding="utf-8")
    block = text.split(f"  {TWO_COLOUR_TILE}:", 1)[1].split("\n  T", 1)[0]
    assert "provisional: true" in block


def test_rulebook_example_yellow_master_dress_red_bale_lost(t):
    """Both 2013 books (CZ 003 p.5 Michal, HU 000 p.5 Misi) and Deluxe (DX 002, Mike):
    he sews the yellow master-only dress (3 yellow silk + 1 lace) lying under a window
    costing 4: he plays a master, pays 4 livres, 1 lace token and 2 resource tiles
    holding 3 yellow bales - the red bale on one of them is lost. Shipped data: T10
    (2 yellow) and the two-colour tile T11 (1 yellow + 1 red)."""
    windows(t, s_window3="D06", s_window6="D01")
    assert t.eval("s_window3.cost") == 4
    t.set(0, "livres", 10).set(0, "lace", 1).set(0, "thread", 0)
    for tile in ("T10", TWO_COLOUR_TILE, "T40"):  # 2 yellow, 1 yellow + 1 red, 1 red
        t.put(tile, "tiles", 0)
    # a journeyman may not sew it
    t.act("sew", 0, card="S3-1")
    assert t.options(0) == ("sew D01",)
    t.act("sew", 0, card="S1-1")
    assert t.options(0) == ("sew D06", "sew D01")
    t.answer("sew D06")
    assert t.options(0) == ("silk T10", f"silk {TWO_COLOUR_TILE}")  # T40 has no yellow
    t.answer("silk T10")
    assert t.options(0) == (f"silk {TWO_COLOUR_TILE}",)  # 1 yellow still missing
    t.answer(f"silk {TWO_COLOUR_TILE}")
    assert t.get(0, "livres") == 6
    assert t.get(0, "lace") == 0
    assert t.zone("tiles", 0) == ("T40",)
    assert t.zone("resource_discard") == ("T10", TWO_COLOUR_TILE)
    handed_in = "silk_of(resource_discard.pieces, '{}')"
    assert t.eval(handed_in.format("yellow")) == 3  # 3 yellow bales,
    assert t.eval(handed_in.format("red")) == 1  # and the red bale is lost
    t.answer("rent")
    assert "rent s_hall1_guest3" in t.options(0)  # sewn by a master
    t.answer("rent s_hall1_guest3")
    assert t.zone("s_hall1_guest3") == ("D06",) and t.state.owners["s_hall1_guest3"] == 0


def test_two_colour_tile_pays_for_either_colour(t):
    """The same tile pays for a red dress too (its yellow bale is then lost)."""
    windows(t, s_window6="D27")  # 2 red, cost 0
    for tile in (TWO_COLOUR_TILE, "T40", "T10"):  # 1 yellow + 1 red, 1 red, 2 yellow
        t.put(tile, "tiles", 0)
    t.act("sew", 0, card="S3-1")
    t.answer("sew D27")
    assert t.options(0) == (f"silk {TWO_COLOUR_TILE}", "silk T40")  # T10 has no red
    t.answer(f"silk {TWO_COLOUR_TILE}", "silk T40", "sell")
    assert t.zone("tiles", 0) == ("T10",)
    assert t.get(0, "livres") == 15 + 8


def test_rulebook_example_exact_three_yellow_bales(t):
    windows(t, s_window3="D06")
    t.set(0, "livres", 4).set(0, "lace", 1)
    t.put("T01", "tiles", 0)  # exactly 3 yellow
    t.act("sew", 0, card="S2-1")
    t.answer("sew D06", "silk T01", "sell")
    assert (t.get(0, "livres"), t.get(0, "lace")) == (13, 0)
    assert t.zone("dress_discard") == ("D06",)


# ====================================================================== hire
@pytest.mark.parametrize("cards,price", [(4, 5), (3, 3), (2, 1), (1, 0)])
def test_hire_price_by_cards_on_the_hiring_spaces(t, cards, price):
    t.clear("hiring", to="employee_deck")
    offered = ("E07", "E08", "E09", "E10")[:cards]
    for e in offered:
        t.put(e, "hiring")
    t.act("hire", 0, card="S1-1")
    assert t.options(0) == tuple(f"hire {e}" for e in offered)
    t.answer(f"hire {offered[-1]}")
    assert t.get(0, "livres") == 15 - price
    assert t.zone("hand", 0) == (offered[-1],)
    assert t.zone("hiring") == offered[:-1]


def test_hire_not_allowed_without_cards_or_money(t):
    t.clear("hiring")
    assert not can(t, "hire", 0, "S1-1")
    with pytest.raises(GameError, match="no employee"):
        t.act("hire", 0, card="S1-1")
    for e in ("E07", "E08", "E09", "E10"):
        t.put(e, "hiring")
    t.set(0, "livres", 4)
    assert not can(t, "hire", 0, "S1-1")
    t.set(0, "livres", 5)
    assert can(t, "hire", 0, "S1-1")


def test_hire_in_phase_3_the_hired_card_is_played_this_round(table):
    t = table
    t.clear("hiring", to="employee_deck")
    for e in ("E05", "E07", "E09"):
        t.put(e, "hiring")
    t.put("S2-1", "hand", 0)
    start_phase(t, "actions", 2)
    t.answer("play S2-1", "hire", "hire E07")
    assert t.get(0, "livres") == 12
    assert t.options(0) == ("play E07",)
    t.answer("play E07", "no action")
    assert t.zone("discard", 0) == ("S2-1", "E07")


# =================================================================== dismiss
@pytest.mark.parametrize(
    "card,money", [("S1-1", 10), ("S3-1", 7), ("S4-1", 4), ("E02", 10), ("E04", 7), ("E01", 4)]
)
def test_dismiss_gains_10_7_4_by_type(t, card, money):
    t.put(card, "discard", 0)  # the played card
    t.act("dismiss", 0, card=card)
    assert t.get(0, "livres") == 15 + money
    # set aside until its bonus is used (the turn then puts it in the box)
    assert t.zone("dismissing", 0) == (card,)
    assert card not in t.zone("discard", 0) + t.zone("reserve", 0)


def test_dismiss_then_the_bonus_is_still_usable(table):
    t = table
    t.put("S3-1", "hand", 0).put("S1-2", "hand", 1)
    start_phase(t, "actions", 2)
    t.answer("play S3-1", "dismiss")
    assert t.get(0, "livres") == 22
    assert t.zone("dismissing", 0) == ("S3-1",) and t.zone("discard", 0) == ()
    assert t.options(0) == ("bonus", "no bonus")
    t.answer("bonus")  # gain 2 livres
    assert t.get(0, "livres") == 24
    assert "S3-1" in t.zone("box")
    assert t.options(1) == ("play S1-2",)


def test_dismiss_never_below_4_cards_of_staff(table):
    t = table
    t.clear("reserve", 0, to="start_cards")
    for card in ("S2-1", "S3-1", "S4-1"):
        t.put(card, "reserve", 0)
    t.put("S1-1", "hand", 0).put("S5-1", "hand", 0)  # staff 5
    start_phase(t, "actions", 2)
    t.answer("play S1-1")
    assert "dismiss" in t.options(0)
    t.answer("dismiss")
    assert t.get(0, "livres") == 25
    assert t.eval("staff_size(me)", 0) == 4
    for seat in (1, 2):
        assert t.zone("hand", seat) == ()
    t.answer("play S5-1")  # staff 4: no dismiss
    assert t.options(0) == ("acquire", "fund", "no action")
    assert not can(t, "dismiss", 0, "S5-1")


# ====================================================================== fund
def test_fund_pays_the_printed_price_and_places_a_marker(t):
    t.set(0, "livres", 20)
    t.act("fund", 0, card="S4-1")
    t.answer("fund s_statue2")
    assert t.get(0, "livres") == 8
    assert t.state.owners["s_statue2"] == 0
    assert t.eval("decorations_of(me)", 0) == 1


def test_fund_offers_only_free_affordable_spaces(t):
    t.set(0, "livres", 8)
    t.own("s_fountain_top1", 1)
    t.act("fund", 0, card="S4-1")
    assert t.options(0) == (
        "fund musician_hall1",
        "fund musician_hall2",
        "fund musician_hall3",
        "fund musician_hall4",
        "fund musician_hall5",
        "fund s_fountain_bottom1",
    )


def test_fund_fountain_at_most_one_marker_per_row(t):
    t.set(0, "livres", 100)
    t.own("s_fountain_top1", 0)
    t.act("fund", 0, card="S1-1")
    options = t.options(0)
    assert "fund s_fountain_top2" not in options
    assert "fund s_fountain_bottom1" in options and "fund s_fountain_bottom2" in options
    t.answer("fund s_fountain_bottom2")
    t.act("fund", 0, card="S1-1")
    assert not any("fountain" in o for o in t.options(0))
    # another player's marker does not block the other space of the row
    t.act("fund", 1, card="S1-2")
    assert "fund s_fountain_top2" in t.options(1) and "fund s_fountain_bottom1" in t.options(1)


def test_fund_any_number_of_other_decorations(t):
    t.set(0, "livres", 100)
    for space in ("s_statue1", "s_statue2", "musician_hall1", "musician_hall2", "s_fireworks1"):
        t.own(space, 0)
    t.act("fund", 0, card="S1-1")
    assert t.options(0) == (
        "fund s_fireworks2",
        "fund s_fireworks3",
        "fund musician_hall3",
        "fund musician_hall4",
        "fund musician_hall5",
        "fund s_statue3",
        "fund s_fountain_top1",
        "fund s_fountain_top2",
        "fund s_fountain_bottom1",
        "fund s_fountain_bottom2",
    )
    t.answer("fund s_statue3")
    assert t.get(0, "livres") == 86
    assert t.eval("decorations_of(me)", 0) == 6


def test_fund_not_allowed_when_nothing_is_affordable(t):
    t.set(0, "livres", 5)
    assert not can(t, "fund", 0, "S1-1")
    with pytest.raises(GameError, match="affordable"):
        t.act("fund", 0, card="S1-1")


# ================================================================= all halls
def _present_in_halls_1_to_4(t, seat, dresses):
    spaces = {
        1: "s_hall1_guest%d",
        2: "s_hall2_guest%d",
        3: "s_hall3_guest%d",
        4: "s_hall4_guest%d",
    }
    for hall, dress in zip(range(1, 5), dresses, strict=False):
        t.own(spaces[hall] % (seat + 1), seat, dress)


def test_all_halls_bonus_by_dress_then_by_musician_8_5_2(t):
    _present_in_halls_1_to_4(t, 0, ["D01", "D02", "D03", "D04"])
    _present_in_halls_1_to_4(t, 1, ["D14", "D15", "D16", "D17"])
    _present_in_halls_1_to_4(t, 2, ["D27", "D28", "D29", "D30"])
    assert t.eval("halls_present(me)", 0) == 4
    # seat 1 rents a dress in hall 5 first
    windows(t, s_window6="D05")
    t.put("T01", "tiles", 1).set(1, "thread", 1)
    t.act("sew", 1, card="S3-2")
    t.answer("sew D05", "silk T01", "rent", "rent s_hall5_guest3")
    assert t.state.owners["all_halls1"] == 1
    # seat 0 funds the musician of hall 5
    t.act("fund", 0, card="S4-1")
    t.answer("fund musician_hall5")
    assert t.state.owners["all_halls2"] == 0
    # seat 2 too
    windows(t, s_window6="D18")
    t.put("T15", "tiles", 2)
    t.act("sew", 2, card="S1-3")
    t.answer("sew D18", "silk T15", "rent", "rent s_hall5_guest2")
    assert t.state.owners["all_halls3"] == 2
    assert [t.eval(f"all_halls{i}.value") for i in (1, 2, 3)] == [8, 5, 2]


def test_all_halls_one_marker_per_player(t):
    _present_in_halls_1_to_4(t, 0, ["D01", "D02", "D03", "D04"])
    t.set(0, "livres", 100)
    t.act("fund", 0, card="S1-1")
    t.answer("fund musician_hall5")
    assert t.state.owners.get("all_halls1") == 0
    windows(t, s_window6="D05")
    t.put("T01", "tiles", 0)
    t.act("sew", 0, card="S1-1")
    t.answer("sew D05", "silk T01", "rent", "rent s_hall5_guest1")
    t.act("fund", 0, card="S1-1")
    t.answer("fund musician_hall1")
    assert [t.state.owners.get(f"all_halls{i}") for i in (1, 2, 3)] == [0, None, None]


def test_all_halls_needs_all_five_halls(t):
    _present_in_halls_1_to_4(t, 0, ["D01", "D02", "D03"])  # halls 1-3
    t.set(0, "livres", 100)
    t.act("fund", 0, card="S1-1")
    t.answer("fund musician_hall5")  # 4 halls
    assert t.eval("halls_present(me)", 0) == 4
    assert all(t.state.owners.get(f"all_halls{i}") is None for i in (1, 2, 3))
    t.act("fund", 0, card="S1-1")
    t.answer("fund musician_hall4")  # hall 4 by musician
    assert t.state.owners.get("all_halls1") == 0


def test_all_halls_marker_is_not_a_decoration(table):
    t = table
    for seat in range(3):
        t.set(seat, "livres", 0)
    t.own("all_halls1", 0).own("s_fountain_top1", 0).own("musician_hall2", 0)
    assert t.eval("decorations_of(me)", 0) == 2
    # decoration bonuses do not count it
    t.act("livre_per_decoration", 0, card="E11")
    assert t.get(0, "livres") == 2
    t.act("prestige_per_2_decorations", 0, card="E10")
    assert t.get(0, "prestige") == 1
    t.own("all_halls2", 1).own("s_statue1", 1)
    t.act("prestige_per_2_decorations", 1, card="E10")
    assert t.get(1, "prestige") == 0
    # nor does fountain income
    t.set(0, "livres", 0)
    start_phase(t, "income", 2)
    assert t.get(0, "livres") == 5 + 2


# ============================================================ engine sandbox
def test_sandbox_runs_only_the_action_until_resumed(table):
    """Precondition of this file: a sandbox action changes nothing but what it does.
    (Earlier the engine resumed its course after ``run_action``: phase 2 was skipped,
    income paid and round 2 prepared.)"""
    t = table
    hiring = t.zone("hiring")
    t.act("favour", 0, card="S1-1")
    assert t.game.paused and not t.game.pending()
    assert t.get(0, "livres") == 20
    assert t.state.counters["round"] == 1
    assert t.zone("favour", 0) == ("favour_card",)
    assert t.zone("hiring") == hiring
