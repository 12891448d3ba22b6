"""Rococo setup and the four phases of a round (rococo.md sections 3 and 4).

Each test arranges an exact position, runs the real engine (the setup, a phase of
the game's course, or a player's turns) and checks the outcome: counters, zone
contents, owners and the exact options offered.

Phases are started with ``start_phase``: it points the game's course at the start
of one phase of a given round and lets the engine run it. The course then goes on
by itself until the next decision (for phase 1 that is the first pick of phase 2,
before it has moved anything).
"""

from __future__ import annotations

import pytest

from interpreter.engine import chance
from interpreter.engine.game import Game
from interpreter.language.values import Player

SMALL_WINDOWS = tuple(f"s_window{i}" for i in range(1, 7))
SMALL_STORAGE = ("s_storage1", "s_storage2", "s_storage3")
START_DESIGNS = ("S1", "S2", "S3", "S4", "S5")


# --------------------------------------------------------------------- helpers
def start_phase(t, phase_id: str, round_no: int):
    """Let the engine run phase ``phase_id`` of round ``round_no`` from the current state."""
    t.game.goto_phase(phase_id, round_no)
    return t


def pieces_of(t, kind: str) -> list[str]:
    return [pid for pid, piece in t.game.ruleset.pieces.items() if piece.kind == kind]


def prop(t, piece: str, name: str):
    return t.game.ruleset.pieces[piece].properties[name]


def clear_all(t, zones) -> None:
    for zone in zones:
        t.clear(zone)


def seat_of(t, variable: str):
    value = t.state.variables[variable]
    return None if value is None else int(value)


def recording_game(table, players: int):
    """A new game whose chance outcomes are deterministic and recorded with what was offered."""
    calls: list[tuple[str, tuple[str, ...], int | None, tuple[str, ...]]] = []

    def source(key, items, count):
        if count is None:
            outcome = chance.shuffled(7, len(calls), items)
        else:
            outcome = chance.picked(7, len(calls), items, count)
        calls.append((key, tuple(items), count, tuple(outcome)))
        return outcome

    game = Game(
        table.game.ruleset, [f"P{i + 1}" for i in range(players)], seed=7, chance_source=source
    )
    return game, calls


# ======================================================================= setup
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_setup_each_player_has_15_livres_1_thread_1_lace(make_table, players):
    t = make_table(players)
    for seat in range(players):
        assert (
            t.get(seat, "livres"),
            t.get(seat, "thread"),
            t.get(seat, "lace"),
            t.get(seat, "prestige"),
        ) == (15, 1, 1, 0)
        assert t.zone("tiles", seat) == ()
        assert t.zone("favour", seat) == ()


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_setup_five_starting_employees_in_each_reserve(make_table, players):
    t = make_table(players)
    dealt = set()
    for seat in range(players):
        reserve = t.zone("reserve", seat)
        assert len(reserve) == 5
        assert sorted(p.split("-")[0] for p in reserve) == list(START_DESIGNS)
        types = sorted(prop(t, p, "type") for p in reserve)
        assert types == ["apprentice", "apprentice", "journeyman", "master", "master"]
        assert all(prop(t, p, "level") == 0 for p in reserve)
        # the two masters carry no bonus
        assert [prop(t, p, "bonus") for p in reserve if prop(t, p, "type") == "master"] == [
            None,
            None,
        ]
        assert t.zone("hand", seat) == () and t.zone("discard", seat) == ()
        dealt |= set(reserve)
    assert len(dealt) == 5 * players  # every player has their own colour's cards
    # phase 2 of round 1 offers each player their whole reserve
    for seat in range(players):
        assert t.options(seat) == tuple(f"take {p}" for p in t.zone("reserve", seat))


def test_setup_employee_deck_is_ordered_by_level_each_level_shuffled(table):
    game, calls = recording_game(table, 3)
    shuffles = [c for c in calls if c[0] == "shuffle sorting"]
    levels = [6, 5, 4, 3, 2, 1]
    assert len(shuffles) == 6
    for (_, items, _, _), level in zip(shuffles, levels, strict=False):
        assert sorted(items) == sorted(
            e for e in pieces_of(table, "employee") if prop(table, e, "level") == level
        )
    # round 1 revealed the top 4: hiring + deck is the whole deck, level I on top
    zones = game.state.zones
    whole = zones["hiring"] + zones["employee_deck"]
    assert len(whole) == 28
    assert [prop(table, e, "level") for e in whole] == [1] * 6 + [2] * 4 + [3] * 4 + [4] * 4 + [
        5
    ] * 4 + [6] * 6
    # each level lies in the order its shuffle produced
    expected = ()
    for _, _, _, outcome in reversed(shuffles):
        expected += outcome
    assert whole == expected


