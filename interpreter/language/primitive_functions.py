"""The functions of the effect language: each declared once, with its signature,
documentation and implementation (registered in ``registry.REGISTRY`` on import)."""

from __future__ import annotations

from typing import Any

from interpreter.errors import RuleError
from interpreter.language.operations import MAX_NUMBER, _num, players
from interpreter.language.registry import Param, fn
from interpreter.language.runtime import Context
from interpreter.language.values import (
    ANY,
    BOOL,
    MAP,
    NUMBER,
    PIECE,
    PLAYER,
    TEXT,
    ZONE,
    Piece,
    is_number,
    list_of,
)


# --------------------------------------------------------------------------
# Functions
# --------------------------------------------------------------------------
@fn(
    "count",
    [Param("items", "list", "the collection to count")],
    NUMBER,
    "How many items the collection holds.",
    "count(c in my.hand where c.suit == 'red')",
    "collections",
)
def _count(ctx: Context, items: Any) -> int:
    return len(items)


@fn(
    "sum",
    [Param("values", list_of(NUMBER), "numbers to add")],
    NUMBER,
    "The sum of the numbers (0 for none).",
    "sum(s.points for s in my_spaces)",
    "collections",
)
def _sum(ctx: Context, values: Any) -> int:
    total = 0
    for value in values:
        if type(value) is not int and not is_number(value):
            raise RuleError(f"sum() needs numbers, not {value!r}")
        total += value
    if abs(total) > MAX_NUMBER:
        raise RuleError("a number grew beyond 10^15")
    return total


@fn(
    "max",
    [
        Param("values", list_of(ANY), "values to compare"),
        Param("default", ANY, "the result for an empty collection", 0),
    ],
    ANY,
    "The largest value, or `default` when there is none.",
    "max(s.price for s in slots)",
    "collections",
    returns_item_of=0,
)
def _max(ctx: Context, values: Any, default: Any = 0) -> Any:
    try:
        return max(values) if values else default
    except TypeError:
        raise RuleError(f"max() cannot compare the values {list(values)!r}") from None


@fn(
    "min",
    [
        Param("values", list_of(ANY), "values to compare"),
        Param("default", ANY, "the result for an empty collection", 0),
    ],
    ANY,
    "The smallest value, or `default` when there is none.",
    "min([a, b])",
    "collections",
    returns_item_of=0,
)
def _min(ctx: Context, values: Any, default: Any = 0) -> Any:
    try:
        return min(values) if values else default
    except TypeError:
        raise RuleError(f"min() cannot compare the values {list(values)!r}") from None


@fn(
    "any",
    [Param("items", "list", "the collection")],
    BOOL,
    "Whether the collection holds at least one item (with `where`: whether any item matches).",
    "any(s in slots where s.free)",
    "collections",
)
def _any(ctx: Context, items: Any) -> bool:
    return bool(items)


@fn(
    "all",
    [Param("conditions", list_of(BOOL), "conditions, usually `COND for x in …`")],
    BOOL,
    "Whether every condition holds (true for none).",
    "all(h.size > 0 for h in hands)",
    "collections",
)
def _all(ctx: Context, conditions: Any) -> bool:
    return all(conditions)


@fn(
    "first",
    [
        Param("items", "list", "the collection"),
        Param("default", ANY, "the result for an empty collection", None),
    ],
    ANY,
    "The first item, or `default` (none) when empty.",
    "first(s in bonus_slots where s.free)",
    "collections",
    returns_item_of=0,
)
def _first(ctx: Context, items: Any, default: Any = None) -> Any:
    return items[0] if items else default


@fn(
    "last",
    [
        Param("items", "list", "the collection"),
        Param("default", ANY, "the result for an empty collection", None),
    ],
    ANY,
    "The last item, or `default` (none) when empty.",
    "last(slots)",
    "collections",
    returns_item_of=0,
)
def _last(ctx: Context, items: Any, default: Any = None) -> Any:
    return items[-1] if items else default


@fn(
    "contains",
    [Param("items", "list", "the collection"), Param("value", ANY, "the value")],
    BOOL,
    "Whether the value is one of the items.",
    "contains(['red', 'blue'], c.suit)",
    "collections",
)
def _contains(ctx: Context, items: Any, value: Any) -> bool:
    return value in items


@fn(
    "distinct",
    [Param("values", list_of(ANY), "values")],
    list_of(ANY),
    "The values without repeats, in first-seen order.",
    "count(distinct(c.suit for c in cards))",
    "collections",
    returns_type_of=0,
)
def _distinct(ctx: Context, values: Any) -> tuple:
    return tuple(dict.fromkeys(values))


@fn(
    "range",
    [Param("low", NUMBER, "the first number"), Param("high", NUMBER, "the last number")],
    list_of(NUMBER),
    "The numbers from `low` to `high`, both included (empty if high < low).",
    "choose n in range(0, my.coins // 4) { … }",
    "collections",
)
def _range(ctx: Context, low: Any, high: Any) -> tuple:
    low, high = _num(low, "range's low"), _num(high, "range's high")
    if high - low > 10_000:
        raise RuleError("range is larger than 10 000 numbers")
    return tuple(range(low, high + 1))


