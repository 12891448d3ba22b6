"""Hand-written plain-Python twins of Rococo's hottest compiled checks and of one
scoring step: the yardstick of the interpretive overhead (issue 13).

Each twin is a *literal* translation of the ruleset's YAML (rulesets/rococo/actions.yaml,
functions.yaml, scoring.yaml): the same loops in the same order, the same short
circuits, the same helper recomputed where the rules recompute it (``silk_of``,
``hall_key``), reading the same ``State`` (counters dict, zone tuples, owners). Only
what is static for a game (a group's spaces, a space's price, a component's
properties) is looked up in a ``Board`` made once, as a hand-written engine would keep
it. So the ratio compiled / twin measures what interpreting costs, not a better
algorithm: a code generator that reached the twins would remove all of it.

A check's twin returns the index of the first unmet requirement of the action (in the
order of its `requires`), or None when the action is allowed; the compiled check's
message names the same requirement. Game knowledge belongs here, never in
``interpreter/``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

SILK_COLOURS = ("yellow", "green", "red", "blue")


class Board:
    """What is static for one game: read once from the game's tables."""

    def __init__(self, tables: Any):
        members = tables.group_members
        constants = tables.constants
        self.player_count: int = tables.player_count
        self.piece_props: dict[str, dict[str, Any]] = tables.piece_props
        self.zone_props: dict[str, dict[str, Any]] = tables.zone_props
        self.zone_group: dict[str, str] = tables.zone_group
        self.zone_seat: dict[str, int] = tables.zone_seat
        self.capacity: dict[str, int] = tables.zone_capacity
        self.claimable: set[str] = tables.claimable
        self.spaces: dict[str, Any] = tables.spaces
        self.window: tuple[str, ...] = members["window"]
        self.storage: tuple[str, ...] = members["storage"]
        self.guest: tuple[str, ...] = members["guest"]
        self.musician: tuple[str, ...] = members["musician"]
        self.fountain_top: tuple[str, ...] = members["fountain_top"]
        self.fountain_bottom: tuple[str, ...] = members["fountain_bottom"]
        self.decoration_spaces: tuple[str, ...] = tuple(
            s for group in constants["decoration_groups"] for s in members[group]
        )
        self.main_types: dict[str, Any] = constants["main_action_types"]
        self.tile_price: dict[str, int] = constants["tile_price"]
        self.discount_floor: int = constants["discount_floor"]
        self.halls: tuple[int, ...] = tuple(constants["halls"])
        self.hall_majority: dict[str, Any] = constants["hall_majority"]
        self.places: int = constants["majority_places"][str(tables.player_count)]
        seats = range(tables.seats)
        self.livres = tuple(f"livres#{p}" for p in seats)
        self.thread = tuple(f"thread#{p}" for p in seats)
        self.lace = tuple(f"lace#{p}" for p in seats)
        self.prestige = tuple(f"prestige#{p}" for p in seats)
        self.tiles = tuple(f"tiles#{p}" for p in seats)


# ------------------------------------------------------------------ helpers
def _owner(board: Board, state: Any, space: str) -> int | None:
    seat = state.owners.get(space)
    return board.zone_seat.get(space) if seat is None else seat


def _free(board: Board, state: Any, space: str) -> bool:
    if space in board.claimable and space in state.owners:
        return False
    capacity = board.capacity.get(space, 0)
    if space in board.spaces and capacity == 0:
        return True
    return capacity == 0 or len(state.zones.get(space, ())) < capacity


def _may_do_main(board: Board, action: str, card: str) -> bool:
    return board.piece_props[card]["type"] in board.main_types[action]


def _silk_of(board: Board, tiles: tuple[str, ...], colour: str) -> int:
    props = board.piece_props
    return sum(props[t]["silk"].get(colour, 0) for t in tiles)


def _silk_deficit(board: Board, tiles: tuple[str, ...], silk: dict, colour: str) -> int:
    return max(0, silk.get(colour, 0) - _silk_of(board, tiles, colour))


def _silk_coverable(board: Board, tiles: tuple[str, ...], silk: dict, colours, discount) -> bool:
    if all(_silk_deficit(board, tiles, silk, x) == 0 for x in SILK_COLOURS):
        return True
    for c in colours:
        if silk.get(c, 0) > 0 and all(
            _silk_deficit(board, tiles, silk, x) <= (discount if x == c else 0)
            for x in SILK_COLOURS
        ):
            return True
    return False