def test_setup_all_dresses_in_the_bag_and_all_tiles_in_the_pile(table):
    game, calls = recording_game(table, 3)
    dress_draws = [c for c in calls if c[0] == "draw dress_bag"]
    tile_draws = [c for c in calls if c[0] == "draw resource_pile"]
    assert sorted(dress_draws[0][1]) == sorted(pieces_of(table, "dress"))
    assert len(dress_draws[0][1]) == 42
    assert sorted(tile_draws[0][1]) == sorted(pieces_of(table, "resource"))
    assert len(tile_draws[0][1]) == 48
    zones = game.state.zones
    windows = [p for w in SMALL_WINDOWS for p in zones.get(w, ())]
    storage = [p for s in SMALL_STORAGE for p in zones.get(s, ())]
    assert len(windows) == 6 and len(storage) == 9
    assert sorted(windows + list(zones["dress_bag"])) == sorted(pieces_of(table, "dress"))
    assert sorted(storage + list(zones["resource_pile"])) == sorted(pieces_of(table, "resource"))
    assert zones.get("dress_discard", ()) == () and zones.get("resource_discard", ()) == ()


def test_setup_favour_card_on_its_space_and_a_start_player(table):
    assert table.zone("favour_space") == ("favour_card",)
    assert all(table.zone("favour", s) == () for s in range(3))
    assert seat_of(table, "start_player") == 0
    assert table.state.variables["favour_taker"] is None
    assert table.state.counters["round"] == 1


@pytest.mark.parametrize(
    "players,windows,storage",
    [(2, 6, [3, 3, 3]), (3, 6, [3, 3, 3]), (4, 8, [4, 4, 4]), (5, 8, [4, 4, 4])],
)
def test_board_side_by_player_count(make_table, players, windows, storage):
    t = make_table(players)
    prefix = "s_" if players <= 3 else "l_"
    window_ids = t.game.tables.group_members["window"]
    storage_ids = t.game.tables.group_members["storage"]
    assert len(window_ids) == windows and all(w.startswith(prefix) for w in window_ids)
    assert t.eval("count(window)") == windows
    assert [t.eval(f"{s}.capacity") for s in storage_ids] == storage
    # the two rightmost windows are the dark ones
    assert [str(w) for w in t.eval("filter(w in window where w.dark)")] == list(window_ids[-2:])
    # round 1 filled every window and every storage space of this side
    assert all(len(t.zone(w)) == 1 for w in window_ids)
    assert [len(t.zone(s)) for s in storage_ids] == storage
    assert len(t.zone("resource_pile")) == 48 - sum(storage)
    assert len(t.zone("dress_bag")) == 42 - windows


# ============================================================ phase 1: prepare
def test_phase1_favour_taker_becomes_start_player_and_returns_the_card(table):
    t = table
    t.put("favour_card", "favour", 1)
    t.state.variables["favour_taker"] = Player(1)
    t.state.variables["start_player"] = Player(0)
    start_phase(t, "prepare", 2)
    assert seat_of(t, "start_player") == 1
    assert t.state.variables["favour_taker"] is None
    assert t.zone("favour_space") == ("favour_card",)
    assert t.zone("favour", 1) == ()


def test_phase1_start_player_stays_when_nobody_took_the_favour(table):
    t = table
    t.state.variables["start_player"] = Player(2)
    start_phase(t, "prepare", 3)
    assert seat_of(t, "start_player") == 2
    assert t.zone("favour_space") == ("favour_card",)


def test_phase1_hiring_leftovers_removed_and_exactly_4_new_cards(table):
    t = table
    first = t.zone("hiring")
    # two cards of round 1 were hired; two are left over
    t.put(first[0], "hand", 0).put(first[1], "hand", 1)
    leftovers = t.zone("hiring")
    top4 = t.zone("employee_deck")[:4]
    deck_size = len(t.zone("employee_deck"))
    start_phase(t, "prepare", 2)
    assert t.zone("hiring") == top4
    assert set(leftovers) <= set(t.zone("box"))
    assert len(t.zone("employee_deck")) == deck_size - 4
    assert t.zone("hand", 0) == (first[0],) and t.zone("hand", 1) == (first[1],)


