"""Compiling calls: arguments of primitives (named, `x in … where …`, `… for x in …`)
and calls of the ruleset's own functions. A mixin of ``Compiler``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from lark import Token, Tree

from interpreter.language.closures import (
    _user_call,
)
from interpreter.language.compiled import Compiled, did_you_mean
from interpreter.language.paths import _contents
from interpreter.language.registry import Primitive
from interpreter.language.syntax_tree import _args
from interpreter.language.values import (
    ANY,
    COUNTER,
    ZONE,
    compatible,
    describe,
    is_list,
    item_type,
    list_of,
)

Fn = Callable[[Any], Any]


class CallCompiler:
    """The call forms of expressions (mixed into ``Compiler``)."""

    # ------------------------------------------------------------- calls
    def _primitive_args(
        self, primitive: Primitive, args: Tree | None, scope: dict[str, str], where: Token
    ) -> tuple[tuple[Fn, ...], tuple[tuple[str, Fn], ...]]:
        params = primitive.params
        given = _args(args)
        positional: list[Fn] = []
        named: list[tuple[str, Fn]] = []
        types: list[str] = []
        seen_named = False
        filled: set[str] = set()
        for index, arg in enumerate(given):
            if isinstance(arg, Tree) and arg.data == "named_arg":
                seen_named = True
                pname = str(arg.children[0])
                param = next((p for p in params if p.name == pname), None)
                if param is None:
                    self._fail(
                        arg.children[0],
                        f"`{primitive.name}` has no parameter `{pname}`",
                        did_you_mean(pname, {p.name for p in params})
                        or f"usage: {primitive.signature()}",
                        kind="arity",
                    )
                if pname in filled:
                    self._fail(arg.children[0], f"parameter `{pname}` is given twice", kind="arity")
                compiled = self._argument(param.type, arg.children[1], scope, primitive, pname)
                named.append((pname, compiled.fn))
                filled.add(pname)
                continue
            if seen_named:
                self._fail(arg, "positional arguments must come before named ones", kind="arity")
            if index >= len(params):
                self._fail(
                    arg,
                    f"`{primitive.name}` takes at most {len(params)} argument"
                    f"{'s' if len(params) != 1 else ''}",
                    f"usage: {primitive.signature()}",
                    kind="arity",
                )
            param = params[index]
            compiled = self._argument(param.type, arg, scope, primitive, param.name)
            positional.append(compiled.fn)
            types.append(compiled.type)
            filled.add(param.name)
        missing = [p.name for p in params if p.required and p.name not in filled]
        if missing:
            needed = sum(p.required for p in params)
            self._fail(
                where,
                f"`{primitive.name}` needs {needed} argument{'s' if needed != 1 else ''}, "
                f"missing {', '.join(f'`{m}`' for m in missing)}",
                f"usage: {primitive.signature()}",
                kind="arity",
            )
        self._last_arg_types = types
        return tuple(positional), tuple(named)

    def _argument(
        self, expected: str, arg: Tree, scope: dict[str, str], primitive: Primitive, pname: str
    ) -> Compiled:
        if isinstance(arg, Tree) and arg.data == "binder_arg":
            compiled = self._binder(arg, scope)
        elif isinstance(arg, Tree) and arg.data == "mapper_arg":
            compiled = self._mapper(arg, scope)
        elif expected == COUNTER:
            token = arg.children[0] if isinstance(arg, Tree) and arg.data == "name" else None
            name = str(token) if token is not None else ""
            if token is None or name not in self.symbols.counters:
                self._fail(
                    arg,
                    f"`{primitive.name}` needs a counter name here",
                    did_you_mean(name, set(self.symbols.counters))
                    or f"counters: {', '.join(sorted(self.symbols.counters))}",
                    kind="name",
                )
            return Compiled(COUNTER, lambda ctx, n=name: n)
        else:
            compiled = self._expr(arg, scope)
        if is_list(expected) and compiled.type == ZONE:
            compiled = _contents(compiled)
        if not compatible(expected, compiled.type):
            hint = None
            if is_list(expected) and not is_list(compiled.type):
                hint = f"`{primitive.name}` works on a collection"
            self._fail(
                arg,
                f"argument `{pname}` of `{primitive.name}` must be "
                f"{describe(expected)}, but this is {describe(compiled.type)}",
                hint,
            )
        return compiled

    def _binder(self, arg: Tree, scope: dict[str, str]) -> Compiled:
        name, coll, where = arg.children
        items = self._collection(coll, scope)
        inner = {**scope, str(name): item_type(items.type)}
        if where is None:
            return items
        cond = self._cond(where.children[0], inner)
        var = str(name)
        get_items = items.fn

        def filtered(ctx: Any) -> tuple:
            saved = ctx.env
            env = ctx.env = dict(saved)
            out = []
            try:
                for item in get_items(ctx):
                    ctx.tick()
                    env[var] = item
                    if cond(ctx):
                        out.append(item)
            finally:
                ctx.env = saved
            return tuple(out)

        filtered.binder = (get_items, var, cond)  # type: ignore[attr-defined]

        return Compiled(items.type, filtered)

    def _mapper(self, arg: Tree, scope: dict[str, str]) -> Compiled:
        value_tree, name, coll, where = arg.children
        items = self._collection(coll, scope)
        inner = {**scope, str(name): item_type(items.type)}
        value = self._expr(value_tree, inner)
        cond = self._cond(where.children[0], inner) if where is not None else None
        var = str(name)
        get_items, get_value = items.fn, value.fn

        def mapped(ctx: Any) -> tuple:
            saved = ctx.env
            env = ctx.env = dict(saved)
            out = []
            try:
                for item in get_items(ctx):
                    ctx.tick()
                    env[var] = item
                    if cond is None or cond(ctx):
                        out.append(get_value(ctx))
            finally:
                ctx.env = saved
            return tuple(out)

        mapped.mapper = (get_items, var, cond, get_value)  # type: ignore[attr-defined]

        return Compiled(list_of(value.type), mapped)

    def _user_call(self, name_token: Token, args: Tree | None, scope: dict[str, str]) -> Compiled:
        name = str(name_token)
        signature = self.symbols.functions[name]
        given = _args(args)
        params = list(signature.params)
        if signature.unchecked:  # the definition is broken: check only the arguments
            for arg in given:
                if not (
                    isinstance(arg, Tree) and arg.data in ("named_arg", "binder_arg", "mapper_arg")
                ):
                    self._expr(arg, scope)
            return Compiled(ANY, lambda ctx: None)
        if len(given) != len(params):
            self._fail(
                name_token,
                f"`{name}` takes {len(params)} argument"
                f"{'s' if len(params) != 1 else ''}, not {len(given)}",
                f"usage: {name}({', '.join(params)})",
                kind="arity",
            )
        fns = []
        for param, arg in zip(params, given, strict=True):
            if isinstance(arg, Tree) and arg.data in ("named_arg", "binder_arg", "mapper_arg"):
                compiled = (
                    self._binder(arg, scope)
                    if arg.data == "binder_arg"
                    else (self._mapper(arg, scope) if arg.data == "mapper_arg" else None)
                )
                if compiled is None:
                    self._fail(
                        arg, f"`{name}` takes its arguments in order, without names", kind="arity"
                    )
            else:
                compiled = self._expr(arg, scope)
            expected = signature.params[param]
            if not compatible(expected, compiled.type):
                self._fail(
                    arg,
                    f"argument `{param}` of `{name}` must be {describe(expected)}, "
                    f"but this is {describe(compiled.type)}",
                )
            fns.append(compiled.fn)
        arg_fns = tuple(fns)
        return Compiled(signature.returns, _user_call(name, tuple(params), arg_fns))
