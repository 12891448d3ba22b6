"""The sale (rules digest section 4): packets, rarity, majorities, rings, King,
Queen's Necklace, Banker; from set positions with the fashion row ruby, emerald,
diamond, amber (+30, +20, +10, 0) unless a test says otherwise."""

from __future__ import annotations

import pytest

from interpreter.engine.game import IllegalMove


def sale(t, packets: dict[int, tuple[str, ...]]):
    """Hold a sale in seat 0's turn; ``packets`` says what each seat shows (the
    cards must be in hand; ``'ring-1:ruby'`` places a card with a gem type)."""
    t.act("sale", 0)
    for seat, cards in packets.items():
        t.show(seat, *cards)
    t.pass_all()  # seats with cards they keep, and the Alchemist if asked
    return t


# --- the simultaneous packets ------------------------------------------------------
def test_packets_are_chosen_at_the_same_time_and_kept_secret(table) -> None:
    table.hand(0, "ruby3-1", "king-1", "amber1-1").hand(1, "emerald1-1").hand(2, "ring-1")
    table.act("sale", 0)
    # every player decides at once, whatever they hold (P3 holds only a ring: it
    # cannot be shown without a gem, so P3 may only pass)
    assert sorted(table.waiting()) == [0, 1, 2]
    assert table.options(2) == ("pass",)
    table.answer_as(0, "show ruby3-1", "show king-1")
    assert table.options(0) == ("with ruby",)
    table.answer_as(0, "with ruby")
    # P1 sees their own packet; P2 and P3 see nothing of it (the rows are public,
    # but a simultaneous step hides the others' choices until everyone is done)
    mine = table.view(0)["players"][0]["zones"]
    assert mine["show[ruby]"] == ["ruby3-1", "king-1"]
    for seat in (1, 2):
        theirs = table.view(seat)["players"][0]["zones"]
        assert theirs["show[ruby]"] == []
        assert theirs["hand"] == {"count": 3}
    table.answer_as(0, "pass")
    assert table.waiting() == [1, 2]
    assert table.view(1)["players"][0]["zones"]["show[ruby]"] == []
    # P2's choice is hidden from P1 in turn
    table.answer_as(1, "show emerald1-1")
    assert table.view(0)["players"][1]["zones"]["show[emerald]"] == []
    assert table.view(1)["players"][1]["zones"]["show[emerald]"] == ["emerald1-1"]
    table.answer_as(1, "pass").answer_as(2, "pass")
    table.passes(0, 1, 2)  # the Alchemist's window (real gems are shown)
    # all revealed, sold and discarded together
    assert table.pending() == []
    assert set(table.zone("discard")) == {"ruby3-1", "king-1", "emerald1-1"}
    assert table.zone("hand", 0) == ("amber1-1",)


def test_another_players_view_does_not_change_while_one_makes_up_their_packet(table) -> None:
    table.hand(0, "ruby3-1", "amber1-1").hand(1, "emerald1-1")
    table.act("sale", 0)
    before = table.view(1)
    table.answer_as(0, "show ruby3-1")  # P1 is still choosing
    assert table.waiting() == [0, 1, 2]
    assert table.view(1) == before


def test_either_player_may_finish_first(table) -> None:
    table.hand(0, "ruby3-1").hand(1, "emerald1-1")
    table.act("sale", 0)
    table.show(1, "emerald1-1")
    assert table.waiting() == [0, 2]
    table.show(0, "ruby3-1").show(2)
    table.passes(0, 1, 2)  # the Alchemist's window
    assert table.counter("sales_done") == 1


def test_showing_rules(table) -> None:
    table.hand(0, "ring-1", "king-1", "king-2", "banker-1", "ruby1-1", "cardinal-1")
    table.act("sale", 0)
    # only the gem can be shown first; a purple character never
    assert table.options(0) == ("show ruby1-1", "pass")
    with pytest.raises(IllegalMove):
        table.answer_as(0, "show ring-1")
    table.answer_as(0, "show ruby1-1")
    assert table.options(0) == (
        "show ring-1",
        "show king-1",
        "show king-2",
        "show banker-1",
        "pass",
    )
    table.answer_as(0, "show king-1", "with ruby")
    # one King per player per sale
    assert "show king-2" not in table.options(0)


def test_nothing_shown_scores_nothing_and_discards_nothing(table) -> None:
    table.hand(0, "ruby3-1")
    sale(table, {0: ()})
    assert table.zone("hand", 0) == ("ruby3-1",)
    assert table.get(0, "money") == 0
    assert table.counter("sales_done") == 1
    assert table.zone("rarity_supply") == ("rarity30", "rarity20", "rarity10", "rarity0")