def test_phase1_highest_level_revealed_equals_round_and_round_7_empties_the_deck(table):
    t = table
    assert max(prop(t, e, "level") for e in t.zone("hiring")) == 1
    for round_no in range(2, 8):
        start_phase(t, "prepare", round_no)
        assert len(t.zone("hiring")) == 4
        if round_no <= 6:
            assert max(prop(t, e, "level") for e in t.zone("hiring")) == round_no
        assert len(t.zone("employee_deck")) == 28 - 4 * round_no
    assert t.zone("employee_deck") == ()
    assert all(prop(t, e, "level") == 6 for e in t.zone("hiring"))


def test_phase1_storage_keeps_tiles_and_fills_empty_spaces(table):
    t = table
    clear_all(t, SMALL_STORAGE)
    t.clear("resource_pile")
    t.put("T01", "s_storage1")  # left from last round
    for tile in ("T02", "T03", "T04"):
        t.put(tile, "s_storage3")  # full
    pile = ("T10", "T11", "T12", "T13", "T14", "T15", "T16")
    for tile in pile:
        t.put(tile, "resource_pile")
    start_phase(t, "prepare", 2)
    assert t.zone("s_storage1")[0] == "T01" and len(t.zone("s_storage1")) == 3
    assert len(t.zone("s_storage2")) == 3
    assert t.zone("s_storage3") == ("T02", "T03", "T04")
    new = t.zone("s_storage1")[1:] + t.zone("s_storage2")
    assert sorted(new + t.zone("resource_pile")) == sorted(pile)
    assert len(t.zone("resource_pile")) == 2


def test_phase1_storage_refills_from_the_reshuffled_discard(table):
    t = table
    clear_all(t, SMALL_STORAGE)
    t.clear("resource_pile")
    t.put("T01", "s_storage1").put("T02", "s_storage1")
    for tile in ("T20", "T21"):
        t.put(tile, "resource_pile")
    for tile in ("T30", "T31", "T32", "T33", "T34", "T35"):
        t.put(tile, "resource_discard")
    start_phase(t, "prepare", 2)
    assert [len(t.zone(s)) for s in SMALL_STORAGE] == [3, 3, 3]
    placed = [p for s in SMALL_STORAGE for p in t.zone(s)]
    assert {"T20", "T21"} <= set(placed)  # the draw pile was used first
    assert sorted(
        placed + list(t.zone("resource_pile")) + list(t.zone("resource_discard"))
    ) == sorted(["T01", "T02", "T20", "T21", "T30", "T31", "T32", "T33", "T34", "T35"])
    assert len(t.zone("resource_pile")) + len(t.zone("resource_discard")) == 1
    assert t.zone("resource_discard") == ()  # the discard became the new pile


def test_phase1_storage_spaces_stay_empty_when_pile_and_discard_are_empty(table):
    t = table
    clear_all(t, SMALL_STORAGE)
    t.clear("resource_pile")
    t.put("T05", "resource_pile")
    t.put("T06", "resource_discard")
    t.put("T07", "s_storage2")
    start_phase(t, "prepare", 2)
    placed = [p for s in SMALL_STORAGE for p in t.zone(s)]
    assert sorted(placed) == ["T05", "T06", "T07"]
    assert t.zone("s_storage2")[0] == "T07"
    assert sum(len(t.zone(s)) for s in SMALL_STORAGE) == 3
    assert t.zone("resource_pile") == () and t.zone("resource_discard") == ()


def test_phase1_dark_windows_discarded_dresses_slide_right_and_fill_from_the_bag(table):
    t = table
    clear_all(t, SMALL_WINDOWS)
    t.clear("dress_bag")
    t.put("D01", "s_window1").put("D02", "s_window3")
    t.put("D03", "s_window5").put("D04", "s_window6")  # dark windows
    bag = ("D20", "D21", "D22", "D23", "D24", "D25")
    for dress in bag:
        t.put(dress, "dress_bag")
    start_phase(t, "prepare", 2)
    assert t.zone("dress_discard") == ("D03", "D04")
    assert t.zone("s_window5") == ("D01",) and t.zone("s_window6") == ("D02",)
    new = [t.zone(w)[0] for w in SMALL_WINDOWS[:4]]
    assert set(new) <= set(bag) and len(set(new)) == 4
    assert len(t.zone("dress_bag")) == 2
    assert t.zone("sliding") == ()


