"""Rococo Deluxe differences and the Fancy, Festive and Haute Couture expansions
(rococo.md sections 7, 10, 11, 12), written as overlays in rulesets/rococo/expansions/.

Each test builds a game with the expansions it needs (``Table(expansions=...)``),
arranges an exact position, runs one action, a phase or the final scoring with the
real engine and checks the outcome. Colour ids are the 2013 ones (yellow = Deluxe
blue, green = Deluxe pink, red = Deluxe green, blue = Deluxe orange).

Designed expansion tiles used here (expansions/*.yaml):
  FE1 red lady, 3 red + 1 thread, bonus 2 prestige per lady + gentleman pair;
  FE2 blue coat, 2 blue + 1 green + 1 lace, bonus 1 prestige per decoration;
  FE3 yellow lady, 4 yellow + 1 lace, bonus 1 prestige per yellow dress;
  FE4 green coat, 4 green + 1 thread, bonus 1 prestige per green coat;
  HC1 green coat, master-only, 3 green + 1 thread + 1 lace, bonus Favour + 5 livres;
  HC2 yellow lady, 4 yellow + 1 thread, bonus dismiss a staff card for 10 / 7 / 4;
  HC3 blue coat, 3 blue + 1 lace, bonus 1 free storage tile;
  HC5 the green dress (2013 red), 3 red + 1 thread, 14 livres rented or sold, prestige 0.
"""

from __future__ import annotations

import pytest
from rococo_positions import (
    MASTER_SPACES,
    SMALL_STORAGE,
    SMALL_WINDOWS,
    final_scoring,
    guest_ids,
    start_phase,
    storage,
    windows,
)

from interpreter.agents import RandomAgent
from interpreter.engine import chance
from interpreter.engine.game import Game
from interpreter.engine.view import view
from interpreter.errors import GameError
from interpreter.language.values import Piece, Player
from interpreter.ruleset import load_or_raise

DELUXE = ("deluxe",)
FANCY = ("deluxe", "fancy")
FESTIVE = ("deluxe", "festive")
HAUTE = ("deluxe", "haute_couture")
FESTIVE_HAUTE = ("deluxe", "festive", "haute_couture")

FESTIVE_DRESSES = ("FE1", "FE2", "FE3", "FE4")
FANCY_DRESSES = ("FD1", "FD2", "FD3", "FD4")
FANCY_TILES = ("FT1", "FT2", "FT3", "FT4", "FT5")
NO_REWARD = "s_hall1_guest2"  # an ordinary guest space with no reward


# --------------------------------------------------------------------- helpers
def rococo(expansions=()):
    return load_or_raise("rococo", list(expansions))


@pytest.fixture
def new(make_table):
    """``new(expansions, players=3)``: a Table (conftest.py) of Rococo with these expansions."""

    def build(expansions, players: int = 3):
        return make_table(players, expansions=expansions)

    return build


def tiles(t, seat: int, *ids: str):
    for tile in ids:
        t.put(tile, "tiles", seat)
    return t


def all_guests_taken_but(t, *free, owner=2):
    for s in guest_ids(t):
        if s not in free:
            t.own(s, owner)


def can(t, action: str, seat: int, **args) -> bool:
    text = ", ".join(f"{k}: {k}" for k in args)
    return t.eval(f"can {action}({text})", seat, **{k: Piece(v) for k, v in args.items()})


def pieces_of(ruleset, kind: str) -> set[str]:
    return {pid for pid, piece in ruleset.pieces.items() if piece.kind == kind}


def everywhere(t, zones) -> list[str]:
    return [p for z in zones for p in t.zone(z)]


def sew_in_window6(t, dress: str, card: str, *silk: str, seat: int = 0):
    """Sew ``dress`` from the cheapest window (cost 0) handing in ``silk`` tiles; stop
    at the rent/sell decision."""
    windows(t, s_window6=dress)
    tiles(t, seat, *silk)
    t.act("sew", seat, card=card)
    t.answer(f"sew {dress}", *(f"silk {tile}" for tile in silk))
    return t


def recording_game(expansions, players: int = 3):
    """A new game with deterministic chance; each chance call is recorded with what
    it offered and with the festive-aside zone at that moment."""
    calls: list[tuple[str, tuple[str, ...], tuple[str, ...]]] = []
    holder: list[Game] = []

    def source(key, items, count):
        aside = holder[0].state.zones.get("festive_aside", ())
        calls.append((key, tuple(items), tuple(aside)))
        if count is None:
            return chance.shuffled(7, len(calls), items)
        return chance.picked(7, len(calls), items, count)

    game = Game(
        rococo(expansions),
        [f"P{i + 1}" for i in range(players)],
        seed=7,
        chance_source=source,
        start=False,
    )
    holder.append(game)
    game.start()
    return game, calls


