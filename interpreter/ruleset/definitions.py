"""Plain definitions: board sides, constants, counters, variables, zones, components
and spaces, their values checked against their declared types."""

from __future__ import annotations

from typing import Any

from interpreter.check import defaults
from interpreter.language.compiled import did_you_mean
from interpreter.language.symbols import Symbols
from interpreter.language.values import (
    ACTION,
    ANY,
    BOOL,
    MAP,
    NUMBER,
    PIECE,
    TEXT,
    ZONE,
    ActionRef,
    Piece,
    ZoneRef,
    is_number,
    list_of,
)
from interpreter.load.ruleset_files import Item
from interpreter.ruleset.conversions import (
    freeze,
    type_words,
)
from interpreter.ruleset.model import (
    AutomatonDef,
    CounterDef,
    PieceDef,
    SpaceDef,
    VariableDef,
    ZoneDef,
)

META_KEYS = {"kind", "count", "label", "description", "provisional"}
SPACE_META = {"side", "capacity", "label", "description"}


class DefinitionsMixin:
    """A part of ``Builder`` (build.py)."""

    # ------------------------------------------------------------ plain data
    def sides(self) -> dict[str, tuple[int, ...]]:
        sides: dict[str, tuple[int, ...]] = {}
        owner: dict[int, str] = {}
        for item in self.items("sides"):
            counts = tuple(int(n) for n in item.data.get("players", []) if isinstance(n, int))
            for n in counts:
                if n in owner:
                    self.error(
                        item.location("players"),
                        f"{n} players already use side {owner[n]!r}",
                        "each player count has one side",
                        kind="schema",
                    )
                owner[n] = item.id
            sides[item.id] = counts
        return sides

    def constants(self, sides: dict[str, tuple[int, ...]], symbols: Symbols) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for item in self.items("constants"):
            if "per_side" in item.data:
                per_side = item.data["per_side"] or {}
                for side in per_side:
                    if side not in sides:
                        self.error(
                            item.location("per_side", side, key=True),
                            f"unknown board side {side!r}",
                            did_you_mean(side, set(sides))
                            or f"sides: {', '.join(sides) or 'none declared'}",
                        )
                missing = [s for s in sides if s not in per_side]
                if missing:
                    self.error(
                        item.location("per_side", key=True),
                        f"no value for side(s) {', '.join(missing)}",
                    )
                out[item.id] = {"per_side": {k: freeze(v) for k, v in per_side.items()}}
            elif "type" in item.data:  # a declared type: checked, references resolved
                decl = {"type": item.data["type"]}
                out[item.id] = self._typed_value(
                    item, ("value",), item.data.get("value"), decl, symbols
                )
            else:
                out[item.id] = freeze(item.data.get("value"))
        return out

    def counters(self, sides: dict[str, tuple[int, ...]]) -> dict[str, CounterDef]:
        out = {}
        for item in self.items("counters"):
            d = item.data
            initial = d.get("initial", defaults.default("counters", "initial"))
            if isinstance(initial, dict):
                for side, value in initial.items():
                    if side not in sides:
                        self.error(
                            item.location("initial", side, key=True),
                            f"unknown board side {side!r}",
                            did_you_mean(side, set(sides)),
                        )
                    elif not is_number(value):
                        self.error(
                            item.location("initial", side),
                            f"the initial value for side {side!r} must be a whole number, "
                            f"got {value!r}",
                            kind="schema",
                        )
            out[item.id] = CounterDef(
                item.id,
                d.get("per", "player"),
                initial,
                d.get("min", defaults.default("counters", "min")),
                d.get("max", defaults.default("counters", "max")),
                self.visibility(item, "player"),
                d.get("label", item.id),
            )
        return out

    def variables(self) -> dict[str, VariableDef]:
        return {
            i.id: VariableDef(
                i.id,
                i.data.get("per", "game"),
                i.data.get("type", ANY),
                freeze(i.data.get("initial")),
                self.visibility(i, "game"),
            )
            for i in self.items("variables")
        }

    def automata(self) -> dict[str, AutomatonDef]:
        out = {}
        names: dict[str, Item] = {}
        for item in self.items("automata"):
            name = str(item.data.get("name", item.id))
            if name in names:
                self.error(
                    item.location("name"),
                    f"two rules-driven seats are called {name!r}",
                    f"the other is {names[name].location(key=True)}",
                    kind="duplicate-id",
                )
            names[name] = item
            counts = tuple(int(n) for n in item.data.get("players") or () if isinstance(n, int))
            out[item.id] = AutomatonDef(item.id, name, counts, str(item.data.get("seat", "last")))
        return out

    def visibility(self, item: Item, default_per: str) -> str:
        """The item's visibility; one that needs an owner is refused on a game-wide item."""
        visibility = str(item.data.get("visibility", "public"))
        if visibility == "others" and item.data.get("per", default_per) != "player":
            self.error(
                item.location("visibility"),
                "'others' (seen by everyone but its player) needs a player to belong to",
                "declare it `per: player` (a hand each), or pick public, private or secret",
                kind="schema",
            )
        return visibility

    def zones(self) -> dict[str, ZoneDef]:
        return {
            i.id: ZoneDef(
                i.id,
                i.data.get("per", "game"),
                self.visibility(i, "game"),
                i.data.get("order", defaults.default("zones", "order")),
                i.data.get("capacity", defaults.default("zones", "capacity")),
                i.data.get("label", i.id),
            )
            for i in self.items("zones")
        }

    def pieces(self, symbols: Symbols) -> dict[str, PieceDef]:
        out: dict[str, PieceDef] = {}
        kinds_items = {i.id: i for i in self.items("kinds")}
        for kind_item in kinds_items.values():
            for key, decl in (kind_item.data.get("properties") or {}).items():
                if isinstance(decl, dict) and "default" in decl:
                    sub = ("properties", key, "default")
                    self._typed_value(kind_item, sub, decl["default"], decl, symbols)
        for item in self.items("components"):
            kind = item.data.get("kind")
            if kind not in symbols.kinds and self.broken(item):
                continue
            if kind not in symbols.kinds:
                self.error(
                    item.location("kind"),
                    f"unknown kind {kind!r}",
                    did_you_mean(str(kind), set(symbols.kinds))
                    or f"kinds: {', '.join(sorted(symbols.kinds)) or 'none declared'}",
                )
                continue
            decls = kinds_items[kind].data.get("properties") or {}
            props = KEPT.props(item, decls, symbols)
            if props is None:
                props = self._component_props(item, kind, decls, symbols)
            count = item.data.get("count")
            ids = [item.id] if not count else [f"{item.id}-{n}" for n in range(1, count + 1)]
            for pid in ids:
                if pid in out:
                    self.error(
                        item.location(key=True),
                        f"duplicate component id {pid!r}",
                        kind="duplicate-id",
                    )
                out[pid] = PieceDef(pid, item.id, kind, props, item.data.get("label", item.id))
        return out

    def _component_props(
        self, item: Item, kind: str, decls: dict, symbols: Symbols
    ) -> dict[str, Any]:
        """A component's properties, checked against its kind's declarations; kept
        (``KEPT``) where they have no problem."""
        before = len(self.diagnostics)
        names: list[tuple[str, Any]] = []  # the names its values refer to
        props: dict[str, Any] = {}
        for key, value in item.data.items():
            if key in META_KEYS:
                continue
            if key not in decls:
                self.error(
                    item.location(key, key=True),
                    f"kind {kind!r} has no property {key!r}",
                    did_you_mean(key, set(decls)) or f"declare it under kinds.{kind}.properties",
                    kind="unknown-key",
                )
                continue
            props[key] = self._typed_value(item, (key,), value, decls[key], symbols, names)
        for key, decl in decls.items():
            if key not in props and key not in item.data:
                if isinstance(decl, dict) and "default" in decl:
                    props[key] = freeze(decl["default"])
                else:
                    self.error(
                        item.location(key=True),
                        f"component {item.id!r} lacks property {key!r} of kind {kind!r}",
                        "give it a value, or a `default` in the kind",
                        kind="schema",
                    )
        if len(self.diagnostics) == before:
            KEPT.keep_props(item, decls, props, names)
        return props

    def _typed_value(
        self,
        item: Item,
        sub: tuple,
        value: Any,
        decl: Any,
        symbols: Symbols,
        names: list[tuple[str, Any]] | None = None,
    ) -> Any:
        """``value`` as its declared type, problems reported; each name it refers to
        (a zone, a piece, an action) noted in ``names``."""
        expected = decl.get("type", ANY) if isinstance(decl, dict) else ANY
        allowed = decl.get("values") if isinstance(decl, dict) else None
        if expected.startswith("list:") and expected != list_of(ANY) and isinstance(value, list):
            inner = {"type": expected[len("list:") :]}
            return tuple(
                self._typed_value(item, (*sub, i), v, inner, symbols, names)
                for i, v in enumerate(value)
            )
        if value is not None and not _has_type(value, expected):
            self.error(
                item.location(*sub),
                f"{sub[-1]!r} must be {type_words(expected)}, got {value!r}",
                kind="schema",
            )
            return value
        if allowed is not None and value not in allowed:
            self.error(
                item.location(*sub),
                f"{value!r} is not an allowed value of {sub[-1]!r}",
                f"allowed: {', '.join(map(str, allowed))}",
                kind="schema",
            )
        if expected in REFERRING and value is not None and names is not None:
            names.append((expected, value))
        if expected == ZONE and value is not None:
            if not declared(ZONE, value, symbols):
                self.error(
                    item.location(*sub),
                    f"{value!r} is not a space or zone",
                    did_you_mean(str(value), set(symbols.spaces)),
                )
            return ZoneRef(value)
        if expected == PIECE and value is not None:
            if not declared(PIECE, value, symbols):
                self.error(
                    item.location(*sub),
                    f"{value!r} is not a component",
                    did_you_mean(str(value), set(symbols.components)),
                )
            return Piece(value)
        if expected == ACTION and value is not None:
            if not declared(ACTION, value, symbols):
                self.error(
                    item.location(*sub),
                    f"{value!r} is not an action",
                    did_you_mean(str(value), set(symbols.actions)),
                )
            return ActionRef(value)
        return freeze(value)

    def spaces(
        self, symbols: Symbols, sides: dict[str, tuple[int, ...]]
    ) -> tuple[dict[str, SpaceDef], dict[str, tuple[str, ...]]]:
        spaces: dict[str, SpaceDef] = {}
        groups: dict[str, tuple[str, ...]] = {}
        for group in self.items("spaces"):
            made = KEPT.group(group, sides, symbols) or self._space_group(group, symbols, sides)
            spaces.update(made)
            groups[group.id] = tuple(made)
        return spaces, groups

    def _space_group(
        self, group: Item, symbols: Symbols, sides: dict[str, tuple[int, ...]]
    ) -> dict[str, SpaceDef]:
        """A group's spaces, by id; kept (``KEPT``) where they have no problem."""
        before = len(self.diagnostics)
        names: list[tuple[str, Any]] = []  # the names its values refer to
        used: set[str] = set()  # the board sides it names
        decls = group.data.get("properties") or {}
        made: dict[str, SpaceDef] = {}
        for space_id, data in (group.data.get("items") or {}).items():
            if not isinstance(data, dict):
                continue
            sub = ("items", space_id)
            side = data.get("side")
            side_list = None if side is None else tuple([side] if isinstance(side, str) else side)
            for name in side_list or ():
                used.add(name)
                if name not in sides:
                    self.error(
                        group.location(*sub, "side"),
                        f"unknown board side {name!r}",
                        did_you_mean(name, set(sides))
                        or f"sides: {', '.join(sides) or 'none declared'}",
                    )
            props = {}
            for key, value in data.items():
                if key in SPACE_META:
                    continue
                if key not in decls:
                    self.error(
                        group.location(*sub, key, key=True),
                        f"space group {group.id!r} has no property {key!r}",
                        did_you_mean(key, set(decls))
                        or f"declare it under spaces.{group.id}.properties",
                        kind="unknown-key",
                    )
                    continue
                props[key] = self._typed_value(
                    group, (*sub, key), value, decls[key], symbols, names
                )
            for key, decl in decls.items():
                if key not in props and key not in data:
                    default = decl.get("default") if isinstance(decl, dict) else None
                    props[key] = freeze(default)
            made[space_id] = SpaceDef(
                space_id,
                group.id,
                side_list,
                data.get(
                    "capacity", group.data.get("capacity", defaults.default("spaces", "capacity"))
                ),
                bool(group.data.get("claimable", defaults.default("spaces", "claimable"))),
                group.data.get("visibility", defaults.default("spaces", "visibility")),
                props,
                data.get("label", space_id),
            )
        if len(self.diagnostics) == before:
            KEPT.keep_group(group, made, used, names)
        return made