def test_phase1_windows_filled_from_the_right_and_the_bag_refilled_from_discards(table):
    t = table
    clear_all(t, SMALL_WINDOWS)
    t.clear("dress_bag")
    t.put("D01", "s_window2").put("D02", "s_window4")
    t.put("D03", "s_window5").put("D04", "s_window6")
    t.put("D10", "dress_bag")  # the bag's last dress
    start_phase(t, "prepare", 2)
    assert t.zone("s_window6") == ("D02",) and t.zone("s_window5") == ("D01",)
    assert t.zone("s_window4") == ("D10",)  # the rightmost empty window first
    assert sorted(t.zone("s_window3") + t.zone("s_window2")) == ["D03", "D04"]
    assert t.zone("s_window1") == ()  # nothing left: leftmost stays empty
    assert t.zone("dress_bag") == () and t.zone("dress_discard") == ()


def test_phase1_leftmost_windows_empty_when_no_dress_is_left(table):
    t = table
    clear_all(t, SMALL_WINDOWS)
    t.clear("dress_bag")
    t.put("D07", "s_window1").put("D08", "s_window2")
    start_phase(t, "prepare", 2)
    assert [t.zone(w) for w in SMALL_WINDOWS] == [(), (), (), (), ("D07",), ("D08",)]


# ======================================================= phase 2: choose three
def _phase2(t, reserve, discard, others_exact=True):
    """Seat 0 gets this reserve and discard; the others exactly 3 cards (no decision)."""
    for seat in range(3):
        for zone in ("reserve", "hand", "discard"):
            t.clear(zone, seat, to="start_cards")
    for card in reserve:
        t.put(card, "reserve", 0)
    for card in discard:
        t.put(card, "discard", 0)
    if others_exact:
        for seat in (1, 2):
            for design in ("S1", "S2", "S3"):
                t.put(f"{design}-{seat + 1}", "reserve", seat)
    start_phase(t, "choose", 2)
    return t


def test_phase2_choose_3_of_5_rest_stays_in_reserve(table):
    t = _phase2(table, ["S1-1", "S2-1", "S3-1", "S4-1", "S5-1"], [])
    assert [d.player for d in t.game.pending()] == [0]
    assert t.options(0) == ("take S1-1", "take S2-1", "take S3-1", "take S4-1", "take S5-1")
    t.answer("take S4-1")
    assert t.options(0) == ("take S1-1", "take S2-1", "take S3-1", "take S5-1")
    t.answer("take S1-1", "take S5-1")
    assert sorted(t.zone("hand", 0)) == ["S1-1", "S4-1", "S5-1"]
    assert sorted(t.zone("reserve", 0)) == ["S2-1", "S3-1"]
    # the others took their exact 3 without a decision
    assert sorted(t.zone("hand", 1)) == ["S1-2", "S2-2", "S3-2"] and t.zone("reserve", 1) == ()


def test_phase2_more_than_3_in_reserve_discard_untouched(table):
    t = _phase2(table, ["S1-1", "S2-1", "S3-1", "S4-1"], ["E01", "E04"])
    assert t.options(0) == ("take S1-1", "take S2-1", "take S3-1", "take S4-1")
    t.answer("take S2-1", "take S3-1", "take S4-1")
    assert t.zone("hand", 0) == ("S2-1", "S3-1", "S4-1")
    assert t.zone("reserve", 0) == ("S1-1",)
    assert t.zone("discard", 0) == ("E01", "E04")


def test_phase2_exactly_3_in_reserve_taken_without_rebuilding(table):
    t = _phase2(table, ["S1-1", "S3-1", "S5-1"], ["S2-1", "S4-1", "E01"])
    # nobody has a choice to make: phase 3 has begun
    assert all(d.prompt == "play" for d in t.game.pending())
    assert sorted(t.zone("hand", 0)) == ["S1-1", "S3-1", "S5-1"]
    assert t.zone("reserve", 0) == ()
    assert t.zone("discard", 0) == ("S2-1", "S4-1", "E01")