# --- rarity ----------------------------------------------------------------------------
def test_rarity_ranks_by_stones_ties_by_fashion_including_types_nobody_showed(table) -> None:
    table.row(0, "ruby", "ruby2-1").row(1, "amber", "amber1-1")
    # stones: ruby 2, emerald 0, diamond 0, amber 1
    ranks = {g: table.eval(f"rarity_rank('{g}')") for g in ("ruby", "emerald", "diamond", "amber")}
    assert ranks == {"emerald": 0, "diamond": 1, "amber": 2, "ruby": 3}


def test_rarity_tie_goes_to_the_more_fashionable_type(table) -> None:
    table.fashion("amber", "diamond", "emerald", "ruby")  # +30 +20 +10 0
    table.hand(0, "ruby1-1").hand(1, "emerald1-1")
    sale(table, {0: ("ruby1-1",), 1: ("emerald1-1",)})
    # amber 0 +30, diamond 0 +20; emerald and ruby 1 each: emerald (more fashionable)
    # +10, ruby 0. Emerald sells 10 + 10, ruby 0 + 0.
    assert table.get(1, "money") == 20
    assert table.get(0, "money") == 0


def test_rarity_counts_stones_not_cards(table) -> None:
    table.hand(0, "ruby3-1").hand(1, "emerald1-1", "emerald1-2")
    sale(table, {0: ("ruby3-1",), 1: ("emerald1-1", "emerald1-2")})
    # ruby 3 stones, emerald 2: diamond +30, amber +20, emerald +10, ruby 0
    assert table.get(0, "money") == 30 + 0
    assert table.get(1, "money") == 20 + 10


# --- majorities ---------------------------------------------------------------------------
def test_only_the_majority_sells_one_jewel_however_many_stones(table) -> None:
    table.hand(0, "ruby3-1", "ruby3-2").hand(1, "ruby2-1")
    sale(table, {0: ("ruby3-1", "ruby3-2"), 1: ("ruby2-1",)})
    # ruby 8 stones: rarest last (0); P1 sells one jewel at 30 + 0
    assert table.get(0, "money") == 30
    assert table.get(1, "money") == 0


def test_tied_majorities_all_sell(table) -> None:
    table.hand(0, "ruby3-1").hand(1, "ruby2-1", "ruby1-1").hand(2, "ruby2-2")
    sale(table, {0: ("ruby3-1",), 1: ("ruby2-1", "ruby1-1"), 2: ("ruby2-2",)})
    assert [table.get(s, "money") for s in range(3)] == [30, 30, 0]


# --- rings ---------------------------------------------------------------------------------
def test_rings_multiply_the_jewels_sold(table) -> None:
    table.hand(0, "ruby3-1", "ring-1").hand(1, "emerald3-1", "ring-2", "ring-3")
    sale(
        table,
        {0: ("ruby3-1", "ring-1:ruby"), 1: ("emerald3-1", "ring-2:emerald", "ring-3:emerald")},
    )
    # ruby 3, emerald 3: diamond +30, amber +20, ruby (more fashionable) +10, emerald 0
    assert table.get(0, "money") == (30 + 10) * 2
    assert table.get(1, "money") == (20 + 0) * 3


def test_a_ring_on_a_type_the_player_does_not_sell_adds_nothing(table) -> None:
    table.hand(0, "ruby1-1", "ring-1").hand(1, "ruby3-1")
    sale(table, {0: ("ruby1-1", "ring-1:ruby"), 1: ("ruby3-1",)})
    assert table.get(0, "money") == 0
    assert table.get(1, "money") == 30


def test_rings_apply_to_each_tied_seller_separately(table) -> None:
    table.hand(0, "ruby2-1", "ring-1").hand(1, "ruby2-2")
    sale(table, {0: ("ruby2-1", "ring-1:ruby"), 1: ("ruby2-2",)})
    assert table.get(0, "money") == 30 * 2
    assert table.get(1, "money") == 30


# --- King and Queen's Necklace ------------------------------------------------------------------
def test_king_blocks_the_majority_all_tied_sellers(table) -> None:
    table.hand(0, "ruby3-1", "amber1-1").hand(1, "ruby2-1", "ruby1-1")
    table.hand(2, "ruby1-2", "king-1", "emerald1-1")
    sale(
        table,
        {
            0: ("ruby3-1", "amber1-1"),
            1: ("ruby2-1", "ruby1-1"),
            2: ("ruby1-2", "emerald1-1", "king-1:ruby"),
        },
    )
    # ruby 7, emerald 1, amber 1, diamond 0: diamond +30, emerald +20, amber +10, ruby 0
    assert table.get(0, "money") == 0 + 10  # amber sells; ruby blocked
    assert table.get(1, "money") == 0
    assert table.get(2, "money") == 20 + 20  # emerald, not blocked
    assert set(table.zone("discard")) >= {"king-1", "ruby3-1", "ruby2-1"}


def test_a_king_blocks_its_own_players_majority_too(table) -> None:
    table.hand(0, "ruby3-1", "king-1")
    sale(table, {0: ("ruby3-1", "king-1:ruby")})
    assert table.get(0, "money") == 0