def blank(t):
    for seat in range(len(t.state.players)):
        for counter in ("livres", "thread", "lace", "prestige"):
            t.set(seat, counter, 0)
    return t


# ======================================================== Deluxe differences
def test_deluxe_prestige_is_public(new):
    for expansions, shown in (((), False), (DELUXE, True)):
        t = new(expansions)
        t.game.pause()  # out of phase 2's secret choices: the view is the plain position
        t.set(1, "prestige", 7)
        others = view(t.game, 0)["players"][1]["counters"]
        assert ("prestige" in others) is shown
        if shown:
            assert others["prestige"] == 7
        # a player always sees their own prestige
        assert view(t.game, 1)["players"][1]["counters"]["prestige"] == 7
        # livres are public in both printings
        assert view(t.game, 0)["players"][1]["counters"]["livres"] == 15


def test_deluxe_names_are_labels():
    deluxe, base = rococo(DELUXE), rococo()
    assert [deluxe.label(c) for c in ("yellow", "green", "red", "blue")] == [
        "blue",
        "pink",
        "green",
        "orange",
    ]
    assert [base.label(c) for c in ("yellow", "green", "red", "blue")] == [
        "yellow",
        "green",
        "red",
        "blue",
    ]
    assert deluxe.label("journeyman") == "craftsman"
    assert deluxe.label("livres", "scoring") == "Libras to prestige (1 per 10)"
    assert deluxe.label("livres") == "libras"
    assert base.label("livres", "scoring") == "livres"
    # ids keep the 2013 names: only what people read follows the edition
    assert deluxe.pieces["D01"].properties["colour"] == "yellow"


def test_deluxe_20_ownership_markers_per_player(new):
    assert new(DELUXE).eval("markers_per_player") == 20
    assert new(()).eval("markers_per_player") == 16


def test_deluxe_one_player_game_refused_with_the_du_barry_note():
    with pytest.raises(GameError, match="Madame du Barry") as refused:
        Game(rococo(DELUXE), ["A"])
    assert "not 1" in str(refused.value)
    for expansions in (FANCY, FESTIVE, HAUTE, FESTIVE_HAUTE):
        with pytest.raises(GameError, match="Madame du Barry"):
            Game(rococo(expansions), ["A"])
    with pytest.raises(GameError, match="not 6"):
        Game(rococo(DELUXE), [f"P{i}" for i in range(6)])


NOTE = "the 1-player game against Madame du Barry is the expansion `solo`: add --with solo"


@pytest.mark.parametrize(
    "expansions, count, advice",
    [
        ((), 1, None),  # the 2013 game has no solo mode
        ((), 6, None),
        (DELUXE, 1, "add --with solo"),
        (DELUXE, 6, None),
        (("deluxe", "jewelry_box"), 1, "add --with solo"),
        (("deluxe", "solo"), 6, None),
        (("deluxe", "jewelry_box", "solo"), 6, None),
    ],
)
def test_a_refused_player_count_gets_only_advice_that_helps(expansions, count, advice):
    # issue 47: `--players 6 --with deluxe --with solo` advised "add --with solo"
    ruleset = rococo(expansions)
    with pytest.raises(GameError, match=f"not {count}") as refused:
        Game(ruleset, [f"P{i}" for i in range(count)])
    message = str(refused.value)
    if advice is None:
        assert "--with" not in message and "(" not in message
    else:
        assert message.endswith(f"{advice})")
    # what `rules explain` shows: the advice only while 1 player is refused
    shown = ruleset.players_advice()
    assert shown == ("" if "solo" in expansions or not expansions else f"1 player: {NOTE}")


@pytest.mark.parametrize(
    "players,prefix,windows_count", [(2, "s_", 6), (3, "s_", 6), (4, "l_", 8), (5, "l_", 8)]
)
def test_deluxe_2_to_5_players_play(new, players, prefix, windows_count):
    t = new(DELUXE, players)
    window_ids = t.game.tables.group_members["window"]
    assert len(window_ids) == windows_count and all(w.startswith(prefix) for w in window_ids)
    assert all(len(t.zone(w)) == 1 for w in window_ids)
    assert t.state.counters["round"] == 1
    # phase 2 of round 1 offers every player their reserve
    for seat in range(players):
        assert t.options(seat) == tuple(f"take {p}" for p in t.zone("reserve", seat))


