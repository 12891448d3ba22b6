"""Keyed counters and zones in expressions: `lit[c.colour]`, `my.row[c.suit]`,
`p.progress[col] += 1`, `gain(progress[col], 1, to: p)`.

A family declared with `keys:` (``ruleset/keyed.py``) is no value on its own: it is
read and changed through a key. A key known when compiling is checked then (an
unknown key is a located error with the near keys); a computed one is looked up when
the rule runs, and one that is not a key is a rule error at the statement. A mixin of
``Compiler``, and the run-time helpers its code calls.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from lark import Token, Tree

from interpreter.errors import RuleError
from interpreter.language import codegen as cg
from interpreter.language.compiled import NOT_CONSTANT, Compiled, _Abort, did_you_mean
from interpreter.language.values import (
    ANY,
    COUNTER,
    NUMBER,
    PLAYER,
    ZONE,
    ZoneRef,
    describe,
    text_id,
)

Fn = Callable[[Any], Any]
_SHOWN_KEYS = 8  # keys a message lists before "…"


class KeyedCompiler:
    """`name[key]` of a keyed family (mixed into ``Compiler``)."""

    def _family(self, owner: Tree | Token, scope: dict[str, str]) -> tuple[str, Any] | None:
        """``(family, player tree or None)`` when ``owner`` (what is indexed) names a
        keyed family: `name` for one of the game, `p.name` for one per player."""
        if isinstance(owner, Tree) and owner.data in ("name", "target") and owner.children:
            owner = owner.children[0] if len(owner.children) == 1 else owner
        keyed = self.symbols.keyed
        if isinstance(owner, Token):
            name = str(owner)
            if name in scope or name not in keyed:
                return None
            return name, None
        if isinstance(owner, Tree) and owner.data in ("attr", "target_attr"):
            name = str(owner.children[1])
            if name in keyed and self._per(name) == "player":
                return name, owner.children[0]
        return None

    def _a_property(self, name: str) -> bool:
        """Whether a kind or a space group also has a property called ``name``."""
        symbols = self.symbols
        return symbols.piece_property(name) is not None or symbols.space_property(name) is not None

    def _per(self, name: str) -> str:
        return self.symbols.counters.get(name) or self.symbols.zones.get(name) or "game"

    def _keyed_read(self, tree: Tree, scope: dict[str, str]) -> Compiled | None:
        """`name[key]` read as a value (a number, or a zone), or None when ``tree`` is
        not an index of a keyed family."""
        found = self._family(tree.children[0], scope)
        if found is None:
            return None
        name, owner = found
        if owner is not None and self._a_property(name):
            compiled = self._expr(owner, scope)
            if compiled.type not in (PLAYER, ANY):
                return None  # `c.row[0]`: a component's or space's property of that name
        key = self._key(name, tree.children[1], scope)
        player = self._keyed_owner(name, owner, tree, scope)
        if name in self.symbols.zones:
            code = cg.call(self._h(keyed_zone), cg.name(cg.CTX), ast.Constant(name), key, player)
            return self._c(ZONE, code)
        code = cg.call(self._h(keyed_counter), cg.name(cg.CTX), ast.Constant(name), key, player)
        return self._c(NUMBER, code, exact=True)

    def _keyed_owner(self, name: str, owner: Any, tree: Tree, scope: dict[str, str]) -> ast.expr:
        """The code of the player a per-player member belongs to; `None` for the game's."""
        if owner is None:
            if self._per(name) == "player":
                self._fail(
                    tree,
                    f"`{name}` belongs to a player",
                    f"write `my.{name}[…]` or `p.{name}[…]`",
                    kind="name",
                )
            return ast.Constant(None)
        player = self._expr(owner, scope)
        if player.type not in (PLAYER, ANY):
            self._fail(tree, f"`.{name}[…]` is a player's, not {describe(player.type)}'s")
        return player.code

    def _key(self, name: str, tree: Tree, scope: dict[str, str]) -> ast.expr:
        """The key's code, its type and (when known now) its value checked."""
        keys = self.symbols.keyed[name]
        key = self._expr(tree, scope)
        if key.type not in (keys.type, ANY):
            self._fail(
                tree,
                f"`{name}` is keyed by {describe(keys.type)}, not {describe(key.type)}",
                f"its keys: {shown(keys.values)}",
            )
        if key.constant is not NOT_CONSTANT and key.constant not in keys.values:
            self._fail(
                tree,
                f"{quoted(key.constant)} is not a key of `{name}`",
                did_you_mean(text_id(key.constant), {text_id(v) for v in keys.values})
                or f"its keys: {shown(keys.values)}",
                kind="name",
            )
        return key.code

    def _keyed_counter_argument(self, arg: Any, scope: dict[str, str]) -> Compiled | None:
        """`progress[c]` given to `gain`, `pay`, `gain_if`: the member's name."""
        if not (isinstance(arg, Tree) and arg.data == "index"):
            return None
        found = self._family(arg.children[0], scope)
        if found is None or found[1] is not None or found[0] not in self.symbols.counters:
            return None
        key = self._key(found[0], arg.children[1], scope)
        code = cg.call(self._h(keyed_member), cg.name(cg.CTX), ast.Constant(found[0]), key)
        return self._c(COUNTER, code)

    def _keyed_target(self, tree: Tree, scope: dict[str, str]) -> tuple | None:
        """The setter of `name[key] = …` or `p.name[key] += …`, or None."""
        owner, index = tree.children
        found = self._family(owner, scope)
        if found is None:
            return None
        name, player = found
        if (
            player is not None
            and self._a_property(name)
            and self._target_compiled(player, scope).type not in (PLAYER, ANY)
        ):
            return None  # a property of that name: not a member, the usual error follows
        if name in self.symbols.zones:
            self._fail(tree, f"`{name}[…]` is a zone: move components into it, it cannot be set")
            raise _Abort
        key = self._expr(index, scope)
        self._key(name, index, scope)  # checked; its code is ``key``'s
        player_fn = None
        if player is not None:
            compiled = self._target_compiled(player, scope)
            if compiled.type not in (PLAYER, ANY):
                self._fail(tree, f"`.{name}[…]` is a player's, not {describe(compiled.type)}'s")
            player_fn = compiled.fn
        elif self._per(name) == "player":
            self._keyed_owner(name, None, tree, scope)
        return SetKeyedCounter(name, key.fn, player_fn), NUMBER, f"{name}[…]"

    def _keyed_bare(self, token: Token, name: str) -> None:
        """A keyed family named without a key: refused with the way to write it."""
        keys = self.symbols.keyed[name]
        first = quoted(keys.values[0])
        self._fail(
            token,
            f"`{name}` holds one value per key ({shown(keys.values)}): name the key",
            f"write `{name}[{first}]`, or `sum({name}[k] for k in …)` for them all",
            kind="name",
        )


