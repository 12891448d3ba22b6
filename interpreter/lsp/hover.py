"""Hover texts: what a name under the cursor is.

A name the ruleset defines shows its label, kind, signature and where it is
written; a primitive of the effect language its signature and documentation from
the registry (the same text as docs/language.md). After a dot, per-player
counters, zones and variables and the built-in attributes come first.
"""

from __future__ import annotations

from typing import Any

from interpreter.language.registry import REGISTRY, Primitive
from interpreter.lsp.index import Definition, Index
from interpreter.lsp.positions import word_at

ATTRIBUTE_KINDS = ("counter", "zone", "variable")


def hover_markdown(index: Index | None, line_text: str, character: int) -> str | None:
    """Markdown for the name at ``character`` of ``line_text``, or None."""
    found = word_at(line_text, character)
    if found is None:
        return None
    word, start = found
    after_dot = start > 0 and line_text[start - 1] == "."
    parts: list[str] = []
    if index is not None:
        for definition in index.definitions.get(word, []):
            if after_dot and definition.kind not in ATTRIBUTE_KINDS:
                continue
            parts.append(describe(index, definition))
    if after_dot:
        for owner, attributes in REGISTRY.attributes.items():
            builtin = attributes.get(word)
            if builtin is not None:
                parts.append(f"**{owner} attribute** `.{word}`: `{builtin.type}`\n\n{builtin.doc}")
    elif not parts:
        primitive = REGISTRY.functions.get(word) or REGISTRY.statements.get(word)
        if primitive is not None:
            parts.append(primitive_markdown(primitive))
        elif word in REGISTRY.names:
            builtin = REGISTRY.names[word]
            parts.append(f"**built-in name** `{word}`: `{builtin.type}`\n\n{builtin.doc}")
    return "\n\n---\n\n".join(parts) or None


def primitive_markdown(primitive: Primitive) -> str:
    lines = [f"```\n{primitive.signature()}\n```", f"({primitive.kind}) {primitive.doc}"]
    documented = [p for p in primitive.params if p.doc]
    if documented:
        lines.append("\n".join(f"- `{p.name}`: {p.doc}" for p in documented))
    if primitive.example:
        lines.append(f"Example: `{primitive.example}`")
    return "\n\n".join(lines)


def signature(definition: Definition) -> str | None:
    """``name(param: type, …) -> type`` for actions, functions and events."""
    data = definition.data if isinstance(definition.data, dict) else {}
    if definition.kind not in ("action", "function", "event"):
        return None
    params = data.get("params") if isinstance(data.get("params"), dict) else {}
    shown = ", ".join(f"{name}: {_type(spec)}" for name, spec in params.items())
    returns = f" -> {data['returns']}" if data.get("returns") else ""
    return f"{definition.name}({shown}){returns}"


def describe(index: Index, definition: Definition) -> str:
    data = definition.data if isinstance(definition.data, dict) else {}
    label = index.label(definition)
    head = f"**{definition.kind}** `{definition.name}`" + (f" — {label}" if label else "")
    lines = [head]
    sig = signature(definition)
    if sig:
        lines.append(f"```\n{sig}\n```")
    facts = _facts(definition, data)
    if facts:
        lines.append(facts)
    if data.get("description"):
        lines.append(str(data["description"]))
    lines.append(f"Defined at `{definition.location}`")
    return "\n\n".join(lines)


def _facts(definition: Definition, data: dict) -> str:
    kind = definition.kind
    if kind in ("counter", "zone", "variable"):
        keys = ("per", "type", "initial", "min", "max", "visibility", "order", "capacity")
        return ", ".join(f"{k}: `{data[k]}`" for k in keys if k in data)
    if kind == "constant":
        return f"value: `{data.get('value')}`" if "value" in data else ""
    if kind == "component":
        shown = {k: v for k, v in data.items() if k not in ("provisional", "description")}
        return ", ".join(f"{k}: `{v}`" for k, v in shown.items())
    if kind == "space":
        shown = {k: v for k, v in data.items() if k != "description"}
        group = f"group `{definition.item.id}`"
        return ", ".join([group, *(f"{k}: `{v}`" for k, v in shown.items())])
    if kind in ("kind", "space group"):
        properties = data.get("properties") if isinstance(data.get("properties"), dict) else {}
        return "properties: " + (
            ", ".join(f"`{n}: {_type(spec)}`" for n, spec in properties.items()) or "none"
        )
    if kind == "trigger" and data.get("on"):
        return f"on: `{data['on']}`"
    return ""


def _type(spec: Any) -> str:
    if isinstance(spec, dict):
        return str(spec.get("type", "any"))
    return str(spec)
