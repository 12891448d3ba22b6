"""Compiling names and paths: locals, the ruleset's names, `.attribute` and `[index]`
by the static type of what they are read from. A mixin of ``Compiler``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from lark import Token, Tree

from interpreter.errors import RuleError
from interpreter.language.closures import (
    _list_get,
    _map_get,
    _map_or_list_get,
    _piece_attribute,
    _player_attribute,
    _zone_attribute,
)
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
    Player,
    ZoneRef,
    describe,
    is_list,
    item_type,
    list_of,
    type_of,
)

Fn = Callable[[Any], Any]


class PathCompiler:
    """Names, attributes and indexes in expressions (mixed into ``Compiler``)."""

    # ------------------------------------------------------- names/paths
    def _name(self, token: Token, scope: dict[str, str]) -> Compiled:
        name = str(token)
        if name in scope:
            return Compiled(scope[name], lambda ctx: ctx.env[name])
        symbols = self.symbols
        if name in symbols.ambiguous:  # already reported where it is defined twice
            return Compiled(ANY, lambda ctx: None)
        if name in ("me", "my"):
            return Compiled(PLAYER, lambda ctx: ctx.me)
        if name == "players":
            return Compiled(
                list_of(PLAYER), lambda ctx: tuple(Player(i) for i in range(len(ctx.state.players)))
            )
        if name == "player_count":
            return Compiled(NUMBER, lambda ctx: ctx.rules.player_count)
        if name in symbols.constants:
            return Compiled(symbols.constants[name], lambda ctx: ctx.rules.constants[name])
        if symbols.counters.get(name) == "game":
            return Compiled(NUMBER, lambda ctx: ctx.state.counters[name])
        if name in symbols.variables and symbols.variables[name][0] == "game":
            return Compiled(symbols.variables[name][1], lambda ctx: ctx.state.variables.get(name))
        if symbols.zones.get(name) == "game" or name in symbols.spaces:
            ref = ZoneRef(name)
            return Compiled(ZONE, lambda ctx: ref)
        if name in symbols.groups:
            return Compiled(list_of(ZONE), lambda ctx: ctx.rules.group_members[name])
        if name in symbols.components:
            ref = Piece(name)
            return Compiled(PIECE, lambda ctx: ref)
        if name in symbols.kinds:
            return Compiled(list_of(PIECE), lambda ctx: ctx.rules.kind_members[name])
        if name in symbols.actions:
            ref = ActionRef(name)
            return Compiled(ACTION, lambda ctx: ref)
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

    def _attribute(self, owner: Compiled, name_token: Token, tree: Tree) -> Compiled:
        name = str(name_token)
        kind = owner.type
        get = owner.fn
        builtin = self.registry.attributes.get(kind, {}).get(name)
        symbols = self.symbols
        if kind == PLAYER:
            get = _some_player(get, name)
            if symbols.counters.get(name) == "player":
                keys = self.seat_keys[name]
                return Compiled(NUMBER, lambda ctx: ctx.state.counters[keys[get(ctx)]])
            if symbols.zones.get(name) == "player":
                zkeys = self.zone_keys[name]
                return Compiled(ZONE, lambda ctx: zkeys[get(ctx)])
            if name in symbols.variables and symbols.variables[name][0] == "player":
                vkeys = self.seat_keys[name]
                return Compiled(
                    symbols.variables[name][1], lambda ctx: ctx.state.variables.get(vkeys[get(ctx)])
                )
            if builtin is not None:
                return Compiled(builtin.type, _player_attribute(name, get))
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
            if builtin is not None:
                return Compiled(builtin.type, _zone_attribute(name, get))
            prop = symbols.space_property(name)
            if prop is not None:
                return Compiled(prop, lambda ctx: ctx.rules.zone_props[get(ctx)].get(name))
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
                return Compiled(builtin.type, _piece_attribute(name, get))
            prop = symbols.piece_property(name)
            if prop is not None:
                return Compiled(prop, _piece_property(name, get))
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
                return Compiled(TEXT, lambda ctx: str(get(ctx)))
            if name in symbols.action_properties:
                return Compiled(
                    symbols.action_properties[name],
                    lambda ctx: ctx.rules.action_props[get(ctx)].get(name),
                )
            self._fail(
                name_token,
                f"no action has a property `{name}`",
                did_you_mean(name, set(symbols.action_properties)),
                kind="name",
            )
        if kind == MAP:
            return Compiled(ANY, lambda ctx: _map_get(get(ctx), name))
        if kind == ANY:
            return Compiled(ANY, lambda ctx: _dynamic_attribute(ctx, get(ctx), name, self))
        self._fail(
            name_token,
            f"{describe(kind)} has no attributes (`.{name}`)",
            "count(…) gives the size of a collection" if is_list(kind) else None,
        )
        raise _Abort

    def _index(self, owner: Compiled, key: Compiled, tree: Tree) -> Compiled:
        get, get_key = owner.fn, key.fn
        if is_list(owner.type):
            if key.type not in (NUMBER, ANY):
                self._fail(
                    tree.children[1],
                    f"a collection is indexed by a number, not {describe(key.type)}",
                )
            return Compiled(item_type(owner.type), lambda ctx: _list_get(get(ctx), get_key(ctx)))
        if owner.type in (MAP, ANY):
            return Compiled(ANY, lambda ctx: _map_or_list_get(get(ctx), get_key(ctx)))
        self._fail(tree, f"{describe(owner.type)} cannot be indexed with [ ]")
        raise _Abort


def _dynamic_attribute(ctx: Any, value: Any, name: str, compiler: PathCompiler) -> Any:
    """Attribute access on a value whose type was unknown when compiling."""
    kind = type_of(value)
    if value is None:
        raise RuleError(f"cannot read `.{name}` of none")
    constant = Compiled(kind, lambda _ctx: value)
    compiler.problems = []
    try:
        compiled = compiler._attribute(constant, Token("NAME", name), Tree("attr", []))
    except _Abort:
        raise RuleError(f"{describe(kind)} has no `{name}`") from None
    return compiled.fn(ctx)


def _contents(zone: Compiled) -> Compiled:
    """A zone used where a collection is asked: the components in it."""
    fn = zone.fn
    return Compiled(
        list_of(PIECE), lambda ctx: tuple(Piece(p) for p in ctx.state.zones.get(fn(ctx), ()))
    )


def _some_player(get: Callable[[Any], Any], name: str) -> Callable[[Any], Any]:
    """``get`` of a player whose ``.name`` is asked: none is a defect of the rules (a
    `my` where nobody acts, a `first(…)` that found nobody), not an internal error."""

    def player(ctx: Any) -> Any:
        value = get(ctx)
        if value is None:
            raise RuleError(f"`.{name}` was asked of none instead of a player")
        return value

    return player


def _piece_property(name: str, get: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """``.name`` of a component; of none (or of anything else) a defect of the rules."""

    def read(ctx: Any) -> Any:
        props = ctx.rules.piece_props.get(get(ctx))
        if props is None:
            raise RuleError(f"`.{name}` was asked of {get(ctx)!r} instead of a component")
        return props.get(name)

    return read
