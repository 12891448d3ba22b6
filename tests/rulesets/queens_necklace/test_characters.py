"""Queen's Necklace characters (rules digest section 5), from set positions."""

from __future__ import annotations

import pytest

from interpreter.engine.game import IllegalMove
from interpreter.language.values import ZoneRef


# --- Thief -----------------------------------------------------------------------
def test_thief_takes_a_random_card(table) -> None:
    table.hand(0, "thief-1", "amber1-1").hand(1, "ruby3-1", "emerald1-1")
    table.rig("draw hand#1", "ruby3-1")
    table.act("influence_phase", 0).answer("influence", "play thief-1")
    assert table.options() == ("rob P2",)  # P3 has no card: not offered
    table.answer("rob P2")
    assert table.zone("hand", 0) == ("amber1-1", "ruby3-1")
    assert table.zone("hand", 1) == ("emerald1-1",)
    assert table.zone("discard") == ("thief-1",)


def test_thief_drawing_a_musketeer_is_caught_and_robbed_back(table) -> None:
    table.hand(0, "thief-1", "ruby3-1", "amber1-1").hand(1, "musketeer-1", "emerald1-1")
    table.rig("draw hand#1", "musketeer-1").rig("draw hand#0", "ruby3-1")
    table.act("influence_phase", 0).answer("influence", "play thief-1", "rob P2")
    # Thief and Musketeer discarded; the Musketeer's owner may draw a random card back
    assert table.options() == ("draw back", "no draw")
    table.answer("draw back")
    assert table.zone("discard") == ("thief-1", "musketeer-1")
    assert table.zone("hand", 0) == ("amber1-1",)
    assert table.zone("hand", 1) == ("emerald1-1", "ruby3-1")
    assert table.zone("drawn", 0) == table.zone("drawn", 1) == ()


def test_thief_caught_the_robbed_player_may_decline_to_draw_back(table) -> None:
    table.hand(0, "thief-1", "ruby3-1", "amber1-1").hand(1, "musketeer-1", "emerald1-1")
    table.rig("draw hand#1", "musketeer-1")
    table.act("influence_phase", 0).answer("influence", "play thief-1", "rob P2", "no draw")
    assert table.zone("discard") == ("thief-1", "musketeer-1")
    assert table.zone("hand", 0) == ("ruby3-1", "amber1-1")
    assert table.zone("hand", 1) == ("emerald1-1",)


def test_thief_chain_musketeer_drawn_back_swaps_again(table) -> None:
    # P1 steals P2's Musketeer; P2 draws P1's Musketeer back; P1 draws again from P2
    table.hand(0, "thief-1", "musketeer-2", "amber1-1")
    table.hand(1, "musketeer-1", "emerald1-1")
    table.rig("draw hand#1", "musketeer-1").rig("draw hand#0", "musketeer-2")
    table.rig("draw hand#1", "emerald1-1")
    table.act("influence_phase", 0).answer("influence", "play thief-1", "rob P2")
    table.answer("draw back", "draw back")
    assert table.zone("discard") == ("thief-1", "musketeer-1", "musketeer-2")
    assert table.zone("hand", 0) == ("amber1-1", "emerald1-1")
    assert table.zone("hand", 1) == ()


def test_thief_stealing_the_necklace_card_takes_the_necklace(table) -> None:
    table.hand(0, "thief-1").hand(1, "queens_necklace", "ruby1-1")
    assert table.where("the_necklace") == "worn#1"
    table.rig("draw hand#1", "queens_necklace")
    table.act("influence_phase", 0).answer("influence", "play thief-1", "rob P2")
    assert table.where("queens_necklace") == "hand#0"
    assert table.where("the_necklace") == "worn#0"
    assert table.eval("necklace_holder()") == 0


def test_thief_not_playable_when_no_opponent_has_a_card(table) -> None:
    table.hand(0, "thief-1")
    table.act("influence_phase", 0)
    assert table.pending() == [(0, ("pass",))]  # nothing playable: only `pass`
    table.answer("pass")
    assert table.zone("hand", 0) == ("thief-1",)