@pytest.mark.parametrize("reserve", [[], ["S1-1"], ["S1-1", "S2-1"]])
def test_phase2_0_to_2_in_reserve_take_them_then_choose_from_the_discard(table, reserve):
    discard = ["S3-1", "S4-1", "S5-1", "E01", "E04"]
    t = _phase2(table, reserve, discard)
    assert t.zone("hand", 0) == tuple(reserve)  # taken at once
    assert t.zone("discard", 0) == ()  # the discard pile became the reserve
    assert t.zone("reserve", 0) == tuple(discard)
    picks = ["E04", "S3-1", "E01"][: 3 - len(reserve)]
    for pick in picks:
        assert t.options(0) == tuple(f"take {c}" for c in t.zone("reserve", 0))
        t.answer(f"take {pick}")
    assert t.zone("hand", 0) == tuple(reserve) + tuple(picks)
    assert sorted(t.zone("reserve", 0)) == sorted(set(discard) - set(picks))
    assert t.game.pending()[0].prompt == "play"


@pytest.mark.parametrize(
    "reserve,discard",
    [(["S1-1"], ["S2-1"]), ([], ["S1-1", "S2-1"]), (["S1-1", "S2-1"], []), ([], [])],
)
def test_phase2_reserve_and_discard_too_small_takes_what_there_is(table, reserve, discard):
    t = _phase2(table, reserve, discard)
    assert t.zone("hand", 0) == tuple(reserve)
    # whatever the rebuilt reserve holds is all taken (a pick between the last cards)
    while t.game.pending() and t.game.pending()[0].prompt == "take":
        assert t.options(0) == tuple(f"take {c}" for c in t.zone("reserve", 0))
        t.answer(t.options(0)[0])
    assert sorted(t.zone("hand", 0)) == sorted(reserve + discard)
    assert t.zone("reserve", 0) == () and t.zone("discard", 0) == ()
    assert all(d.prompt == "play" for d in t.game.pending())


def test_phase2_is_simultaneous(table):
    t = table
    for seat in range(3):
        t.clear("reserve", seat, to="start_cards")
        for design in START_DESIGNS:
            t.put(f"{design}-{seat + 1}", "reserve", seat)
    start_phase(t, "choose", 2)
    assert sorted(d.player for d in t.game.pending()) == [0, 1, 2]
    t.game.apply(2, "take S5-3")
    t.game.apply(0, "take S1-1")
    assert sorted(d.player for d in t.game.pending()) == [0, 1, 2]
    assert t.zone("hand", 2) == ("S5-3",) and t.zone("hand", 0) == ("S1-1",)


# ============================================================ phase 3: actions
def _actions_position(t, hands, start=0, livres=30):
    """Hands as given; a position where every main action is possible for a master."""
    for seat in range(3):
        t.clear("hand", seat, to=f"reserve#{seat}")
        t.set(seat, "livres", livres)
    for seat, cards in hands.items():
        for card in cards:
            t.put(card, "hand", seat)
    clear_all(t, SMALL_WINDOWS)
    t.put("D04", "s_window4")  # 3 yellow silk, cost 3
    for seat in range(3):
        t.put(f"T0{seat + 1}", "tiles", seat)  # 3 yellow bales each
    t.state.variables["start_player"] = Player(start)
    start_phase(t, "actions", 2)
    return t


MASTER = ("favour", "acquire", "sew", "hire", "dismiss", "fund", "no action")
JOURNEYMAN = ("favour", "acquire", "sew", "dismiss", "fund", "no action")
APPRENTICE = ("acquire", "dismiss", "fund", "no action")


@pytest.mark.parametrize(
    "card,expected",
    [
        ("S1-1", MASTER),
        ("S2-1", MASTER),
        ("E02", MASTER),
        ("E05", MASTER),
        ("S3-1", JOURNEYMAN),
        ("E04", JOURNEYMAN),
        ("E06", JOURNEYMAN),
        ("S4-1", APPRENTICE),
        ("S5-1", APPRENTICE),
        ("E01", APPRENTICE),
        ("E03", APPRENTICE),
    ],
)
def test_phase3_who_may_do_which_main_action(table, card, expected):
    t = table
    t.clear("hiring", to="employee_deck")
    for e in ("E07", "E08", "E09", "E10"):
        t.put(e, "hiring")
    t = _actions_position(t, {0: [card]})
    assert t.options(0) == (f"play {card}",)
    t.answer(f"play {card}")
    assert t.options(0) == expected


