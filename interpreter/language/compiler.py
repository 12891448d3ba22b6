"""Check and compile effect-language trees into Python closures, in one walk.

This module compiles expressions; ``statements.py`` the statement forms (a mixin of
``Compiler``); ``closures.py`` holds what the compiled closures call at run time.

Each expression becomes ``fn(ctx) -> value`` and each effect a tree of nodes
(``effects.py``). While walking, names are resolved against the ruleset's
``Symbols``, arities and static types are checked, and every problem is collected
with its position inside the text; compilation goes on after an error so that all
problems of a text are reported at once.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from lark import Token, Tree

from interpreter.errors import RuleError
from interpreter.language import effects as fx
from interpreter.language.closures import (
    _ARITHMETIC,
    _ge,
    _gt,
    _le,
    _list_get,
    _lt,
    _map_get,
    _map_or_list_get,
    _piece_attribute,
    _player_attribute,
    _short_circuit,
    _user_call,
    _zone_attribute,
)
from interpreter.language.compiled import Compiled, Problem, _Abort, did_you_mean
from interpreter.language.parser import SyntaxProblem, parse
from interpreter.language.registry import REGISTRY, Primitive, Registry
from interpreter.language.statements import StatementCompiler
from interpreter.language.symbols import Symbols
from interpreter.language.syntax_tree import _args, _pos, _unquote
from interpreter.language.values import (
    ACTION,
    ANY,
    BOOL,
    COUNTER,
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
    Player,
    ZoneRef,
    compatible,
    describe,
    is_list,
    item_type,
    list_of,
    type_of,
)

Fn = Callable[[Any], Any]
MAX_SEATS = 16


class Compiler(StatementCompiler):
    """Compiles texts against one ruleset's declarations."""

    def __init__(self, symbols: Symbols, registry: Registry = REGISTRY):
        self.symbols = symbols
        self.registry = registry
        self.problems: list[Problem] = []
        self._prefix = ""
        self._counter = 0
        self.functions_in_progress: set[str] = set()
        self.last_tree: Tree | None = None
        self.seat_keys = {
            name: tuple(f"{name}#{i}" for i in range(MAX_SEATS))
            for name, per in symbols.counters.items()
            if per == "player"
        }
        self.seat_keys.update(
            {
                name: tuple(f"{name}#{i}" for i in range(MAX_SEATS))
                for name, (per, _) in symbols.variables.items()
                if per == "player"
            }
        )
        self.zone_keys = {
            name: tuple(ZoneRef(f"{name}#{i}") for i in range(MAX_SEATS))
            for name, per in symbols.zones.items()
            if per == "player"
        }

    # ------------------------------------------------------------------ API
    def expression(
        self, text: str, scope: dict[str, str] | None = None, expect: str | None = None
    ) -> tuple[Compiled | None, list[Problem]]:
        """Compile a condition or value; ``expect`` is the type the field needs."""
        self.problems = []
        self._text = text
        tree = self._parse(text, "expr")
        if tree is None:
            return None, self.problems
        try:
            compiled = self._expr(tree, dict(scope or {}))
        except _Abort:
            return None, self.problems
        if expect and not compatible(expect, compiled.type):
            line, col = _pos(tree)
            hint = None
            if expect == BOOL and compiled.type == NUMBER:
                hint = "compare the number, e.g. `… > 0`"
            self._problem(
                line,
                col,
                f"expected {describe(expect)} here, but this is {describe(compiled.type)}",
                hint,
            )
        return (compiled if not self.problems else None), self.problems

    def effect(
        self, text: str, scope: dict[str, str] | None = None, node_prefix: str = "effect"
    ) -> tuple[fx.CompiledEffect | None, list[Problem]]:
        """Compile an effect (a sequence of statements)."""
        self.problems = []
        self._prefix = node_prefix
        self._counter = 0
        self._text = text
        tree = self._parse(text, "effect")
        if tree is None:
            return None, self.problems
        nodes: dict[str, fx.Node] = {}
        body = self._block(tree.children, dict(scope or {}), nodes)
        if self.problems:
            return None, self.problems
        return fx.CompiledEffect(text, body, nodes), self.problems

    # ------------------------------------------------------------ helpers
    def _parse(self, text: str, start: str) -> Tree | None:
        self.last_tree = None
        if not isinstance(text, str):
            self._problem(1, 1, "expected a text", kind="syntax")
            return None
        try:
            self.last_tree = parse(text, start)  # the secrecy check reads it (secrecy.py)
            return self.last_tree
        except SyntaxProblem as exc:
            self.problems.append(
                Problem(exc.line, exc.column, exc.message, exc.hint, "syntax", exc.related)
            )
            return None

    def _problem(
        self, line: int, column: int, message: str, hint: str | None = None, kind: str = "type"
    ) -> None:
        self.problems.append(Problem(line, column, message, hint, kind))

    def _fail(
        self, node: Tree | Token, message: str, hint: str | None = None, kind: str = "type"
    ) -> None:
        line, col = _pos(node)
        self._problem(line, col, message, hint, kind)
        raise _Abort

    def _node_id(self) -> str:
        self._counter += 1
        return f"{self._prefix}#{self._counter}"

    # --------------------------------------------------------- statements
    def _terms(self, tree: Tree, scope: dict[str, str]) -> fx.Terms:
        """The `and`-parts of a condition, each with its source text (for explanations)."""
        parts: list[Tree] = []

        def flatten(node: Tree) -> None:
            if isinstance(node, Tree) and node.data == "and_op":
                for child in node.children:
                    flatten(child)
            else:
                parts.append(node)

        flatten(tree)
        saved = list(self.problems)
        out = []
        for part in parts:
            try:
                fn = self._expr(part, scope).fn
            except _Abort:
                continue
            out.append((self._source(part), fn))
        self.problems = saved
        return tuple(out)

    def _source(self, node: Tree | Token) -> str:
        meta = getattr(node, "meta", None)
        if isinstance(node, Token):
            return str(node)
        if meta is None or getattr(meta, "empty", True):
            return "…"
        return self._text[meta.start_pos : meta.end_pos]

    def _type_ref(self, tree: Tree) -> str:
        parts = [str(p) for p in tree.children if p is not None]
        text = ":".join(parts)
        if text not in TYPE_NAMES:
            self._fail(
                tree,
                f"unknown type `{text}`",
                did_you_mean(text, set(TYPE_NAMES)) or f"types: {', '.join(TYPE_NAMES)}",
                kind="name",
            )
        return text

    def _cond(self, tree: Tree, scope: dict[str, str]) -> Fn:
        return self._typed(tree, scope, BOOL, "the condition").fn

    def _typed(self, tree: Tree, scope: dict[str, str], expect: str, what: str) -> Compiled:
        compiled = self._expr(tree, scope)
        if not compatible(expect, compiled.type):
            hint = (
                "compare the number, e.g. `… > 0`"
                if expect == BOOL and compiled.type == NUMBER
                else None
            )
            if expect == BOOL and is_list(compiled.type):
                hint = "use `any(…)` to ask whether a collection has items"
            self._fail(
                tree,
                f"expected {describe(expect)} for {what}, but this is {describe(compiled.type)}",
                hint,
            )
        return compiled

    def _collection(self, tree: Tree, scope: dict[str, str]) -> Compiled:
        compiled = self._expr(tree, scope)
        if compiled.type == ZONE:
            return _contents(compiled)
        if not is_list(compiled.type) and compiled.type != ANY:
            self._fail(tree, f"expected a collection here, but this is {describe(compiled.type)}")
        return compiled

    def _x_can_expr(self, tree: Tree, scope: dict[str, str]) -> Compiled:
        name, dynamic, given = self._action_args(tree.children[0], tree.children[1], scope)
        names = tuple(n for n, _ in given)
        fns = tuple(f for _, f in given)

        def why(ctx: Any, explain: bool = True) -> str | None:
            action = ctx.env[name] if dynamic else name
            if action is None:
                return "there is no action"
            args = {n: f(ctx) for n, f in zip(names, fns, strict=True)}
            return ctx.rules.failed_requirement(ctx, str(action), args, explain)

        def can(ctx: Any) -> bool:
            return why(ctx, False) is None

        can.why = why  # type: ignore[attr-defined]
        return Compiled(BOOL, can)

    def _expr(self, tree: Tree | Token, scope: dict[str, str]) -> Compiled:
        if isinstance(tree, Token):
            if tree.type == "NAME":
                return self._name(tree, scope)
            self._fail(tree, f"unexpected {tree!s}")
        method = getattr(self, f"_x_{tree.data}", None)
        if method is None:
            self._fail(tree, f"unsupported expression {tree.data}")
        return method(tree, scope)

    def _x_number(self, tree: Tree, scope: dict[str, str]) -> Compiled:
        value = int(tree.children[0])
        if abs(value) > 10**12:
            self._fail(tree, "number is too large", "numbers in rulesets are below 10^12")
        return Compiled(NUMBER, lambda ctx, v=value: v)

    def _x_string(self, tree: Tree, scope: dict[str, str]) -> Compiled:
        value = _unquote(tree.children[0])
        return Compiled(TEXT, lambda ctx, v=value: v)

    def _x_true(self, tree: Tree, scope: dict[str, str]) -> Compiled:
        return Compiled(BOOL, lambda ctx: True)

    def _x_false(self, tree: Tree, scope: dict[str, str]) -> Compiled:
        return Compiled(BOOL, lambda ctx: False)

    def _x_none(self, tree: Tree, scope: dict[str, str]) -> Compiled:
        return Compiled(NONE, lambda ctx: None)

    def _x_name(self, tree: Tree, scope: dict[str, str]) -> Compiled:
        return self._name(tree.children[0], scope)

    def _x_list(self, tree: Tree, scope: dict[str, str]) -> Compiled:
        items = [self._expr(c, scope) for c in tree.children if c is not None]
        types = {c.type for c in items}
        inner = types.pop() if len(types) == 1 else ANY
        fns = tuple(c.fn for c in items)
        return Compiled(list_of(inner), lambda ctx: tuple(f(ctx) for f in fns))

    def _x_neg(self, tree: Tree, scope: dict[str, str]) -> Compiled:
        inner = self._typed(tree.children[0], scope, NUMBER, "`-`")
        fn = inner.fn
        return Compiled(NUMBER, lambda ctx: -fn(ctx))

    def _x_not_op(self, tree: Tree, scope: dict[str, str]) -> Compiled:
        fn = self._cond(tree.children[0], scope)
        return Compiled(BOOL, lambda ctx: not fn(ctx))

    def _x_and_op(self, tree: Tree, scope: dict[str, str]) -> Compiled:
        a, b = (self._cond(c, scope) for c in tree.children)
        return Compiled(BOOL, lambda ctx: a(ctx) and b(ctx))

    def _x_or_op(self, tree: Tree, scope: dict[str, str]) -> Compiled:
        a, b = (self._cond(c, scope) for c in tree.children)
        return Compiled(BOOL, lambda ctx: a(ctx) or b(ctx))

    def _x_if_expr(self, tree: Tree, scope: dict[str, str]) -> Compiled:
        cond = self._cond(tree.children[0], scope)
        yes, no = (self._expr(c, scope) for c in tree.children[1:])
        kind = yes.type if compatible(yes.type, no.type) and yes.type != NONE else no.type
        if yes.type != no.type:
            kind = yes.type if no.type == NONE else (no.type if yes.type == NONE else ANY)
        y, n = yes.fn, no.fn
        return Compiled(kind, lambda ctx: y(ctx) if cond(ctx) else n(ctx))

    def _x_compare(self, tree: Tree, scope: dict[str, str]) -> Compiled:
        left_tree, op_token, right_tree = tree.children
        left, right = self._expr(left_tree, scope), self._expr(right_tree, scope)
        op = str(op_token)
        a, b = left.fn, right.fn
        if op in ("==", "!="):
            if not (compatible(left.type, right.type) or compatible(right.type, left.type)):
                self._fail(
                    op_token,
                    f"comparing {describe(left.type)} with "
                    f"{describe(right.type)} is always "
                    f"{'false' if op == '==' else 'true'}",
                )
            if op == "==":
                return Compiled(BOOL, lambda ctx: a(ctx) == b(ctx))
            return Compiled(BOOL, lambda ctx: a(ctx) != b(ctx))
        for side, tree_ in ((left, left_tree), (right, right_tree)):
            if side.type not in (NUMBER, ANY, TEXT) and not is_list(side.type):
                self._fail(tree_, f"`{op}` compares numbers, but this is {describe(side.type)}")
        compare = {"<": _lt, "<=": _le, ">": _gt, ">=": _ge}[op]
        return Compiled(BOOL, lambda ctx: compare(a(ctx), b(ctx)))

    def _x_arith(self, tree: Tree, scope: dict[str, str]) -> Compiled:
        left_tree, op_token, right_tree = tree.children
        left, right = self._expr(left_tree, scope), self._expr(right_tree, scope)
        op = str(op_token)
        a, b = left.fn, right.fn
        if op == "+" and is_list(left.type) and is_list(right.type):
            inner = left.type if left.type == right.type else list_of(ANY)
            return Compiled(inner, lambda ctx: _ARITHMETIC["+"](tuple(a(ctx)), tuple(b(ctx))))
        for side, tree_ in ((left, left_tree), (right, right_tree)):
            if side.type == ANY:
                self._fail(
                    tree_,
                    f"`{op}` needs numbers, but the type of this value is not known",
                    "make it a number: `number(…)` (a run-time error if it is not one), "
                    "or give `get` a number default: `get(table, key, 0)`",
                )
            if side.type not in (NUMBER, ANY):
                hint = "use count(…) for the size of a collection" if is_list(side.type) else None
                self._fail(
                    tree_, f"`{op}` works on numbers, but this is {describe(side.type)}", hint
                )
        operation = _ARITHMETIC[op]
        return Compiled(NUMBER, lambda ctx: operation(a(ctx), b(ctx)))

    def _x_attr(self, tree: Tree, scope: dict[str, str]) -> Compiled:
        owner = self._expr(tree.children[0], scope)
        return self._attribute(owner, tree.children[1], tree)

    def _x_index(self, tree: Tree, scope: dict[str, str]) -> Compiled:
        owner = self._expr(tree.children[0], scope)
        key = self._expr(tree.children[1], scope)
        return self._index(owner, key, tree)

    def _x_call(self, tree: Tree, scope: dict[str, str]) -> Compiled:
        name_token, args = tree.children
        name = str(name_token)
        if name in self.symbols.functions:
            return self._user_call(name_token, args, scope)
        primitive = self.registry.functions.get(name)
        if primitive is None:
            if name in self.registry.statements:
                self._fail(
                    name_token,
                    f"`{name}` is an effect; it gives no value",
                    "effects stand in `effect:` fields, not in conditions or values",
                )
            self._fail(
                name_token,
                f"unknown function `{name}`",
                did_you_mean(name, set(self.registry.functions) | set(self.symbols.functions)),
                kind="name",
            )
        positional, named = self._primitive_args(primitive, args, scope, name_token)
        impl = primitive.impl
        result_type = primitive.returns or ANY
        shortcut = _short_circuit(name, positional, named)
        if shortcut is not None:
            if name == "first":
                result_type = item_type(self._last_arg_types[0])
            return Compiled(result_type, shortcut)
        if primitive.returns_item_of is not None and positional:
            result_type = self._last_arg_types[primitive.returns_item_of]
            result_type = item_type(result_type) if is_list(result_type) else ANY
        if primitive.returns_type_of is not None and positional:
            index = primitive.returns_type_of
            if index < len(self._last_arg_types):
                result_type = self._last_arg_types[index]
            elif index < len(primitive.params) and named == ():
                default = primitive.params[index].default  # left out: its default's type
                result_type = type_of(default) if default is not None else ANY
            else:
                result_type = ANY
        if named:
            names = tuple(n for n, _ in named)
            nfns = tuple(f for _, f in named)

            def call_named(ctx: Any) -> Any:
                return impl(
                    ctx,
                    *(f(ctx) for f in positional),
                    **{n: f(ctx) for n, f in zip(names, nfns, strict=True)},
                )

            return Compiled(result_type, call_named)
        if len(positional) == 1:
            (p0,) = positional
            return Compiled(result_type, lambda ctx: impl(ctx, p0(ctx)))
        if len(positional) == 2:
            p0, p1 = positional
            return Compiled(result_type, lambda ctx: impl(ctx, p0(ctx), p1(ctx)))
        return Compiled(result_type, lambda ctx: impl(ctx, *(f(ctx) for f in positional)))

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
                return Compiled(prop, lambda ctx: ctx.rules.piece_props[get(ctx)].get(name))
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


def _dynamic_attribute(ctx: Any, value: Any, name: str, compiler: Compiler) -> Any:
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
