"""A turn (rules digest section 3): buying, depreciation, refills, merchants
interrupting the turn, and the end of the game after the third sale."""

from __future__ import annotations

import pytest

from interpreter.engine.game import IllegalMove
from interpreter.language.values import ZoneRef


def display(t, *cards_steps):
    """Fill slots 1..5 with (card, step) pairs (None for an empty slot)."""
    for index, spec in enumerate(cards_steps, start=1):
        card, step = spec if spec else (None, 0)
        t.slot(index, card, step)
    return t


# --- buying ----------------------------------------------------------------------
def test_prices_follow_the_ring_marker_down_the_ladder(table) -> None:
    display(
        table,
        ("ruby3-1", 0),
        ("ruby3-2", 1),
        ("ruby2-1", 2),
        ("ruby1-1", 3),
        ("queens_necklace", 0),
    )
    prices = [table.eval(f"price(slot{i})") for i in range(1, 6)]
    assert prices == [10, 8, 4, 1, 13]


def test_must_buy_at_least_one_card(table) -> None:
    display(table, ("ruby2-1", 0), ("amber1-1", 3), ("queens_necklace", 0), None, None)
    table.set(0, "ducats", 10).act("buy_phase", 0)
    # the necklace card (13) is too dear; no `pass` before the first purchase
    assert table.options() == ("buy slot1", "buy slot2")
    with pytest.raises(IllegalMove):
        table.answer("pass")
    table.answer("buy slot1")
    assert table.options() == ("buy slot2", "pass")
    table.answer("pass")
    assert table.zone("hand", 0) == ("ruby2-1",)


def test_unspent_ducats_are_lost(table) -> None:
    display(table, ("ruby2-1", 0), ("amber1-1", 3), None, None, None)
    table.set(0, "ducats", 10).act("buy_phase", 0).answer("buy slot1", "pass")
    assert table.get(0, "ducats") == 0
    assert table.zone("slot1") == ()  # replaced only in the depreciation phase


def test_buying_spends_the_current_price_and_stops_when_nothing_is_affordable(table) -> None:
    display(table, ("ruby1-1", 1), ("amber1-1", 1), ("ring-1", 0), None, None)
    table.set(0, "ducats", 10).act("buy_phase", 0)
    table.answer("buy slot1")  # 4
    table.answer("buy slot2")  # 3: 3 ducats left, the ring costs 8
    assert table.pending() == []
    assert table.zone("hand", 0) == ("ruby1-1", "amber1-1")
    assert table.get(0, "ducats") == 0


def test_a_turn_gives_ten_ducats_and_courtiers_more(table) -> None:
    display(table, ("ruby3-1", 0), ("ring-1", 1), None, None, None)
    table.hand(0, "courtier-1").deck("amber1-1", "amber1-2", "amber1-3")
    table.act("play_turn", 0).answer("influence", "play courtier-1").passes(0)
    assert table.get(0, "ducats") == 13
    table.answer("buy slot1")  # 10; 3 left, the ring costs 6: the buy phase ends
    assert table.zone("hand", 0) == ("ruby3-1",)
    for _ in range(3):  # depreciation refills slots 1, 3, 4: the Queen's window each time
        table.passes(0, 1, 2)
    assert table.pending() == []


def test_buying_the_necklace_card_puts_on_the_necklace(table) -> None:
    display(table, ("queens_necklace", 1), None, None, None, None)
    table.set(0, "ducats", 10).act("buy", 0, slot=ZoneRef("slot1"))
    assert table.where("queens_necklace") == "hand#0"
    assert table.where("the_necklace") == "worn#0"
    assert table.view(1)["players"][0]["zones"]["worn"] == ["the_necklace"]


def test_buy_requires_enough_ducats(table) -> None:
    display(table, ("ruby3-1", 0), None, None, None, None)
    table.set(0, "ducats", 9)
    with pytest.raises(IllegalMove, match="not enough ducats"):
        table.act("buy", 0, slot=ZoneRef("slot1"))