# ------------------------------------------------------------------- checks
def sew_dress(board: Board, state: Any, me: int, args: dict[str, Any]) -> int | None:
    """`sew_dress`: master-only, sewing cost, thread, lace, silk on the kept tiles."""
    dress, card = args["dress"], args["card"]
    props = board.piece_props[dress]
    if props["master_only"] and not (
        args.get("master_only_ok", True) and board.piece_props[card]["type"] == "master"
    ):
        return 0
    counters = state.counters
    if board.zone_props[state.where[dress]]["cost"] > counters[board.livres[me]]:
        return 1
    if props["thread"] > counters[board.thread[me]]:
        return 2
    if props["lace"] > counters[board.lace[me]]:
        return 3
    tiles = state.zones.get(board.tiles[me], ())
    if not _silk_coverable(
        board, tiles, props["silk"], args.get("colours", ()), args.get("discount", 0)
    ):
        return 4
    return None


def sew(board: Board, state: Any, me: int, args: dict[str, Any]) -> int | None:
    """`sew`: may the card sew, is a dress in a window, one it may sew, one paid for."""
    card = args["card"]
    if args.get("main", False) and not _may_do_main(board, "sew", card):
        return 0
    zones = state.zones
    dresses = [d for w in board.window for d in zones.get(w, ())]
    if not dresses:
        return 1
    master_only_ok = args.get("master_only_ok", True)
    props = board.piece_props
    if not any(
        not props[d]["master_only"] or (master_only_ok and props[card]["type"] == "master")
        for d in dresses
    ):
        return 2
    given = {
        "card": card,
        "colours": args.get("colours", ()),
        "discount": args.get("discount", 0),
        "master_only_ok": master_only_ok,
    }
    if not any(sew_dress(board, state, me, {"dress": d, **given}) is None for d in dresses):
        return 3
    return None


def fund_space(board: Board, state: Any, me: int, args: dict[str, Any]) -> int | None:
    """`fund_space`: free, at most 1 marker per fountain row, affordable."""
    space = args["space"]
    if not _free(board, state, space):
        return 0
    group = board.zone_group.get(space)
    if (
        group == "fountain_top" and any(_owner(board, state, f) == me for f in board.fountain_top)
    ) or (
        group == "fountain_bottom"
        and any(_owner(board, state, f) == me for f in board.fountain_bottom)
    ):
        return 1
    price = board.zone_props[space]["price"]
    if (
        max(board.discount_floor, price - args.get("discount", 0))
        > state.counters[board.livres[me]]
    ):
        return 2
    return None


def fund(board: Board, state: Any, me: int, args: dict[str, Any]) -> int | None:
    """`fund`: may the card fund, is a decoration space free, is one fundable."""
    card = args["card"]
    if args.get("main", False) and not _may_do_main(board, "fund", card):
        return 0
    spaces = board.decoration_spaces
    if not any(_free(board, state, s) for s in spaces):
        return 1
    discount = args.get("discount", 0)
    if not any(
        fund_space(board, state, me, {"space": s, "discount": discount}) is None for s in spaces
    ):
        return 2
    return None


def acquire(board: Board, state: Any, me: int, args: dict[str, Any]) -> int | None:
    """`acquire`: may the card acquire, is the storage empty, is a tile affordable."""
    card = args["card"]
    if args.get("main", False) and not _may_do_main(board, "acquire", card):
        return 0
    zones = state.zones
    tiles = [t for s in board.storage for t in zones.get(s, ())]
    if not tiles:
        return 1
    free = args.get("free", False)
    livres = state.counters[board.livres[me]]
    where, price = state.where, board.tile_price
    if not any(free or price[str(len(zones[where[t]]))] <= livres for t in tiles):
        return 2
    return None


CHECKS: dict[str, Callable[[Board, Any, int, dict[str, Any]], int | None]] = {
    "sew": sew,
    "fund": fund,
    "acquire": acquire,
    "fund_space": fund_space,
}


# ------------------------------------------------------------ scoring step
def _hall_key(board: Board, state: Any, p: int, h: int) -> tuple[int, int, int]:
    props = board.zone_props
    return (
        sum(1 for s in board.guest if props[s]["hall"] == h and _owner(board, state, s) == p),
        sum(
            1
            for s in board.guest
            if props[s]["hall"] == h and props[s]["master"] and _owner(board, state, s) == p
        ),
        sum(1 for s in board.musician if props[s]["hall"] == h and _owner(board, state, s) == p),
    )


def halls(board: Board, state: Any) -> None:
    """The `halls` scoring step: hall majorities, each rank by comparing keys again."""
    counters = state.counters
    players = range(len(state.players))
    for h in board.halls:
        entrants = [p for p in players if _hall_key(board, state, p, h)[0] > 0]
        for p in entrants:
            rank = 1 + sum(
                1 for q in entrants if _hall_key(board, state, q, h) > _hall_key(board, state, p, h)
            )
            if rank <= board.places:
                key = board.prestige[p]
                counters[key] = counters.get(key, 0) + board.hall_majority[str(h)][rank - 1]


SCORING: dict[str, Callable[[Board, Any], None]] = {"halls": halls}