# ===================================================================== Fancy
def test_fancy_dresses_and_tiles_join_the_bags_at_setup():
    game, calls = recording_game(FANCY)
    first_dress_draw = next(c for c in calls if c[0] == "draw dress_bag")
    first_tile_draw = next(c for c in calls if c[0] == "draw resource_pile")
    assert set(FANCY_DRESSES) <= set(first_dress_draw[1])
    assert len(first_dress_draw[1]) == 42 + 4
    assert set(FANCY_TILES) <= set(first_tile_draw[1])
    assert len(first_tile_draw[1]) == 48 + 5
    zones = game.state.zones
    dresses = [p for w in SMALL_WINDOWS for p in zones.get(w, ())] + list(zones["dress_bag"])
    resources = [p for s in SMALL_STORAGE for p in zones.get(s, ())] + list(zones["resource_pile"])
    assert sorted(dresses) == sorted(pieces_of(game.ruleset, "dress"))
    assert set(FANCY_DRESSES) <= set(dresses) and len(dresses) == 46
    assert sorted(resources) == sorted(pieces_of(game.ruleset, "resource"))
    assert set(FANCY_TILES) <= set(resources) and len(resources) == 53


def test_fancy_absent_without_the_expansion(new):
    for expansions in ((), DELUXE, FESTIVE):
        ruleset = rococo(expansions)
        assert not set(FANCY_DRESSES + FANCY_TILES) & set(ruleset.pieces)
    t = new(DELUXE)
    assert len(t.zone("dress_bag")) + 6 == 42
    assert len(t.zone("resource_pile")) + 9 == 48


def test_fancy_dress_is_sewn_like_any_other(new):
    t = new(FANCY)
    sew_in_window6(t, "FD4", "S3-1", "T41", "T44", seat=0)  # 5 blue + thread + lace
    assert t.options(0) == ("rent", "sell")
    t.answer("sell")
    assert t.get(0, "livres") == 15 + 29
    assert (t.get(0, "thread"), t.get(0, "lace")) == (0, 0)


# =================================================================== Festive
def test_festive_dresses_aside_at_setup_not_in_the_bag():
    game, calls = recording_game(FESTIVE)
    # every chance call of setup and round 1's phase 1 saw them aside ...
    dress_draws = [c for c in calls if c[0] == "draw dress_bag"]
    assert dress_draws
    for _, offered, aside in dress_draws:
        assert aside == FESTIVE_DRESSES
        assert not set(FESTIVE_DRESSES) & set(offered)
    assert len(dress_draws[0][1]) == 42
    # ... and none of them went to a window in round 1
    zones = game.state.zones
    assert not set(FESTIVE_DRESSES) & {p for w in SMALL_WINDOWS for p in zones.get(w, ())}


def test_festive_dresses_join_the_bag_when_round_1_phase_1_is_over(new):
    t = new(FESTIVE)
    assert t.zone("festive_aside") == ()
    assert set(FESTIVE_DRESSES) <= set(t.zone("dress_bag"))
    assert len(t.zone("dress_bag")) == 42 + 4 - 6
    # exact replay of phase 1 of round 1: windows are filled before they join
    windows(t)
    t.clear("dress_bag")
    bag = ("D01", "D02", "D03", "D04", "D05", "D06", "D07", "D08", "D09", "D10")
    for dress in bag:
        t.put(dress, "dress_bag")
    for dress in FESTIVE_DRESSES:
        t.put(dress, "festive_aside")
    start_phase(t, "prepare", 1)
    in_windows = everywhere(t, SMALL_WINDOWS)
    assert len(in_windows) == 6 and set(in_windows) <= set(bag)
    assert t.zone("festive_aside") == ()
    assert sorted(t.zone("dress_bag")) == sorted(set(bag) - set(in_windows)) + list(FESTIVE_DRESSES)


