"""Scans of a kind or a group narrowed by an index of a static property.

`c in card where c.suit == suit and …` scans every component of the kind to keep
the few whose `suit` is the one asked; so does `s in seats where s.row == r` with the
spaces of a group. A component's and a space's declared properties never
change during a game, so the game's tables keep, for such a property, which members
have which value (``Tables.selection``), and the scan walks only those. The `where`
stays as it is and still decides every member: the index only has to give every
member that can pass, in the order of the kind or group (an unhashable value, or a
property whose values are not all hashable, walks every member, as before). A scan
walks fewer members, so it pays fewer steps of the budget (one per member walked).

Only `x.prop == value` (either way round, alone or among the `and`-parts) where
``value`` is a constant or a local (never something that could fail or pay steps:
it is computed before the scan, once) narrows a scan.
"""

from __future__ import annotations

import ast
from typing import Any

from interpreter.language import codegen as cg

# the static member lists the generated code reads, and the tables of their properties
_SOURCES = {"kind_members": "piece_props", "group_members": "zone_props"}


def narrowed(items: ast.expr, cond: ast.expr | None, var: str, select: ast.Name) -> ast.expr:
    """``items`` as the generated code computes the members to scan, narrowed where
    ``cond`` (None: no `where`) asks a static property of ``var`` to equal a constant
    or a local."""
    source = _static_members(items)
    if source is None or cond is None:
        return items
    table = _SOURCES[source[0]]
    parts = cond.values if isinstance(cond, ast.BoolOp) and isinstance(cond.op, ast.And) else [cond]
    for part in parts:
        found = _equality(part, var, table)
        if found is not None:
            prop, value = found
            return cg.call(
                select,
                cg.name(cg.CTX),
                ast.Constant(source[0]),
                ast.Constant(source[1]),
                ast.Constant(prop),
                value,
            )
    return items


def _static_members(items: ast.expr) -> tuple[str, str] | None:
    """("kind_members", kind) for ``ctx.rules.kind_members['kind']``, alike for groups."""
    if not (isinstance(items, ast.Subscript) and isinstance(items.slice, ast.Constant)):
        return None
    owner = items.value
    if (
        isinstance(owner, ast.Attribute)
        and owner.attr in _SOURCES
        and _is_ctx_rules(owner.value)
        and isinstance(items.slice.value, str)
    ):
        return owner.attr, items.slice.value
    return None


def _equality(part: ast.expr, var: str, table: str) -> tuple[str, ast.expr] | None:
    """(property, value) of ``table[var].get(property) == value`` or the other way."""
    if not (
        isinstance(part, ast.Compare) and len(part.ops) == 1 and isinstance(part.ops[0], ast.Eq)
    ):
        return None
    for read, value in ((part.left, part.comparators[0]), (part.comparators[0], part.left)):
        prop = _property_read(read, var, table)
        if prop is not None and _plain(value, var):
            return prop, value
    return None


def _property_read(node: ast.expr, var: str, table: str) -> str | None:
    """``property`` of ``ctx.rules.<table>[var].get('property')``."""
    if not (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "get"
        and len(node.args) == 1
        and not node.keywords
        and isinstance(node.args[0], ast.Constant)
        and isinstance(node.args[0].value, str)
    ):
        return None
    looked_up = node.func.value
    if (
        isinstance(looked_up, ast.Subscript)
        and isinstance(looked_up.slice, ast.Name)
        and looked_up.slice.id == var
        and isinstance(looked_up.value, ast.Attribute)
        and looked_up.value.attr == table
        and _is_ctx_rules(looked_up.value.value)
    ):
        return node.args[0].value
    return None


def _plain(value: ast.expr, var: str) -> bool:
    """A constant, or a local other than the scan's own: nothing that can fail."""
    if isinstance(value, ast.Constant):
        return True
    return isinstance(value, ast.Name) and value.id != var and value.id.startswith(cg.local(""))


def _is_ctx_rules(node: ast.expr) -> bool:
    return (
        isinstance(node, ast.Attribute)
        and node.attr == "rules"
        and isinstance(node.value, ast.Name)
        and node.value.id == cg.CTX
    )


def select(ctx: Any, source: str, key: str, prop: str, value: Any) -> tuple:
    """The members of ``source[key]`` whose ``prop`` may be ``value``, in their order."""
    index = ctx.rules.selection(source, key, _SOURCES[source], prop)
    if index is None:
        return getattr(ctx.rules, source)[key]
    try:
        return index.get(value, ())
    except TypeError:  # an unhashable value: every member, the `where` decides
        return getattr(ctx.rules, source)[key]