def test_card_stolen_this_turn_cannot_be_played_this_turn(table) -> None:
    table.hand(0, "thief-1").hand(1, "courtier-1")
    table.rig("draw hand#1", "courtier-1")
    table.act("influence_phase", 0).answer("influence", "play thief-1", "rob P2")
    assert table.zone("hand", 0) == ("courtier-1",)
    assert table.options() == ("pass",)  # the stolen Courtier waits for the next turn
    assert table.get(0, "ducats") == 10


# --- Forger ----------------------------------------------------------------------
def test_forger_target_discards_a_card_of_the_named_type(table) -> None:
    table.hand(0, "forger-1").hand(1, "ruby1-1", "ruby2-1", "emerald1-1")
    table.act("influence_phase", 0).answer("influence", "play forger-1", "forge P2", "type ruby")
    assert table.waiting() == [1]
    assert table.options() == ("discard",)
    table.answer("discard")
    assert table.options() == ("discard ruby1-1", "discard ruby2-1")
    table.answer("discard ruby2-1")
    assert table.zone("hand", 1) == ("ruby1-1", "emerald1-1")
    assert table.zone("discard") == ("forger-1", "ruby2-1")


def test_forger_cancelled_by_a_musketeer(table) -> None:
    table.hand(0, "forger-1").hand(1, "ruby1-1", "musketeer-1")
    table.act("influence_phase", 0).answer("influence", "play forger-1", "forge P2", "type ruby")
    assert table.options() == ("musketeer", "discard")
    table.answer("musketeer", "cancel musketeer-1")
    assert table.zone("hand", 1) == ("ruby1-1",)
    assert table.zone("discard") == ("forger-1", "musketeer-1")


def test_forger_with_no_card_of_the_type_shows_the_hand_as_proof(table) -> None:
    table.hand(0, "forger-1").hand(1, "emerald1-1", "king-1", "ring-1")
    before = table.view(0)["players"][1]["zones"]["hand"]
    assert before == {"count": 3}
    table.act("influence_phase", 0).answer("influence", "play forger-1", "forge P2", "type ruby")
    assert table.options() == ("show hand",)
    table.answer("show hand")
    assert table.zone("hand", 1) == ("emerald1-1", "king-1", "ring-1")  # nothing discarded
    seen = table.view(0)["players"][1]["zones"]["hand"]
    assert seen == {"count": 3, "known": ["emerald1-1", "king-1", "ring-1"]}
    # only the forger saw it
    assert table.view(2)["players"][1]["zones"]["hand"] == {"count": 3}


def test_forger_proof_or_musketeer_when_no_card_of_the_type(table) -> None:
    table.hand(0, "forger-1").hand(1, "emerald1-1", "musketeer-1")
    table.act("influence_phase", 0).answer("influence", "play forger-1", "forge P2", "type ruby")
    assert table.options() == ("musketeer", "show hand")


# --- Confessor ---------------------------------------------------------------------
def test_confessor_sees_the_target_hand(table) -> None:
    table.hand(0, "confessor-1").hand(1, "ruby3-1", "cardinal-1").hand(2, "amber1-1")
    table.act("influence_phase", 0).answer("influence", "play confessor-1")
    assert table.options() == ("confess P2", "confess P3")
    table.answer("confess P2")
    seen = table.view(0)["players"][1]["zones"]["hand"]
    assert seen["count"] == 2 and set(seen["known"]) == {"ruby3-1", "cardinal-1"}
    assert table.view(0)["players"][2]["zones"]["hand"] == {"count": 1}
    assert table.view(2)["players"][1]["zones"]["hand"] == {"count": 2}


# --- Courtier ------------------------------------------------------------------------
@pytest.mark.parametrize("courtiers,ducats", [(0, 10), (1, 13), (2, 16), (3, 19)])
def test_courtiers_add_three_ducats_each(make_table, courtiers, ducats) -> None:
    t = make_table(3)
    cards = [f"courtier-{i + 1}" for i in range(courtiers)]
    t.hand(0, *cards, "ruby1-1")
    t.act("influence_phase", 0)
    for card in cards:
        t.answer("influence", f"play {card}")
    assert t.pending() == [(0, ("pass",))]  # asked again: nothing left to play
    t.answer("pass")
    assert t.get(0, "ducats") == ducats
    assert t.zone("hand", 0) == ("ruby1-1",)


