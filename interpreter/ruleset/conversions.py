"""Small conversions the build stage shares: YAML values to frozen values and types,
parameter declarations to signatures, words for messages."""

from __future__ import annotations

from typing import Any

from interpreter.identity_memo import by_identity
from interpreter.language.symbols import Signature
from interpreter.language.values import (
    ANY,
    BOOL,
    MAP,
    NONE,
    NUMBER,
    TEXT,
    TYPE_NAMES,
    is_list,
    list_of,
    type_of,
)


def signature(params: Any, returns: str = ANY, unchecked: bool = False) -> Signature:
    """The signature declared by ``params`` (an item's `params` mapping); the same one
    again for the same mapping (every combination of a ruleset's expansions that leaves
    the item alone reads the very same object)."""
    if isinstance(params, dict):
        return _kept_signature(params, returns, unchecked)
    return _signature(params, returns, unchecked)


def _signature(params: Any, returns: str, unchecked: bool) -> Signature:
    types: dict[str, str] = {}
    optional = set()
    defaults = []
    for name, decl in (params or {}).items():
        if isinstance(decl, dict):
            types[name] = decl.get("type", ANY)
            if "default" in decl:
                optional.add(name)
                defaults.append((name, freeze(decl["default"])))
        else:
            types[name] = decl if decl in TYPE_NAMES else ANY
    return Signature(
        types,
        frozenset(optional),
        returns if returns in TYPE_NAMES else ANY,
        unchecked,
        tuple(defaults),
    )


_kept_signature = by_identity(_signature)  # per process, by the params mapping's identity


def infer_type(value: Any) -> str:
    """The static type of a value written in YAML (lists typed by their items)."""
    if isinstance(value, list):
        inner = {infer_type(v) for v in value}
        return list_of(inner.pop() if len(inner) == 1 else ANY)
    kind = type_of(value)
    return ANY if kind == NONE else kind


def per_side(value: Any) -> bool:
    """Whether a built constant's value differs by board side (``{"per_side": …}``):
    only a game knows it; every other constant's value is known when compiling."""
    return isinstance(value, dict) and set(value) == {"per_side"}


def freeze(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(freeze(v) for v in value)
    if isinstance(value, dict):
        return {k: freeze(v) for k, v in value.items()}
    return value


def reaches(start: str, calls: dict[str, set[str]]) -> bool:
    seen, stack = set(), list(calls.get(start, ()))
    while stack:
        name = stack.pop()
        if name == start:
            return True
        if name not in seen:
            seen.add(name)
            stack.extend(calls.get(name, ()))
    return False


def article(word: str) -> str:
    return f"an {word}" if word[0] in "aeiou" else f"a {word}"


def type_words(type_: str) -> str:
    return {
        NUMBER: "a whole number",
        BOOL: "true or false",
        TEXT: "a text",
        MAP: "a mapping",
        "list": "a list",
    }.get(type_, type_ if not is_list(type_) else "a list")


def players_notes(note: Any) -> dict[int, str]:
    """A `players: note` as texts by player count: one text is said for any refused
    count (key 0); a mapping keeps each text to its count (the schema checks the keys)."""
    if isinstance(note, dict):
        return {int(count): str(text) for count, text in note.items()}
    return {0: str(note)} if note else {}