def test_festive_round_2_phase_1_moves_nothing_again(new):
    t = new(FESTIVE)
    # festive dresses somewhere else stay where they are ...
    t.put("FE1", "dress_discard")
    t.put("FE2", "s_hall2_guest3")
    # ... and one set aside (an arranged position) is not added from round 2 on
    t.put("FE3", "festive_aside").put("FE4", "festive_aside")
    bag_before = [d for d in t.zone("dress_bag") if d not in FESTIVE_DRESSES]
    windows(t)
    start_phase(t, "prepare", 2)
    assert t.zone("festive_aside") == ("FE3", "FE4")
    assert t.zone("dress_discard") == ("FE1",)
    assert "FE2" in t.zone("s_hall2_guest3")
    assert not set(FESTIVE_DRESSES) & set(everywhere(t, SMALL_WINDOWS))
    assert not set(FESTIVE_DRESSES) & set(t.zone("dress_bag"))
    assert len(t.zone("dress_bag")) == len(bag_before) - 6
    for round_no in (3, 7):
        start_phase(t, "prepare", round_no)
        assert t.zone("festive_aside") == ("FE3", "FE4")


def test_festive_dress_cannot_be_sold(new):
    t = new(FESTIVE)
    sew_in_window6(t, "FE1", "S3-1", "T29")
    assert t.options(0) == ("rent",)
    t.answer("rent")
    assert not any(o.startswith("sell") for o in t.options(0))
    assert t.options(0) == tuple(f"rent {s}" for s in guest_ids(t) if s not in MASTER_SPACES)
    # sell_dress itself is refused, with the festive message
    assert not can(t, "sell_dress", 0, dress="FE2")
    with pytest.raises(GameError, match="festive dresses are never sold"):
        t.act("sell_dress", 0, dress=Piece("FE2"))
    assert t.get(0, "livres") == 15
    # place_dress offers only renting
    t.act("place_dress", 0, card="S1-1", dress=Piece("FE3"))
    assert t.options(0) == ("rent",)


def test_festive_bonus_before_placing_the_dress_itself_not_counted(new):
    """FE3: 1 prestige per yellow dress; FE3 is yellow itself. With 2 yellow dresses on
    the board the bonus is exactly 2, gained before the dress is turned and placed."""
    t = new(FESTIVE)
    t.own("s_hall1_guest1", 0, "D01").own("s_hall2_guest1", 0, "D02")  # 2 yellow
    t.own("s_hall3_guest1", 1, "D03")  # another player's yellow dress
    t.own("s_hall4_guest1", 0, "D27")  # a red dress
    sew_in_window6(t, "FE3", "S3-1", "T09", "T10")
    # the bonus is already gained; the dress is not on the board yet
    assert t.get(0, "prestige") == 2
    assert t.options(0) == ("rent",)
    assert "FE3" not in t.eval("dresses_of(me)", 0)
    t.answer("rent", f"rent {NO_REWARD}")
    assert t.zone(NO_REWARD) == ("FE3",)
    assert t.state.owners[NO_REWARD] == 0
    assert t.get(0, "prestige") == 2
    assert t.eval("dresses_of_colour(me, 'yellow')", 0) == 3
    assert (t.get(0, "lace"), t.get(0, "livres")) == (0, 15)
    assert not t.game.pending()


@pytest.mark.parametrize(
    "ladies,gentlemen,prestige",
    [
        (["D01"], ["D14"], 2),  # 1 pair; FE1 (a lady) would make no new pair anyway
        ([], ["D14", "D15"], 0),  # FE1 itself would complete a pair: not counted
        (["D01", "D27"], ["D14", "D37"], 4),
        (["D01", "D02", "D27"], ["D14"], 2),
    ],
)
def test_festive_fe1_2_prestige_per_lady_gentleman_pair(new, ladies, gentlemen, prestige):
    t = new(FESTIVE)
    spaces = iter(["s_hall2_guest3", "s_hall3_guest3", "s_hall4_guest3", "s_hall5_guest3"])
    for dress in ladies + gentlemen:
        t.own(next(spaces), 0, dress)
    t.own("s_hall1_guest1", 1, "D16")  # another player's coat does not pair
    sew_in_window6(t, "FE1", "S3-1", "T29")
    assert t.get(0, "prestige") == prestige
    t.answer("rent", f"rent {NO_REWARD}")
    assert t.get(0, "prestige") == prestige


def test_festive_fe2_1_prestige_per_decoration_not_the_all_halls_marker(new):
    t = new(FESTIVE)
    for space in ("s_statue1", "musician_hall3", "s_fountain_top1", "s_fireworks2"):
        t.own(space, 0)
    t.own("all_halls1", 0)  # not a decoration
    t.own("s_statue2", 1)  # not theirs
    sew_in_window6(t, "FE2", "S3-1", "T45", "T28")
    assert t.get(0, "prestige") == 4
    t.answer("rent", f"rent {NO_REWARD}")
    assert t.get(0, "prestige") == 4