# --- Favorite ------------------------------------------------------------------------
def test_favorite_moves_a_gem_type_to_the_most_fashionable_place(table) -> None:
    table.fashion("ruby", "emerald", "diamond", "amber").hand(0, "favorite-1")
    table.act("influence_phase", 0).answer("influence", "play favorite-1")
    assert table.options() == ("favour tile_emerald", "favour tile_diamond", "favour tile_amber")
    table.answer("favour tile_diamond")
    assert table.zone("fashion_gems") == ("tile_diamond", "tile_ruby", "tile_emerald", "tile_amber")
    assert table.eval("fashion_value('diamond')") == 30
    assert table.eval("fashion_value('ruby')") == 20
    assert table.eval("fashion_value('amber')") == 0


# --- Three Musketeers ----------------------------------------------------------------
def test_three_musketeers_take_the_necklace_card_and_the_necklace(table) -> None:
    table.hand(0, "musketeer-1", "musketeer-2", "musketeer-3", "ruby1-1")
    table.hand(1, "queens_necklace", "emerald1-1")
    assert table.where("the_necklace") == "worn#1"
    table.act("influence_phase", 0)
    assert table.options() == ("three musketeers", "pass")
    table.answer("three musketeers")
    assert table.zone("hand", 0) == ("ruby1-1", "queens_necklace")
    assert table.zone("hand", 1) == ("emerald1-1",)
    assert table.where("the_necklace") == "worn#0"
    assert set(table.zone("discard")) == {"musketeer-1", "musketeer-2", "musketeer-3"}


def test_three_musketeers_need_the_card_in_another_players_hand(table) -> None:
    table.hand(0, "musketeer-1", "musketeer-2", "musketeer-3")
    table.act("influence_phase", 0)
    assert table.options() == ("pass",)  # nobody holds the necklace card
    table.hand(0, "musketeer-1", "musketeer-2").hand(1, "queens_necklace")
    table.act("influence_phase", 0)
    assert table.options() == ("pass",)  # only two Musketeers


# --- Astrologer ----------------------------------------------------------------------
def test_astrologer_bought_is_discarded_and_the_top_card_drawn(table) -> None:
    table.slot(1, "astrologer-1").deck("ruby3-1", "emerald1-1").set(0, "ducats", 10)
    table.act("buy", 0, slot=ZoneRef("slot1"))
    assert table.zone("hand", 0) == ("ruby3-1",)
    assert table.zone("discard") == ("astrologer-1",)
    assert table.zone("deck") == ("emerald1-1",)
    assert table.get(0, "ducats") == 4


def test_astrologer_drawing_an_astrologer_discards_it_and_draws_again(table) -> None:
    table.slot(1, "astrologer-1").deck("astrologer-2", "ruby3-1").set(0, "ducats", 10)
    table.act("buy", 0, slot=ZoneRef("slot1"))
    assert table.zone("hand", 0) == ("ruby3-1",)
    assert table.zone("discard") == ("astrologer-1", "astrologer-2")


