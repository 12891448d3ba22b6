"""Completion inside expressions: the names that fit where the cursor is.

After ``do `` or ``can `` the ruleset's actions; after ``x.`` the attributes of what
``x`` is, when that can be told from the item's parameters (``p: player``,
``card: piece``) or the built-in names (``my.``): per-player counters, zones and
variables, component and space properties, built-in attributes. Elsewhere: the
item's parameters, the locals bound earlier in its text, the ruleset's names and
the primitives. Judged from the text before the cursor, not by parsing: the text
being typed is rarely valid yet.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from lsprotocol import types

from interpreter.language.registry import REGISTRY
from interpreter.language.values import PIECE, PLAYER, ZONE
from interpreter.lsp.hover import primitive_markdown, signature
from interpreter.lsp.index import Definition, Index

Kind = types.CompletionItemKind

_ATTRIBUTE = re.compile(r"([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)\.(\w*)$")
_DO_CAN = re.compile(r"(?<![\w.])(do|can)\s+(\w*)$")
_PREFIX = re.compile(r"(\w*)$")
_KEY = re.compile(r"^\s*(?:-\s+)?[A-Za-z_][\w-]*$")  # a YAML key being written
_KEY_LINE = re.compile(r"^( *)(?:- +)?([A-Za-z_][\w-]*)\s*:(?:\s|$)")
_BLOCK = re.compile(r":\s*[|>][-+0-9]*\s*(#.*)?$")
_LET = re.compile(r"\blet\s+([A-Za-z_]\w*)")
_BINDER = re.compile(r"\b([A-Za-z_]\w*)\s+in\b")
KEYWORDS = {
    "if", "elif", "else", "for", "in", "where", "repeat", "while", "let", "choose", "option",
    "do", "emit", "act", "as", "stop", "by", "chance", "may", "simultaneous", "then",
    "and", "or", "not", "true", "false", "none", "can",
}  # fmt: skip
KIND_OF = {
    "action": Kind.Method,
    "function": Kind.Function,
    "counter": Kind.Variable,
    "constant": Kind.Constant,
    "component": Kind.Value,
    "space": Kind.Field,
    "space group": Kind.Module,
    "zone": Kind.Field,
    "kind": Kind.Class,
    "variable": Kind.Variable,
    "event": Kind.Event,
}


def complete(
    index: Index | None, path: Path, lines: list[str], line: int, character: int
) -> list[types.CompletionItem]:
    """Completions at 0-based ``line``/``character`` (a character index) of ``path``."""
    text = lines[line] if 0 <= line < len(lines) else ""
    before = text[:character]
    if _KEY.match(before) and not in_block_text(lines, line):
        return []
    section, item_id, key_line = enclosing_item(lines, line)
    item = index.item(section, item_id) if index is not None else None
    params = _params(item.data if item is not None else None)
    attribute = _ATTRIBUTE.search(before)
    if attribute:
        owner = _type_of(index, params, attribute.group(1).split("."))
        return _filter(_attributes(index, owner), attribute.group(2))
    action = _DO_CAN.search(before)
    if action:
        found = index.of_kind("action") if index is not None else []
        return _filter([_definition_item(index, d) for d in found], action.group(2))
    prefix = _PREFIX.search(before).group(1)
    written = "\n".join([*lines[key_line:line], before])
    out = [
        types.CompletionItem(name, kind=Kind.Variable, detail=f"parameter: {kind}")
        for name, kind in params.items()
    ]
    bound = {m.group(1) for m in _LET.finditer(written)} | {
        m.group(1) for m in _BINDER.finditer(written)
    }
    out += [
        types.CompletionItem(name, kind=Kind.Variable, detail="local")
        for name in sorted(bound - set(params) - KEYWORDS)
    ]
    out += _globals(index)
    out += _primitives()
    return _filter(out, prefix)


def in_block_text(lines: list[str], line: int) -> bool:
    """Whether 0-based ``line`` is inside a ``|`` or ``>`` block text: the nearest line
    above it that is indented less ends with the block indicator."""
    text = lines[line] if 0 <= line < len(lines) else ""
    indent = _indent(text) if text.strip() else None
    for above in range(line - 1, -1, -1):
        candidate = lines[above]
        if not candidate.strip() or candidate.lstrip().startswith("#"):
            continue
        if indent is None:  # a blank line: it continues what is above it
            indent = _indent(candidate) + 1
        if _indent(candidate) < indent:
            return bool(_BLOCK.search(candidate))
    return False


def enclosing_item(lines: list[str], line: int) -> tuple[str, str, int]:
    """(section, id, 0-based line of its key) of the item that holds 0-based ``line``,
    read from the text as it is now (the last check may be older); ("", "", 0) if
    none. An overlay's ``add:``/``replace:``/``extend:`` nest one level deeper."""
    path: list[tuple[int, str, int]] = []  # (indent, key, line) of the keys above
    for number in range(min(line, len(lines) - 1), -1, -1):
        match = _KEY_LINE.match(lines[number])
        if not match:
            continue
        indent = len(match.group(1))
        if not path or indent < path[-1][0]:
            path.append((indent, match.group(2), number))
        if indent == 0:
            break
    keys = [key for _, key, _ in reversed(path)]
    lines_of = [number for _, _, number in reversed(path)]
    skip = 1 if keys and keys[0] in ("add", "replace", "extend") else 0
    if len(keys) < skip + 2:
        return "", "", 0
    return keys[skip], keys[skip + 1], lines_of[skip + 1]