def test_festive_fe3_1_prestige_per_yellow_dress(new):
    t = new(FESTIVE)
    t.own("s_hall2_guest3", 0, "D01").own("s_hall3_guest3", 0, "D02")
    t.own("s_terrace1", 0, "D04")  # terrace dresses are on the board too
    t.own("s_hall4_guest3", 0, "D14")  # green coat: no
    sew_in_window6(t, "FE3", "S3-1", "T09", "T10")
    assert t.get(0, "prestige") == 3


def test_festive_fe4_1_prestige_per_green_coat_itself_not_counted(new):
    t = new(FESTIVE)
    t.own("s_hall2_guest3", 0, "D14").own("s_hall3_guest3", 0, "D15")  # 2 green coats
    t.own("s_hall4_guest3", 0, "D01")  # yellow dress: no
    t.own("s_hall5_guest3", 1, "D16")  # not theirs
    sew_in_window6(t, "FE4", "S3-1", "T15", "T28")
    assert t.get(0, "prestige") == 2
    t.answer("rent", f"rent {NO_REWARD}")
    assert t.get(0, "prestige") == 2
    assert t.eval("dresses_of_colour(me, 'green')", 0) == 3


def test_festive_bonus_with_nothing_on_the_board_is_zero(new):
    t = new(FESTIVE)
    sew_in_window6(t, "FE3", "S3-1", "T09", "T10")
    assert t.get(0, "prestige") == 0
    assert t.options(0) == ("rent",)


def test_festive_dress_cannot_be_sewn_without_a_free_guest_space(new):
    t = new(FESTIVE)
    windows(t, s_window6="FE1")
    tiles(t, 0, "T29")
    all_guests_taken_but(t)
    assert not can(t, "sew_dress", 0, dress="FE1", card="S1-1")
    with pytest.raises(GameError, match="festive dress: it is never sold, and no guest space"):
        t.act("sew_dress", 0, card="S1-1", dress=Piece("FE1"))
    assert not can(t, "sew", 0, card="S1-1")
    # an ordinary dress beside it can still be sewn (and must be sold)
    windows(t, s_window5="FE1", s_window6="D27")
    t.put("T34", "tiles", 0)
    t.act("sew", 0, card="S1-1")
    assert t.options(0) == ("sew D27",)
    assert t.zone("tiles", 0) == ("T29", "T34") and t.get(0, "prestige") == 0


def test_festive_free_space_must_be_one_the_sewer_may_use(new):
    t = new(FESTIVE)
    windows(t, s_window6="FE1")
    tiles(t, 0, "T29")
    all_guests_taken_but(t, "s_hall3_guest2")  # only a master space is free
    assert not can(t, "sew_dress", 0, dress="FE1", card="S3-1")  # journeyman
    with pytest.raises(GameError, match="festive dress"):
        t.act("sew_dress", 0, card="S3-1", dress=Piece("FE1"))
    assert can(t, "sew_dress", 0, dress="FE1", card="S1-1")  # master
    t.act("sew", 0, card="S1-1")
    t.answer("sew FE1", "silk T29", "rent")
    assert t.options(0) == ("rent s_hall3_guest2",)


# ============================================================= Haute Couture
@pytest.mark.parametrize(
    "dress,card,silk",
    [("HC1", "S1-1", ("T15",)), ("HC2", "S3-1", ("T09", "T10")), ("HC3", "S3-1", ("T41",))],
)
def test_haute_couture_dresses_can_only_be_rented(new, dress, card, silk):
    t = new(HAUTE)
    storage(t)  # so HC3's free tile offers nothing
    sew_in_window6(t, dress, card, *silk)
    assert t.options(0) == ("rent",)
    assert not can(t, "sell_dress", 0, dress=dress)
    with pytest.raises(GameError, match="Haute Couture dress: it can only be rented"):
        t.act("sell_dress", 0, dress=Piece(dress))


def test_haute_couture_in_the_bag_at_setup():
    game, calls = recording_game(HAUTE)
    offered = next(c for c in calls if c[0] == "draw dress_bag")[1]
    assert {"HC1", "HC2", "HC3", "HC5"} <= set(offered) and len(offered) == 42 + 4
    assert not {"HC4", "HC6"} & set(game.ruleset.pieces)  # they need the Jewelry Box