def shown(values: tuple) -> str:
    """The keys as a message lists them."""
    texts = [text_id(v) for v in values[:_SHOWN_KEYS]]
    return ", ".join(texts) + (", …" if len(values) > _SHOWN_KEYS else "")


def quoted(key: Any) -> str:
    """A key as the rules write it: `'red'`, `3`, `'pawn-2'`."""
    return str(key) if type(key) is int else repr(text_id(key))


# ---------------------------------------------------------------- run time
def keyed_member(ctx: Any, name: str, key: Any) -> str:
    """The member of ``name`` for ``key``; a key it has not is a rule error."""
    members = ctx.rules.keyed[name]
    found = members.get(key) if type(key) is not bool else None
    if found is None:
        raise RuleError(
            f"{quoted(key)} is not a key of `{name}`",
            f"its keys: {shown(tuple(members))}",
        )
    return found


def keyed_counter(ctx: Any, name: str, key: Any, player: Any) -> int:
    """The value of a keyed counter's member (the player's, when per player)."""
    member = keyed_member(ctx, name, key)
    return ctx.state.counters.get(ctx.rules.counter_key(member, player), 0)


def keyed_zone(ctx: Any, name: str, key: Any, player: Any) -> ZoneRef:
    """A keyed zone's member (the player's, when per player)."""
    member = keyed_member(ctx, name, key)
    if ctx.rules.zone_per.get(member) == "game":
        return ZoneRef(member)
    if player is None:
        raise RuleError(
            f"`{name}` belongs to a player, but no player acts here",
            f"name the player (`p.{name}[…]`) or use `act as p`",
        )
    return ZoneRef(f"{member}#{int(player)}")


@dataclass(frozen=True, slots=True)
class SetKeyedCounter:
    """`name[key] = …`, `p.name[key] += …`: the member's bounds apply."""

    name: str
    key: Fn
    owner: Fn | None

    def __call__(self, ctx: Any, op: str, value: Any) -> None:
        member = keyed_member(ctx, self.name, self.key(ctx))
        player = self.owner(ctx) if self.owner is not None else None
        ctx.rules.set_counter(ctx, member, player, op, value)
