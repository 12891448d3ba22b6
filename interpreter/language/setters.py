"""The targets of assignments (`x = …`, `my.coins += …`, `t[k] = …`): small callables
``setter(ctx, op, value)``, plain objects so that a compiled ruleset can be stored."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from interpreter.language.operations import _apply

Fn = Callable[[Any], Any]


@dataclass(frozen=True, slots=True)
class SetLocal:
    name: str

    def __call__(self, ctx: Any, op: str, value: Any) -> None:
        ctx.env[self.name] = _apply(op, ctx.env.get(self.name), value, self.name)


@dataclass(frozen=True, slots=True)
class SetGame:
    """A game counter (bounded by the rules' tables) or a game variable."""

    name: str
    is_counter: bool

    def __call__(self, ctx: Any, op: str, value: Any) -> None:
        if self.is_counter:
            ctx.rules.set_counter(ctx, self.name, None, op, value)
        else:
            old = ctx.state.variables.get(self.name)
            ctx.state.variables[self.name] = _apply(op, old, value, self.name)


@dataclass(frozen=True, slots=True)
class SetPlayerCounter:
    owner: Fn
    name: str

    def __call__(self, ctx: Any, op: str, value: Any) -> None:
        ctx.rules.set_counter(ctx, self.name, self.owner(ctx), op, value)


@dataclass(frozen=True, slots=True)
class SetPlayerVariable:
    owner: Fn
    keys: Any  # the variable's key by seat
    name: str

    def __call__(self, ctx: Any, op: str, value: Any) -> None:
        key = self.keys[self.owner(ctx)]
        ctx.state.variables[key] = _apply(op, ctx.state.variables.get(key), value, self.name)


@dataclass(frozen=True, slots=True)
class SetKey:
    """`table.key = …` on a local table."""

    owner: Fn
    name: str

    def __call__(self, ctx: Any, op: str, value: Any) -> None:
        table = self.owner(ctx)
        table[self.name] = _apply(op, table.get(self.name), value, self.name)


@dataclass(frozen=True, slots=True)
class SetIndex:
    """`table[key] = …` on a local table."""

    owner: Fn
    key: Fn

    def __call__(self, ctx: Any, op: str, value: Any) -> None:
        table = self.owner(ctx)
        k = self.key(ctx)
        table[k] = _apply(op, table.get(k), value, str(k))