def test_necklace_protects_from_the_king_who_pays_fifty(table) -> None:
    table.hand(0, "ruby3-1", "queens_necklace").hand(1, "ruby1-1", "king-1")
    assert table.where("the_necklace") == "worn#0"
    sale(table, {0: ("ruby3-1", "queens_necklace:ruby"), 1: ("ruby1-1", "king-1:ruby")})
    # ruby 4 stones, others 0: ruby rarity 0, price 30; P1 sells; P2 pays 50 to P1
    assert table.get(0, "money") == 30 + 50
    assert table.get(1, "money") == -50  # scores may go negative
    # the shown necklace card is discarded: the necklace leaves play
    assert table.where("queens_necklace") == "discard"
    assert table.where("the_necklace") == "box"
    assert table.eval("necklace_holder()") is None


def test_necklace_protects_the_majority_of_another_player(table) -> None:
    table.hand(0, "ruby1-1", "queens_necklace").hand(1, "ruby3-1").hand(2, "ruby1-2", "king-1")
    sale(
        table,
        {0: ("ruby1-1", "queens_necklace:ruby"), 1: ("ruby3-1",), 2: ("ruby1-2", "king-1:ruby")},
    )
    assert table.get(1, "money") == 30  # the majority holder sells anyway
    assert table.get(0, "money") == 50  # the necklace holder gets the fine
    assert table.get(2, "money") == -50


def test_necklace_on_another_type_does_not_protect(table) -> None:
    table.hand(0, "ruby3-1", "emerald1-1", "queens_necklace").hand(1, "ruby1-1", "king-1")
    sale(
        table,
        {0: ("ruby3-1", "emerald1-1", "queens_necklace:emerald"), 1: ("ruby1-1", "king-1:ruby")},
    )
    # ruby blocked; emerald (1 stone): diamond +30, amber +20, emerald +10, ruby 0
    assert table.get(0, "money") == 20 + 10
    assert table.get(1, "money") == 0


def test_necklace_kept_in_hand_stays_worn(table) -> None:
    table.hand(0, "ruby3-1", "queens_necklace")
    sale(table, {0: ("ruby3-1",)})
    assert table.where("the_necklace") == "worn#0"


# --- Banker -----------------------------------------------------------------------------
def test_banker_adds_ten_per_jewel_sold_whatever_type_it_was_placed_with(table) -> None:
    table.hand(0, "ruby3-1", "amber1-1", "banker-1").hand(1, "amber1-2", "amber1-3")
    sale(table, {0: ("ruby3-1", "amber1-1", "banker-1:amber"), 1: ("amber1-2", "amber1-3")})
    # ruby 3, amber 3: emerald +30, diamond +20, ruby +10, amber 0.
    # P1 sells ruby only (amber goes to P2): (30 + 10 + 10)
    assert table.get(0, "money") == 30 + 10 + 10
    assert table.get(1, "money") == 0 + 0  # the Banker does not help P2


def test_banker_on_every_type_sold(table) -> None:
    table.hand(0, "ruby3-1", "amber1-1", "banker-1")
    sale(table, {0: ("ruby3-1", "amber1-1", "banker-1:ruby")})
    # ruby 3, amber 1: emerald +30, diamond +20, amber +10, ruby 0
    assert table.get(0, "money") == (30 + 0 + 10) + (0 + 10 + 10)


def test_two_bankers_stack(table) -> None:
    table.hand(0, "ruby3-1", "banker-1", "banker-2")
    sale(table, {0: ("ruby3-1", "banker-1:ruby", "banker-2:ruby")})
    assert table.get(0, "money") == 30 + 20


def test_banker_with_rings(table) -> None:
    table.hand(0, "ruby3-1", "banker-1", "ring-1")
    sale(table, {0: ("ruby3-1", "banker-1:ruby", "ring-1:ruby")})
    assert table.get(0, "money") == (30 + 10) * 2


# --- after the sale ------------------------------------------------------------------------
def test_after_the_sale_shown_cards_are_discarded_and_tiles_set_aside(table) -> None:
    table.hand(0, "ruby3-1", "ring-1", "emerald1-1").hand(1, "diamond2-1")
    sale(table, {0: ("ruby3-1", "ring-1:ruby"), 1: ("diamond2-1",)})
    assert table.zone("hand", 0) == ("emerald1-1",)
    assert set(table.zone("discard")) == {"ruby3-1", "ring-1", "diamond2-1"}
    for seat in (0, 1):
        for g in ("ruby", "emerald", "diamond", "amber"):
            assert table.zone(f"show_{g}", seat) == ()
    assert table.zone("rarity_row") == ()
    assert table.zone("rarity_supply") == ("rarity30", "rarity20", "rarity10", "rarity0")
    assert table.counter("sales_done") == 1
