"""Reaction windows and secret decisions do not tell who holds what (rules digest
sections 4 and 5): whether a decision is open never depends on a hand. It is put to
everyone it could concern; each may pass, and only the options (secret to that
player) depend on the hand."""

from __future__ import annotations


def reveal_in_depreciation(t, deck):
    """Seat 0 plays; slot 1's card is at its last price and is discarded, so the
    refill reveals the top of `deck`."""
    t.current(0).slot(1, "amber1-9", step=3)
    for i in range(2, 6):
        t.slot(i, f"ring-{i}", step=0)
    t.deck(*deck)
    t.act("depreciation_phase", 0)


def public(shown: dict) -> dict:
    """A view without the box (the set-up helpers keep the unused cards there, in
    view of everyone; at the table they are in the deck)."""
    return {**shown, "zones": {k: v for k, v in shown["zones"].items() if k != "box"}}


def pending_seen_by(t, seat: int) -> list:
    return t.view(seat)["pending"]


# --- Cardinal --------------------------------------------------------------------------
def test_every_other_player_is_asked_for_a_cardinal_whatever_they_hold(table) -> None:
    table.hand(1, "ruby1-1").hand(2, "emerald2-1")  # no Cardinal anywhere
    reveal_in_depreciation(table, ("merchant-1", "emerald1-1"))
    # from the left of the current player (P1): P2, then P3; each has only `pass`
    assert table.pending() == [(1, ("pass",))]
    table.answer("pass")
    assert table.pending() == [(2, ("pass",))]
    table.answer("pass")
    # then the sale: every player makes up a packet
    assert sorted(table.waiting()) == [0, 1, 2]


def test_the_cardinal_holder_has_the_card_among_the_options(table) -> None:
    table.hand(1, "ruby1-1").hand(2, "cardinal-1", "emerald2-1")
    reveal_in_depreciation(table, ("merchant-1", "emerald1-1"))
    assert table.pending() == [(1, ("pass",))]
    table.answer("pass")
    assert table.pending() == [(2, ("cardinal cardinal-1", "pass"))]


def test_a_third_player_sees_the_same_whether_p2_holds_a_cardinal(make_table) -> None:
    seen = {}
    for p2_hand in (("cardinal-1", "ruby1-1"), ("diamond1-1", "ruby1-1")):
        t = make_table(3)
        t.hand(1, *p2_hand).hand(2, "emerald2-1")
        reveal_in_depreciation(t, ("merchant-1", "emerald1-1"))
        assert t.view(2)["pending"] == t.view(0)["pending"] == [{"player": "P2"}]
        seen[p2_hand[0]] = (public(t.view(2)), public(t.view(0)), t.view(1)["pending"])
    # P3's and P1's whole views are the same; only P2 sees what it may do
    assert seen["cardinal-1"][0] == seen["diamond1-1"][0]
    assert seen["cardinal-1"][1] == seen["diamond1-1"][1]
    assert seen["cardinal-1"][2][0]["options"] == ["cardinal cardinal-1", "pass"]
    assert seen["diamond1-1"][2][0]["options"] == ["pass"]


def test_no_cardinal_window_once_both_are_discarded(table) -> None:
    # both Cardinals played (public): nobody can hold one, the sale starts at once
    table.state.put("cardinal-1", "discard")
    table.state.put("cardinal-2", "discard")
    table.hand(1, "ruby1-1")
    reveal_in_depreciation(table, ("merchant-1", "emerald1-1"))
    assert sorted(table.waiting()) == [0, 1, 2]
    assert table.options(1) == ("show ruby1-1", "pass")


# --- Queen -----------------------------------------------------------------------------
def test_every_player_is_asked_for_the_queen_at_each_revealed_gem(table) -> None:
    table.hand(1, "ruby1-1")  # nobody holds the Queen
    reveal_in_depreciation(table, ("ruby3-1", "ring-1"))
    # from the current player: P1, P2, P3, each only `pass`
    for seat in (0, 1, 2):
        assert table.pending() == [(seat, ("pass",))]
        assert pending_seen_by(table, (seat + 1) % 3) == [{"player": f"P{seat + 1}"}]
        table.answer("pass")
    assert table.pending() == []
    assert table.zone("slot1") == ("ruby3-1",)


def test_the_queen_holder_is_asked_in_turn_and_may_take_the_gem(table) -> None:
    table.hand(2, "queen", "amber1-1")
    reveal_in_depreciation(table, ("ruby3-1", "ring-1", "emerald1-1"))
    assert table.pending() == [(0, ("pass",))]
    table.answer("pass")
    assert table.pending() == [(1, ("pass",))]
    # P1's view is the same as when P3 holds no Queen
    assert pending_seen_by(table, 0) == [{"player": "P2"}]
    table.answer("pass")
    assert table.pending() == [(2, ("queen queen", "pass"))]
    table.answer("queen queen")
    # the gem taken, the slot refilled with a ring (no Queen window for a ring)
    assert table.zone("hand", 2) == ("amber1-1", "ruby3-1")
    assert table.zone("slot1") == ("ring-1",)
    assert table.pending() == []


def test_no_queen_window_once_she_is_discarded(table) -> None:
    table.state.put("queen", "discard")
    reveal_in_depreciation(table, ("ruby3-1", "ring-1"))
    assert table.pending() == []
    assert table.zone("slot1") == ("ruby3-1",)


