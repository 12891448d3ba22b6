"""A yes/no check of data against one of our JSON Schemas, made of plain closures.

jsonschema words every violation at its place (``schema_check.py``), but importing it
and walking a ruleset's files with it cost a cold `rules validate` about a tenth of
its time, and nearly every file it reads is valid. ``verdict`` turns a schema into
one function that only answers whether the data is valid, and ``schema_check`` asks
jsonschema only when the answer is no. The answer must be jsonschema's: every
keyword our schemas use is read as JSON Schema 2020-12 (and jsonschema) reads it, ``1.0``
an integer, ``true`` no number, ``$`` in a pattern Python's. A schema with any other
keyword gets no verdict (None), and jsonschema checks everything against it.
(fastjsonschema was measured first: its generated code took longer than jsonschema
over a full ruleset's files, for its branches of ``oneOf`` raise an exception each.)
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

Check = Callable[[Any], bool]

# the keywords that say nothing of validity (``x-…`` ones neither)
ANNOTATIONS = frozenset(
    {"description", "title", "$id", "$schema", "$comment", "examples", "default", "$defs"}
)
_TYPES: dict[str, Check] = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
    "number": lambda v: isinstance(v, int | float) and not isinstance(v, bool),
    "integer": lambda v: (
        (isinstance(v, int) and not isinstance(v, bool))
        or (isinstance(v, float) and v.is_integer())
    ),
}


# the keywords that bound a size or a number: (the values they apply to, the measure,
# whether it is a lower bound)
BOUNDS: dict[str, tuple[Check, Callable[[Any], Any], bool]] = {
    "minProperties": (lambda v: isinstance(v, dict), len, True),
    "maxProperties": (lambda v: isinstance(v, dict), len, False),
    "minItems": (lambda v: isinstance(v, list), len, True),
    "maxItems": (lambda v: isinstance(v, list), len, False),
    "minLength": (lambda v: isinstance(v, str), len, True),  # code points, as jsonschema
    "maxLength": (lambda v: isinstance(v, str), len, False),
    "minimum": (_TYPES["number"], lambda v: v, True),  # `true` is no number: unbounded
    "maximum": (_TYPES["number"], lambda v: v, False),
}


def _bound(keyword: str, limit: Any) -> Check:
    applies, measure, lower = BOUNDS[keyword]
    if lower:
        return lambda v: not applies(v) or measure(v) >= limit
    return lambda v: not applies(v) or measure(v) <= limit


class _Unreadable(Exception):
    """The schema uses a keyword (or a form of one) ``verdict`` does not read."""


def verdict(schema: dict[str, Any]) -> Check | None:
    """``check(data)``: whether ``data`` is valid against ``schema``, as jsonschema
    would say; None if the schema holds what this module does not read."""
    try:
        return _Builder(schema).build(schema)
    except _Unreadable:
        return None


class _Builder:
    """Builds the closures of a schema's nodes; a ``$ref`` is built once, on first use."""

    def __init__(self, root: dict[str, Any]):
        self.root = root
        self.refs: dict[str, Check] = {}

    def build(self, node: Any) -> Check:
        if node is True:
            return lambda v: True
        if node is False:
            return lambda v: False
        if not isinstance(node, dict):
            raise _Unreadable(repr(node))
        parts: list[Check] = []
        for key, value in node.items():
            if key in ANNOTATIONS or key.startswith("x-"):
                continue
            if key in BOUNDS:
                parts.append(_bound(key, value))
                continue
            make = getattr(self, "_" + key.lstrip("$"), None)
            if make is None:
                raise _Unreadable(key)
            parts.append(make(value, node))
        if not parts:
            return lambda v: True
        if len(parts) == 1:
            return parts[0]
        return lambda v: all(part(v) for part in parts)

    # --------------------------------------------------------------- any value
    def _type(self, value: Any, node: dict) -> Check:
        names = value if isinstance(value, list) else [value]
        if not all(name in _TYPES for name in names):
            raise _Unreadable(f"type {value!r}")
        tests = [_TYPES[name] for name in names]
        if len(tests) == 1:
            return tests[0]
        return lambda v: any(test(v) for test in tests)

    def _enum(self, value: Any, node: dict) -> Check:
        if not isinstance(value, list) or not all(isinstance(x, str) for x in value):
            raise _Unreadable("enum")  # texts only: then Python's == is JSON's
        allowed = frozenset(value)
        return lambda v: isinstance(v, str) and v in allowed

    def _const(self, value: Any, node: dict) -> Check:
        if not isinstance(value, str):
            raise _Unreadable("const")
        return lambda v: isinstance(v, str) and v == value

    def _ref(self, value: Any, node: dict) -> Check:
        if not isinstance(value, str) or not value.startswith("#"):
            raise _Unreadable(f"$ref {value!r}")
        if value not in self.refs:
            self.refs[value] = lambda v: self.refs[value](v)  # while it is being built
            self.refs[value] = self.build(self._pointer(value))
        refs = self.refs
        return lambda v: refs[value](v)

    def _pointer(self, ref: str) -> Any:
        target: Any = self.root
        for part in ref[1:].split("/")[1:]:
            part = part.replace("~1", "/").replace("~0", "~")
            if isinstance(target, dict) and part in target:
                target = target[part]
            elif isinstance(target, list) and part.isdigit() and int(part) < len(target):
                target = target[int(part)]
            else:
                raise _Unreadable(f"$ref {ref!r}")
        return target

    def _oneOf(self, value: Any, node: dict) -> Check:
        branches = [self.build(branch) for branch in value]
        return lambda v: sum(1 for branch in branches if branch(v)) == 1

    def _anyOf(self, value: Any, node: dict) -> Check:
        branches = [self.build(branch) for branch in value]
        return lambda v: any(branch(v) for branch in branches)

    def _allOf(self, value: Any, node: dict) -> Check:
        branches = [self.build(branch) for branch in value]
        return lambda v: all(branch(v) for branch in branches)

    def _not(self, value: Any, node: dict) -> Check:
        inner = self.build(value)
        return lambda v: not inner(v)

    # ------------------------------------------------------------------ objects
    def _properties(self, value: Any, node: dict) -> Check:
        checks = [(name, self.build(sub)) for name, sub in value.items()]

        def check(v: Any) -> bool:
            if not isinstance(v, dict):
                return True
            return all(sub(v[name]) for name, sub in checks if name in v)

        return check

    def _additionalProperties(self, value: Any, node: dict) -> Check:
        if "patternProperties" in node:
            raise _Unreadable("patternProperties")
        named = frozenset(node.get("properties") or ())
        if value is False:
            return lambda v: not isinstance(v, dict) or v.keys() <= named
        inner = self.build(value)

        def check(v: Any) -> bool:
            if not isinstance(v, dict):
                return True
            return all(inner(item) for key, item in v.items() if key not in named)

        return check

    def _required(self, value: Any, node: dict) -> Check:
        names = tuple(value)
        return lambda v: not isinstance(v, dict) or all(name in v for name in names)

    def _propertyNames(self, value: Any, node: dict) -> Check:
        inner = self.build(value)
        return lambda v: not isinstance(v, dict) or all(inner(key) for key in v)

    # -------------------------------------------------------------------- lists
    def _items(self, value: Any, node: dict) -> Check:
        if "prefixItems" in node:
            raise _Unreadable("prefixItems")
        inner = self.build(value)
        return lambda v: not isinstance(v, list) or all(inner(item) for item in v)

    def _uniqueItems(self, value: Any, node: dict) -> Check:
        if not value:
            return lambda v: True

        def check(v: Any) -> bool:
            if not isinstance(v, list):
                return True
            if not all(isinstance(item, str) for item in v):
                raise _Unsure  # JSON's equality is not Python's (1 and true differ)
            return len(set(v)) == len(v)

        return check

    # -------------------------------------------------------------------- texts
    def _pattern(self, value: Any, node: dict) -> Check:
        search = re.compile(value).search  # what jsonschema does: re.search
        return lambda v: not isinstance(v, str) or search(v) is not None


class _Unsure(Exception):
    """The data holds what the verdict cannot judge as JSON Schema does."""


def accepts(check: Check | None, data: Any) -> bool:
    """Whether ``check`` says ``data`` is valid (False: ask jsonschema, which also
    answers when there is no check, or it cannot judge the data, or it recursed too
    deep)."""
    if check is None:
        return False
    try:
        return check(data)
    except (_Unsure, RecursionError):
        return False
