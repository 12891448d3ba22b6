"""Compiling names and paths: locals, the ruleset's names, `.attribute` and `[index]`
by the static type of what they are read from, into direct look-ups in the generated
code. A mixin of ``Compiler``."""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import Any

from lark import Token, Tree

from interpreter.language import codegen as cg
from interpreter.language import operations as ops
from interpreter.language.compiled import Compiled, _Abort, did_you_mean
from interpreter.language.values import (
    ACTION,
    ANY,
    MAP,
    NUMBER,
    PIECE,
    PLAYER,
    TEXT,
    ZONE,
    ActionRef,
    Piece,
    ZoneRef,
    describe,
    is_list,
    item_type,
    list_of,
)

Fn = Callable[[Any], Any]
_CTX = cg.name(cg.CTX)
_UNKNOWN = object()


class PathCompiler:
    """Names, attributes and indexes in expressions (mixed into ``Compiler``)."""

    # ------------------------------------------------------- names/paths
    def _name_code(self, name: str, scope: dict[str, str]) -> ast.expr:
        """A local of the rules: a Python local where this code binds it, else the
        effect's variable (``ctx.env``)."""
        if name in self._locals:
            return cg.name(cg.local(name))
        return cg.item(cg.ctx_attr("env"), ast.Constant(name))

    def _name(self, token: Token, scope: dict[str, str]) -> Compiled:
        name = str(token)
        key = ast.Constant(name)
        if name in scope:
            return self._c(scope[name], self._name_code(name, scope))
        symbols = self.symbols
        if name in symbols.ambiguous:  # already reported where it is defined twice
            return self._const(ANY, None)
        if name in ("me", "my"):
            return self._c(PLAYER, cg.ctx_attr("me"))
        if name in symbols.keyed and symbols.counters.get(name, symbols.zones.get(name)) == "game":
            self._keyed_bare(token, name)
        if name == "players":
            return self._c(list_of(PLAYER), cg.call(self._h(ops.players), _CTX))
        if name == "player_count":
            return self._c(NUMBER, cg.ctx_attr("rules", "player_count"), exact=True)
        if name in symbols.constants:
            value = symbols.constant_values.get(name, _UNKNOWN)
            if value is not _UNKNOWN:  # folded: the same in every game of this ruleset
                return self._const(symbols.constants[name], value)
            return self._c(symbols.constants[name], cg.item(cg.ctx_attr("rules", "constants"), key))
        if symbols.counters.get(name) == "game":
            return self._c(NUMBER, cg.item(cg.ctx_attr("state", "counters"), key), exact=True)
        if name in symbols.variables and symbols.variables[name][0] == "game":
            value = cg.method(cg.ctx_attr("state", "variables"), "get", key)
            return self._c(symbols.variables[name][1], value)
        if symbols.zones.get(name) == "game" or name in symbols.spaces:
            return self._const(ZONE, ZoneRef(name))
        if name in symbols.groups:
            return self._c(list_of(ZONE), cg.item(cg.ctx_attr("rules", "group_members"), key))
        if name in symbols.components:
            return self._const(PIECE, Piece(name))
        if name in symbols.kinds:
            return self._c(list_of(PIECE), cg.item(cg.ctx_attr("rules", "kind_members"), key))
        if name in symbols.actions:
            return self._const(ACTION, ActionRef(name))
        if (
            symbols.counters.get(name) == "player"
            or symbols.zones.get(name) == "player"
            or (name in symbols.variables)
        ):
            self._fail(
                token,
                f"`{name}` belongs to a player",
                f"write `my.{name}` or `p.{name}`",
                kind="name",
            )
        if name in symbols.functions:
            self._fail(token, f"`{name}` is a function", f"call it: `{name}(…)`", kind="type")
        if name in self.registry.functions or name in self.registry.statements:
            what = "function" if name in self.registry.functions else "effect"
            self._fail(
                token,
                f"`{name}` is a built-in {what}",
                f"call it: `{name}(…)`",
                kind="type",
            )
        copies = self._copies(name)
        if copies:  # a component with `count`: the list of its copies, in order
            return self._const(list_of(PIECE), tuple(Piece(c) for c in copies))
        self._unknown(token, name, scope, "is not defined")
        raise _Abort

    def _unknown(
        self,
        token: Token,
        name: str,
        scope: dict[str, str],
        what: str,
        candidates: set[str] | None = None,
    ) -> None:
        if candidates is None:
            candidates = set(scope) | self.symbols.global_names() | set(self.registry.names)
        hint = did_you_mean(name, candidates)
        if hint is None and name in self.symbols.events:
            hint = "events are announced with `emit` and heard by triggers"
        self._fail(token, f"`{name}` {what}", hint, kind="name")

    def _copies(self, design: str) -> list[str]:
        """The ids of the copies of a component with `count` (`S1-1` … `S1-5`), in order;
        none for any other name."""
        components = self.symbols.components
        if f"{design}-1" not in components:
            return []
        copies = []
        while f"{design}-{len(copies) + 1}" in components:  # at most the pieces' cap
            copies.append(f"{design}-{len(copies) + 1}")
        return copies

    def _attribute(self, owner: Compiled, name_token: Token, tree: Tree) -> Compiled:
        name = str(name_token)
        kind = owner.type
        get = owner.code
        builtin = self.registry.attributes.get(kind, {}).get(name)
        symbols = self.symbols
        key = ast.Constant(name)
        if kind == PLAYER:
            if name in symbols.keyed:
                self._keyed_bare(name_token, name)
            if symbols.counters.get(name) == "player":
                seat_key = cg.item(self.emitter.bind(self.seat_keys[name], "keys"), get)
                return self._c(
                    NUMBER, cg.item(cg.ctx_attr("state", "counters"), seat_key), exact=True
                )
            if symbols.zones.get(name) == "player":
                return self._c(ZONE, cg.item(self.emitter.bind(self.zone_keys[name], "zones"), get))
            if name in symbols.variables and symbols.variables[name][0] == "player":
                seat_key = cg.item(self.emitter.bind(self.seat_keys[name], "keys"), get)
                value = cg.method(cg.ctx_attr("state", "variables"), "get", seat_key)
                return self._c(symbols.variables[name][1], value)
            if builtin is not None:
                return self._c(builtin.type, self._player_attribute(name, get))
            self._fail(
                name_token,
                f"a player has no `{name}`",
                did_you_mean(
                    name,
                    {n for n, p in symbols.counters.items() if p == "player"}
                    | {n for n, p in symbols.zones.items() if p == "player"}
                    | set(self.registry.attributes[PLAYER]),
                )
                or "declare it as a per-player counter, variable or zone",
                kind="name",
            )
        if kind == ZONE:
            get = self._zone_key(get)
            if builtin is not None:
                return self._c(builtin.type, self._zone_attribute(name, get))
            prop = symbols.space_property(name)
            if prop is not None:
                props = cg.item(cg.ctx_attr("rules", "zone_props"), get)
                return self._c(prop, cg.method(props, "get", key))
            self._fail(
                name_token,
                f"a zone or space has no `{name}`",
                did_you_mean(
                    name,
                    set(self.registry.attributes[ZONE])
                    | {p for props in symbols.groups.values() for p in props},
                ),
                kind="name",
            )
        if kind == PIECE:
            if builtin is not None:
                return self._c(builtin.type, self._piece_attribute(name, get))
            prop = symbols.piece_property(name)
            if prop is not None:
                props = cg.item(cg.ctx_attr("rules", "piece_props"), get)
                return self._c(prop, cg.method(props, "get", key))
            self._fail(
                name_token,
                f"no kind of component has a property `{name}`",
                did_you_mean(
                    name,
                    {p for props in symbols.kinds.values() for p in props}
                    | set(self.registry.attributes[PIECE]),
                ),
                kind="name",
            )
        if kind == ACTION:
            if name == "id":
                return self._c(TEXT, cg.call(cg.name("str"), get))
            if name in symbols.action_properties:
                props = cg.item(cg.ctx_attr("rules", "action_props"), get)
                return self._c(symbols.action_properties[name], cg.method(props, "get", key))
            self._fail(
                name_token,
                f"no action has a property `{name}`",
                did_you_mean(name, set(symbols.action_properties)),
                kind="name",
            )
        if kind == MAP:
            return self._c(ANY, cg.call(self._h(ops._map_get), get, key))
        if kind == ANY:
            return self._c(ANY, cg.call(self._h(ops.dynamic_attribute), _CTX, get, key))
        self._fail(
            name_token,
            f"{describe(kind)} has no attributes (`.{name}`)",
            "count(…) gives the size of a collection" if is_list(kind) else None,
        )
        raise _Abort

    def _player_attribute(self, name: str, get: ast.expr) -> ast.expr:
        if name == "name":
            return cg.call(self._h(ops.player_name), _CTX, get)
        if name == "seat":
            return cg.call(self._h(ops.player_seat), get)
        if name == "next":
            return cg.call(self._h(ops.player_next), _CTX, get)
        if name == "automaton":
            return cg.call(self._h(ops.player_automaton), _CTX, get)
        raise KeyError(name)

    def _zone_key(self, zone: ast.expr) -> ast.expr:
        """A zone's key where a zone is only looked up: ``c.zone.size`` reads where the
        component is, without making the zone value (``ops.zone_of``) on the way."""
        if (
            isinstance(zone, ast.Call)
            and isinstance(zone.func, ast.Name)
            and self.emitter.namespace.get(zone.func.id) is ops.zone_of
        ):
            return cg.method(cg.ctx_attr("state", "where"), "get", zone.args[1])
        return zone

    def _zone_attribute(self, name: str, get: ast.expr) -> ast.expr:
        zones = cg.ctx_attr("state", "zones")
        if name == "id":
            return cg.call(cg.name("str"), get)
        if name == "group":
            return cg.method(cg.ctx_attr("rules", "zone_group"), "get", get)
        if name == "pieces":
            return _contents_of(get)
        if name == "size":
            return cg.call(cg.name("len"), cg.method(zones, "get", get, ast.Tuple([], ast.Load())))
        if name == "empty":
            return ast.UnaryOp(ast.Not(), cg.method(zones, "get", get))
        if name == "free":
            return cg.method(cg.ctx_attr("rules"), "is_free", cg.ctx_attr("state"), get)
        if name == "capacity":
            return cg.method(cg.ctx_attr("rules", "zone_capacity"), "get", get, ast.Constant(0))
        if name == "top":
            return cg.call(self._h(ops.top), _CTX, get)
        if name == "bottom":
            return cg.call(self._h(ops.bottom), _CTX, get)
        if name == "owner":
            return cg.method(cg.ctx_attr("rules"), "zone_owner", cg.ctx_attr("state"), get)
        raise KeyError(name)

    def _piece_attribute(self, name: str, get: ast.expr) -> ast.expr:
        if name == "id":
            return cg.call(cg.name("str"), get)
        if name in ("kind", "design"):  # a ``PieceTable``: none asked of is a rule error
            return cg.item(cg.ctx_attr("rules", f"piece_{name}"), get)
        if name == "zone":
            return cg.call(self._h(ops.zone_of), _CTX, get)
        if name == "face":
            return cg.call(self._h(ops.face_of), _CTX, get)
        if name == "owner":
            where = cg.method(cg.ctx_attr("state", "where"), "get", get)
            return cg.method(cg.ctx_attr("rules"), "zone_owner", cg.ctx_attr("state"), where)
        raise KeyError(name)

    def _index(self, owner: Compiled, key: Compiled, tree: Tree) -> Compiled:
        if is_list(owner.type):
            if key.type not in (NUMBER, ANY):
                self._fail(
                    tree.children[1],
                    f"a collection is indexed by a number, not {describe(key.type)}",
                )
            code = cg.call(self._h(ops._list_get), owner.code, key.code)
            return self._c(item_type(owner.type), code)
        if owner.type in (MAP, ANY):
            return self._c(ANY, cg.call(self._h(ops._map_or_list_get), owner.code, key.code))
        self._fail(tree, f"{describe(owner.type)} cannot be indexed with [ ]")
        raise _Abort

    def _contents(self, zone: Compiled) -> Compiled:
        """A zone used where a collection is asked: the components in it."""
        return self._c(list_of(PIECE), _contents_of(zone.code))


def _contents_of(zone: ast.expr) -> ast.expr:
    """``ctx.state.zones.get(zone, ())``: the components in a zone, top first (a zone
    holds ``Piece`` values: ``State``), read without a helper's call."""
    return cg.method(cg.ctx_attr("state", "zones"), "get", zone, ast.Tuple([], ast.Load()))