def test_astrologer_drawing_a_merchant_holds_the_sale_first(table) -> None:
    table.slot(1, "astrologer-1").deck("merchant-1", "ruby3-1", "emerald1-1")
    table.set(0, "ducats", 10).hand(0, "amber1-1").hand(1, "ruby1-1")
    table.act("buy", 0, slot=ZoneRef("slot1"))
    table.passes(1, 2)  # the Cardinal's window, from the left of the current player
    # the sale is on: every player chooses a packet; the next card is not drawn yet
    assert sorted(table.waiting()) == [0, 1, 2]
    assert table.zone("deck")[0] == "ruby3-1"
    assert "show ruby3-1" not in table.options(0)
    table.show(0, "amber1-1").show(1, "ruby1-1").show(2)
    table.passes(0, 1, 2)  # the Alchemist's window (a ruby is shown)
    # rarity: emerald, diamond (0 stones) +30 +20; ruby (1, more fashionable) +10;
    # amber 0. Ruby sells 30 + 10, amber 0 + 0.
    assert table.get(1, "money") == 40
    assert table.get(0, "money") == 0
    assert table.counter("sales_done") == 1
    assert table.where("merchant-1") == "merchants_done"
    # then the player draws the next top card
    assert table.zone("hand", 0) == ("ruby3-1",)
    assert table.zone("deck") == ("emerald1-1",)
    assert table.game.paused and table.pending() == []


# --- Cardinal ------------------------------------------------------------------------
def reveal_merchant_in_p1_depreciation(t, deck=("merchant-1", "emerald1-1")):
    """Seat 0 plays; slot 1's card is at its last price and is discarded, so the
    refill reveals the top of `deck`."""
    t.current(0).slot(1, "amber1-9", step=3)
    for i in range(2, 6):
        t.slot(i, f"ring-{i}", step=0)
    t.deck(*deck)
    t.act("depreciation_phase", 0)


def test_cardinal_postpones_the_sale_and_the_slot_is_refilled(table) -> None:
    table.hand(1, "cardinal-1", "ruby1-1").hand(2, "emerald2-1")
    reveal_merchant_in_p1_depreciation(table)
    assert table.pending() == [(1, ("cardinal cardinal-1", "pass"))]
    table.answer("cardinal cardinal-1")
    table.passes(2)  # P3 is asked too (a Cardinal may still be in a hand)
    assert table.zone("reminder", 1) == ("merchant-1",)
    assert table.counter("sales_done") == 0
    table.passes(0, 1, 2)  # the Queen's window: the replacement is a gem
    assert table.zone("slot1") == ("emerald1-1",) and table.step_of(1) == 0
    assert table.zone("discard") == ("amber1-9", "cardinal-1")


def test_cardinal_sale_happens_at_the_end_of_its_players_next_turn(table) -> None:
    table.hand(1, "cardinal-1", "ruby1-1").hand(2, "emerald2-1")
    reveal_merchant_in_p1_depreciation(table, deck=("merchant-1", "emerald1-1", "amber1-2"))
    table.answer("cardinal cardinal-1")
    table.passes(2)  # P3 has no Cardinal
    table.passes(0, 1, 2)  # the Queen's window on emerald1-1
    # P2's turn: influence (nothing), buy, depreciation, then the postponed sale
    table.act("play_turn", 1).passes(1)
    assert table.options() == ("buy slot1", "buy slot2", "buy slot3", "buy slot4", "buy slot5")
    assert table.counter("sales_done") == 0
    # 6 ducats for the ring: 4 left buy nothing more; depreciation refills slot 2
    table.answer("buy slot2")
    table.passes(1, 2, 0)  # the Queen's window on amber1-2, from P2
    assert table.zone("slot2") == ("amber1-2",)
    # now the sale: every player chooses a packet
    assert sorted(table.waiting()) == [0, 1, 2]
    table.show(1, "ruby1-1").show(2, "emerald2-1").show(0)
    table.passes(1, 2, 0)  # the Alchemist's window
    assert table.counter("sales_done") == 1
    assert table.zone("reminder", 1) == ()
    assert table.where("merchant-1") == "merchants_done"
    # ruby 1 stone, emerald 2: diamond +30, amber +20, ruby +10, emerald 0
    assert table.get(1, "money") == 30 + 10
    assert table.get(2, "money") == 20 + 0


def test_cardinal_not_offered_to_the_current_player(table) -> None:
    table.hand(0, "cardinal-1", "ruby1-1")
    reveal_merchant_in_p1_depreciation(table)
    table.passes(1, 2)  # only the other players are asked
    assert sorted(table.waiting()) == [0, 1, 2]  # the sale is on
    assert table.options(0) == ("show ruby1-1", "pass")