def _indent(text: str) -> int:
    return len(text) - len(text.lstrip(" "))


def _filter(items: list[types.CompletionItem], prefix: str) -> list[types.CompletionItem]:
    seen: set[str] = set()
    out = []
    for item in items:
        if item.label.startswith(prefix) and item.label not in seen:
            seen.add(item.label)
            out.append(item)
    return out


def _params(data: Any) -> dict[str, str]:
    params = data.get("params") if isinstance(data, dict) else None
    if not isinstance(params, dict):
        return {}
    return {
        str(name): str(spec.get("type", "any")) if isinstance(spec, dict) else str(spec)
        for name, spec in params.items()
    }


def _type_of(index: Index | None, params: dict[str, str], chain: list[str]) -> str | None:
    """The type of ``a.b.c`` as far as it can be told without compiling it."""
    first = chain[0]
    if first in ("me", "my"):
        owner: str | None = PLAYER
    elif first in params:
        owner = params[first]
    else:
        owner = None
        for definition in index.definitions.get(first, []) if index is not None else []:
            owner = {"zone": ZONE, "space": ZONE, "component": PIECE}.get(definition.kind)
            if definition.kind == "variable":
                owner = definition.data.get("type") if isinstance(definition.data, dict) else None
    for name in chain[1:]:
        owner = _attribute_type(index, owner, name)
    return owner


def _attribute_type(index: Index | None, owner: str | None, name: str) -> str | None:
    builtin = REGISTRY.attributes.get(owner or "", {}).get(name)
    if builtin is not None:
        return builtin.type
    if owner == PLAYER and index is not None:
        for definition in index.definitions.get(name, []):
            if definition.per == "player":
                data = definition.data if isinstance(definition.data, dict) else {}
                return {"zone": ZONE, "counter": "number"}.get(definition.kind, data.get("type"))
    if owner in (PIECE, ZONE) and index is not None:
        for definition in index.of_kind("kind" if owner == PIECE else "space group"):
            properties = definition.data.get("properties") or {}
            if isinstance(properties, dict) and name in properties:
                spec = properties[name]
                return str(spec.get("type", "any")) if isinstance(spec, dict) else str(spec)
    return None


def _attributes(index: Index | None, owner: str | None) -> list[types.CompletionItem]:
    """What may follow ``x.`` when ``x`` has type ``owner`` (None: anything)."""
    out: list[types.CompletionItem] = []
    if index is not None and owner in (PLAYER, None):
        found = index.of_kind("counter", "zone", "variable", per="player")
        out += [_definition_item(index, d) for d in found]
    for kind, section in ((PIECE, "kind"), (ZONE, "space group")):
        if index is not None and owner in (kind, None):
            for definition in index.of_kind(section):
                properties = definition.data.get("properties") or {}
                for name, spec in properties.items() if isinstance(properties, dict) else ():
                    kind_of = spec.get("type", "any") if isinstance(spec, dict) else spec
                    detail = f"{kind_of} (property of {section} {definition.name})"
                    out.append(types.CompletionItem(str(name), kind=Kind.Property, detail=detail))
    for attribute_owner, attributes in REGISTRY.attributes.items():
        if owner in (attribute_owner, None):
            out += [
                types.CompletionItem(
                    name,
                    kind=Kind.Property,
                    detail=f"{builtin.type} ({attribute_owner} attribute)",
                    documentation=builtin.doc,
                )
                for name, builtin in attributes.items()
            ]
    return out


def _globals(index: Index | None) -> list[types.CompletionItem]:
    if index is None:
        return []
    out = []
    for definitions in index.definitions.values():
        for definition in definitions:
            if definition.kind not in KIND_OF:
                continue
            if definition.kind in ("zone", "variable") and definition.per == "player":
                continue  # read through a player: `my.hand`
            out.append(_definition_item(index, definition))
    return sorted(out, key=lambda item: item.label)


def _definition_item(index: Index | None, definition: Definition) -> types.CompletionItem:
    label = index.label(definition) if index is not None else None
    detail = signature(definition) or definition.kind
    if label:
        detail += f" — {label}"
    return types.CompletionItem(
        definition.name, kind=KIND_OF.get(definition.kind, Kind.Text), detail=detail
    )


def _primitives() -> list[types.CompletionItem]:
    out = []
    for table in (REGISTRY.functions, REGISTRY.statements):
        for name, primitive in sorted(table.items()):
            out.append(
                types.CompletionItem(
                    name,
                    kind=Kind.Function,
                    detail=primitive.signature(),
                    documentation=types.MarkupContent(
                        types.MarkupKind.Markdown, primitive_markdown(primitive)
                    ),
                )
            )
    for name, builtin in sorted(REGISTRY.names.items()):
        out.append(
            types.CompletionItem(
                name, kind=Kind.Keyword, detail=builtin.type, documentation=builtin.doc
            )
        )
    return out
