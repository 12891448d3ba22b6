"""Compiling calls: arguments of primitives (named, `x in … where …`, `… for x in …`)
and calls of the ruleset's own functions. A mixin of ``Compiler``.

A `x in …` binds a Python local of a comprehension in the generated code; the ruleset's
functions are called directly with their arguments."""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import Any

from lark import Token, Tree

from interpreter.language import codegen as cg
from interpreter.language import operations as ops
from interpreter.language.compiled import Compiled, Loop, did_you_mean
from interpreter.language.registry import Param, Primitive
from interpreter.language.selection import narrowed, select
from interpreter.language.syntax_tree import _args
from interpreter.language.values import (
    ANY,
    BOOL,
    COUNTER,
    NUMBER,
    ZONE,
    compatible,
    describe,
    is_list,
    is_number,
    item_type,
    list_of,
)

Fn = Callable[[Any], Any]


def _named(arg: Any) -> bool:
    """Whether a call's argument is written `name: value`."""
    return isinstance(arg, Tree) and arg.data == "named_arg"


MAX_UNROLLED = 8  # items of a written list that `any`/`all` test one by one in the code
MAX_UNROLLED_NODES = 400  # and the size of the code those tests may take in all


class CallCompiler:
    """The call forms of expressions (mixed into ``Compiler``)."""

    # ------------------------------------------------------------- calls
    def _primitive_args(
        self, primitive: Primitive, args: Tree | None, scope: dict[str, str], where: Token
    ) -> tuple[tuple[Compiled, ...], tuple[tuple[str, Compiled], ...]]:
        params = primitive.params
        given = _args(args)
        positional: list[Compiled] = []
        named: list[tuple[str, Compiled]] = []
        types: list[str] = []
        seen_named = False
        filled: set[str] = set()
        checked: list[tuple[Param, Compiled, Tree]] = []  # against their minimum, once all fit
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
                named.append((pname, compiled))
                checked.append((param, compiled, arg.children[1]))
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
            together = given if index == 0 else ()  # `min(3, 4)` for `min([3, 4])`
            compiled = self._argument(param.type, arg, scope, primitive, param.name, together)
            positional.append(compiled)
            checked.append((param, compiled, arg))
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
        for param, compiled, arg in checked:
            self._at_least(primitive, param, compiled, arg, given)
        self._last_arg_types = types
        return tuple(positional), tuple(named)

    def _at_least(
        self, primitive: Primitive, param: Param, compiled: Compiled, arg: Tree, given: list
    ) -> None:
        """Refuse a literal below the parameter's minimum (`gain(coins, -5)`) now, rather
        than when a game reaches it; the hint writes the call with the opposite primitive."""
        value = compiled.constant
        if param.minimum is None or not is_number(value) or value >= param.minimum:
            return
        hint = None
        if param.opposite is not None:  # the other named arguments may not be its own
            texts = [str(-value) if a is arg else self._source(a) for a in given]
            texts = [t for a, t in zip(given, texts, strict=True) if not _named(a) or a is arg]
            if any(_named(a) and a.children[1] is arg for a in given):
                texts.append(f"{param.name}: {-value}")
            other = param.opposite
            hint = f"`{other}` does the opposite: write `{other}({', '.join(texts)})`"
        self._fail(
            arg,
            f"argument `{param.name}` of `{primitive.name}` must be {param.minimum} or more, "
            f"not {value}",
            hint,
        )

    def _argument(
        self,
        expected: str,
        arg: Tree,
        scope: dict[str, str],
        primitive: Primitive,
        pname: str,
        together: tuple | list = (),
    ) -> Compiled:
        """``arg`` compiled as parameter ``pname``; ``together``: every argument of the
        call when this is its first, to suggest one list when several values were meant."""
        if isinstance(arg, Tree) and arg.data == "binder_arg":
            compiled = self._binder(arg, scope)
        elif isinstance(arg, Tree) and arg.data == "mapper_arg":
            compiled = self._mapper(arg, scope)
        elif expected == COUNTER:
            keyed = self._keyed_counter_argument(arg, scope)  # `gain(progress[c], 1)`
            if keyed is not None:
                return keyed
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
            return self._const(COUNTER, name)
        else:
            compiled = self._expr(arg, scope)
        if is_list(expected) and compiled.type == ZONE:
            compiled = self._contents(compiled)
        if not compatible(expected, compiled.type):
            hint = None
            if is_list(expected) and not is_list(compiled.type):
                hint = f"`{primitive.name}` works on a collection"
                values = [
                    a for a in together if not (isinstance(a, Tree) and a.data == "named_arg")
                ]
                if len(values) > 1:
                    listed = ", ".join(self._source(a) for a in values)
                    hint += f": put the values in one list, `{primitive.name}([{listed}])`"
            self._fail(
                arg,
                f"argument `{pname}` of `{primitive.name}` must be "
                f"{describe(expected)}, but this is {describe(compiled.type)}",
                hint,
            )
        return compiled

    def _bound(self, name: Token, items: Compiled, scope: dict[str, str]) -> tuple:
        """The scope and locals inside `name in items`; restore ``self._locals`` after."""
        inner = {**scope, str(name): item_type(items.type)}
        return inner, self._locals | {str(name)}

    def _binder(self, arg: Tree, scope: dict[str, str]) -> Compiled:
        name, coll, where = arg.children
        items = self._collection(coll, scope)
        if where is None:
            return items
        inner, inner_locals = self._bound(name, items, scope)
        saved, self._locals = self._locals, inner_locals
        try:
            cond = self._test(where.children[0], inner)
        finally:
            self._locals = saved
        loop = Loop(self._scan(items, cond.code, name), cg.local(str(name)), cond.code, None)
        return self._c(items.type, _as_tuple(loop), loop=loop)

    def _mapper(self, arg: Tree, scope: dict[str, str]) -> Compiled:
        """`VALUE for x in … [where …]`, and over a product with more `for` clauses,
        each clause's collection and `where` seeing the names bound before it; every
        clause pays one step per item it walks, so a product pays for every pair."""
        value_tree, *first = arg.children[:4]
        clauses = [tuple(first), *(tuple(c.children) for c in arg.children[4:])]
        saved = self._locals
        outer: list[ast.comprehension] = []
        try:
            for i, (name, coll, where) in enumerate(clauses):
                items = self._collection(coll, scope)
                scope, self._locals = self._bound(name, items, scope)
                cond = self._test(where.children[0], scope) if where is not None else None
                code = cond and cond.code
                scanned = self._scan(items, code, name)
                if i < len(clauses) - 1:
                    target = ast.Name(cg.local(str(name)), ast.Store())
                    outer.append(ast.comprehension(target, scanned, [code] if code else [], 0))
            value = self._expr(value_tree, scope)
        finally:
            self._locals = saved
        loop = Loop(scanned, cg.local(str(name)), code, value.code, value.exact, tuple(outer))
        return self._c(list_of(value.type), _as_tuple(loop), loop=loop)

    def _scan(self, items: Compiled, cond: ast.expr | None, name: Token) -> ast.expr:
        """The items of a scan, after paying one step per item walked: with a `where`,
        narrowed by a static property's index where it allows (``selection.py``)."""
        code = narrowed(items.code, cond, cg.local(str(name)), self._h(select))
        return cg.call(self._h(ops.each), cg.name(cg.CTX), code)

    def _short_circuit(
        self, name: str, positional: tuple[Compiled, ...], named: tuple
    ) -> ast.expr | None:
        """`any`, `first`, `count` and `all` over `x in … where …` or `… for x in …`,
        stopping at the first item that decides the answer instead of building the
        whole collection."""
        if named or len(positional) != 1 or positional[0].loop is None:
            return None
        loop = positional[0].loop
        var = cg.name(loop.var)
        if loop.value is None and name in ("any", "first", "count"):
            if name == "any":
                return self._unrolled(name, loop, loop.cond) or cg.call(
                    cg.name("any"), _generator(loop.cond, loop)
                )
            if name == "first":
                found = _generator(var, loop, loop.cond)
                return cg.call(cg.name("next"), found, ast.Constant(None))
            return cg.call(cg.name("sum"), _generator(ast.Constant(1), loop, loop.cond))
        if loop.value is not None and name in ("any", "all"):  # they test each value's truth
            unrolled = None if loop.cond is not None else self._unrolled(name, loop, loop.value)
            return unrolled or cg.call(cg.name(name), _generator(loop.value, loop, loop.cond))
        return None

    def _unrolled(self, name: str, loop: Loop, test: ast.expr) -> ast.expr | None:
        """`any`/`all` of ``test`` over a written list of constants, item by item:
        ``True if paid(ctx, n) and test₁ and test₂ … else False`` (`any`: ``paid and
        (test₁ or …)``), each test with its item in place of the variable. The same
        tests in the same order, stopping at the same item, and the same steps paid
        before the scan; no generator to make and resume, and a ruleset call that no
        longer reads the variable is made once in a scan around it (``invariants.py``).
        None where the list is not a short written one."""
        items = loop.items
        each_name = self._h(ops.each).id
        if loop.outer or not (
            isinstance(items, ast.Call)
            and isinstance(items.func, ast.Name)
            and items.func.id == each_name
            and isinstance(items.args[1], ast.Tuple)
        ):
            return None
        elements = items.args[1].elts
        if not 0 < len(elements) <= MAX_UNROLLED or not all(
            isinstance(e, ast.Constant) for e in elements
        ):
            return None
        if _rebinds(test, loop.var) or _size(test) * len(elements) > MAX_UNROLLED_NODES:
            return None
        tests = [_with_constant(test, loop.var, e.value) for e in elements]
        paid = cg.call(self._h(ops.paid), cg.name(cg.CTX), ast.Constant(len(elements)))
        if name == "all":
            decided = ast.BoolOp(ast.And(), [paid, *tests])
        else:
            found = tests[0] if len(tests) == 1 else ast.BoolOp(ast.Or(), tests)
            decided = ast.BoolOp(ast.And(), [paid, found])
        return ast.IfExp(decided, ast.Constant(True), ast.Constant(False))

    def _as_python(
        self, name: str, positional: tuple[Compiled, ...], named: tuple
    ) -> Compiled | None:
        """Primitives Python has, written as Python's own: `any` of a collection,
        `contains`, `max` and `min` of a written list of numbers, `sum` of whole
        numbers (``exact``: no check of each value, no collection built first). A value
        of the wrong kind still stops with a rule error (``codegen.wrong_kind``)."""
        if named:
            return None
        if name == "contains" and len(positional) == 2:
            items, value = positional
            return self._c(BOOL, ast.Compare(value.code, [ast.In()], [items.code]))
        if len(positional) != 1 or name not in ("sum", "max", "min", "any"):
            return None
        values = positional[0]
        loop = values.loop
        if name == "any":  # of a collection (with `where`, ``_short_circuit`` stops early)
            return (
                None if loop is not None else self._c(BOOL, cg.call(cg.name("bool"), values.code))
            )
        if name == "sum" and loop is not None and loop.value is not None and loop.value_exact:
            listed = ast.ListComp(loop.value, loop.clauses(loop.cond))
            total = cg.call(cg.name("sum"), listed)  # a list is quicker to sum than a generator
            return self._c(NUMBER, cg.call(self._h(ops._capped), total), exact=True)
        written = isinstance(values.code, ast.Tuple) and values.code.elts
        if not written or values.type != list_of(NUMBER):
            return None
        items, exact = values.code.elts, values.items_exact
        if name == "sum":
            if not exact:
                return None
            code = cg.call(self._h(ops._capped), cg.call(cg.name("sum"), values.code))
        else:
            code = items[0] if len(items) == 1 else cg.call(cg.name(name), *items)
        return self._c(NUMBER, code, exact=exact)

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
            return self._const(ANY, None)
        if len(given) != len(params):
            self._fail(
                name_token,
                f"`{name}` takes {len(params)} argument"
                f"{'s' if len(params) != 1 else ''}, not {len(given)}",
                f"usage: {name}({', '.join(params)})",
                kind="arity",
            )
        codes = []
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
            codes.append(compiled.code)
        if self.direct_calls:
            body = cg.name(cg.function_name(name))
        else:
            body = cg.item(cg.ctx_attr("rules", "functions"), ast.Constant(name))
        return self._c(signature.returns, cg.call(body, cg.name(cg.CTX), *codes))


