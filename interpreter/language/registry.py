"""The one declaration of every primitive of the effect language.

Functions, statements, built-in names and built-in attributes are declared here,
once, with their parameters, types, documentation and implementation. The checker
reads their signatures, the compiler their implementations, the JSON Schemas their
name lists and ``docs/language.md`` is generated from them (a test keeps it so).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from interpreter.errors import GameError, RuleError
from interpreter.language.closures import MAX_NUMBER
from interpreter.language.runtime import Context
from interpreter.language.values import (
    ACTION,
    ANY,
    BOOL,
    COUNTER,
    MAP,
    NUMBER,
    PIECE,
    PLAYER,
    TEXT,
    ZONE,
    Piece,
    Player,
    ZoneRef,
    list_of,
)

REQUIRED = object()


@dataclass(frozen=True)
class Param:
    name: str
    type: str
    doc: str
    default: Any = REQUIRED

    @property
    def required(self) -> bool:
        return self.default is REQUIRED


@dataclass(frozen=True)
class Primitive:
    """A function (gives a value) or a statement (changes the state)."""

    name: str
    kind: str  # "function" | "statement"
    params: tuple[Param, ...]
    returns: str | None
    doc: str
    example: str
    impl: Callable[..., Any]
    category: str = "general"
    chance: bool = False
    returns_item_of: int | None = None  # the result has the item type of this list parameter
    returns_type_of: int | None = None  # the result has the type of this parameter

    def signature(self) -> str:
        parts = []
        for p in self.params:
            text = f"{p.name}: {p.type}"
            if not p.required:
                text += f" = {p.default!r}" if p.default is not None else " = none"
            parts.append(text)
        tail = f" -> {self.returns}" if self.returns else ""
        return f"{self.name}({', '.join(parts)}){tail}"


@dataclass(frozen=True)
class Builtin:
    """A name or attribute the language provides without the ruleset declaring it."""

    name: str
    type: str
    doc: str
    owner: str = ""  # for attributes: the type they belong to


@dataclass(frozen=True)
class Syntax:
    """A keyword form of the grammar, documented next to the primitives."""

    form: str
    doc: str
    example: str


@dataclass
class Registry:
    functions: dict[str, Primitive] = field(default_factory=dict)
    statements: dict[str, Primitive] = field(default_factory=dict)
    names: dict[str, Builtin] = field(default_factory=dict)
    attributes: dict[str, dict[str, Builtin]] = field(default_factory=dict)
    syntax: list[Syntax] = field(default_factory=list)

    def function(
        self,
        name: str,
        params: list[Param],
        returns: str,
        doc: str,
        example: str,
        category: str = "general",
        returns_item_of: int | None = None,
        returns_type_of: int | None = None,
    ):
        def register(impl: Callable[..., Any]) -> Callable[..., Any]:
            self.functions[name] = Primitive(
                name,
                "function",
                tuple(params),
                returns,
                doc,
                example,
                impl,
                category,
                returns_item_of=returns_item_of,
                returns_type_of=returns_type_of,
            )
            return impl

        return register

    def statement(
        self,
        name: str,
        params: list[Param],
        doc: str,
        example: str,
        category: str = "general",
        chance: bool = False,
    ):
        def register(impl: Callable[..., Any]) -> Callable[..., Any]:
            self.statements[name] = Primitive(
                name, "statement", tuple(params), None, doc, example, impl, category, chance
            )
            return impl

        return register

    def attribute(self, owner: str, name: str, type_: str, doc: str) -> None:
        self.attributes.setdefault(owner, {})[name] = Builtin(name, type_, doc, owner)

    def all_names(self) -> set[str]:
        return set(self.functions) | set(self.statements) | set(self.names)


REGISTRY = Registry()
fn = REGISTRY.function
stmt = REGISTRY.statement

# --------------------------------------------------------------------------
# Built-in names and attributes
# --------------------------------------------------------------------------
for _name, _type, _doc in [
    ("me", PLAYER, "The acting player: whose turn, action or effect this is."),
    ("my", PLAYER, "Same as `me`, for reading: `my.hand`, `my.coins`."),
    ("players", list_of(PLAYER), "All players in seat order."),
    (
        "player_count",
        NUMBER,
        "The number of players in this game, as the rules count them: the people, "
        "not the seats the rules drive (`automata`).",
    ),
]:
    REGISTRY.names[_name] = Builtin(_name, _type, _doc)

for _owner, _name, _type, _doc in [
    (PLAYER, "name", TEXT, "The player's name."),
    (PLAYER, "seat", NUMBER, "The player's seat, 0-based in turn order."),
    (PLAYER, "next", PLAYER, "The player to the left (next in turn order)."),
    (
        PLAYER,
        "automaton",
        BOOL,
        "Whether the seat is driven by the rules (an `automata` entry), not by a person.",
    ),
    (ZONE, "id", TEXT, "The zone's or space's id."),
    (ZONE, "group", TEXT, "The space group the space belongs to (none for zones)."),
    (ZONE, "pieces", list_of(PIECE), "The components in the zone, first (top) to last."),
    (ZONE, "size", NUMBER, "How many components the zone holds."),
    (ZONE, "empty", BOOL, "Whether the zone holds no component."),
    (ZONE, "free", BOOL, "Whether the space has room for a component and no owner yet."),
    (ZONE, "capacity", NUMBER, "How many components the space takes (0 = unlimited)."),
    (ZONE, "top", PIECE, "The first component (none if empty)."),
    (ZONE, "bottom", PIECE, "The last component (none if empty)."),
    (
        ZONE,
        "owner",
        PLAYER,
        "The player whose ownership marker is on the space, or "
        "the player a per-player zone belongs to; none otherwise.",
    ),
    (PIECE, "id", TEXT, "The component's id."),
    (PIECE, "kind", TEXT, "The component's kind."),
    (
        PIECE,
        "design",
        TEXT,
        "The id of the component's design: its id without the copy number (`ruby3` for `ruby3-2`).",
    ),
    (PIECE, "zone", ZONE, "The zone the component is in."),
    (PIECE, "owner", PLAYER, "The owner of the zone the component is in (see zone.owner)."),
]:
    REGISTRY.attribute(_owner, _name, _type, _doc)

REGISTRY.syntax.extend(
    [
        Syntax(
            "if COND { … } elif COND { … } else { … }",
            "Run the first block whose condition holds.",
            "if my.coins >= 5 { pay(coins, 5) }",
        ),
        Syntax(
            "for NAME in COLLECTION [where COND] { … }",
            "Run the block once per item, in order, with NAME bound to the item.",
            "for p in players { gain(coins, 5, to: p) }",
        ),
        Syntax(
            "simultaneous for NAME in COLLECTION [where COND] { … }",
            "Run the block once per item as parallel branches: every branch's decisions are "
            "open at the same time, and while the step lasts each player's view shows only "
            "their own branch's changes (simultaneous secret choices). Locals set in a "
            "branch stay in it.",
            "simultaneous for p in players { act as p { choose c in my.hand { … } } }",
        ),
        Syntax(
            "repeat COUNT { … }", "Run the block COUNT times.", "repeat 2 { draw(deck, my.hand) }"
        ),
        Syntax(
            "while COND { … }",
            "Run the block as long as the condition holds (bounded by the step budget).",
            "while my.hand.size < 4 { draw(deck, my.hand) }",
        ),
        Syntax(
            "let NAME [: TYPE] = VALUE",
            "Bind a local name for the rest of the effect; a declared TYPE lets a local "
            "that starts as none hold a value of that type later.",
            "let winner: player = none",
        ),
        Syntax(
            "TARGET = VALUE, TARGET += VALUE, TARGET -= VALUE",
            "Set or change a counter or variable (`my.coins += 2`, `start_player = me`). "
            "A counter never goes below its minimum: taking more is an error.",
            "my.coins -= 3",
        ),
        Syntax(
            "[may] choose NAME in COLLECTION [where COND] [by PLAYER | by chance] "
            '[as "LABEL"] { … }',
            "Offer a decision: one item of the collection. Each option's text is the item's "
            "id (prefixed by LABEL). `may` adds the option `pass`. With no legal item and no "
            "`may`, the block is skipped.",
            'choose c in my.hand as "play" { move(c, my.discard) }',
        ),
        Syntax(
            '[may] choose [by PLAYER] { option "TEXT" [if COND] { … } … }',
            "Offer a decision between named options; an option whose guard fails is not "
            "offered. `option NAME in COLLECTION [where COND] { … }` offers one option per "
            "item (its text is the item's id), so a list that overlays extend — of actions, "
            "say — becomes options beside the fixed ones.",
            'choose { option a in moves where can a() { do a() } option "rest" { } }',
        ),
        Syntax(
            "do ACTION(PARAM: VALUE, …)",
            "Do an action of the ruleset with modifiers for its parameters; the action's "
            "`requires` must hold. ACTION may be a local name bound to an action.",
            "do fund(discount: 5)",
        ),
        Syntax(
            "can ACTION(PARAM: VALUE, …)",
            "A condition: whether every `requires` of the action holds with these parameters. "
            "Guards written with `can` let replay say which requirement failed.",
            'option "hire" if can hire(card: c) { do hire(card: c) }',
        ),
        Syntax(
            "act as PLAYER { … }",
            "Run the block with `me` bound to another player.",
            "for p in players { act as p { gain(coins, 5) } }",
        ),
        Syntax(
            "emit EVENT(ARG: VALUE, …)",
            "Announce an event: triggers listening to it fire.",
            "emit dismissed(card: c)",
        ),
        Syntax("stop", "End the current effect at once (the rest of it is skipped).", "stop"),
        Syntax(
            "NAME in COLLECTION [where COND]",
            "As an argument: the items of the collection for which COND holds.",
            "count(c in my.hand where c.suit == 'red')",
        ),
        Syntax(
            "VALUE for NAME in COLLECTION [where COND]",
            "As an argument: VALUE computed for each item.",
            "sum(c.points for c in cards)",
        ),
        Syntax(
            "if COND then VALUE else VALUE",
            "A value chosen by a condition.",
            "if my.coins > 10 then 2 else 1",
        ),
        Syntax(
            "a.b, a[i]",
            "Paths: an attribute of a player, zone, component or action; an item of "
            "a list (0-based) or a table.",
            "my.hand.size, majority['1'][0]",
        ),
        Syntax("+ - * // %", "Integer arithmetic (`//` divides rounding down).", "my.coins // 10"),
        Syntax(
            "== != < <= > >=, and or not",
            "Comparisons (lists compare item by item) and boolean logic.",
            "a > b and not c",
        ),
    ]
)


def _num(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RuleError(f"{what} must be a number, not {value!r}")
    return value


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
        if isinstance(value, bool) or not isinstance(value, int):
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
    return tuple(Piece(p) for z in zones for p in contents.get(z, ()))


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
    if not isinstance(table, dict):
        raise RuleError(f"get() needs a table, not {table!r}")
    value = table.get(key, default)
    wants_number = isinstance(default, int) and not isinstance(default, bool)
    if wants_number and (isinstance(value, bool) or not isinstance(value, int)):
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
    if isinstance(value, bool) or not isinstance(value, int):
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
    n = len(ctx.state.players)
    return tuple(Player((int(start) + i) % n) for i in range(n))


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
    "(a card drawn in secret that must then be shown), so a decision may depend on it.",
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


# --------------------------------------------------------------------------
# Statements
# --------------------------------------------------------------------------
def _counter_key(ctx: Context, counter: str, player: Any) -> str:
    return ctx.rules.counter_key(counter, player)


@fn(
    "gain_if",
    [
        Param("counter", COUNTER, "a per-player counter of the ruleset"),
        Param("action", ACTION, "an action with one parameter that has no default"),
        Param("value", ANY, "the value of that parameter"),
    ],
    NUMBER,
    "How much the acting player's `counter` would rise if `action` ran now with `value`: "
    "the action runs on a copy of the position and nothing of it stays (its decisions "
    "take the first option that is not `pass`; it may not draw by chance). 0 if its "
    "requirements do not hold. For rules that take what is worth most now, judged by "
    "each candidate's own rule.",
    "max(gain_if(points, c.bonus, c) for c in offer)",
    "counters",
)
def _gain_if(ctx: Context, counter: str, action: Any, value: Any) -> int:
    what_if = getattr(ctx.host, "what_if", None)
    if what_if is None:
        raise RuleError("gain_if() needs a game to try the action in")
    return what_if(ctx, counter, str(action), value)


_ME = object()  # a player argument left out: the acting player (given as none: an error)


def _player_given(ctx: Context, player: Any, what: str) -> Any:
    if player is _ME:
        return ctx.me
    if player is None:
        raise RuleError(f"{what} was given none instead of a player")
    return player


@stmt(
    "gain",
    [
        Param("counter", COUNTER, "a counter of the ruleset"),
        Param("amount", NUMBER, "how much (0 or more)"),
        Param("to", PLAYER, "who gains (default: me)", None),
    ],
    "Add to a counter (up to its maximum, if it has one).",
    "gain(coins, 5)",
    "counters",
)
def _gain(ctx: Context, counter: str, amount: Any, to: Any = _ME) -> None:
    amount = _num(amount, "gain's amount")
    if amount < 0:
        raise RuleError(f"cannot gain a negative amount ({amount}) of {counter}")
    ctx.rules.add_counter(ctx, counter, _player_given(ctx, to, "gain's `to`"), amount)


@stmt(
    "pay",
    [
        Param("counter", COUNTER, "a counter of the ruleset"),
        Param("amount", NUMBER, "how much (0 or more)"),
        Param("by", PLAYER, "who pays (default: me)", None),
    ],
    "Take from a counter; an error (an illegal move) if there is not enough.",
    "pay(coins, cost)",
    "counters",
)
def _pay(ctx: Context, counter: str, amount: Any, by: Any = _ME) -> None:
    amount = _num(amount, "pay's amount")
    if amount < 0:
        raise RuleError(f"cannot pay a negative amount ({amount}) of {counter}")
    ctx.rules.add_counter(ctx, counter, _player_given(ctx, by, "pay's `by`"), -amount)


@stmt(
    "move",
    [
        Param("what", ANY, "a component or a collection of components"),
        Param("to", ZONE, "the zone or space they go to"),
        Param("at", ANY, "'top', 'bottom' or a 0-based position", "bottom"),
    ],
    "Move components into a zone, in order; at the top (first) or bottom (last).",
    "move(c, my.discard)",
    "zones",
)
def _move(ctx: Context, what: Any, to: Any, at: Any = "bottom") -> None:
    pieces = what if isinstance(what, tuple | list) else (what,)
    for offset, piece in enumerate(pieces):
        if piece is None:
            raise RuleError("move() was given none instead of a component")
        ctx.rules.place(ctx, piece, to, _position(at, offset))


def _position(at: Any, offset: int) -> int | None:
    if at == "bottom":
        return None
    if at == "top":
        return offset
    if isinstance(at, int) and not isinstance(at, bool):
        return at + offset
    raise RuleError(f"position must be 'top', 'bottom' or a number, not {at!r}")


def _draw_count(value: Any, what: str) -> int:
    count = _num(value, f"{what}'s count")
    if count < 0:
        raise RuleError(f"{what}() cannot take a negative number of components ({count})")
    return count


@stmt(
    "draw",
    [
        Param("source", ZONE, "the zone to draw from"),
        Param("to", ZONE, "where the components go"),
        Param("count", NUMBER, "how many (fewer if the source runs out)", 1),
    ],
    "Take components from the top of a zone; from a bag (a zone with `order: random`) the "
    "components are drawn at random, a chance outcome the log records.",
    "draw(deck, display, 4)",
    "zones",
    chance=True,
)
def _draw(ctx: Context, source: Any, to: Any, count: Any = 1) -> None:
    count = _draw_count(count, "draw")
    items = ctx.state.zones.get(source, ())
    if not items or count == 0:
        return
    if ctx.rules.is_random_zone(source):
        taken = ctx.host.random_pick(ctx, str(source), items, min(count, len(items)))
    else:
        taken = items[:count]
    for piece in taken:
        ctx.rules.place(ctx, Piece(piece), to, None)


@stmt(
    "draw_random",
    [
        Param("source", ZONE, "the zone to take from"),
        Param("to", ZONE, "where the components go"),
        Param("count", NUMBER, "how many", 1),
    ],
    "Take components at random from any zone (a card from a hidden hand): a chance outcome.",
    "draw_random(target.hand, my.hand)",
    "zones",
    chance=True,
)
def _draw_random(ctx: Context, source: Any, to: Any, count: Any = 1) -> None:
    count = _draw_count(count, "draw_random")
    items = ctx.state.zones.get(source, ())
    if not items or count == 0:
        return
    for piece in ctx.host.random_pick(ctx, str(source), items, min(count, len(items))):
        ctx.rules.place(ctx, Piece(piece), to, None)


@stmt(
    "shuffle",
    [Param("zone", ZONE, "the zone to shuffle")],
    "Put the zone's components in a random order: a chance outcome the log records.",
    "shuffle(deck)",
    "zones",
    chance=True,
)
def _shuffle(ctx: Context, zone: Any) -> None:
    items = ctx.state.zones.get(zone, ())
    if len(items) > 1:
        ctx.state.set_order(str(zone), ctx.host.random_order(ctx, str(zone), items))


@stmt(
    "claim",
    [
        Param("space", ZONE, "a space that takes ownership markers"),
        Param("by", PLAYER, "whose marker (default: me)", None),
    ],
    "Put a player's ownership marker on a space.",
    "claim(s)",
    "zones",
)
def _claim(ctx: Context, space: Any, by: Any = None) -> None:
    ctx.rules.claim(ctx, space, ctx.me if by is None else by)


@stmt(
    "release",
    [Param("space", ZONE, "a space")],
    "Take the ownership marker off a space.",
    "release(s)",
    "zones",
)
def _release(ctx: Context, space: Any) -> None:
    ctx.state.owners.pop(str(space), None)


@stmt(
    "reveal",
    [
        Param("what", ANY, "a component, a collection, or a zone"),
        Param("to", ANY, "a player or a collection of players (default: everyone)", None),
    ],
    "Show components to players: their views include them from now on.",
    "reveal(target.hand, to: me)",
    "zones",
)
def _reveal(ctx: Context, what: Any, to: Any = None) -> None:
    if isinstance(what, ZoneRef):
        what = ctx.state.zones.get(what, ())
    pieces = tuple(what) if isinstance(what, tuple | list) else (what,)
    if to is None:
        seats = tuple(range(len(ctx.state.players)))
    else:
        seats = tuple(int(p) for p in (to if isinstance(to, tuple | list) else (to,)))
    ctx.host.reveal(ctx, tuple(str(p) for p in pieces), seats)


@stmt(
    "fail",
    [Param("message", TEXT, "why the move is not allowed")],
    "Refuse the current move as illegal, with a reason in the rules' terms.",
    "fail('this card may not be sold')",
    "general",
)
def _fail(ctx: Context, message: Any) -> None:
    raise GameError(str(message))