@pytest.mark.parametrize("choice", ["rent", "sell"])
def test_haute_couture_green_dress_14_livres_rented_or_sold(new, choice):
    t = new(HAUTE)
    sew_in_window6(t, "HC5", "S3-1", "T29")
    assert t.options(0) == ("rent", "sell")
    assert can(t, "sell_dress", 0, dress="HC5")
    t.answer(choice)
    if choice == "rent":
        t.answer(f"rent {NO_REWARD}")
        assert t.zone(NO_REWARD) == ("HC5",) and t.state.owners[NO_REWARD] == 0
    else:
        assert t.zone("dress_discard") == ("HC5",)
    assert not t.game.pending()
    assert t.get(0, "livres") == 15 + 14
    assert t.get(0, "thread") == 0


def test_haute_couture_green_dress_rented_on_a_livres_space_adds_the_reward(new):
    t = new(HAUTE)
    sew_in_window6(t, "HC5", "S3-1", "T29")
    t.answer("rent", "rent s_hall1_guest1")  # 2 livres reward
    assert t.get(0, "livres") == 15 + 2 + 14


def test_haute_couture_green_dress_no_prestige_but_counts_in_hall_majority(new):
    t = blank(new(HAUTE))
    t.own("s_hall2_guest1", 0, "HC5").own("s_hall2_guest3", 0, "D01")
    t.own("s_hall2_guest4", 1, "D14")
    assert t.eval("halls_present(me)", 0) == 1
    result = final_scoring(t)
    breakdown = result.breakdown
    # hall 2 (small side 5/2): seat 0 has 2 dresses (HC5 counts), seat 1 has 1
    assert breakdown["P1"]["halls"] == 5 and breakdown["P2"]["halls"] == 2
    # markers: D01's 2 prestige; HC5 scores 0 for its marker
    assert breakdown["P1"]["markers"] == 2 and breakdown["P2"]["markers"] == 2


def test_haute_couture_green_dress_alone_wins_its_hall(new):
    t = blank(new(HAUTE))
    t.own("s_hall5_guest1", 0, "HC5")
    result = final_scoring(t)
    assert result.breakdown["P1"]["halls"] == 3  # hall 5 first on the small side
    assert result.breakdown["P1"]["markers"] == 0
    assert result.scores["P1"] == 3


def test_haute_couture_hc1_takes_the_favour_card_and_5_livres(new):
    t = new(HAUTE)
    sew_in_window6(t, "HC1", "S1-1", "T15")  # master-only
    t.answer("rent", f"rent {NO_REWARD}")
    assert not t.game.pending()
    assert t.get(0, "livres") == 15 + 5
    assert t.zone("favour", 0) == ("favour_card",) and t.zone("favour_space") == ()
    assert int(t.state.variables["favour_taker"]) == 0
    assert (t.get(0, "thread"), t.get(0, "lace")) == (0, 0)


def test_haute_couture_hc1_favour_already_taken_still_5_livres(new):
    t = new(HAUTE)
    t.put("favour_card", "favour", 2)
    t.state.variables["favour_taker"] = Player(2)
    sew_in_window6(t, "HC1", "S1-1", "T15")
    t.answer("rent", f"rent {NO_REWARD}")
    assert t.get(0, "livres") == 15 + 5
    assert t.zone("favour", 2) == ("favour_card",) and t.zone("favour", 0) == ()
    assert int(t.state.variables["favour_taker"]) == 2


def test_haute_couture_hc1_taker_starts_the_next_round(new):
    t = new(HAUTE)
    sew_in_window6(t, "HC1", "S1-1", "T15", seat=1)
    t.answer("rent", f"rent {NO_REWARD}")
    start_phase(t, "prepare", 2)
    assert int(t.state.variables["start_player"]) == 1
    assert t.zone("favour_space") == ("favour_card",)


@pytest.mark.parametrize("dismissed,money", [("S1-1", 10), ("S3-1", 7), ("S4-1", 4), ("E02", 10)])
def test_haute_couture_hc2_dismiss_any_staff_card_for_its_money(new, dismissed, money):
    t = new(HAUTE)
    t.put("E02", "discard", 0)  # a hired master with a bonus: not used
    sew_in_window6(t, "HC2", "S3-1", "T09", "T10")
    t.answer("rent", f"rent {NO_REWARD}")
    # any card of the staff (reserve + hand + discard), or none
    assert t.options(0) == (
        "dismiss S1-1",
        "dismiss S2-1",
        "dismiss S3-1",
        "dismiss S4-1",
        "dismiss S5-1",
        "dismiss E02",
        "pass",
    )
    t.answer(f"dismiss {dismissed}")
    assert not t.game.pending()
    assert t.get(0, "livres") == 15 + money
    assert dismissed in t.zone("box")
    assert t.eval("staff_size(me)", 0) == 5
    assert t.zone("hand", 0) == () and (t.get(0, "thread"), t.get(0, "lace")) == (0, 1)