# --- depreciation -----------------------------------------------------------------------
def test_depreciation_moves_markers_down_discards_and_refills_at_the_top_price(table) -> None:
    display(table, ("ruby3-1", 0), ("ruby3-2", 3), ("ring-1", 2), None, ("amber1-1", 1))
    table.deck("emerald2-1", "diamond1-1", "amber1-9")
    table.act("depreciation_phase", 0)
    table.passes(0, 1, 2).passes(0, 1, 2)  # the Queen's window on each gem revealed
    assert table.pending() == []
    # markers one step down
    assert [table.step_of(i) for i in (1, 3, 5)] == [1, 3, 2]
    assert table.eval("price(slot1)") == 8
    # slot 2 reached the crossed-out step: discarded; refilled left to right
    assert table.zone("discard") == ("ruby3-2",)
    assert table.zone("slot2") == ("emerald2-1",) and table.step_of(2) == 0
    assert table.zone("slot4") == ("diamond1-1",) and table.step_of(4) == 0
    assert table.eval("price(slot2)") == 8
    assert table.zone("deck") == ("amber1-9",)


def test_refill_with_an_empty_draw_pile_leaves_slots_empty(table) -> None:
    display(table, None, ("ruby3-2", 3), ("ring-1", 0), None, None)
    table.deck("emerald2-1")
    table.act("depreciation_phase", 0)
    assert table.zone("slot1") == ("emerald2-1",)
    assert table.zone("slot2") == () and table.zone("slot4") == ()


def test_merchant_revealed_while_refilling_suspends_the_turn(table) -> None:
    display(table, None, ("ring-1", 0), None, ("ring-2", 0), ("ring-3", 0))
    table.deck("merchant-1", "ruby1-1", "emerald1-1", "amber1-1")
    table.hand(1, "ruby1-5")
    table.act("depreciation_phase", 0)
    table.passes(1, 2)  # the Cardinal's window
    # the sale is on while the refill waits: slot 1 and slot 3 are still empty
    assert sorted(table.waiting()) == [0, 1, 2]
    assert table.zone("slot1") == () and table.zone("slot3") == ()
    assert table.zone("deck") == ("ruby1-1", "emerald1-1", "amber1-1")
    table.show(1, "ruby1-5").show(0).show(2)
    table.passes(0, 1, 2)  # the Alchemist's window
    # the sale happened, then the refill went on where it stopped
    table.passes(0, 1, 2).passes(0, 1, 2)  # the Queen's window on each gem revealed
    assert table.get(1, "money") == 30 + 0  # ruby: fashion +30, rarity 0
    assert table.counter("sales_done") == 1
    assert table.zone("slot1") == ("ruby1-1",) and table.step_of(1) == 0
    assert table.zone("slot3") == ("emerald1-1",) and table.step_of(3) == 0
    assert table.zone("deck") == ("amber1-1",)
    assert table.where("merchant-1") == "merchants_done"


def test_a_whole_turn_with_a_merchant_in_the_refill_continues_after_the_sale(table) -> None:
    display(table, ("ruby2-1", 0), ("ring-1", 0), ("ring-2", 0), ("ring-3", 0), ("ring-4", 0))
    table.deck("merchant-1", "emerald1-1").hand(1, "amber1-5")
    table.hand(2, "queen")  # asked when the gem is revealed after the sale
    table.act("play_turn", 0).passes(0).answer("buy slot1")
    table.passes(1, 2)  # the Cardinal's window
    assert sorted(table.waiting()) == [0, 1, 2]
    assert table.options(0) == ("show ruby2-1", "pass")  # the bought ruby may be shown
    table.show(1, "amber1-5").show(0).show(2)
    assert table.counter("sales_done") == 1
    # the turn goes on: the refill reveals emerald1-1, and the Queen may take it
    table.passes(0, 1)
    assert table.pending() == [(2, ("queen queen", "pass"))]
    table.answer("pass")
    assert table.zone("slot1") == ("emerald1-1",)
    assert table.pending() == []