def test_phase3_turns_from_the_start_player_empty_hands_skipped(table):
    t = _actions_position(table, {0: ["S1-1", "S2-1"], 2: ["S1-3"]}, start=0)
    order = []
    while t.game.pending() and t.game.pending()[0].prompt == "play":
        decision = t.game.pending()[0]
        order.append(decision.player)
        t.answer(decision.options[0], "no action")
    assert order == [0, 2, 0]
    # the round went on to the next one: phase 2 of round 3 is waiting
    assert t.state.counters["round"] == 3
    assert {d.prompt for d in t.game.pending()} == {"take"}


def test_phase3_starts_with_the_start_player_clockwise(table):
    t = _actions_position(table, {0: ["S1-1"], 1: ["S1-2"], 2: ["S1-3"]}, start=1)
    order = []
    while t.game.pending() and t.game.pending()[0].prompt == "play":
        decision = t.game.pending()[0]
        order.append(decision.player)
        t.answer(decision.options[0], "no action")
    assert order == [1, 2, 0]


def test_phase3_played_card_goes_to_the_discard_pile(table):
    t = _actions_position(table, {0: ["S1-1", "S2-1"], 1: ["S1-2"]})
    discard_before = t.zone("discard", 0)
    t.answer("play S2-1")
    assert t.zone("hand", 0) == ("S1-1",)
    assert t.zone("discard", 0) == (*discard_before, "S2-1")
    t.answer("no action")
    assert t.zone("discard", 0) == (*discard_before, "S2-1")
    assert t.game.pending()[0].player == 1


def test_phase3_bonus_offered_after_the_main_action(table):
    t = _actions_position(table, {0: ["S3-1"], 1: ["S1-2"]}, livres=10)
    t.answer("play S3-1", "no action")
    assert t.options(0) == ("bonus", "no bonus")
    t.answer("bonus")  # S3: gain 2 livres
    assert t.get(0, "livres") == 12
    assert t.game.pending()[0].player == 1


def test_phase3_hiring_gives_an_extra_turn_with_the_hired_card(table):
    t = table
    t.clear("hiring", to="employee_deck")
    for e in ("E01", "E03", "E04", "E06"):
        t.put(e, "hiring")
    t = _actions_position(t, {0: ["S1-1"], 1: ["S1-2"]}, livres=11)
    t.answer("play S1-1", "hire")
    assert t.options(0) == ("hire E01", "hire E03", "hire E04", "hire E06")
    t.answer("hire E04")
    assert t.get(0, "livres") == 6
    assert t.zone("hand", 0) == ("E04",)
    assert t.zone("hiring") == ("E01", "E03", "E06")
    t.answer("play S1-2", "no action")  # seat 1's only turn
    assert t.game.pending()[0].player == 0
    assert t.options(0) == ("play E04",)  # hired this round, played this round
    t.answer("play E04")
    assert t.options(0) == JOURNEYMAN
    t.answer("no action")
    assert t.zone("discard", 0)[-2:] == ("S1-1", "E04")


# ============================================================== phase 4: income
def test_phase4_income_rulebook_example(table):
    """George 5; Eva bottom row + 3 dresses = 8; Mike top row with 3 decorations and
    bottom row with 1 dress = 9 (rococo.md section 4, phase 4; Czech book)."""
    t = table
    for seat in range(3):
        t.set(seat, "livres", 0)
    george, eva, mike = 0, 1, 2
    t.own("s_fountain_bottom1", eva)
    t.own("s_hall1_guest1", eva, "D01").own("s_hall2_guest1", eva, "D14")
    t.own("s_hall3_guest1", eva, "D27")
    t.own("s_fountain_top1", mike).own("s_fountain_bottom2", mike).own("s_statue1", mike)
    t.own("s_hall4_guest1", mike, "D02")
    start_phase(t, "income", 3)
    assert [t.get(s, "livres") for s in (george, eva, mike)] == [5, 8, 9]
    assert t.state.counters["round"] == 4


def test_phase4_income_counts_terrace_dresses_and_every_decoration(table):
    t = table
    t.set(0, "livres", 0)
    t.own("s_fountain_top2", 0).own("s_fountain_bottom1", 0)
    t.own("musician_hall2", 0).own("s_fireworks3", 0)  # 4 decorations
    t.own("s_hall5_guest3", 0, "D30").own("s_terrace1", 0, "D31")  # 2 dresses
    start_phase(t, "income", 2)
    assert t.get(0, "livres") == 5 + 4 + 2