def test_two_cardinals_the_later_one_keeps_the_merchant(table) -> None:
    table.hand(1, "cardinal-1", "ruby1-1").hand(2, "cardinal-2", "emerald1-2")
    reveal_merchant_in_p1_depreciation(table)
    table.answer("cardinal cardinal-1")
    assert table.pending() == [(2, ("cardinal cardinal-2", "pass"))]
    table.answer("cardinal cardinal-2")
    assert table.zone("reminder", 1) == ()
    assert table.zone("reminder", 2) == ("merchant-1",)
    table.passes(0, 1, 2)  # the Queen's window on emerald1-1
    # the end of P2's turn holds no sale; the end of P3's does
    table.act("end_of_turn", 1)
    assert table.pending() == [] and table.counter("sales_done") == 0
    table.act("end_of_turn", 2)
    assert sorted(table.waiting()) == [0, 1, 2]
    table.pass_all()
    assert table.counter("sales_done") == 1


def test_cardinal_on_the_last_merchant_with_an_empty_draw_pile(table) -> None:
    table.state.counters["sales_done"] = 2
    table.hand(2, "cardinal-1", "ruby2-1").hand(1, "emerald1-1")
    reveal_merchant_in_p1_depreciation(table, deck=("merchant-3",))
    table.passes(1).answer("cardinal cardinal-1")
    assert table.zone("deck") == () and table.zone("slot1") == ()
    # P2 plays on; the bought card is not replaced
    table.act("play_turn", 1).passes(1).answer("buy slot2")  # 4 ducats left: nothing more
    assert table.zone("slot2") == () and table.pending() == []
    assert not table.game.is_over() and table.counter("sales_done") == 2
    # P3 plays; the third sale at the end of the turn ends the game
    table.act("play_turn", 2).passes(2).answer("buy slot3", "pass")
    assert sorted(table.waiting()) == [0, 1, 2]
    table.show(2, "ruby2-1").show(1, "emerald1-1").show(0)
    table.passes(2, 0, 1)  # the Alchemist's window
    assert table.counter("sales_done") == 3
    table.game.resume()
    assert table.game.is_over()
    result = table.game.result()
    # ruby 2 stones, emerald 1: diamond +30, amber +20, emerald +10, ruby 0
    assert result.scores == {"P1": 0, "P2": 20 + 10, "P3": 30}


# --- Queen ---------------------------------------------------------------------------
def test_queen_takes_a_revealed_gem_and_a_replacement_is_revealed(table) -> None:
    table.hand(2, "queen", "amber1-1")
    reveal_merchant_in_p1_depreciation(table, deck=("ruby3-1", "ring-1", "emerald1-1"))
    table.passes(0, 1)  # everyone is asked in turn, from the current player
    assert table.pending() == [(2, ("queen queen", "pass"))]
    table.answer("queen queen")
    assert table.zone("hand", 2) == ("amber1-1", "ruby3-1")
    assert table.zone("slot1") == ("ring-1",) and table.step_of(1) == 0
    assert table.where("queen") == "discard"
    assert table.pending() == []


def test_queen_may_pass_and_is_not_offered_for_other_cards(table) -> None:
    table.hand(2, "queen")
    reveal_merchant_in_p1_depreciation(table, deck=("ring-1", "ruby3-1"))
    assert table.pending() == []  # a ring revealed: no Queen
    assert table.zone("slot1") == ("ring-1",)
    table.hand(2, "queen")
    reveal_merchant_in_p1_depreciation(table, deck=("ruby3-1", "ring-1"))
    table.passes(0, 1)
    assert table.options() == ("queen queen", "pass")
    table.answer("pass")
    assert table.zone("slot1") == ("ruby3-1",) and table.zone("hand", 2) == ("queen",)


def test_queen_not_offered_at_setup_refill(table) -> None:
    table.current(None).hand(2, "queen")
    for i in range(1, 6):
        table.slot(i, None)
    table.deck("ruby1-1", "ruby1-2", "ruby1-3", "ruby1-4", "ruby1-5")
    table.act("refill_display", 0)
    assert table.pending() == []
    assert [table.zone(f"slot{i}") for i in range(1, 6)] == [
        ("ruby1-1",),
        ("ruby1-2",),
        ("ruby1-3",),
        ("ruby1-4",),
        ("ruby1-5",),
    ]