def test_merchant_revealed_at_setup_holds_a_sale_then_is_replaced(table) -> None:
    table.current(None).hand(2, "queen").hand(1, "ruby1-1").hand(2, "amber1-1")
    for i in range(1, 6):
        table.slot(i, None)
    table.deck("ring-1", "merchant-1", "ring-2", "ring-3", "ring-4", "ring-5")
    table.act("refill_display", 0)
    assert sorted(table.waiting()) == [0, 1, 2]  # no Cardinal: nobody's turn
    table.pass_all()
    assert table.counter("sales_done") == 1
    assert [table.zone(f"slot{i}")[0] for i in range(1, 6)] == [
        "ring-1",
        "ring-2",
        "ring-3",
        "ring-4",
        "ring-5",
    ]


# --- the end ----------------------------------------------------------------------------
def test_the_third_sale_ends_the_game_in_the_middle_of_a_turn(table) -> None:
    table.state.counters["sales_done"] = 2
    table.set(0, "money", 5)
    display(table, ("ruby2-1", 0), ("ring-1", 0), ("ring-2", 0), ("ring-3", 0), ("ring-4", 0))
    table.deck("merchant-3", "emerald1-1", "ruby1-1").hand(1, "ruby1-5").hand(2, "queen")
    table.act("play_turn", 0).passes(0).answer("buy slot1").passes(1, 2)
    table.show(1, "ruby1-5").show(0).show(2).passes(0, 1, 2)
    # the third sale is over: nothing more happens; the rest of the turn (the refill
    # and the Queen's decision on the gem it would reveal) never comes
    assert table.counter("sales_done") == 3
    assert table.pending() == []
    assert table.zone("slot1") == ()
    assert table.zone("deck") == ("emerald1-1", "ruby1-1")
    table.game.resume()
    assert table.game.is_over()
    result = table.game.result()
    assert result.scores == {"P1": 5, "P2": 30, "P3": 0}
    assert result.ranking == [["P2"], ["P1"], ["P3"]]
    assert table.where("queen") == "hand#2"


def test_after_the_third_sale_in_the_buy_phase_nothing_more_happens(table) -> None:
    # an Astrologer bought draws the last merchant: after that sale no card is drawn
    # for the Astrologer, nothing more is bought, the markers do not move, no refill
    table.state.counters["sales_done"] = 2
    display(table, ("astrologer-1", 0), ("amber1-1", 3), ("ring-1", 0), ("ring-2", 0), None)
    table.deck("merchant-3", "ruby3-1", "emerald1-1").hand(1, "ruby1-5")
    table.act("play_turn", 0).passes(0).answer("buy slot1").passes(1, 2)
    table.show(1, "ruby1-5").show(0).show(2).passes(0, 1, 2)
    assert table.counter("sales_done") == 3
    assert table.pending() == []  # no "buy slot2" (1 ducat, 4 left), no Queen
    assert table.zone("hand", 0) == ()
    assert table.zone("deck") == ("ruby3-1", "emerald1-1")
    assert table.zone("slot1") == () and table.zone("slot5") == ()
    assert table.zone("slot2") == ("amber1-1",) and table.step_of(2) == 3
    assert table.step_of(3) == 0
    table.game.resume()
    assert table.game.is_over()
    assert table.game.result().scores == {"P1": 0, "P2": 30, "P3": 0}


def test_the_game_does_not_end_before_the_third_sale(table) -> None:
    table.state.counters["sales_done"] = 1
    display(table, ("ruby2-1", 0), ("ring-1", 0), ("ring-2", 0), ("ring-3", 0), ("ring-4", 0))
    table.deck("merchant-2", "emerald1-1", "ruby1-1").hand(1, "amber1-5").hand(2, "queen")
    table.act("play_turn", 0).passes(0).answer("buy slot1").passes(1, 2)
    table.show(1, "amber1-5").show(0).show(2)
    assert table.counter("sales_done") == 2
    table.passes(0, 1)
    assert table.pending() == [(2, ("queen queen", "pass"))]


def test_ties_at_the_end_are_shared(table) -> None:
    table.state.counters["sales_done"] = 3
    table.set(0, "money", 40).set(1, "money", 40).set(2, "money", -10)
    table.act("end_of_turn", 0)  # (any sandbox action replaces the first turn's decision)
    table.game.resume()
    assert table.game.is_over()
    assert table.game.result().ranking == [["P1", "P2"], ["P3"]]