@fn(
    "pieces",
    [Param("zones", list_of(ZONE), "zones or spaces")],
    list_of(PIECE),
    "All components in the given zones, zone by zone.",
    "pieces(s in slots where s.owner == me)",
    "collections",
)
def _pieces(ctx: Context, zones: Any) -> tuple:
    contents = ctx.state.zones
    found: list[Piece] = []
    for zone in zones:
        found.extend(contents.get(zone, ()))  # ``Piece`` values (``State``)
    return tuple(found)


@fn(
    "spaces_of",
    [Param("groups", list_of(TEXT), "names of space groups")],
    list_of(ZONE),
    "The spaces of the named groups on the game's board side, group by group, each "
    "in the order written. A list of group names kept in a constant is a list that "
    "overlays extend (a new kind of decoration joins every rule that reads the list).",
    "spaces_of(scoring_groups)",
    "collections",
)
def _spaces_of(ctx: Context, groups: Any) -> tuple:
    members = ctx.rules.group_members
    out: list = []
    for name in groups:
        if name not in members:
            raise RuleError(f"there is no space group {name!r}")
        out.extend(members[name])
    return tuple(out)


@fn(
    "get",
    [
        Param("table", MAP, "a table (mapping)"),
        Param("key", ANY, "the key"),
        Param("default", ANY, "the result when the key is missing", 0),
    ],
    ANY,
    "The table's value for `key`, or `default` when it has none. The value has the "
    "type of `default` (a number by default): a value of another type is a run-time error.",
    "get(c.costs, 'gold', 0)",
    "values",
    returns_type_of=2,
)
def _get(ctx: Context, table: Any, key: Any, default: Any = 0) -> Any:
    if type(table) is not dict and not isinstance(table, dict):
        raise RuleError(f"get() needs a table, not {table!r}")
    value = table.get(key, default)
    if type(value) is not int and is_number(default) and not is_number(value):
        raise RuleError(f"get(): the value for {key!r} is not a number ({value!r})")
    return value


@fn(
    "number",
    [Param("value", ANY, "a value of no declared type (from a table, a mixed list)")],
    NUMBER,
    "The value as a number; a run-time error if it is not one. Arithmetic needs numbers, "
    "so a value whose type is not known is converted with it first.",
    "number(first(values)) + 1",
    "values",
)
def _number_of(ctx: Context, value: Any) -> int:
    if type(value) is not int and not is_number(value):
        raise RuleError(f"number(): {value!r} is not a number")
    return value


@fn(
    "keys",
    [Param("table", MAP, "a table")],
    list_of(ANY),
    "The keys of a table, in order.",
    "keys(c.costs)",
    "values",
)
def _keys(ctx: Context, table: Any) -> tuple:
    return tuple(table)


@fn(
    "abs",
    [Param("value", NUMBER, "a number")],
    NUMBER,
    "The absolute value.",
    "abs(a - b)",
    "values",
)
def _abs(ctx: Context, value: Any) -> int:
    return abs(_num(value, "abs's value"))


@fn(
    "seat_order",
    [Param("start", PLAYER, "the first player")],
    list_of(PLAYER),
    "All players in turn order, starting with `start`.",
    "for p in seat_order(start_player) { … }",
    "players",
)
def _seat_order(ctx: Context, start: Any) -> tuple:
    if start is None:
        raise RuleError("seat_order() was given none instead of a player")
    seats = players(ctx)
    if not seats:
        return ()
    first = int(start) % len(seats)
    return seats[first:] + seats[:first]


@fn(
    "others",
    [Param("player", PLAYER, "a player")],
    list_of(PLAYER),
    "All other players in turn order, starting left of `player`.",
    "for p in others(me) { … }",
    "players",
)
def _others(ctx: Context, player: Any) -> tuple:
    return _seat_order(ctx, player)[1:]


@fn(
    "announced",
    [Param("value", ANY, "a value the rules make every player learn at the table")],
    ANY,
    "The value itself. It tells the secrecy check that the rules make this fact public "
    "(a card drawn in secret that must then be shown), so a decision may depend on it, "
    "and a public counter or variable written from it holds nothing hidden.",
    "if announced(c.suit == 'red') { do penalty() }",
    "values",
    returns_type_of=0,
)
def _announced(ctx: Context, value: Any) -> Any:
    return value


@fn(
    "filter",
    [Param("items", "list", "a collection, usually `x in … where …`")],
    list_of(ANY),
    "The collection itself: with `x in … where …` it names the matching items.",
    "filter(s in slots where s.free)",
    "collections",
    returns_type_of=0,
)
def _filter(ctx: Context, items: Any) -> tuple:
    return tuple(items)


@fn(
    "reverse",
    [Param("items", "list", "the collection")],
    list_of(ANY),
    "The items in the opposite order.",
    "for s in reverse(slots) { … }",
    "collections",
    returns_type_of=0,
)
def _reverse(ctx: Context, items: Any) -> tuple:
    return tuple(reversed(items))


@fn(
    "index_of",
    [Param("items", "list", "the collection"), Param("value", ANY, "the item")],
    NUMBER,
    "The 0-based position of the item (-1 if absent).",
    "index_of(ranking.pieces, t)",
    "collections",
)
def _index_of(ctx: Context, items: Any, value: Any) -> int:
    try:
        return list(items).index(value)
    except ValueError:
        return -1


@fn("text", [Param("value", ANY, "any value")], TEXT, "The value's text id.", "text(s)", "values")
def _text(ctx: Context, value: Any) -> str:
    return str(value)