# --- the sale packets -----------------------------------------------------------------
def test_every_player_makes_up_a_packet_whatever_they_hold(table) -> None:
    table.hand(0, "ruby3-1").hand(1, "ring-1")  # P2 only a ring, P3 nothing
    table.act("sale", 0)
    assert sorted(table.waiting()) == [0, 1, 2]
    assert table.options(1) == ("pass",)
    assert table.options(2) == ("pass",)
    assert table.options(0) == ("show ruby3-1", "pass")


def test_packets_in_progress_are_hidden_though_the_rows_are_public(table) -> None:
    table.hand(0, "ruby3-1", "king-1").hand(1, "emerald1-1").hand(2, "amber1-1")
    table.act("sale", 0)
    table.answer_as(0, "show ruby3-1", "show king-1", "with ruby")
    assert table.view(0)["players"][0]["zones"]["show[ruby]"] == ["ruby3-1", "king-1"]
    for seat in (1, 2):
        theirs = table.view(seat)["players"][0]["zones"]
        assert theirs["show[ruby]"] == []
        assert theirs["hand"] == {"count": 2}
    table.answer_as(0, "pass")  # P1 is done; the others still choose
    table.answer_as(1, "show emerald1-1")
    assert table.view(2)["players"][0]["zones"]["show[ruby]"] == []
    assert table.view(2)["players"][1]["zones"]["show[emerald]"] == []
    assert table.view(0)["players"][1]["zones"]["show[emerald]"] == []
    table.answer_as(1, "pass")
    table.answer_as(2, "pass")
    # all revealed: the Alchemist's window is open and every row is public
    assert table.waiting() == [0]
    for seat in (0, 1, 2):
        seen = table.view(seat)["players"]
        assert seen[0]["zones"]["show[ruby]"] == ["ruby3-1", "king-1"]
        assert seen[1]["zones"]["show[emerald]"] == ["emerald1-1"]


# --- Alchemist -------------------------------------------------------------------------
def test_every_player_is_asked_for_the_alchemist_when_a_real_gem_is_shown(table) -> None:
    table.hand(0, "ruby3-1").hand(1, "emerald2-1").hand(2, "alchemist")
    table.act("sale", 0)
    table.show(0, "ruby3-1").show(1, "emerald2-1").show(2)
    assert table.pending() == [(0, ("pass",))]
    table.answer("pass")
    assert table.pending() == [(1, ("pass",))]
    assert pending_seen_by(table, 0) == [{"player": "P2"}]
    table.answer("pass")
    assert table.pending() == [(2, ("alchemist alchemist", "pass"))]
    table.answer("alchemist alchemist", "transmute emerald2-1", "to diamond")
    assert table.pending() == []
    assert table.where("alchemist") == "discard"


def test_nobody_is_asked_after_the_alchemist_is_played(table) -> None:
    table.hand(0, "ruby3-1", "alchemist").hand(1, "emerald2-1")
    table.act("sale", 0)
    table.show(0, "ruby3-1").show(1, "emerald2-1").show(2)
    assert table.pending() == [(0, ("alchemist alchemist", "pass"))]
    table.answer("alchemist alchemist", "pass")  # played, moves nothing
    assert table.pending() == []  # the only Alchemist is gone: no more asking
    assert table.counter("sales_done") == 1


# --- the influence phase ------------------------------------------------------------------
def test_the_active_player_is_asked_every_turn_even_with_nothing_to_play(table) -> None:
    table.hand(0, "ruby1-1")
    table.act("influence_phase", 0)
    assert table.pending() == [(0, ("pass",))]
    assert pending_seen_by(table, 1) == [{"player": "P1"}]
    table.answer("pass")
    assert table.pending() == []
    assert table.get(0, "ducats") == 10


def test_the_influence_options_depend_on_the_hand_only_for_its_player(table) -> None:
    table.hand(0, "courtier-1", "ruby1-1")
    table.act("influence_phase", 0)
    assert table.pending() == [(0, ("influence", "pass"))]
    assert pending_seen_by(table, 1) == [{"player": "P1"}]
    table.answer("influence", "play courtier-1")
    assert table.pending() == [(0, ("pass",))]  # asked again, nothing left to play
    table.answer("pass")
    assert table.get(0, "ducats") == 13


# --- agents decide from what they may know ---------------------------------------------
def greedy_buys(make_table, *deck: str) -> list[str]:
    """What the greedy agent buys first, over 12 agent seeds, with the draw pile in
    this order (an Astrologer in the display would draw its top card)."""
    from interpreter.agents import GreedyAgent

    choices = []
    for seed in range(12):
        t = make_table(2)
        t.hand(0, "ruby2-1", "ruby2-2").hand(1, "amber1-1")
        t.slot(1, "astrologer-1", step=2).slot(2, "ruby1-1", step=2)
        for i in range(3, 6):
            t.slot(i, f"amber1-{i + 1}", step=0)
        t.deck(*deck)
        t.set(0, "ducats", 10).act("buy_phase", 0)
        decision = t.game.pending()[0]
        choices.append(GreedyAgent(0, seed).choose(t.game, decision))
    return choices


def test_the_greedy_agent_does_not_know_the_top_of_the_draw_pile(make_table) -> None:
    """The hidden top card (a merchant: the Astrologer would draw it and start a sale
    at once) does not change what the agent buys: it looks ahead in worlds sampled
    from its own view, never in the real game."""
    rest = ("emerald1-1", "diamond1-1", "amber1-9")
    merchant_on_top = greedy_buys(make_table, "merchant-1", "ruby3-1", *rest)
    assert merchant_on_top == greedy_buys(make_table, "ruby3-1", "merchant-1", *rest)
