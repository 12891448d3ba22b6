"""Setup (rules digest section 2), with the chance outcomes forced where a test
needs a known deal."""

from __future__ import annotations

import pytest

from interpreter.engine.game import Game
from interpreter.language.values import Player
from interpreter.ruleset import load_or_raise

qn = load_or_raise("queens-necklace")


def rigged(start: str = "P1", first_deck_order=None, bottom_five=None):
    """A chance source for setup: the start player, the first deck shuffle (a
    function of the items), the bottom-five shuffle; every other shuffle keeps the
    order."""
    seen = {"deck": 0}

    def source(key, items, count):
        if key == "choose start player":
            return (f"start player {start}",)
        if key == "shuffle deck":
            seen["deck"] += 1
            if seen["deck"] == 1 and first_deck_order is not None:
                return tuple(first_deck_order(list(items)))
        if key == "shuffle bottom_five" and bottom_five is not None:
            return tuple(bottom_five(list(items)))
        return tuple(items) if count is None else tuple(items[:count])

    return source


def to_front(*cards):
    def order(items):
        rest = [c for c in items if c not in cards]
        return list(cards) + rest

    return order


def placed(items, positions: dict[str, int]):
    rest = [c for c in items if c not in positions]
    for card, index in sorted(positions.items(), key=lambda kv: kv[1]):
        rest.insert(index, card)
    return rest


def test_deal_four_cards_display_five_and_the_rest_is_the_draw_pile(make_table) -> None:
    t = make_table(3, chance=rigged(), clean=False)
    st = t.state
    for seat in range(3):
        assert len(t.zone("hand", seat)) == 4
    assert all(len(t.zone(f"slot{i}")) == 1 for i in range(1, 6))
    assert all(t.step_of(i) == 0 for i in range(1, 6))
    assert len(t.zone("deck")) == 100 + 3 - 12 - 5
    # every component in exactly one zone
    seen = {}
    for zone, items in st.zones.items():
        for piece in items:
            assert piece not in seen
            seen[piece] = zone
    assert set(seen) == set(qn.pieces)


def test_tiles_aid_cards_and_the_box(make_table) -> None:
    t = make_table(3, chance=rigged(), clean=False)
    assert t.zone("fashion_row") == ("fashion30", "fashion20", "fashion10", "fashion0")
    assert sorted(t.zone("fashion_gems")) == sorted(
        ["tile_ruby", "tile_emerald", "tile_diamond", "tile_amber"]
    )
    assert t.zone("rarity_supply") == ("rarity30", "rarity20", "rarity10", "rarity0")
    assert [len(t.zone("aid", s)) for s in range(3)] == [1, 1, 1]
    box = t.zone("box")
    assert {"blank-1", "blank-2", "blank-3", "the_necklace"} <= set(box)
    assert len([p for p in box if p.startswith("aid-")]) == 1
    assert t.counter("sales_done") == 0


def test_fashion_gems_are_shuffled_under_the_fashion_tiles() -> None:
    orders = set()
    for seed in range(8):
        game = Game(qn, ["A", "B"], seed=seed)
        orders.add(game.state.zones["fashion_gems"])
    assert len(orders) > 1


@pytest.mark.parametrize("start,seat", [("P1", 0), ("P3", 2)])
def test_start_player_is_a_recorded_chance_outcome(make_table, start, seat) -> None:
    t = make_table(3, chance=rigged(start=start), clean=False)
    events = [e for e in t.game.events if e.get("chance") == "choose start player"]
    assert events == [{"chance": "choose start player", "outcome": [f"start player {start}"]}]
    assert t.eval("start_player") == seat
    # the first turn is the start player's
    assert t.eval("current") == seat
    assert {d.player for d in t.game.pending()} == {seat}


def test_start_player_varies_with_the_seed() -> None:
    starts = {Game(qn, ["A", "B", "C"], seed=s).state.variables["start_player"] for s in range(12)}
    assert starts == {Player(0), Player(1), Player(2)}


def test_a_dealt_astrologer_is_replaced_and_shuffled_back(make_table) -> None:
    t = make_table(
        3,
        chance=rigged(
            first_deck_order=lambda items: placed(items, {"astrologer-1": 0, "astrologer-2": 12})
        ),
        clean=False,
    )
    hands = [t.zone("hand", s) for s in range(3)]
    assert not any(c.startswith("astrologer") for h in hands for c in h)
    # P1 was dealt astrologer-1 first; its replacement (the 13th card) was
    # astrologer-2, replaced again by the 14th card
    first = placed(
        [c for c in make_table.play_cards() if not c.startswith("merchant")],
        {"astrologer-1": 0, "astrologer-2": 12},
    )
    assert t.zone("hand", 0) == (first[1], first[2], first[3], first[13])
    assert t.zone("hand", 1) == tuple(first[4:8])
    # both Astrologers are back in the draw pile
    assert t.where("astrologer-1") == "deck" and t.where("astrologer-2") == "deck"
    assert t.zone("setaside") == ()
    assert len(t.zone("deck")) == 100 + 3 - 12 - 5


def test_a_dealt_necklace_card_puts_on_the_necklace(make_table) -> None:
    t = make_table(
        3,
        chance=rigged(first_deck_order=lambda items: placed(items, {"queens_necklace": 5})),
        clean=False,
    )
    assert t.where("queens_necklace") == "hand#1"
    assert t.where("the_necklace") == "worn#1"
    assert t.view(0)["players"][1]["zones"]["worn"] == ["the_necklace"]


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", [1, 2])
def test_merchant_positions(players, seed) -> None:
    game = Game(qn, [f"P{i}" for i in range(players)], seed=seed)
    deck = list(game.state.zones["deck"])
    n = 100 - 4 * players  # play cards left after dealing
    shown = 5  # the display was dealt from the top
    # play cards above each merchant (before the display was dealt)
    above1 = shown + deck.index("merchant-1")
    above2 = shown + deck.index("merchant-2") - 1
    assert above1 == n // 3
    assert above2 == (2 * n) // 3
    assert deck.index("merchant-3") >= len(deck) - 5


def test_last_merchant_position_among_the_bottom_five_is_chance(make_table) -> None:
    t = make_table(
        3, chance=rigged(bottom_five=lambda items: [items[-1], *items[:-1]]), clean=False
    )
    deck = t.zone("deck")
    assert deck[-5] == "merchant-3"
    u = make_table(3, chance=rigged(), clean=False)
    assert u.zone("deck")[-1] == "merchant-3"