def test_haute_couture_hc2_dismiss_is_optional(new):
    t = new(HAUTE)
    sew_in_window6(t, "HC2", "S3-1", "T09", "T10")
    t.answer("rent", f"rent {NO_REWARD}")
    assert t.options(0)[-1] == "pass"
    t.answer("pass")
    assert not t.game.pending()
    assert t.get(0, "livres") == 15 and t.eval("staff_size(me)", 0) == 5


def test_haute_couture_hc2_no_dismiss_with_a_staff_of_4(new):
    t = new(HAUTE)
    t.put("S5-1", "start_cards")  # staff 4
    assert t.eval("staff_size(me)", 0) == 4
    sew_in_window6(t, "HC2", "S3-1", "T09", "T10")
    t.answer("rent", f"rent {NO_REWARD}")
    assert not t.game.pending()  # no choice offered
    assert t.get(0, "livres") == 15 and t.eval("staff_size(me)", 0) == 4
    assert t.zone(NO_REWARD) == ("HC2",)


@pytest.mark.parametrize("answer,kept,lace", [("keep", ("T24",), 0), ("convert", (), 0)])
def test_haute_couture_hc3_a_free_storage_tile_kept_or_converted(new, answer, kept, lace):
    t = new(HAUTE)
    storage(t, ["T15", "T16", "T17"], ["T24"], ["T44"])
    t.set(0, "livres", 0)
    sew_in_window6(t, "HC3", "S3-1", "T41")
    t.answer("rent", f"rent {NO_REWARD}")
    # any tile, free, even with 0 livres
    assert t.options(0) == ("take T15", "take T16", "take T17", "take T24", "take T44")
    t.answer("take T24")
    assert t.options(0) == ("keep", "convert")
    t.answer(answer)
    assert not t.game.pending()
    assert t.get(0, "livres") == 0
    assert t.zone("tiles", 0) == kept
    assert t.get(0, "thread") == (1 if answer == "keep" else 2)  # T24 shows thread
    assert t.get(0, "lace") == lace
    assert t.zone("s_storage2") == ()


def test_haute_couture_hc3_with_an_empty_storage_gives_nothing(new):
    t = new(HAUTE)
    storage(t)
    t.set(0, "lace", 1)  # FE3 took the first one
    sew_in_window6(t, "HC3", "S3-1", "T41")
    t.answer("rent", f"rent {NO_REWARD}")
    assert not t.game.pending()
    assert t.zone("tiles", 0) == () and t.get(0, "livres") == 15


def test_haute_couture_hc3_on_a_tile_space_gives_two_tiles(new):
    t = new(HAUTE)
    storage(t, ["T15", "T16"], ["T24"])
    sew_in_window6(t, "HC3", "S3-1", "T41")
    t.answer("rent", "rent s_hall1_guest5")  # the space's tile reward first
    t.answer("take T15", "keep")
    assert t.options(0) == ("take T16", "take T24")  # then the dress's bonus
    t.answer("take T24", "keep")
    assert t.zone("tiles", 0) == ("T15", "T24")
    assert t.get(0, "livres") == 15


@pytest.mark.parametrize(
    "dress,silk",
    [("HC2", ("T09", "T10")), ("HC3", ("T41",)), ("HC5", ("T29",))],
)
def test_haute_couture_cannot_be_sewn_without_a_free_guest_space_for_the_card(new, dress, silk):
    t = new(HAUTE)
    windows(t, s_window6=dress)
    tiles(t, 0, *silk)
    all_guests_taken_but(t, *MASTER_SPACES)  # only master spaces are free
    assert not can(t, "sew_dress", 0, dress=dress, card="S3-1")  # a journeyman
    with pytest.raises(GameError, match="Haute Couture dress: it cannot be sewn"):
        t.act("sew_dress", 0, card="S3-1", dress=Piece(dress))
    assert not can(t, "sew", 0, card="S3-1")
    assert can(t, "sew_dress", 0, dress=dress, card="S1-1")  # a master may
    all_guests_taken_but(t)  # nothing free at all
    assert not can(t, "sew_dress", 0, dress=dress, card="S1-1")
    # the green dress is sellable, yet still cannot be sewn
    assert t.get(0, "livres") == 15 and t.zone("tiles", 0) == silk