REFERRING = frozenset({ZONE, PIECE, ACTION})  # types whose values name a declaration


def declared(expected: str, value: Any, symbols: Symbols) -> bool:
    """Whether a value of type ``expected`` (``REFERRING``) names a declaration."""
    if expected == ZONE:
        return value in symbols.spaces or symbols.zones.get(value) == "game"
    if expected == PIECE:
        return value in symbols.components
    return value in symbols.actions


class _Kept:
    """Components' properties and space groups checked without a problem, kept per
    process and given again for the same data (``alike``: the same objects, which every
    combination of a ruleset's expansions that leaves them unchanged reads) while every
    name they refer to is still declared: what a checked build of another combination
    would make of them again, with no problem either."""

    def __init__(self) -> None:
        self._props: dict[tuple, tuple[Any, Any, dict[str, Any], tuple]] = {}
        self._groups: dict[tuple, tuple[Any, dict[str, SpaceDef], frozenset, tuple]] = {}

    def props(self, item: Item, decls: Any, symbols: Symbols) -> dict[str, Any] | None:
        kept = self._props.get((item.id, id(item.document)))
        if kept is None or not alike(kept[0], item.data) or not alike(kept[1], decls):
            return None
        if not all(declared(expected, value, symbols) for expected, value in kept[3]):
            return None
        return dict(kept[2])

    def keep_props(self, item: Item, decls: Any, props: dict[str, Any], names: list) -> None:
        self._bound(self._props)
        key = (item.id, id(item.document))
        self._props[key] = (item.data, decls, dict(props), tuple(names))

    def group(
        self, group: Item, sides: dict[str, tuple[int, ...]], symbols: Symbols
    ) -> dict[str, SpaceDef] | None:
        kept = self._groups.get((group.id, id(group.document)))
        if kept is None or not alike(kept[0], group.data) or not kept[2] <= sides.keys():
            return None
        if not all(declared(expected, value, symbols) for expected, value in kept[3]):
            return None
        return kept[1]

    def keep_group(
        self, group: Item, made: dict[str, SpaceDef], used: set[str], names: list
    ) -> None:
        self._bound(self._groups)
        key = (group.id, id(group.document))
        self._groups[key] = (group.data, made, frozenset(used), tuple(names))

    @staticmethod
    def _bound(kept: dict) -> None:
        if len(kept) >= MAX_KEPT:
            kept.clear()


def alike(kept: Any, data: Any) -> bool:
    """Whether ``data`` is ``kept``, or a mapping of the same keys in the same order
    holding the very same values (a patch copies an item's mapping and its values)."""
    if kept is data:
        return True
    if type(kept) is not dict or type(data) is not dict or len(kept) != len(data):
        return False
    return all(a == b and kept[a] is data[b] for a, b in zip(kept, data, strict=True))


MAX_KEPT = 20_000  # components or groups kept per process (a ruleset has a few hundred)
KEPT = _Kept()


def _has_type(value: Any, expected: str) -> bool:
    """Whether a property's value has its declared type (types the build converts,
    zones, components and actions, are checked by name after)."""
    if expected == NUMBER:
        return is_number(value)
    if expected == BOOL:
        return isinstance(value, bool)
    if expected == TEXT:
        return isinstance(value, str)
    if expected == MAP:
        return isinstance(value, dict)
    if expected == "list":
        return isinstance(value, list)
    return True
