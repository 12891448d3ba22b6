"""Yes/no checks of the log schema's flat definitions, derived from the schema itself.

A replayed log is mostly decision lines (``{"n": 12, "player": "Ann", "choice": …}``):
fastjsonschema's generic code costs more per line than the rest of reading it. A
definition that is an object of scalars (and lists of scalars) is checked here by a
loop over what its schema says, ``(key, type, minimum, minLength)``; any other
definition has no quick check (None) and goes through fastjsonschema. A line the
quick check refuses is handed to the full validator, which words the error, so the
quick check only has to be exact when it says yes. ``quick_check_many`` says the same
of a list of objects a field at a time (the reader's check of a block of events).
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import chain
from operator import itemgetter
from typing import Any

_TYPES = {"integer": int, "string": str, "boolean": bool}  # JSON gives exactly these
_SCALAR_KEYS = {"type", "minimum", "minLength", "description"}
_OBJECT_KEYS = {"type", "properties", "required", "description"}

Check = Callable[[dict[str, Any]], bool]
ManyCheck = Callable[[list[dict[str, Any]]], bool]


def quick_check(definition: dict[str, Any], closed: bool = False) -> Check | None:
    """A check of ``definition`` that says True only of data the schema accepts, or
    None where the definition is not flat (nested objects, patterns, constants…);
    ``closed``: it also says False of data with a key the definition does not name."""
    shape = _shape(definition)
    if shape is None:
        return None
    required, known, fields = shape
    # a required field is there once ``required`` is: no test of each
    steps = tuple(
        (key, key in required, kind, minimum, min_length, item_kind)
        for key, kind, minimum, min_length, item_kind in fields
    )

    def check(data: dict[str, Any]) -> bool:
        keys = data.keys()
        if not required <= keys or (closed and not keys <= known):
            return False
        for key, present, kind, minimum, min_length, item_kind in steps:
            if present or key in data:
                value = data[key]
            else:
                continue
            if type(value) is not kind:  # exact: true is no integer, 5.0 is none
                return False
            if item_kind is not None:
                if value and set(map(type, value)) != {item_kind}:
                    return False
            elif (minimum is not None and value < minimum) or (
                min_length is not None and len(value) < min_length
            ):
                return False
        return True

    return check


def quick_check_many(definition: dict[str, Any]) -> ManyCheck | None:
    """``quick_check(definition, closed=True)`` of many objects at once, field by field
    (a column of values at a time, at C speed: a block of a log's decisions), True only
    when it is True of each; None where there is no quick check or a field is
    optional (then each object is checked alone)."""
    shape = _shape(definition)
    if shape is None:
        return None
    required, known, fields = shape
    if required != known or not fields:
        return None
    size = len(known)
    getters = [(itemgetter(key), *rest) for key, *rest in fields]

    def check(many: list[dict[str, Any]]) -> bool:
        if not many:
            return True
        if set(map(len, many)) != {size}:  # then each has all the keys, none other
            return False
        for getter, kind, minimum, min_length, item_kind in getters:
            try:
                column = list(map(getter, many))
            except KeyError:
                return False
            if set(map(type, column)) != {kind}:  # exact: true is no integer
                return False
            if item_kind is not None:
                if not set(map(type, chain.from_iterable(column))) <= {item_kind}:
                    return False
            elif (minimum is not None and min(column) < minimum) or (
                min_length is not None and min(map(len, column)) < min_length
            ):
                return False
        return True

    return check


def _shape(
    definition: dict[str, Any],
) -> tuple[frozenset[str], frozenset[str], list[tuple[Any, ...]]] | None:
    """(required keys, known keys, (key, type, minimum, minLength, item type) of each
    field) of a flat definition, or None."""
    if definition.get("type") != "object" or not set(definition) <= _OBJECT_KEYS:
        return None
    fields: list[tuple[Any, ...]] = []
    for key, spec in (definition.get("properties") or {}).items():
        field = _field(spec)
        if field is None:
            return None
        fields.append((key, *field))
    required = frozenset(definition.get("required") or ())
    return required, frozenset(definition.get("properties") or ()), fields


def _field(spec: dict[str, Any]) -> tuple[type, Any, Any, type | None] | None:
    """(type, minimum, minLength, type of the items) of a scalar or a list of scalars."""
    if spec.get("type") == "array" and set(spec) <= {"type", "items", "description"}:
        items = spec.get("items")
        if isinstance(items, dict) and set(items) <= {"type"} and items.get("type") in _TYPES:
            return list, None, None, _TYPES[items["type"]]
        return None
    if not set(spec) <= _SCALAR_KEYS or spec.get("type") not in _TYPES:
        return None
    return _TYPES[spec["type"]], spec.get("minimum"), spec.get("minLength"), None
