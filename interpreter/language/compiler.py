"""Check effect-language trees and generate Python for them, in one walk.

This module compiles expressions; ``statements.py`` the statement forms, ``calls.py``
calls and ``paths.py`` names and attributes (mixins of ``Compiler``); ``codegen.py``
turns the Python expression trees built here into functions, and ``operations.py``
holds the helpers generated code calls at run time.

Each expression becomes a Python expression tree over ``ctx`` and its locals, compiled
into one function ``fn(ctx) -> value``; each effect a tree of nodes (``effects.py``)
holding such functions. While walking, names are resolved against the ruleset's
``Symbols`` (to locals, literals and direct look-ups), constants are folded, arities
and static types are checked, and every problem is collected with its position inside
the text; compilation goes on after an error so that all problems of a text are
reported at once.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import Any

from lark import Token, Tree

from interpreter.language import codegen as cg
from interpreter.language import effects as fx
from interpreter.language import operations as ops
from interpreter.language.calls import CallCompiler
from interpreter.language.codegen import Emitter
from interpreter.language.compiled import (
    NOT_CONSTANT,
    Compiled,
    Problem,
    _Abort,
    did_you_mean,
)
from interpreter.language.keyed import KeyedCompiler
from interpreter.language.parser import SyntaxProblem, parse
from interpreter.language.paths import PathCompiler
from interpreter.language.registry import REGISTRY, Registry
from interpreter.language.statements import StatementCompiler
from interpreter.language.symbols import Symbols
from interpreter.language.syntax_tree import _pos, _unquote
from interpreter.language.values import (
    ANY,
    BOOL,
    NONE,
    NUMBER,
    TEXT,
    TYPE_NAMES,
    ZONE,
    ZoneRef,
    compatible,
    describe,
    is_list,
    item_type,
    list_of,
    type_of,
)

_COMPARE = {"==": ast.Eq, "!=": ast.NotEq, "<": ast.Lt, "<=": ast.LtE, ">": ast.Gt, ">=": ast.GtE}
_CHECKED_COMPARE = {"<": ops._lt, "<=": ops._le, ">": ops._gt, ">=": ops._ge}

Fn = Callable[[Any], Any]
MAX_SEATS = 16


class Compiler(StatementCompiler, CallCompiler, PathCompiler, KeyedCompiler):
    """Compiles texts against one ruleset's declarations."""

    def __init__(
        self,
        symbols: Symbols,
        registry: Registry = REGISTRY,
        direct_calls: bool = False,
        lazy: bool = False,
    ):
        """With ``direct_calls`` (a whole ruleset's build), the ruleset's functions and
        `can` checks are called by their global names in the generated code, each
        defined in the same namespace; without (a text compiled on its own, against a
        built ruleset) they are found in ``ctx.rules``. ``lazy``: see ``Emitter``."""
        self.symbols = symbols
        self.registry = registry
        self.direct_calls = direct_calls
        self.emitter = Emitter(lazy=lazy)
        self._locals: frozenset[str] = frozenset()  # names that are Python locals here
        self.problems: list[Problem] = []
        self._prefix = ""
        self._counter = 0
        self.functions_in_progress: set[str] = set()
        self.last_tree: Tree | None = None
        per_player = [n for n, per in symbols.counters.items() if per == "player"]
        per_player += [n for n, (per, _) in symbols.variables.items() if per == "player"]
        self.seat_keys = {
            name: ops.SeatKeys(name, {i: f"{name}#{i}" for i in range(MAX_SEATS)})
            for name in per_player
        }
        self.zone_keys = {
            name: ops.SeatKeys(name, {i: ZoneRef(f"{name}#{i}") for i in range(MAX_SEATS)})
            for name, per in symbols.zones.items()
            if per == "player"
        }

    # ------------------------------------------------------------------ API
    def expression(
        self,
        text: str,
        scope: dict[str, str] | None = None,
        expect: str | None = None,
        function: str | None = None,
    ) -> tuple[Compiled | None, list[Problem]]:
        """Compile a condition or value; ``expect`` is the type the field needs.

        With ``function``, the text is the body of the ruleset's function of that name
        and ``scope`` its parameters, in order: it becomes ``fn(ctx, *arguments)``,
        which calls find in ``ctx.rules.functions``.
        """
        self.problems = []
        self._text = text
        tree = self._parse(text, "expr")
        if tree is None:
            return None, self.problems
        self._locals = frozenset(scope or ()) if function is not None else frozenset()
        try:
            compiled = self._expr(tree, dict(scope or {}))
        except _Abort:
            return None, self.problems
        finally:
            self._locals = frozenset()
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
        if self.problems:
            return None, self.problems
        if function is not None:
            params = [cg.local(p) for p in scope or ()]
            identifier = cg.function_name(function) if self.direct_calls else None
            body = self.emitter.function(compiled.code, params, f"fn_{function}_", identifier)
            compiled.__dict__["fn"] = body  # the body, called with its arguments
        return compiled, self.problems

    def checker(
        self, trees: list[Tree], params: dict[str, str], action: str, nests: bool = True
    ) -> Callable[..., Any] | None:
        """An action's `requires` with its parameters as arguments: ``fn(ctx, *args)``
        gives the first unmet condition's index or -1; what `can action(…)` calls,
        without building a table of arguments (None if a condition does not compile).
        ``nests``: the conditions ask `can` (``Emitter.first_failing``)."""
        self.problems = []
        self._locals = frozenset(params)
        try:
            codes = [self._test(tree, dict(params)).code for tree in trees]
        except _Abort:
            return None
        finally:
            self._locals = frozenset()
        if self.problems:
            return None
        arguments = [cg.local(p) for p in params]
        identifier = cg.check_name(action) if self.direct_calls else None
        return self.emitter.first_failing(codes, f"can_{action}_", arguments, identifier, nests)

    def attribute_reader(self, kind: str, name: str) -> Callable[..., Any]:
        """``fn(ctx, value)``: ``value.name`` for a value of type ``kind`` (for values
        whose type is known only at run time)."""
        owner = self._c(kind, cg.name(cg.local("value")))
        try:
            compiled = self._attribute(owner, Token("NAME", name), Tree("attr", []))
        except _Abort:
            message = f"{describe(kind)} has no `{name}`"

            def fail(ctx: Any, value: Any) -> Any:
                raise ops.RuleError(message)

            return fail
        return self.emitter.function(compiled.code, [cg.local("value")], label="attr")

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
            return self._contents(compiled)
        if not is_list(compiled.type) and compiled.type != ANY:
            self._fail(tree, f"expected a collection here, but this is {describe(compiled.type)}")
        return compiled

    # ------------------------------------------------------- generated code
    def _c(self, type_: str, code: ast.expr, **extra: Any) -> Compiled:
        return Compiled(type_, code, self.emitter, **extra)

    def _const(self, type_: str, value: Any) -> Compiled:
        """A value known when compiling: a literal in the generated code."""
        exact = type(value) is int
        return self._c(type_, self.emitter.value(value), constant=value, exact=exact)

    def _h(self, helper: Callable[..., Any]) -> ast.Name:
        """The generated code's name of a run-time helper."""
        return self.emitter.bind(helper, helper.__name__.strip("_"))

    def _test(self, tree: Tree, scope: dict[str, str]) -> Compiled:
        return self._typed(tree, scope, BOOL, "the condition")

    def _x_can_expr(self, tree: Tree, scope: dict[str, str]) -> Compiled:
        name, dynamic, given = self._action_args(tree.children[0], tree.children[1], scope)
        action = self._name_code(name, scope) if dynamic else ast.Constant(name)
        args = ast.Dict([ast.Constant(n) for n, _ in given], [c.code for _, c in given])
        failed = self._h(ops.failed)
        ctx = cg.name(cg.CTX)
        why = cg.call(failed, ctx, action, args, ast.Constant(True))
        signature = None if dynamic else self.symbols.actions.get(name)
        if signature is None or signature.unchecked:
            allowed = cg.method(cg.ctx_attr("rules"), "allows", ctx, action, args)
            return self._c(BOOL, allowed, why=why)
        # the action's own check, its arguments in order, the defaults filled in here
        given = dict(given)
        defaults = dict(signature.defaults)
        arguments = [
            given[p].code if p in given else self.emitter.value(defaults.get(p))
            for p in signature.params
        ]
        if self.direct_calls:
            check = cg.name(cg.check_name(name))
        else:
            check = cg.item(cg.ctx_attr("rules", "checks"), ast.Constant(name))
        first_unmet = cg.call(check, ctx, *arguments)
        allowed = ast.Compare(first_unmet, [ast.Lt()], [ast.Constant(0)])
        return self._c(BOOL, allowed, why=why)

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
        return self._const(NUMBER, value)

    def _x_string(self, tree: Tree, scope: dict[str, str]) -> Compiled:
        return self._const(TEXT, _unquote(tree.children[0]))

    def _x_true(self, tree: Tree, scope: dict[str, str]) -> Compiled:
        return self._const(BOOL, True)

    def _x_false(self, tree: Tree, scope: dict[str, str]) -> Compiled:
        return self._const(BOOL, False)

    def _x_none(self, tree: Tree, scope: dict[str, str]) -> Compiled:
        return self._const(NONE, None)

    def _x_name(self, tree: Tree, scope: dict[str, str]) -> Compiled:
        return self._name(tree.children[0], scope)

    def _x_list(self, tree: Tree, scope: dict[str, str]) -> Compiled:
        items = [self._expr(c, scope) for c in tree.children if c is not None]
        types = {c.type for c in items}
        inner = types.pop() if len(types) == 1 else ANY
        code = ast.Tuple([c.code for c in items], ast.Load())
        return self._c(list_of(inner), code, items_exact=all(c.exact for c in items))

    def _x_neg(self, tree: Tree, scope: dict[str, str]) -> Compiled:
        inner = self._typed(tree.children[0], scope, NUMBER, "`-`")
        if inner.exact and inner.constant is not NOT_CONSTANT:
            return self._const(NUMBER, -inner.constant)
        return self._c(NUMBER, ast.UnaryOp(ast.USub(), inner.code), exact=inner.exact)

    def _x_not_op(self, tree: Tree, scope: dict[str, str]) -> Compiled:
        inner = self._test(tree.children[0], scope)
        return self._c(BOOL, ast.UnaryOp(ast.Not(), inner.code))

    def _x_and_op(self, tree: Tree, scope: dict[str, str]) -> Compiled:
        a, b = (self._test(c, scope) for c in tree.children)
        return self._c(BOOL, ast.BoolOp(ast.And(), [a.code, b.code]))

    def _x_or_op(self, tree: Tree, scope: dict[str, str]) -> Compiled:
        a, b = (self._test(c, scope) for c in tree.children)
        return self._c(BOOL, ast.BoolOp(ast.Or(), [a.code, b.code]))

    def _x_if_expr(self, tree: Tree, scope: dict[str, str]) -> Compiled:
        cond = self._test(tree.children[0], scope)
        yes, no = (self._expr(c, scope) for c in tree.children[1:])
        kind = yes.type if compatible(yes.type, no.type) and yes.type != NONE else no.type
        if yes.type != no.type:
            kind = yes.type if no.type == NONE else (no.type if yes.type == NONE else ANY)
        code = ast.IfExp(cond.code, yes.code, no.code)
        return self._c(kind, code, exact=yes.exact and no.exact)

    def _x_compare(self, tree: Tree, scope: dict[str, str]) -> Compiled:
        left_tree, op_token, right_tree = tree.children
        left, right = self._expr(left_tree, scope), self._expr(right_tree, scope)
        op = str(op_token)
        if op in ("==", "!="):
            if not (compatible(left.type, right.type) or compatible(right.type, left.type)):
                self._fail(
                    op_token,
                    f"comparing {describe(left.type)} with "
                    f"{describe(right.type)} is always "
                    f"{'false' if op == '==' else 'true'}",
                )
        else:
            for side, tree_ in ((left, left_tree), (right, right_tree)):
                if side.type not in (NUMBER, ANY, TEXT) and not is_list(side.type):
                    self._fail(tree_, f"`{op}` compares numbers, but this is {describe(side.type)}")
        if op in ("==", "!=") and left.type == ZONE and right.type == ZONE:
            # zones compare by their keys: `c.zone == discard` reads where c is
            sides = (self._zone_key(left.code), self._zone_key(right.code))
            code = ast.Compare(sides[0], [_COMPARE[op]()], [sides[1]])
        elif op in ("==", "!=") or (left.type == NUMBER and right.type == NUMBER):
            code = ast.Compare(left.code, [_COMPARE[op]()], [right.code])
        else:  # either side may be none or of another kind: a located error, not a crash
            code = cg.call(self._h(_CHECKED_COMPARE[op]), left.code, right.code)
        return self._c(BOOL, code)

    def _x_arith(self, tree: Tree, scope: dict[str, str]) -> Compiled:
        left_tree, op_token, right_tree = tree.children
        left, right = self._expr(left_tree, scope), self._expr(right_tree, scope)
        op = str(op_token)
        add = self._h(ops._add)
        if op == "+" and is_list(left.type) and is_list(right.type):
            inner = left.type if left.type == right.type else list_of(ANY)
            as_tuples = (cg.call(cg.name("tuple"), side.code) for side in (left, right))
            return self._c(inner, cg.call(add, *as_tuples))
        if op == "+" and left.type == TEXT and right.type == TEXT:  # texts joined
            return self._c(TEXT, cg.call(add, left.code, right.code))
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
                copy = self._copy_written(tree_, op, right_tree)
                hint = copy or hint
                self._fail(
                    tree_, f"`{op}` works on numbers, but this is {describe(side.type)}", hint
                )
        operation = ops._ARITHMETIC[op]
        if left.constant is not NOT_CONSTANT and right.constant is not NOT_CONSTANT:
            try:  # folded; an error (division by zero) is left to run time, where it is located
                return self._const(NUMBER, operation(left.constant, right.constant))
            except ops.RuleError:
                pass
        return self._c(NUMBER, cg.call(self._h(operation), left.code, right.code), exact=True)

    def _copy_written(self, left: Tree, op: str, right: Tree) -> str | None:
        """The hint for `S1-2` written as a name: a copy of a component with `count`
        (`S1 - 2` to the parser), which is `S1[1]`."""
        if op != "-" or not (isinstance(left, Tree) and left.data == "name"):
            return None
        if not (isinstance(right, Tree) and right.data == "number"):
            return None
        design, number = str(left.children[0]), int(str(right.children[0]))
        copies = self._copies(design)
        if not 1 <= number <= len(copies):
            return None
        return (
            f"`{design}-{number}` is no name (`-` subtracts): `{design}` is the list of the "
            f"copies, so its copy {number} is `{design}[{number - 1}]`"
        )

    def _x_attr(self, tree: Tree, scope: dict[str, str]) -> Compiled:
        owner = self._expr(tree.children[0], scope)
        return self._attribute(owner, tree.children[1], tree)

    def _x_index(self, tree: Tree, scope: dict[str, str]) -> Compiled:
        keyed = self._keyed_read(tree, scope)  # `name[key]` of a keyed counter or zone
        if keyed is not None:
            return keyed
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
        result_type = primitive.returns or ANY
        shortcut = self._short_circuit(name, positional, named)
        if shortcut is not None:
            if name == "first":
                result_type = item_type(self._last_arg_types[0])
            return self._c(result_type, shortcut, exact=name == "count")
        python = self._as_python(name, positional, named)
        if python is not None:
            return python
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
        impl = self.emitter.bind(primitive.impl, f"{name}_")
        code = cg.call(
            impl,
            cg.name(cg.CTX),
            *(c.code for c in positional),
            **{n: c.code for n, c in named},
        )
        return self._c(
            result_type, code, exact=name == "count" or _number_default(name, positional, named)
        )


def _number_default(name: str, positional: tuple[Compiled, ...], named: tuple) -> bool:
    """`get` with a number default gives an int at run time (or stops with an error)."""
    if name != "get":
        return False
    given = dict(named).get("default", positional[2] if len(positional) > 2 else None)
    return given is None or type(given.constant) is int