# --- Alchemist -----------------------------------------------------------------------
def test_alchemist_moves_a_gem_before_rarity_is_computed(table) -> None:
    table.hand(0, "alchemist", "ruby3-1").hand(1, "emerald2-1")
    table.act("sale", 0)
    table.show(0, "ruby3-1").show(1, "emerald2-1").show(2)
    # after the reveal, the Alchemist's holder may play it (asked first: P1 plays)
    assert table.pending() == [(0, ("alchemist alchemist", "pass"))]
    table.answer("alchemist alchemist")
    assert table.options() == ("transmute ruby3-1", "transmute emerald2-1", "pass")
    table.answer("transmute emerald2-1")
    assert table.options() == ("to ruby", "to diamond")
    table.answer("to diamond")
    # stones now: ruby 3, emerald 0, diamond 2, amber 0
    # rarity: emerald +30, amber +20, diamond +10, ruby 0
    assert table.get(0, "money") == 30 + 0
    assert table.get(1, "money") == 10 + 10
    assert table.where("alchemist") == "discard"


def test_without_the_alchemist_the_same_sale_scores_otherwise(table) -> None:
    table.hand(0, "alchemist", "ruby3-1").hand(1, "emerald2-1")
    table.act("sale", 0)
    table.show(0, "ruby3-1").show(1, "emerald2-1").show(2).answer("pass")
    table.passes(1, 2)
    # rarity: diamond +30, amber +20, emerald (2) +10, ruby (3) 0
    assert table.get(0, "money") == 30
    assert table.get(1, "money") == 20 + 10
    assert table.where("alchemist") == "hand#0"


def test_alchemist_does_not_move_amber(table) -> None:
    table.hand(0, "alchemist", "amber1-1").hand(1, "amber1-2")
    table.act("sale", 0)
    table.show(0, "amber1-1").show(1, "amber1-2").show(2)
    assert table.pending() == []  # no real gem shown: nobody is asked
    table.hand(0, "alchemist", "amber1-1", "ruby1-1")
    table.act("sale", 0)
    table.show(0, "amber1-1", "ruby1-1").show(1).show(2)
    table.answer("alchemist alchemist")
    assert table.options() == ("transmute ruby1-1", "pass")


def test_cardinal_cannot_be_played_in_ones_own_turn(table) -> None:
    table.current(0).hand(0, "cardinal-1")
    with pytest.raises(IllegalMove, match="another player's turn"):
        table.act("postpone_sale", 0, card="cardinal-1")


def test_a_card_seen_is_not_followed_when_it_is_drawn_at_random(table) -> None:
    """P1 has seen P2's hand (Confessor); P3's Thief then draws one card of it at
    random. P1 cannot tell which card went: they know nothing of either hand any more
    (before, the stolen card stayed "known" in P3's hand, telling P1 which it was)."""
    table.hand(0, "confessor-1").hand(1, "ruby3-1", "emerald2-1").hand(2, "thief-1")
    table.act("influence_phase", 0).answer("influence", "play confessor-1").answer("confess P2")
    assert set(table.view(0)["players"][1]["zones"]["hand"]["known"]) == {"ruby3-1", "emerald2-1"}
    table.answer("pass")
    table.rig("draw hand#1", "emerald2-1")
    table.act("influence_phase", 2).answer("influence", "play thief-1").answer("rob P2")
    players = table.view(0)["players"]
    assert players[1]["zones"]["hand"] == {"count": 1}
    assert players[2]["zones"]["hand"] == {"count": 1}
    # the thief and the robbed player know which card moved
    assert table.view(1)["players"][2]["zones"]["hand"] == {"count": 1, "known": ["emerald2-1"]}
    assert table.view(2)["players"][2]["zones"]["hand"] == ["emerald2-1"]
