"""Warnings about rules that are valid but almost certainly not what the author meant.

A ruleset can pass every check and still carry dead weight: an action no phase
offers, a function nobody calls, a constant or counter nobody names, an event nobody
emits or answers, or an option whose requirement can never hold. None of them breaks a game,
so they are warnings (``severity="warning"``), located at the definition; the CLI
turns them into errors with ``--strict``.

The lint is conservative by design: a name counts as used as soon as its word occurs
in a reachable item (an expression, a list of names, a message template), so a
warning is only given when nothing at all refers to the definition.
"""

from __future__ import annotations

import operator
import re
from collections.abc import Iterator
from typing import Any

from lark import Token, Tree

from interpreter.errors import Diagnostic
from interpreter.identity_memo import by_identity
from interpreter.language.parser import SyntaxProblem, parse
from interpreter.language.values import is_number
from interpreter.load.ruleset_files import Catalog, Item

# The sections whose items only matter when something refers to them.
LINTED = {
    "actions": "action",
    "functions": "function",
    "constants": "constant",
    "counters": "counter",
    "events": "event",
}
# Keys whose texts are prose for people: a word in them is not a reference.
PROSE = {"description", "label", "name", "note", "docs", "decision"}
# Sections that never make anything used (they name items only to show them).
INERT = {"labels"}
WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
# `choose NAME in COLLECTION` and `option NAME in COLLECTION`, COLLECTION a bare name
CHOOSE = re.compile(r"\b(?:choose|option)\s+[A-Za-z_]\w*\s+in\s+([A-Za-z_]\w*)\b(?!\s*[.(\[])")


def lint(catalog: Catalog) -> list[Diagnostic]:
    """Every warning for a catalog that built without errors, in file order."""
    return sorted(unused(catalog) + never_legal(catalog), key=lambda d: d.location)


# ------------------------------------------------------------------ unused names
def unused(catalog: Catalog) -> list[Diagnostic]:
    """Actions, functions, constants, counters and events that no reachable item names.

    The items outside the linted sections (structure, scoring, triggers, components,
    spaces, zones, automata, …) are the roots: the engine runs or shows them whatever
    happens. A linted item is reachable when a root, or a reachable item, names it.
    """
    words: dict[tuple[str, str], set[str]] = {}
    for section, items in catalog.sections.items():
        if section in INERT:
            continue
        for item in items.values():
            words[(section, item.id)] = _item_words(item.data)
    for name, item in catalog.singletons.items():
        words[(name, name)] = _item_words(item.data)
    by_name: dict[str, list[tuple[str, str]]] = {}
    for section in LINTED:
        for item_id in catalog.sections.get(section, {}):
            by_name.setdefault(item_id, []).append((section, item_id))
    names = set(by_name)  # an item's words are many: only these can reach anything
    reached = {key for key in words if key[0] not in LINTED}
    queue = list(reached)
    while queue:
        key = queue.pop()
        for word in words.get(key, frozenset()) & names:
            for target in by_name[word]:
                if target not in reached and target != key:
                    reached.add(target)
                    queue.append(target)
    out = []
    for section, kind in LINTED.items():
        for item in catalog.sections.get(section, {}).values():
            if (section, item.id) in reached or _records_a_decision(item):
                continue
            out.append(
                Diagnostic(
                    item.location(key=True),
                    f"{kind} `{item.id}` is never used",
                    f"nothing in the rules refers to `{item.id}`; remove it, or use it "
                    + _where_used(kind),
                    severity="warning",
                    kind=f"unused-{kind}",
                )
            )
    return out


def _records_a_decision(item: Item) -> bool:
    """A constant with a `decision` documents a reading of the rulebook (format.md):
    it is kept for people even when the rules never read it."""
    return item.section == "constants" and isinstance(item.data, dict) and "decision" in item.data


def _where_used(kind: str) -> str:
    return {
        "action": "in a phase's effect (`do NAME(…)`) or a list of actions",
        "function": "in an expression (`NAME(…)`)",
        "constant": "in an expression",
        "counter": "in an expression or an effect (`gain(NAME, 1)`, `my.NAME`)",
        "event": "with `emit NAME(…)` and a trigger `on: NAME`",
    }[kind]


@by_identity
def _item_words(data: Any) -> frozenset[str]:
    """The words of an item's data (the same data in every combination of expansions):
    every identifier written in its keys and texts, prose excepted."""
    texts: list[str] = []
    stack = [data]
    while stack:
        node = stack.pop()
        if isinstance(node, str):
            texts.append(node)
        elif isinstance(node, dict):
            for key, value in node.items():
                if isinstance(key, str):
                    texts.append(key)
                if key not in PROSE:
                    stack.append(value)
        elif isinstance(node, list):
            stack.extend(node)
    return frozenset(WORD.findall("\n".join(texts)))  # no word spans a line break


