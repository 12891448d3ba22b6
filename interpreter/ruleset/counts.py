"""Counts written as constants: `rounds: {count: rounds_played}`, `capacity: hand_limit`,
`count: copies_per_colour * 2`.

Wherever the format takes a whole number of things (the places in ``PLACES``) a text
may stand instead: the name of a constant, or arithmetic on constants and numbers
(`+ - * // %`, a constant list's item `sizes[2]`), worked out before anything else
reads the catalog, so every later check sees a plain number. A count is the same at
every player count, so a constant given `per_side` is refused here, at the count, with
a hint; so is a name that is no constant, a value that is not a whole number, and a
result outside the place's bounds. This module is the one declaration: the places,
the schema they accept, and the working out.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from lark import Token, Tree

from interpreter.errors import Diagnostic
from interpreter.language.compiled import did_you_mean
from interpreter.language.parser import SyntaxProblem, parse
from interpreter.language.values import is_number

if TYPE_CHECKING:
    from interpreter.load.ruleset_files import Catalog, Item

ANY_KEY = "*"  # in a place's path: every key of a mapping, every item of a list


@dataclass(frozen=True, slots=True)
class Place:
    """A count of the format: the section (or singleton), the path inside an item,
    and the bounds the schema gives a number there."""

    section: str
    path: tuple[str, ...]
    low: int | None = None
    high: int | None = None


PLACES = (
    Place("structure", ("rounds", "count"), 1, 1000),
    Place("zones", ("capacity",), 0),
    Place("spaces", ("capacity",), 0),
    Place("spaces", ("items", ANY_KEY, "capacity"), 0),
    Place("spaces", ("grid", "rows"), 1, 26),
    Place("spaces", ("grid", "columns"), 1, 26),
    Place("components", ("count",), 1, 1000),
    Place("components", ("count", "counts", ANY_KEY), 1, 1000),
    Place("counters", ("initial",)),
    Place("counters", ("initial", ANY_KEY)),
    Place("counters", ("min",)),
    Place("counters", ("max",)),
    Place("counters", ("keys", "from")),
    Place("counters", ("keys", "to")),
    Place("zones", ("keys", "from")),
    Place("zones", ("keys", "to")),
)

NAMED = {
    "type": "string",
    "minLength": 1,
    "description": "A constant's name, or arithmetic on constants and numbers "
    "(`hand_size * 2`): worked out when the rules are checked.",
}


def counted(schema: dict[str, Any]) -> dict[str, Any]:
    """The schema of a count: ``schema`` (a whole number), or a constant's name or
    arithmetic on constants (``NAMED``)."""
    if "oneOf" in schema:
        return {**schema, "oneOf": [*schema["oneOf"], NAMED]}
    return {"oneOf": [schema, NAMED]}


def resolved(catalog: Catalog) -> tuple[Catalog, list[Diagnostic]]:
    """The catalog with every count written as a text worked out (the items that have
    one copied; the others, and the catalog itself when none has, kept as they are),
    and the problems, each at its count."""
    constants = {item.id: item.data for item in catalog.sections["constants"].values() if item.data}
    problems: list[Diagnostic] = []
    sections = dict(catalog.sections)
    singletons = dict(catalog.singletons)
    changed = False
    for place in PLACES:
        if place.section in singletons:
            items = {place.section: singletons[place.section]}
        else:
            items = sections.get(place.section, {})
        for key, item in items.items():
            if not isinstance(item.data, dict):
                continue
            data = _worked_out(item, place, constants, problems)
            if data is None:
                continue
            changed = True
            new = replace(item, data=data)
            if place.section in singletons:
                singletons[place.section] = new
            else:
                sections[place.section] = {**sections[place.section], key: new}
    if not changed:
        return catalog, problems
    return replace(catalog, sections=sections, singletons=singletons), problems


def _worked_out(
    item: Item, place: Place, constants: dict[str, Any], problems: list[Diagnostic]
) -> dict | None:
    """The item's data with the counts at ``place`` worked out, or None if it writes
    none there as a text."""
    found = list(_texts(item.data, place.path, ()))
    if not found:
        return None
    data = _copy(item.data)
    for path, text in found:
        value = _value(item, path, text, place, constants, problems)
        _set(data, path, value)
    return data


def _texts(data: Any, path: tuple[str, ...], at: tuple) -> Any:
    """(path, text) of every text at ``path`` inside ``data``."""
    if not path:
        if isinstance(data, str):
            yield at, data
        return
    head, rest = path[0], path[1:]
    if head == ANY_KEY:
        if isinstance(data, dict):
            for key, value in data.items():
                yield from _texts(value, rest, (*at, key))
        elif isinstance(data, list):
            for index, value in enumerate(data):
                yield from _texts(value, rest, (*at, index))
    elif isinstance(data, dict) and head in data:
        yield from _texts(data[head], rest, (*at, head))


def _copy(data: Any) -> Any:
    if isinstance(data, dict):
        return {k: _copy(v) for k, v in data.items()}
    if isinstance(data, list):
        return [_copy(v) for v in data]
    return data


def _set(data: Any, path: tuple, value: Any) -> None:
    for key in path[:-1]:
        data = data[key]
    data[path[-1]] = value


class _NotCount(Exception):
    """Why a text is no count, and the hint."""

    def __init__(self, message: str, hint: str | None = None):
        super().__init__(message)
        self.message, self.hint = message, hint


def _value(
    item: Item,
    path: tuple,
    text: str,
    place: Place,
    constants: dict[str, Any],
    problems: list[Diagnostic],
) -> int:
    """The count ``text`` stands for; a problem reported (and the place's least value
    given, so later checks go on) when it stands for none."""
    fallback = place.low if place.low is not None else 0
    try:
        value = _evaluate(parse(text, "expr"), constants)
    except SyntaxProblem as problem:
        value, error = None, _NotCount(f"this count does not read: {problem.message}")
    except _NotCount as refused:
        value, error = None, refused
    if value is not None:
        if place.low is not None and value < place.low:
            error = _NotCount(f"`{text}` is {value}: this count is at least {place.low}")
        elif place.high is not None and value > place.high:
            error = _NotCount(f"`{text}` is {value}: this count is at most {place.high}")
        else:
            return value
    _, full = item.source(*path)  # the JSON pointer a schema error gives too
    pointer = "/" + "/".join(str(part) for part in full)
    problems.append(
        Diagnostic(
            item.location(*path),
            error.message,
            error.hint,
            kind="schema",
            json_path=pointer,
            data_path=tuple(full),
        )
    )
    return fallback


def _evaluate(tree: Any, constants: dict[str, Any]) -> int:
    """A count's expression worked out: numbers, constants, `+ - * // %`, `-x`,
    parentheses and a constant list's item."""
    if isinstance(tree, Token):
        raise _NotCount(f"`{tree}` is not a count")
    kind = tree.data
    if kind == "number":
        return int(str(tree.children[0]))
    if kind == "neg":
        return -_evaluate(tree.children[0], constants)
    if kind == "arith":
        left, op, right = tree.children
        a, b = _evaluate(left, constants), _evaluate(right, constants)
        op = str(op)
        if op in ("//", "%") and b == 0:
            raise _NotCount("this count divides by zero")
        return {"+": a + b, "-": a - b, "*": a * b, "//": a // b if b else 0, "%": a % b}[op]
    if kind == "name":
        return _whole(_constant(str(tree.children[0]), constants), str(tree.children[0]))
    if kind == "index":
        owner, index = tree.children
        if not (isinstance(owner, Tree) and owner.data == "name"):
            raise _NotCount("a count takes an item of a constant list only: `sizes[2]`")
        name = str(owner.children[0])
        values = _constant(name, constants)
        position = _evaluate(index, constants)
        if not isinstance(values, list) or not 0 <= position < len(values):
            raise _NotCount(f"`{name}` has no item {position}", "items count from 0")
        return _whole(values[position], f"{name}[{position}]")
    raise _NotCount(
        "a count is a whole number, a constant's name, or arithmetic on them",
        "write a number (`4`), a constant (`hand_size`) or `hand_size * 2`",
    )


def _constant(name: str, constants: dict[str, Any]) -> Any:
    data = constants.get(name)
    if not isinstance(data, dict):
        raise _NotCount(
            f"expected a whole number, got {name!r}: it is no constant either",
            did_you_mean(name, set(constants))
            or "a count is a whole number, a constant's name or arithmetic on constants",
        )
    if "per_side" in data:
        raise _NotCount(
            f"the constant `{name}` differs by board side: a count is the same at every "
            "player count",
            "give it one `value`, or write the count as a number",
        )
    return data.get("value")


def _whole(value: Any, name: str) -> int:
    if not is_number(value):
        raise _NotCount(f"`{name}` is {value!r}, not a whole number")
    return int(value)