def test_haute_couture_master_only_hc1_needs_a_free_space_too(new):
    t = new(HAUTE)
    windows(t, s_window6="HC1")
    tiles(t, 0, "T15")
    all_guests_taken_but(t)
    with pytest.raises(GameError, match="Haute Couture dress: it cannot be sewn"):
        t.act("sew_dress", 0, card="S1-1", dress=Piece("HC1"))
    t.state.owners.pop("s_hall4_guest2")  # a master space: fine for a master
    t.act("sew", 0, card="S1-1")
    t.answer("sew HC1", "silk T15", "rent")
    assert t.options(0) == ("rent s_hall4_guest2",)


def test_haute_couture_ordinary_dress_still_sold_when_no_space_is_free(new):
    t = new(HAUTE)
    windows(t, s_window5="HC5", s_window6="D27")
    tiles(t, 0, "T29", "T34")
    all_guests_taken_but(t)
    t.act("sew", 0, card="S1-1")
    assert t.options(0) == ("sew D27",)
    t.answer("sew D27", "silk T34")
    assert t.options(0) == ("sell",)


# =============================================================== composition
def test_festive_and_haute_couture_together_neither_sellable(new):
    t = new(FESTIVE_HAUTE)
    with pytest.raises(GameError, match="festive dresses are never sold"):
        t.act("sell_dress", 0, dress=Piece("FE1"))
    with pytest.raises(GameError, match="Haute Couture dress: it can only be rented"):
        t.act("sell_dress", 0, dress=Piece("HC2"))
    assert can(t, "sell_dress", 0, dress="HC5")
    assert can(t, "sell_dress", 0, dress="D01")
    # a festive dress: its bonus, then rent only
    t.own("s_hall2_guest3", 0, "D01")
    sew_in_window6(t, "FE3", "S3-1", "T09", "T10")
    assert t.get(0, "prestige") == 1
    assert t.options(0) == ("rent",)
    t.answer("rent", f"rent {NO_REWARD}")
    # an HC dress in the same game: rent only, then its bonus
    storage(t)
    t.set(0, "lace", 1)  # FE3 took the first one
    sew_in_window6(t, "HC3", "S3-1", "T41")
    assert t.options(0) == ("rent",)
    t.answer("rent", "rent s_hall3_guest3")
    assert not t.game.pending()
    assert t.zone(NO_REWARD) == ("FE3",) and t.zone("s_hall3_guest3") == ("HC3",)


def test_festive_and_haute_couture_together_both_need_a_free_space(new):
    t = new(FESTIVE_HAUTE)
    windows(t, s_window4="FE1", s_window5="HC5", s_window6="D27")
    tiles(t, 0, "T29", "T30", "T34")
    t.set(0, "thread", 2).set(0, "livres", 20)
    all_guests_taken_but(t)
    with pytest.raises(GameError, match="festive dress"):
        t.act("sew_dress", 0, card="S1-1", dress=Piece("FE1"))
    with pytest.raises(GameError, match="Haute Couture dress"):
        t.act("sew_dress", 0, card="S1-1", dress=Piece("HC5"))
    t.act("sew", 0, card="S1-1")
    assert t.options(0) == ("sew D27",)
    # with a space free both are offered
    t.clear(NO_REWARD)
    t.state.owners.pop(NO_REWARD)
    t.act("sew", 0, card="S1-1")
    assert t.options(0) == ("sew FE1", "sew HC5", "sew D27")


@pytest.mark.parametrize("players,seed", [(2, 0), (3, 1), (4, 2), (5, 3)])
def test_all_four_overlays_together_random_games_reach_the_end(players, seed):
    """Deluxe, Fancy, Festive and Haute Couture applied at once: random games run to
    the end (no decision without options, e.g. a festive or HC dress with no space),
    every component stays in exactly one place and the festive dresses left the side."""
    ruleset = rococo(("deluxe", "fancy", "festive", "haute_couture"))
    game = Game(ruleset, [f"P{i + 1}" for i in range(players)], seed=seed)
    agents = [RandomAgent(s, seed) for s in range(players)]
    while not game.is_over():
        decision = game.pending()[0]
        assert decision.options
        game.apply(decision.player, agents[decision.player].choose(game, decision))
    zones = game.state.zones
    placed = [p for items in zones.values() for p in items]
    assert sorted(placed) == sorted(ruleset.pieces)
    assert zones.get("festive_aside", ()) == ()
    assert len(game.result().scores) == players
