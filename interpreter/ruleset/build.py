"""Check a catalog's references and types and compile it into a ``Ruleset``.

This is the stage after the JSON Schema: every name an item uses must be
declared, every property must have its declared type, and every expression is
compiled here, once. All problems are collected; a ruleset is built only when
there are none.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from interpreter.errors import Diagnostic, Location
from interpreter.language.compiler import Compiler, Problem, did_you_mean
from interpreter.language.effects import CompiledEffect
from interpreter.language.symbols import Signature, Symbols
from interpreter.language.values import (
    ACTION,
    ANY,
    BOOL,
    MAP,
    NONE,
    NUMBER,
    PIECE,
    PLAYER,
    TEXT,
    TYPE_NAMES,
    ZONE,
    ActionRef,
    Piece,
    ZoneRef,
    is_list,
    list_of,
    type_of,
)
from interpreter.load.ruleset_files import Catalog, Item
from interpreter.load.yaml_source import value_at
from interpreter.ruleset.model import (
    ActionDef,
    CounterDef,
    PhaseDef,
    PieceDef,
    Requirement,
    Ruleset,
    ScoringStep,
    SpaceDef,
    TriggerDef,
    VariableDef,
    ZoneDef,
)

META_KEYS = {"kind", "count", "label", "description", "provisional"}
SPACE_META = {"side", "capacity", "label", "description"}


@dataclass
class BuildResult:
    ruleset: Ruleset | None
    diagnostics: list[Diagnostic] = field(default_factory=list)
    items: int = 0
    provisional: int = 0


class Builder:
    def __init__(self, catalog: Catalog):
        self.catalog = catalog
        self.diagnostics: list[Diagnostic] = []
        self.section = catalog.sections
        self.ambiguous: set[str] = set()

    # ----------------------------------------------------------- utilities
    def error(
        self, location: Location, message: str, hint: str | None = None, kind: str = "reference"
    ) -> None:
        self.diagnostics.append(Diagnostic(location, message, hint, kind=kind))

    def items(self, section: str) -> list[Item]:
        return [i for i in self.section[section].values() if isinstance(i.data, dict)]

    def broken(self, item: Item) -> bool:
        """The item broke the schema (already reported): skip checks inside it."""
        return (item.document.path, item.section, item.id) in self.catalog.broken

    # ---------------------------------------------------------------- build
    def build(self) -> BuildResult:
        symbols = self.symbols()
        compiler = Compiler(symbols)
        self.compiler = compiler
        sides = self.sides()
        pieces = self.pieces(symbols)
        spaces, groups = self.spaces(symbols, sides)
        constants = self.constants(sides, symbols)
        counters = self.counters(sides)
        variables = self.variables()
        zones = self.zones()
        functions = self.functions(symbols)
        actions = self.actions(symbols)
        triggers = self.triggers(symbols)
        structure = self.structure(symbols)
        scoring = self.scoring(symbols)
        manifest = self.catalog.manifest
        provisional = self.provisional_count()
        self.check_player_counts()
        count = sum(len(s) for s in self.section.values()) + len(self.catalog.singletons)
        if self.diagnostics:
            return BuildResult(None, self.diagnostics, count, provisional)
        players = self.catalog.players
        min_players, max_players = players.get("min", 1), players.get("max", 1)
        ruleset = Ruleset(
            id=str(manifest.get("id", "")),
            name=str(manifest.get("name", "")),
            version=str(manifest.get("version", "")),
            digest=self.catalog.digest(),
            min_players=min_players,
            max_players=max_players,
            players_note=str(players.get("note", "")),
            labels={i.id: str(i.data) for i in self.section["labels"].values()},
            expansions=tuple(self.catalog.applied),
            sides=sides,
            constants=constants,
            counters=counters,
            variables=variables,
            zones=zones,
            spaces=spaces,
            groups=groups,
            pieces=pieces,
            kinds=symbols.kinds,
            functions=functions,
            actions=actions,
            events={n: tuple(s.params) for n, s in symbols.events.items()},
            triggers=triggers,
            offered_expansions=dict(manifest.get("expansions") or {}),
            provisional=provisional,
            files=tuple(d.path for d in self.catalog.documents),
            locations={
                f"{i.section}.{i.id}": i.location(key=True)
                for s in self.section.values()
                for i in s.values()
            },
            symbols=symbols,
            **structure,
            **scoring,
        )
        return BuildResult(ruleset, [], count, provisional)

    # -------------------------------------------------------------- symbols
    def symbols(self) -> Symbols:
        s = Symbols()
        for item in self.items("counters"):
            s.counters[item.id] = item.data.get("per", "player")
        for item in self.items("variables"):
            s.variables[item.id] = (item.data.get("per", "game"), item.data.get("type", ANY))
        for item in self.items("zones"):
            s.zones[item.id] = item.data.get("per", "game")
        for item in self.items("kinds"):
            props = item.data.get("properties") or {}
            s.kinds[item.id] = {
                k: (v.get("type", ANY) if isinstance(v, dict) else ANY) for k, v in props.items()
            }
        for item in self.items("components"):
            kind = item.data.get("kind")
            count = item.data.get("count")
            ids = [item.id] if not count else [f"{item.id}-{n}" for n in range(1, count + 1)]
            for pid in ids:
                s.components[pid] = kind
        for item in self.items("spaces"):
            props = item.data.get("properties") or {}
            s.groups[item.id] = {
                k: (v.get("type", ANY) if isinstance(v, dict) else ANY) for k, v in props.items()
            }
            for space_id in item.data.get("items") or {}:
                s.spaces[space_id] = item.id
        for item in self.items("constants"):
            s.constants[item.id] = item.data.get("type") or _infer_type(
                item.data["value"]
                if "value" in item.data
                else next(iter((item.data.get("per_side") or {None: None}).values()))
            )
        for item in self.items("functions"):
            s.functions[item.id] = _signature(
                item.data.get("params"), item.data.get("returns", ANY), self.broken(item)
            )
        for item in self.items("actions"):
            s.actions[item.id] = _signature(item.data.get("params"), unchecked=self.broken(item))
            for name, value in (item.data.get("properties") or {}).items():
                s.action_properties[name] = _infer_type(value)
        for item in self.items("events"):
            s.events[item.id] = _signature(item.data.get("params"), unchecked=self.broken(item))
        self._check_collisions(s)
        s.ambiguous = set(self.ambiguous)
        return s

    def _check_collisions(self, s: Symbols) -> None:
        """A name may denote one thing only: among the names expressions use bare,
        and among a player's counters, zones and variables (``p.name``)."""
        bare: dict[str, tuple[str, Item]] = {}
        per_player: dict[str, tuple[str, Item]] = {}
        for section, word in (
            ("constants", "constant"),
            ("kinds", "kind"),
            ("spaces", "space group"),
            ("functions", "function"),
            ("actions", "action"),
            ("zones", "zone"),
            ("counters", "counter"),
            ("variables", "variable"),
            ("components", "component"),
        ):
            for item in self.items(section):
                if section == "components" and item.data.get("count"):
                    continue  # copies are named ID-1, ID-2…; the design id is no name
                per = item.data.get("per", "game")
                table = (
                    per_player
                    if section in ("zones", "counters", "variables") and per == "player"
                    else bare
                )
                self._claim_name(table, item.id, word, item)
        for group in self.items("spaces"):
            for space_id in group.data.get("items") or {}:
                self._claim_name(bare, space_id, "space", group, ("items", space_id))
        reserved = {"me", "my", "players", "player_count"}
        for section in ("constants", "counters", "variables", "zones", "functions", "actions"):
            for item in self.section[section].values():
                if item.id in reserved:
                    self.error(
                        item.location(key=True),
                        f"{item.id!r} is a built-in name",
                        "choose another id",
                        kind="duplicate-id",
                    )

    def _claim_name(self, table: dict, name: str, word: str, item: Item, sub: tuple = ()) -> None:
        if name in table and table[name][1] is not item:
            first_word, first = table[name]
            self.ambiguous.add(name)
            self.error(
                item.location(*sub, key=True),
                f"{name!r} is both {_article(first_word)} and {_article(word)}",
                f"the {first_word} is defined at {first.location(key=True)}; "
                "give one of them another name",
                kind="duplicate-id",
            )
            return
        table.setdefault(name, (word, item))

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
                out[item.id] = {"per_side": {k: _freeze(v) for k, v in per_side.items()}}
            elif "type" in item.data:  # a declared type: checked, references resolved
                decl = {"type": item.data["type"]}
                out[item.id] = self._typed_value(
                    item, ("value",), item.data.get("value"), decl, symbols
                )
            else:
                out[item.id] = _freeze(item.data.get("value"))
        return out

    def counters(self, sides: dict[str, tuple[int, ...]]) -> dict[str, CounterDef]:
        out = {}
        for item in self.items("counters"):
            d = item.data
            initial = d.get("initial", 0)
            if isinstance(initial, dict):
                for side, value in initial.items():
                    if side not in sides:
                        self.error(
                            item.location("initial", side, key=True),
                            f"unknown board side {side!r}",
                            did_you_mean(side, set(sides)),
                        )
                    elif isinstance(value, bool) or not isinstance(value, int):
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
                d.get("min", 0),
                d.get("max"),
                d.get("visibility", "public"),
                d.get("label", item.id),
            )
        return out

    def variables(self) -> dict[str, VariableDef]:
        return {
            i.id: VariableDef(
                i.id,
                i.data.get("per", "game"),
                i.data.get("type", ANY),
                _freeze(i.data.get("initial")),
                i.data.get("visibility", "public"),
            )
            for i in self.items("variables")
        }

    def zones(self) -> dict[str, ZoneDef]:
        return {
            i.id: ZoneDef(
                i.id,
                i.data.get("per", "game"),
                i.data.get("visibility", "public"),
                i.data.get("order", "ordered"),
                i.data.get("capacity", 0),
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
            props: dict[str, Any] = {}
            for key, value in item.data.items():
                if key in META_KEYS:
                    continue
                if key not in decls:
                    self.error(
                        item.location(key, key=True),
                        f"kind {kind!r} has no property {key!r}",
                        did_you_mean(key, set(decls))
                        or f"declare it under kinds.{kind}.properties",
                        kind="unknown-key",
                    )
                    continue
                props[key] = self._typed_value(item, (key,), value, decls[key], symbols)
            for key, decl in decls.items():
                if key not in props and key not in item.data:
                    if isinstance(decl, dict) and "default" in decl:
                        props[key] = _freeze(decl["default"])
                    else:
                        self.error(
                            item.location(key=True),
                            f"component {item.id!r} lacks property {key!r} of kind {kind!r}",
                            "give it a value, or a `default` in the kind",
                            kind="schema",
                        )
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

    def _typed_value(self, item: Item, sub: tuple, value: Any, decl: Any, symbols: Symbols) -> Any:
        expected = decl.get("type", ANY) if isinstance(decl, dict) else ANY
        allowed = decl.get("values") if isinstance(decl, dict) else None
        location = item.location(*sub)
        if expected.startswith("list:") and expected != list_of(ANY) and isinstance(value, list):
            inner = {"type": expected[len("list:") :]}
            return tuple(
                self._typed_value(item, (*sub, i), v, inner, symbols) for i, v in enumerate(value)
            )
        ok = {
            NUMBER: isinstance(value, int) and not isinstance(value, bool),
            BOOL: isinstance(value, bool),
            TEXT: isinstance(value, str),
            MAP: isinstance(value, dict),
            "list": isinstance(value, list),
        }.get(expected, True)
        if value is None:
            ok = True
        if not ok:
            self.error(
                location,
                f"{sub[-1]!r} must be {_type_words(expected)}, got {value!r}",
                kind="schema",
            )
            return value
        if allowed is not None and value not in allowed:
            self.error(
                location,
                f"{value!r} is not an allowed value of {sub[-1]!r}",
                f"allowed: {', '.join(map(str, allowed))}",
                kind="schema",
            )
        if expected == ZONE and value is not None:
            if value not in symbols.spaces and symbols.zones.get(value) != "game":
                self.error(
                    location,
                    f"{value!r} is not a space or zone",
                    did_you_mean(str(value), set(symbols.spaces)),
                )
            return ZoneRef(value)
        if expected == PIECE and value is not None:
            if value not in symbols.components:
                self.error(
                    location,
                    f"{value!r} is not a component",
                    did_you_mean(str(value), set(symbols.components)),
                )
            return Piece(value)
        if expected == ACTION and value is not None:
            if value not in symbols.actions:
                self.error(
                    location,
                    f"{value!r} is not an action",
                    did_you_mean(str(value), set(symbols.actions)),
                )
            return ActionRef(value)
        return _freeze(value)

    def spaces(
        self, symbols: Symbols, sides: dict[str, tuple[int, ...]]
    ) -> tuple[dict[str, SpaceDef], dict[str, tuple[str, ...]]]:
        spaces: dict[str, SpaceDef] = {}
        groups: dict[str, tuple[str, ...]] = {}
        for group in self.items("spaces"):
            decls = group.data.get("properties") or {}
            members = []
            for space_id, data in (group.data.get("items") or {}).items():
                if not isinstance(data, dict):
                    continue
                sub = ("items", space_id)
                side = data.get("side")
                side_list = (
                    None if side is None else tuple([side] if isinstance(side, str) else side)
                )
                for name in side_list or ():
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
                    props[key] = self._typed_value(group, (*sub, key), value, decls[key], symbols)
                for key, decl in decls.items():
                    if key not in props and key not in data:
                        default = decl.get("default") if isinstance(decl, dict) else None
                        props[key] = _freeze(default)
                spaces[space_id] = SpaceDef(
                    space_id,
                    group.id,
                    side_list,
                    data.get("capacity", group.data.get("capacity", 1)),
                    bool(group.data.get("claimable", False)),
                    group.data.get("visibility", "public"),
                    props,
                    data.get("label", space_id),
                )
                members.append(space_id)
            groups[group.id] = tuple(members)
        return spaces, groups

    # ---------------------------------------------------------- expressions
    def expression(self, item: Item, sub: tuple, scope: dict[str, str], expect: str | None) -> Any:
        text = value_at(item.data, sub)
        if not isinstance(text, str) or self.broken(item):
            return None
        compiled, problems = self.compiler.expression(text, scope, expect)
        self._report(item, sub, problems)
        return compiled.fn if compiled else None

    def effect(self, item: Item, sub: tuple, scope: dict[str, str]) -> CompiledEffect | None:
        """Compile an effect: one text, or a list of texts and named steps run in order
        (as one program: a step sees the locals of the steps before it)."""
        value = value_at(item.data, sub)
        if value is None or self.broken(item):
            return None
        entries = value if isinstance(value, list) else [value]
        texts, paths = [], []
        for index, entry in enumerate(entries):
            if isinstance(entry, dict):
                entry, path = entry.get("effect"), (*sub, index, "effect")
            else:
                path = (*sub, index) if isinstance(value, list) else sub
            if not isinstance(entry, str):
                return None
            texts.append(entry)
            paths.append(path)
        self._check_step_ids(item, sub, entries)
        joined = "\n".join(texts)
        starts = []
        line = 1
        for text in texts:
            starts.append(line)
            line += text.count("\n") + 1
        node_prefix = f"{item.section}.{item.id}" + "".join(f".{s}" for s in sub)
        compiled, problems = self.compiler.effect(joined, scope, node_prefix)
        for problem in problems:
            index = max(i for i, s in enumerate(starts) if s <= problem.line)
            related = problem.related
            if related is not None:
                related = (related[0] - starts[index] + 1, related[1])
            inner = Problem(
                problem.line - starts[index] + 1,
                problem.column,
                problem.message,
                problem.hint,
                problem.kind,
                related,
            )
            self._report(item, paths[index], [inner])
        return compiled

    def _check_step_ids(self, item: Item, sub: tuple, entries: list) -> None:
        seen: set[str] = set()
        for index, entry in enumerate(entries):
            step = entry.get("id") if isinstance(entry, dict) else None
            if step in seen:
                self.error(
                    item.location(*sub, index, "id"),
                    f"duplicate step id {step!r}",
                    "each step of an effect has its own id",
                    kind="duplicate-id",
                )
            if step is not None:
                seen.add(step)

    def _report(self, item: Item, sub: tuple, problems: list[Problem]) -> None:
        document, path = item.source(*sub)
        for problem in problems:
            location = document.expression_location(path, problem.line, problem.column)
            kind = {
                "syntax": "expression-syntax",
                "name": "unknown-name",
                "arity": "arity",
                "type": "type",
            }.get(problem.kind, problem.kind)
            hint = problem.hint
            if hint and problem.related is not None:
                at = document.expression_location(path, *problem.related)
                hint = hint.replace("{at}", f"{at.line}:{at.column}")
            self.diagnostics.append(Diagnostic(location, problem.message, hint, kind=kind))

    def template(self, item: Item, sub: tuple, message: str, scope: dict[str, str]) -> tuple:
        """Split a message into texts and compiled `{expression}` parts."""
        if "{" not in message:
            return ()
        parts: list[Any] = []
        rest = message
        offset = 0
        while "{" in rest:
            before, _, after = rest.partition("{")
            inside, closed, rest = after.partition("}")
            if not closed:
                self._report(
                    item,
                    sub,
                    [
                        Problem(
                            1,
                            offset + len(before) + 1,
                            "a `{` in the message is not closed",
                            "write `}` after the expression",
                            "syntax",
                        )
                    ],
                )
                return ()
            parts.append(before)
            compiled, problems = self.compiler.expression(inside, scope)
            start = offset + len(before) + 1
            self._report(
                item,
                sub,
                [Problem(p.line, start + p.column, p.message, p.hint, p.kind) for p in problems],
            )
            if compiled is not None:
                parts.append(compiled.fn)
            offset = start + len(inside) + 1
        parts.append(rest)
        return tuple(parts)

    def functions(self, symbols: Symbols) -> dict[str, tuple[tuple[str, ...], Any]]:
        items = self.items("functions")
        calls = {
            i.id: {
                n
                for n in symbols.functions
                if n != i.id and re.search(rf"\b{re.escape(n)}\s*\(", str(i.data.get("value", "")))
            }
            for i in items
        }
        for item in items:
            if re.search(
                rf"\b{re.escape(item.id)}\s*\(", str(item.data.get("value", ""))
            ) or _reaches(item.id, calls):
                self.error(
                    item.location("value"),
                    f"function {item.id!r} calls itself",
                    "functions may not be recursive; use a `for` in an effect",
                    kind="type",
                )
        out = {}
        for item in items:
            signature = symbols.functions[item.id]
            expect = signature.returns if signature.returns != ANY else None
            fn = self.expression(item, ("value",), dict(signature.params), expect)
            out[item.id] = (tuple(signature.params), fn)
        return out

    def actions(self, symbols: Symbols) -> dict[str, ActionDef]:
        out = {}
        for item in self.items("actions"):
            signature = symbols.actions[item.id]
            scope = dict(signature.params)
            requires = []
            for index, req in enumerate(item.data.get("requires") or []):
                if not isinstance(req, dict):
                    continue
                fn = self.expression(item, ("requires", index, "condition"), scope, BOOL)
                message = str(req.get("message", ""))
                parts = self.template(item, ("requires", index, "message"), message, scope)
                requires.append(Requirement(fn, message, str(req.get("condition", "")), parts))
            effect = self.effect(item, ("effect",), scope)
            defaults = {}
            for name, decl in (item.data.get("params") or {}).items():
                if isinstance(decl, dict) and "default" in decl:
                    defaults[name] = _freeze(decl["default"])
            out[item.id] = ActionDef(
                item.id,
                item.data.get("label", item.id),
                signature.params,
                defaults,
                dict(item.data.get("properties") or {}),
                tuple(requires),
                effect,
                item.location(key=True),
            )
        return out

    def triggers(self, symbols: Symbols) -> dict[str, TriggerDef]:
        out = {}
        for item in self.items("triggers"):
            event = item.data.get("on")
            scope: dict[str, str] = {}
            if event is not None:
                if event not in symbols.events:
                    self.error(
                        item.location("on"),
                        f"unknown event {event!r}",
                        did_you_mean(str(event), set(symbols.events))
                        or "declare it under `events:`",
                    )
                elif symbols.events[event].unchecked:
                    continue  # the event is broken (reported): its trigger cannot be checked
                else:
                    scope = dict(symbols.events[event].params)
            when = self.expression(item, ("when",), {}, BOOL) if "when" in item.data else None
            effect = self.effect(item, ("effect",), scope)
            once = item.data.get("once", "never" if event else "player")
            out[item.id] = TriggerDef(item.id, event, when, once, effect)
        return out

    def structure(self, symbols: Symbols) -> dict[str, Any]:
        item = self.catalog.singletons.get("structure")
        result: dict[str, Any] = {
            "setup": None,
            "rounds": None,
            "round_counter": None,
            "until": None,
            "end": None,
            "phases": (),
        }
        if item is None or not isinstance(item.data, dict):
            manifest_doc = self.catalog.manifest_document
            if manifest_doc is not None and self.catalog.manifest:
                self.error(
                    manifest_doc.location(("include",)),
                    "the ruleset has no `structure` (setup, rounds, phases)",
                    "add a `structure:` section to one of the included files",
                    kind="schema",
                )
            return result
        data = item.data
        result["setup"] = self.effect(item, ("setup",), {}) if "setup" in data else None
        rounds = data.get("rounds") or {}
        result["rounds"] = rounds.get("count")
        counter = rounds.get("counter")
        if counter is not None and symbols.counters.get(counter) != "game":
            self.error(
                item.location("rounds", "counter"),
                f"{counter!r} is not a game counter",
                did_you_mean(str(counter), {n for n, p in symbols.counters.items() if p == "game"}),
            )
        result["round_counter"] = counter
        if "until" in rounds:
            result["until"] = self.expression(item, ("rounds", "until"), {}, BOOL)
        if "end" in data:
            result["end"] = self.expression(item, ("end",), {}, BOOL)
        phases = []
        seen: set[str] = set()
        for index, phase in enumerate(data.get("phases") or []):
            if not isinstance(phase, dict):
                continue
            pid = str(phase.get("id", index))
            if pid in seen:
                self.error(
                    item.location("phases", index, "id"),
                    f"duplicate phase id {pid!r}",
                    kind="duplicate-id",
                )
            seen.add(pid)
            sub = ("phases", index)
            order = (
                self.expression(item, (*sub, "order"), {}, list_of(PLAYER))
                if "order" in phase
                else None
            )
            while_ = self.expression(item, (*sub, "while"), {}, BOOL) if "while" in phase else None
            skip = self.expression(item, (*sub, "skip"), {}, BOOL) if "skip" in phase else None
            effect = self.effect(item, (*sub, "effect"), {})
            phases.append(
                PhaseDef(
                    pid,
                    phase.get("label", pid),
                    phase.get("kind", "once"),
                    order,
                    while_,
                    skip,
                    effect,
                )
            )
        result["phases"] = tuple(phases)
        return result

    def scoring(self, symbols: Symbols) -> dict[str, Any]:
        item = self.catalog.singletons.get("scoring")
        result: dict[str, Any] = {"score": None, "tiebreak": (), "scoring": (), "estimate": None}
        if item is None or not isinstance(item.data, dict):
            return result
        data = item.data
        per_player = {n for n, p in symbols.counters.items() if p == "player"}
        score = data.get("score")
        if isinstance(score, str) and score not in per_player:
            self.error(
                item.location("score"),
                f"{score!r} is not a per-player counter",
                did_you_mean(str(score), per_player),
            )
        tiebreak = []
        for index, name in enumerate(data.get("tiebreak") or []):
            if name not in per_player:
                self.error(
                    item.location("tiebreak", index),
                    f"{name!r} is not a per-player counter",
                    did_you_mean(str(name), per_player),
                )
            tiebreak.append(name)
        steps = []
        seen: set[str] = set()
        for index, step in enumerate(data.get("steps") or []):
            if not isinstance(step, dict):
                continue
            sid = str(step.get("id", index))
            if sid in seen:
                self.error(
                    item.location("steps", index, "id"),
                    f"duplicate scoring step {sid!r}",
                    kind="duplicate-id",
                )
            seen.add(sid)
            effect = self.effect(item, ("steps", index, "effect"), {})
            steps.append(ScoringStep(sid, step.get("label", sid), effect))
        estimate = self.expression(item, ("estimate",), {}, NUMBER) if "estimate" in data else None
        result.update(
            score=score, tiebreak=tuple(tiebreak), scoring=tuple(steps), estimate=estimate
        )
        return result

    def check_player_counts(self) -> None:
        players = self.catalog.manifest.get("players")
        document = self.catalog.manifest_document
        if isinstance(players, dict) and document is not None:
            low, high = players.get("min"), players.get("max")
            if isinstance(low, int) and isinstance(high, int) and low > high:
                self.error(
                    document.location(("players",)),
                    f"players: min {low} is more than max {high}",
                    kind="schema",
                )

    # ------------------------------------------------------------ counting
    def provisional_count(self) -> int:
        return len(self.catalog.provisional_keys())


def build(catalog: Catalog) -> BuildResult:
    return Builder(catalog).build()


# -------------------------------------------------------------------- helpers
def _signature(params: Any, returns: str = ANY, unchecked: bool = False) -> Signature:
    types: dict[str, str] = {}
    optional = set()
    for name, decl in (params or {}).items():
        if isinstance(decl, dict):
            types[name] = decl.get("type", ANY)
            if "default" in decl:
                optional.add(name)
        else:
            types[name] = decl if decl in TYPE_NAMES else ANY
    return Signature(
        types, frozenset(optional), returns if returns in TYPE_NAMES else ANY, unchecked
    )


def _infer_type(value: Any) -> str:
    """The static type of a value written in YAML (lists typed by their items)."""
    if isinstance(value, list):
        inner = {_infer_type(v) for v in value}
        return list_of(inner.pop() if len(inner) == 1 else ANY)
    kind = type_of(value)
    return ANY if kind == NONE else kind


def _freeze(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_freeze(v) for v in value)
    if isinstance(value, dict):
        return {k: _freeze(v) for k, v in value.items()}
    return value


def _reaches(start: str, calls: dict[str, set[str]]) -> bool:
    seen, stack = set(), list(calls.get(start, ()))
    while stack:
        name = stack.pop()
        if name == start:
            return True
        if name not in seen:
            seen.add(name)
            stack.extend(calls.get(name, ()))
    return False


def _article(word: str) -> str:
    return f"an {word}" if word[0] in "aeiou" else f"a {word}"


def _type_words(type_: str) -> str:
    return {
        NUMBER: "a whole number",
        BOOL: "true or false",
        TEXT: "a text",
        MAP: "a mapping",
        "list": "a list",
    }.get(type_, type_ if not is_list(type_) else "a list")