# ------------------------------------------------------------- options never legal
def never_legal(catalog: Catalog) -> list[Diagnostic]:
    """Action requirements that are constant false, and choices over a constant that is
    an empty list: the option they guard can never be taken."""
    constants = _scalar_constants(catalog)
    empty = {
        item.id
        for item in catalog.sections.get("constants", {}).values()
        if isinstance(item.data, dict)
        and item.data.get("value") == []
        and "per_side" not in item.data
    }
    out = []
    for item in catalog.sections.get("actions", {}).values():
        requires = item.data.get("requires") if isinstance(item.data, dict) else None
        for index, entry in enumerate(requires if isinstance(requires, list) else []):
            condition = entry.get("condition") if isinstance(entry, dict) else None
            if isinstance(condition, str) and _constant_value(condition, constants) is False:
                out.append(
                    Diagnostic(
                        item.location("requires", index, "condition"),
                        f"this requirement of action `{item.id}` is always false: "
                        "the action can never be taken",
                        "the condition uses only fixed values; make it depend on the game, "
                        "or remove the action",
                        severity="warning",
                        kind="never-legal",
                    )
                )
    for key, where, text in _effects(catalog) if empty else ():  # nothing to choose from
        for match in CHOOSE.finditer(text):
            if match.group(1) in empty:
                document, path = where
                line = text.count("\n", 0, match.start(1)) + 1
                column = match.start(1) - (text.rfind("\n", 0, match.start(1)) + 1) + 1
                out.append(
                    Diagnostic(
                        document.expression_location(path, line, column),
                        f"`{match.group(1)}` is a constant empty list: this choice in "
                        f"{key} never has an option",
                        "give the constant entries, or choose from another collection",
                        severity="warning",
                        kind="never-legal",
                    )
                )
    return out


def _effects(catalog: Catalog) -> Iterator[tuple[str, tuple, str]]:
    """(item name, (document, json path), text) of every `effect` text of the rules."""
    items: list[Item] = [i for s in catalog.sections.values() for i in s.values()]
    items += list(catalog.singletons.values())
    for item in items:
        for sub, text in _effect_texts(item.data):
            name = f"the {item.id}" if item.id == item.section else f"`{item.id}`"
            yield name, item.source(*sub), text


@by_identity
def _effect_texts(data: Any) -> tuple[tuple[tuple, str], ...]:
    """(json path within the item, text) of every `effect` text in an item's data (the
    same data in every combination of expansions)."""

    def walk(node: Any, sub: tuple) -> Iterator[tuple[tuple, str]]:
        if isinstance(node, dict):
            for k, value in node.items():
                if k in ("effect", "setup") and isinstance(value, str):
                    yield (*sub, k), value
                elif k not in PROSE:
                    yield from walk(value, (*sub, k))
        elif isinstance(node, list):
            for index, value in enumerate(node):
                yield from walk(value, (*sub, index))

    return tuple(walk(data, ()))


def _scalar_constants(catalog: Catalog) -> dict[str, Any]:
    out = {}
    for item in catalog.sections.get("constants", {}).values():
        data = item.data
        if isinstance(data, dict) and "value" in data and "per_side" not in data:
            value = data["value"]
            if isinstance(value, bool | int):
                out[item.id] = value
    return out


def _constant_value(text: str, constants: dict[str, Any]) -> Any:
    """The value of a condition made only of literals, fixed constants and operators
    (read with the language's own parser), or None when it depends on the game or is
    not that simple."""
    try:
        return _fold(parse(text, "expr"), constants)
    except (SyntaxProblem, _NotConstant):
        return None


class _NotConstant(Exception):
    pass


def _fold(node: Tree | Token, constants: dict[str, Any]) -> Any:
    """Evaluate ``node`` when nothing in it depends on the game; else _NotConstant."""
    if not isinstance(node, Tree):
        raise _NotConstant
    kind, children = node.data, node.children
    if kind == "number":
        return int(children[0])
    if kind in ("true", "false"):
        return kind == "true"
    if kind == "name" and str(children[0]) in constants:
        return constants[str(children[0])]
    if kind == "not_op":
        return not _truth(children[0], constants)
    if kind == "and_op":
        return _truth(children[0], constants) and _truth(children[1], constants)
    if kind == "or_op":
        return _truth(children[0], constants) or _truth(children[1], constants)
    if kind == "neg":
        return -_number(children[0], constants)
    if kind == "arith" and str(children[1]) in _ARITHMETIC:
        left, right = _number(children[0], constants), _number(children[2], constants)
        return _ARITHMETIC[str(children[1])](left, right)
    if kind == "compare" and str(children[1]) in _COMPARE:
        left, right = _fold(children[0], constants), _fold(children[2], constants)
        return _COMPARE[str(children[1])](left, right)
    raise _NotConstant


def _truth(node: Tree | Token, constants: dict[str, Any]) -> bool:
    value = _fold(node, constants)
    if not isinstance(value, bool):
        raise _NotConstant
    return value


def _number(node: Tree | Token, constants: dict[str, Any]) -> int:
    value = _fold(node, constants)
    if not is_number(value):
        raise _NotConstant
    return value


_ARITHMETIC = {"+": operator.add, "-": operator.sub, "*": operator.mul}
_COMPARE = {
    "==": operator.eq,
    "!=": operator.ne,
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
}
