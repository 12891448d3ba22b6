"""Run-time helpers that generated code calls: checked arithmetic and comparisons,
indexes, the attributes of players, zones and components, scans of collections.

Kept apart from the compiler so that what runs in every evaluation is small and
easy to read; nothing here parses or checks. ``codegen.py`` binds these functions by
name into the generated code's namespace.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from interpreter.errors import RuleError
from interpreter.language.values import Piece, Player, ZoneRef, is_number, type_of

Fn = Callable[[Any], Any]


def _apply(op: str, old: Any, value: Any, name: str) -> Any:
    if op == "=":
        return value
    if not isinstance(old, int) or isinstance(old, bool):
        raise RuleError(f"`{name}` is not a number ({old!r})")
    return old + value if op == "+=" else old - value


def _lt(a: Any, b: Any) -> bool:
    try:
        return a < b
    except TypeError:
        raise RuleError(f"cannot compare {a!r} with {b!r}") from None


def _le(a: Any, b: Any) -> bool:
    try:
        return a <= b
    except TypeError:
        raise RuleError(f"cannot compare {a!r} with {b!r}") from None


def _gt(a: Any, b: Any) -> bool:
    try:
        return a > b
    except TypeError:
        raise RuleError(f"cannot compare {a!r} with {b!r}") from None


def _ge(a: Any, b: Any) -> bool:
    try:
        return a >= b
    except TypeError:
        raise RuleError(f"cannot compare {a!r} with {b!r}") from None


MAX_NUMBER = 10**15  # a number a rule computes may not grow beyond this
MAX_COLLECTION = 100_000  # items in a collection a rule builds (`+`, `range`, …)


def _number(value: Any, operator: str) -> int:
    if type(value) is not int and not is_number(value):
        raise RuleError(
            f"`{operator}` needs numbers, not {value!r}",
            "a value read from a table or a list of mixed values has no declared type: "
            "check it with a comparison first",
        )
    return value


def _capped(result: int) -> int:
    if abs(result) > MAX_NUMBER:
        raise RuleError("a number grew beyond 10^15", "numbers in rulesets stay below 10^15")
    return result


def _checked_mul(a: Any, b: Any) -> int:
    return _capped(_number(a, "*") * _number(b, "*"))


def _add(a: Any, b: Any) -> Any:
    if type(a) is int and type(b) is int:  # the common case first (a bool is no int here)
        result = a + b
        if -MAX_NUMBER <= result <= MAX_NUMBER:
            return result
    if isinstance(a, tuple) and isinstance(b, tuple):
        if len(a) + len(b) > MAX_COLLECTION:
            raise RuleError(f"a collection grew beyond {MAX_COLLECTION:,} items")
        return a + b
    if isinstance(a, str) and isinstance(b, str):
        if len(a) + len(b) > MAX_COLLECTION:
            raise RuleError(f"a text grew beyond {MAX_COLLECTION:,} characters")
        return a + b
    return _capped(_number(a, "+") + _number(b, "+"))


def _sub(a: Any, b: Any) -> int:
    if type(a) is int and type(b) is int:
        result = a - b
        if -MAX_NUMBER <= result <= MAX_NUMBER:
            return result
    return _capped(_number(a, "-") - _number(b, "-"))


def _div(a: Any, b: Any) -> int:
    if _number(b, "//") == 0:
        raise RuleError("division by zero")
    return _number(a, "//") // b


def _mod(a: Any, b: Any) -> int:
    if _number(b, "%") == 0:
        raise RuleError("division by zero")
    return _number(a, "%") % b


_ARITHMETIC = {"+": _add, "-": _sub, "*": _checked_mul, "//": _div, "%": _mod}


def _list_get(items: Any, index: Any) -> Any:
    """``items[index]``: positions count from 0; one outside the list is an error (a
    negative one does not count from the end)."""
    if items is None:
        return None
    if type(index) is not int and not is_number(index):
        raise RuleError(f"a position in a list is a number, not {index!r}")
    if not 0 <= index < len(items):
        raise RuleError(
            f"position {index} is outside the list (it has {len(items)} item"
            f"{'' if len(items) == 1 else 's'}, at positions 0 to {len(items) - 1})",
            "check `count(…)` before taking an item",
        )
    return items[index]


def _map_get(table: Any, key: Any) -> Any:
    if isinstance(table, dict):
        return table.get(key)
    raise RuleError(f"{table!r} is not a table")


def _map_or_list_get(owner: Any, key: Any) -> Any:
    if type(owner) is dict:  # the common case first
        if type(key) is str:
            return owner.get(key)
        found = owner.get(key)  # a number: YAML's keys are texts
        return owner.get(str(key)) if found is None else found
    if isinstance(owner, dict):
        return owner.get(key, owner.get(str(key)) if not isinstance(key, str) else None)
    if isinstance(owner, tuple | list):
        return _list_get(owner, key)
    if owner is None:
        return None
    raise RuleError(f"{owner!r} cannot be indexed")


class SeatKeys(dict):
    """A per-player entry's key by seat (``coins#2``…); asking it of none or of
    another value is a defect of the rules, reported as such."""

    def __init__(self, attribute: str, keys: dict[int, Any]):
        super().__init__(keys)
        self.attribute = attribute

    def __missing__(self, key: Any) -> Any:
        what = "none" if key is None else repr(key)
        raise RuleError(f"`.{self.attribute}` was asked of {what} instead of a player")


class PieceTable(dict):
    """What is known of each component by its id; asking it of anything else (none, a
    number) is a defect of the rules, reported as such."""

    def __init__(self, entries: dict[str, Any], attribute: str | None = None):
        super().__init__(entries)
        self.attribute = attribute  # the attribute the table answers (``kind``…), if one

    def __missing__(self, key: Any) -> Any:
        what = "none" if key is None else repr(key)
        asked = f"`.{self.attribute}`" if self.attribute else "a property"
        raise RuleError(f"{asked} was asked of {what} instead of a component")


def each(ctx: Any, items: Any) -> Any:
    """``items`` to scan, one step of the budget per item (paid before the scan)."""
    budget = ctx.budget  # ``Context.tick``, written out: every scan pays here
    try:
        budget[0] -= len(items)
    except TypeError:
        raise RuleError(f"{items!r} is not a collection") from None
    if budget[0] < 0:
        ctx.tick(0)  # raises the step budget's error
    return items


each.pays_steps = True  # type: ignore[attr-defined]  # every scan pays: never shared (hoist.py)


def paid(ctx: Any, steps: int) -> bool:
    """True, after paying ``steps`` of the budget: a scan of a written list whose items
    the code tests one by one (``calls.CallCompiler._unrolled``) pays as ``each``."""
    ctx.tick(steps)
    return True


paid.pays_steps = True  # type: ignore[attr-defined]


def seat(player: Any, attribute: str) -> Any:
    if player is None:
        raise RuleError(f"`.{attribute}` was asked of none instead of a player")
    return player


def player_name(ctx: Any, player: Any) -> str:
    return ctx.state.players[seat(player, "name")]


def player_seat(player: Any) -> int:
    return int(seat(player, "seat"))


def player_next(ctx: Any, player: Any) -> Player:
    return Player((seat(player, "next") + 1) % len(ctx.state.players))


def player_automaton(ctx: Any, player: Any) -> bool:
    return int(seat(player, "automaton")) in ctx.rules.automata


def players(ctx: Any) -> tuple[Player, ...]:
    made = ctx.rules.players  # the game's seats, made once
    if len(made) == len(ctx.state.players):
        return made
    return tuple(Player(i) for i in range(len(ctx.state.players)))


def top(ctx: Any, zone: Any) -> Piece | None:
    items = ctx.state.zones.get(zone, ())
    return items[0] if items else None


def bottom(ctx: Any, zone: Any) -> Piece | None:
    items = ctx.state.zones.get(zone, ())
    return items[-1] if items else None


def zone_of(ctx: Any, piece: Any) -> ZoneRef | None:
    key = ctx.state.where.get(piece)
    return None if key is None else ZoneRef(key)


def face_of(ctx: Any, piece: Any) -> int:
    """``d.face``: the face a die shows (``ruleset/dice.py``)."""
    return ctx.rules.face(ctx.state, piece)


def failed(ctx: Any, action: Any, args: dict[str, Any], explain: bool) -> str | None:
    """Why ``action`` may not be done with ``args`` now (None: it may)."""
    if action is None:
        return "there is no action"
    return ctx.rules.failed_requirement(ctx, str(action), args, explain)


def dynamic_attribute(ctx: Any, value: Any, name: str) -> Any:
    """Attribute access on a value whose type was unknown when compiling: compiled for
    the value's run-time type on first use, and kept."""
    if value is None:
        raise RuleError(f"cannot read `.{name}` of none")
    kind = type_of(value)
    cache = ctx.rules.dynamic_attributes
    fn = cache.get((kind, name))
    if fn is None:
        from interpreter.language.compiler import Compiler

        fn = Compiler(ctx.rules.ruleset.symbols).attribute_reader(kind, name)
        cache[(kind, name)] = fn
    return fn(ctx, value)


def _num(value: Any, what: str) -> int:
    """``value``, a number given to a primitive as ``what``, or a rule error. Here, not in
    ``primitive_functions``, which the other primitive modules would import it from:
    a process whose first import is ``primitive_functions`` (unpickling a stored
    ruleset) reaches them through the registry before it defines it."""
    if type(value) is not int and not is_number(value):
        raise RuleError(f"{what} must be a number, not {value!r}")
    return value
