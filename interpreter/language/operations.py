"""Run-time helpers the compiled closures call: arithmetic, comparisons, paths.

Kept apart from the compiler so that what runs in every evaluation is small and
easy to read; nothing here parses or checks.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from interpreter.errors import RuleError
from interpreter.language.values import Piece, Player, ZoneRef

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
    if isinstance(value, bool) or not isinstance(value, int):
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
    if isinstance(index, bool) or not isinstance(index, int):
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
    if isinstance(owner, dict):
        return owner.get(key, owner.get(str(key)) if not isinstance(key, str) else None)
    if isinstance(owner, tuple | list):
        return _list_get(owner, key)
    if owner is None:
        return None
    raise RuleError(f"{owner!r} cannot be indexed")


def _player_attribute(name: str, get: Fn) -> Fn:
    if name == "name":
        return lambda ctx: ctx.state.players[get(ctx)]
    if name == "seat":
        return lambda ctx: int(get(ctx))
    if name == "next":
        return lambda ctx: Player((get(ctx) + 1) % len(ctx.state.players))
    if name == "automaton":
        return lambda ctx: int(get(ctx)) in ctx.rules.automata
    raise KeyError(name)


def _zone_attribute(name: str, get: Fn) -> Fn:
    if name == "id":
        return lambda ctx: str(get(ctx))
    if name == "group":
        return lambda ctx: ctx.rules.zone_group.get(get(ctx))
    if name == "pieces":
        return lambda ctx: tuple(Piece(p) for p in ctx.state.zones.get(get(ctx), ()))
    if name == "size":
        return lambda ctx: len(ctx.state.zones.get(get(ctx), ()))
    if name == "empty":
        return lambda ctx: not ctx.state.zones.get(get(ctx))
    if name == "free":
        return lambda ctx: ctx.rules.is_free(ctx.state, get(ctx))
    if name == "capacity":
        return lambda ctx: ctx.rules.zone_capacity.get(get(ctx), 0)
    if name == "top":
        return lambda ctx: _piece_or_none(ctx.state.zones.get(get(ctx), ()), 0)
    if name == "bottom":
        return lambda ctx: _piece_or_none(ctx.state.zones.get(get(ctx), ()), -1)
    if name == "owner":
        return lambda ctx: ctx.rules.zone_owner(ctx.state, get(ctx))
    raise KeyError(name)


def _of_piece(table: dict, piece: Any, name: str) -> Any:
    try:
        return table[piece]
    except (KeyError, TypeError):
        raise RuleError(f"`.{name}` was asked of {piece!r} instead of a component") from None


def _piece_or_none(items: tuple, index: int) -> Piece | None:
    return Piece(items[index]) if items else None


def _piece_attribute(name: str, get: Fn) -> Fn:
    if name == "id":
        return lambda ctx: str(get(ctx))
    if name == "kind":
        return lambda ctx: _of_piece(ctx.rules.piece_kind, get(ctx), name)
    if name == "design":
        return lambda ctx: _of_piece(ctx.rules.piece_design, get(ctx), name)
    if name == "zone":
        return lambda ctx: _zone_or_none(ctx.state.where.get(get(ctx)))
    if name == "owner":
        return lambda ctx: ctx.rules.zone_owner(ctx.state, ctx.state.where.get(get(ctx)))
    raise KeyError(name)


def _zone_or_none(key: str | None) -> ZoneRef | None:
    return None if key is None else ZoneRef(key)


def _short_circuit(
    name: str, positional: tuple[Fn, ...], named: tuple[tuple[str, Fn], ...]
) -> Fn | None:
    """`any`, `first`, `count` and `all` over `x in … where …` or `… for x in …`,
    stopping at the first item that decides the answer instead of building the
    whole collection."""
    if named or len(positional) != 1:
        return None
    binder = getattr(positional[0], "binder", None)
    mapper = getattr(positional[0], "mapper", None)
    if binder is not None and name in ("any", "first", "count"):
        get_items, var, cond = binder

        def scan(ctx: Any) -> Any:
            saved = ctx.env
            env = ctx.env = dict(saved)
            found = 0
            try:
                for item in get_items(ctx):
                    ctx.tick()
                    env[var] = item
                    if cond(ctx):
                        if name == "any":
                            return True
                        if name == "first":
                            return item
                        found += 1
            finally:
                ctx.env = saved
            return {"any": False, "first": None}.get(name, found)

        return scan
    if mapper is not None and name in ("any", "all"):
        get_items, var, cond, get_value = mapper
        wanted = name == "any"

        def scan_values(ctx: Any) -> bool:
            saved = ctx.env
            env = ctx.env = dict(saved)
            try:
                for item in get_items(ctx):
                    ctx.tick()
                    env[var] = item
                    if (cond is None or cond(ctx)) and bool(get_value(ctx)) == wanted:
                        return wanted
            finally:
                ctx.env = saved
            return not wanted

        return scan_values
    return None


def _user_call(name: str, names: tuple[str, ...], arg_fns: tuple[Fn, ...]) -> Fn:
    """A call of a ruleset function: its body runs with only its parameters as locals.

    Specialised by arity, since these calls are the interpreter's hottest path.
    """
    if len(names) == 1:
        (n0,), (f0,) = names, arg_fns

        def call1(ctx: Any) -> Any:
            env = {n0: f0(ctx)}
            saved = ctx.env
            ctx.env = env
            try:
                return ctx.rules.function_bodies[name](ctx)
            finally:
                ctx.env = saved

        return call1
    if len(names) == 2:
        (n0, n1), (f0, f1) = names, arg_fns

        def call2(ctx: Any) -> Any:
            env = {n0: f0(ctx), n1: f1(ctx)}
            saved = ctx.env
            ctx.env = env
            try:
                return ctx.rules.function_bodies[name](ctx)
            finally:
                ctx.env = saved

        return call2

    def call(ctx: Any) -> Any:
        env = dict(zip(names, [f(ctx) for f in arg_fns], strict=True))
        saved = ctx.env
        ctx.env = env
        try:
            return ctx.rules.function_bodies[name](ctx)
        finally:
            ctx.env = saved

    return call
