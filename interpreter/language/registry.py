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

from interpreter.check.defaults import SPACE_CAPACITY_ZERO, ZONE_CAPACITY_ZERO
from interpreter.language.values import (
    BOOL,
    NUMBER,
    PIECE,
    PLAYER,
    TEXT,
    ZONE,
    list_of,
)

REQUIRED = object()


@dataclass(frozen=True, slots=True)
class Param:
    name: str
    type: str
    doc: str
    default: Any = REQUIRED
    # the least value it takes, and the primitive that does the opposite (a literal
    # below it is refused when the rules are checked, with that primitive as the hint)
    minimum: int | None = None
    opposite: str | None = None

    @property
    def required(self) -> bool:
        return self.default is REQUIRED


@dataclass(frozen=True, slots=True)
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
    # the example is quoted from a shipped game (a bundled ruleset or an example game):
    # the reference names the file (found by its text, so no game is named here), and
    # tests/docs checks that it is there
    quoted: bool = False

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
    quoted: bool = False  # as Primitive.quoted


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
        quoted: bool = False,
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
                quoted=quoted,
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
        quoted: bool = False,
    ):
        def register(impl: Callable[..., Any]) -> Callable[..., Any]:
            self.statements[name] = Primitive(
                name,
                "statement",
                tuple(params),
                None,
                doc,
                example,
                impl,
                category,
                chance,
                quoted=quoted,
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
    (
        ZONE,
        "capacity",
        NUMBER,
        f"How many components the zone or space takes; `0`: {ZONE_CAPACITY_ZERO} for a "
        f"zone, {SPACE_CAPACITY_ZERO} for a space.",
    ),
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
            "that starts as none hold a value of that type later. A local may not take "
            "the name of a function (of the language or of the rules).",
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
            '[as "LABEL" | as (TEXT)] { … }',
            "Offer a decision: one item of the collection. Each option's text is the item's "
            "id (prefixed by LABEL), or with `as (TEXT)` the text that expression computes "
            'with NAME bound to the item (`"bid five 4s"`: what the table says; two items '
            "of the same text are told apart by ` #2`). `may` adds the option `pass`. With no "
            "legal item and no `may`, the block is skipped.",
            'choose c in my.hand as "play" { move(c, my.discard) }',
        ),
        Syntax(
            "choose NAME in COLLECTION as (TEXT) { … }",
            "An option text computed from each item, as a shipped card game writes "
            "it: a card passed reads as its face (`pass QS`), `face` a function of the "
            "ruleset.",
            'choose c in my.hand as ("pass " + face(c)) { move(c, my.passing) }',
            quoted=True,
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
            "VALUE for NAME in COLLECTION [where COND] for NAME in COLLECTION [where COND] …",
            "As an argument: VALUE computed for every combination of the collections (a "
            "product), the first `for` slowest; each `where` and each later collection "
            "sees the names bound before it. Every `for` pays a step of the budget per "
            "item it walks, for every item of the ones around it.",
            "filter(q * 10 + f for q in range(low_bid(), in_play()) for f in faces "
            "where beats(q, f))",
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
        Syntax(
            "NAME[KEY], PLAYER.NAME[KEY]",
            "A member of a counter or zone declared with `keys:` (format.md): one per key, "
            "per player when it is `per: player`, the key computed like any value. A member "
            "is read, set (`+=`), given to `gain`/`pay`, or moved into like any counter or "
            "zone; a key written as a constant is checked by `validate`, a computed one "
            "when it is used. A shipped card game keeps a pile per colour so: "
            "`move(c, pile[c.colour])`.",
            "my.progress[a + b] += 1",
        ),
        Syntax("+ - * // %", "Integer arithmetic (`//` divides rounding down).", "my.coins // 10"),
        Syntax(
            "TEXT + TEXT, LIST + LIST",
            "`+` also joins two texts (an option text, a card as players write it) or two "
            "lists, up to 100,000 characters or items.",
            "rank_letters[c.rank - 2] + get(suit_letters, c.suit, '')",
            quoted=True,
        ),
        Syntax(
            "== != < <= > >=, and or not",
            "Comparisons (lists compare item by item) and boolean logic.",
            "a > b and not c",
        ),
    ]
)


# The primitives register themselves on import, functions first (the order of the
# reference in docs/language.md).
from interpreter.language import (  # noqa: E402, F401
    primitive_dice,
    primitive_functions,
    primitive_grid,
    primitive_rotate,
    primitive_statements,
)
