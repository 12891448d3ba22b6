"""Keyed counters and zones: one declaration, one counter or zone per key.

A counter or zone with `keys:` holds one member per key: progress per column, a marker
per track, a row of cards per colour. The keys are a list of values, a range
`{from, to}`, the name of a constant (a list) or of a kind (its components), or a
property of a kind, `KIND.PROPERTY` (its declared `values`). Rules
read and change a member as `name[key]` (`my.name[key]`, `p.name[key]` when it is per
player), the key computed like any value.

Each member is an ordinary counter or zone named `name[key]` (`progress[3]`,
`row[red]`): the state, the views, `rules play`'s board, the logs' readings and the
scenario files handle it as they handle any counter or zone, so nothing downstream
knows about keys. This module is the one declaration: the schema of `keys`, its cap,
how keys are resolved and checked, and how a family becomes its members.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from interpreter.errors import Location
from interpreter.language.compiled import did_you_mean
from interpreter.language.values import NUMBER, PIECE, TEXT, Piece, is_number
from interpreter.ruleset.counts import counted

if TYPE_CHECKING:
    from interpreter.load.ruleset_files import Item

MAX_KEYS = 1_000  # members of one keyed counter or zone (per player when per player)

KEYS_SCHEMA: dict[str, Any] = {
    "description": "One member per key, read and changed as `name[key]`: a list of texts "
    "or of whole numbers, a range `{from, to}`, the name of a constant (a list) or of a "
    "kind (its components), or `KIND.PROPERTY` (the values the property declares). At "
    f"most {MAX_KEYS:,} keys.",
    "oneOf": [
        {"type": "array", "minItems": 1, "maxItems": MAX_KEYS},
        {
            "type": "object",
            "properties": {
                "from": counted({"type": "integer"}),
                "to": counted({"type": "integer"}),
            },
            "required": ["from", "to"],
            "additionalProperties": False,
        },
        {"type": "string"},
    ],
}

Report = Callable[[Location, str, str | None], None]


@dataclass(frozen=True, slots=True)
class Keys:
    """The keys of one family, in the order declared, and their type."""

    type: str  # number, text or piece
    values: tuple[Any, ...]


def member(name: str, key: Any) -> str:
    """The member's own name: `progress[3]`, `row[red]`, `track[pawn-2]`."""
    return f"{name}[{key}]"


def declared(
    items: list[Item],
    constants: dict[str, Item],
    kinds: dict[str, list[str]],
    properties: dict[str, dict[str, Any]],
    report: Report,
) -> dict[str, Keys]:
    """The keys of every counter or zone among ``items`` that declares `keys`
    (``kinds``: each kind's components; ``properties``: each kind's property
    declarations); a problem is reported at its place and the family left out."""
    found: dict[str, Keys] = {}
    for item in items:
        spec = item.data.get("keys")
        if spec is None:
            continue
        if isinstance(spec, str) and "." in spec:
            spec = _property_values(item, spec, properties, report)
            if spec is None:
                continue
        keys = _resolve(item, spec, constants, kinds, report)
        if keys is not None:
            found[item.id] = keys
    return found


def _property_values(
    item: Item, spec: str, properties: dict[str, dict[str, Any]], report: Report
) -> list | None:
    """The `values` that `KIND.PROPERTY` declares (a row per colour of a card)."""
    kind, _, name = spec.partition(".")
    where = item.location("keys")
    if kind not in properties:
        report(where, f"keys: {kind!r} is not a kind", did_you_mean(kind, set(properties)))
        return None
    decl = properties[kind].get(name)
    if decl is None:
        hint = did_you_mean(name, set(properties[kind])) or f"declare it under kinds.{kind}"
        report(where, f"keys: kind {kind!r} has no property {name!r}", hint)
        return None
    values = decl.get("values") if isinstance(decl, dict) else None
    if not isinstance(values, list) or not values:
        report(
            where,
            f"keys: the property {spec!r} declares no `values`",
            f"list them: `{name}: {{type: text, values: [...]}}` under kinds.{kind}",
        )
        return None
    return values


def _resolve(
    item: Item,
    spec: Any,
    constants: dict[str, Item],
    kinds: dict[str, list[str]],
    report: Report,
) -> Keys | None:
    where = item.location("keys")
    if isinstance(spec, str):
        if spec in kinds:
            return _checked(item, [Piece(p) for p in kinds[spec]], PIECE, report)
        constant = constants.get(spec)
        if constant is None:
            report(
                where,
                f"keys: {spec!r} is neither a constant nor a kind",
                did_you_mean(spec, set(constants) | set(kinds))
                or "write the keys as a list, a range `{from: 1, to: 6}`, or name a "
                "constant holding a list or a kind",
            )
            return None
        value = constant.data.get("value") if isinstance(constant.data, dict) else None
        if not isinstance(value, list):
            report(
                where,
                f"keys: the constant {spec!r} is not a list (the same on every board side)",
                "give it a `value:` that is a list of texts or whole numbers",
            )
            return None
        spec = value
    if isinstance(spec, dict):
        low, high = spec.get("from"), spec.get("to")
        if not (is_number(low) and is_number(high)) or high < low:
            report(where, "keys: a range goes `from` a whole number `to` a larger one", None)
            return None
        if high - low + 1 > MAX_KEYS:
            report(where, f"keys: {high - low + 1:,} keys, more than {MAX_KEYS:,}", None)
            return None
        return Keys(NUMBER, tuple(range(low, high + 1)))
    if not isinstance(spec, list) or not spec:
        return None  # the schema reported it
    if all(is_number(v) for v in spec):
        return _checked(item, spec, NUMBER, report)
    if all(isinstance(v, str) for v in spec):
        return _checked(item, spec, TEXT, report)
    report(where, "keys: all texts or all whole numbers, not a mix", None)
    return None


def _checked(item: Item, values: list[Any], type_: str, report: Report) -> Keys | None:
    where = item.location("keys")
    if len(values) > MAX_KEYS:
        report(where, f"keys: {len(values):,} keys, more than {MAX_KEYS:,}", None)
        return None
    if len(set(values)) != len(values):
        twice = next(v for i, v in enumerate(values) if v in values[:i])
        report(where, f"keys: {twice!r} is a key twice", "each key names one member")
        return None
    if type_ == TEXT:
        bad = next((v for v in values if not v or any(c in v for c in "[]#. ")), None)
        if bad is not None:
            report(
                where,
                f"keys: {bad!r} cannot be a key",
                "a text key is a word: no spaces, brackets, `#` or `.`",
            )
            return None
    return Keys(type_, tuple(values))


def expand(definitions: dict[str, Any], keyed: dict[str, Keys]) -> dict[str, Any]:
    """Counter or zone definitions with every keyed family replaced by its members
    (each a copy of the family's definition under its member's name, labelled
    `label[key]`), in the order declared."""
    out: dict[str, Any] = {}
    for name, definition in definitions.items():
        keys = keyed.get(name)
        if keys is None:
            out[name] = definition
            continue
        for key in keys.values:
            out[member(name, key)] = replace(
                definition, name=member(name, key), label=member(definition.label, key)
            )
    return out


def members(keyed: dict[str, Keys]) -> dict[str, dict[Any, str]]:
    """Each family's members by key (what the run-time tables look a key up in)."""
    return {name: {k: member(name, k) for k in keys.values} for name, keys in keyed.items()}