def _rebinds(tree: ast.expr, var: str) -> bool:
    """Whether a scan or an assignment inside ``tree`` binds ``var`` again."""
    for node in ast.walk(tree):
        target = getattr(node, "target", None)  # a comprehension's, a ``:=``'s
        if isinstance(target, ast.Name) and target.id == var:
            return True
    return False


def _size(tree: ast.expr) -> int:
    return sum(1 for _ in ast.walk(tree))


def _with_constant(tree: ast.AST, var: str, value: Any) -> Any:
    """``tree`` reading ``value`` where it read the local ``var``: new nodes on the
    paths down to it, the subtrees that do not read it shared (the compiler shares
    subtrees between the trees it makes and never changes one in place; a deep copy
    of each test cost a cold validate 2.3 % more instructions)."""
    if isinstance(tree, ast.Name):
        return ast.Constant(value) if tree.id == var else tree
    changed: dict[str, Any] = {}
    for field, old in ast.iter_fields(tree):
        if isinstance(old, ast.AST):
            new = _with_constant(old, var, value)
        elif isinstance(old, list):
            new = [_with_constant(x, var, value) if isinstance(x, ast.AST) else x for x in old]
            new = old if all(a is b for a, b in zip(new, old, strict=True)) else new
        else:
            continue
        if new is not old:
            changed[field] = new
    if not changed:
        return tree
    return type(tree)(**{**dict(ast.iter_fields(tree)), **changed})


def _generator(element: ast.expr, loop: Loop, cond: ast.expr | None = None) -> ast.expr:
    """``(element for … for var in items [if cond])``"""
    return ast.GeneratorExp(element, loop.clauses(cond))


def _as_tuple(loop: Loop) -> ast.expr:
    """``tuple([value for … for var in items if cond])``: the whole collection."""
    element = loop.value if loop.value is not None else cg.name(loop.var)
    listed = ast.ListComp(element, loop.clauses(loop.cond))
    return cg.call(cg.name("tuple"), listed)
