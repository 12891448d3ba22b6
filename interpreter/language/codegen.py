"""Turn the compiler's Python expression trees (``ast``) into functions, once.

The compiler checks a text and builds, for each of its expressions, a Python
expression tree over a few names: ``ctx`` (the ``Context``), locals named ``v_<name>``
(the variables a `x in …` binds, the parameters of a ruleset function) and the
module-level names an ``Emitter`` binds (run-time helpers, constants that are not
plain literals). ``Emitter.function`` wraps such a tree into one ``def``, compiles it
with ``compile`` and keeps it. Nothing is built from text: the source is the checked
parse tree, so no data of a ruleset is ever ``eval``-ed.

A ``TypeError`` inside generated code (a comparison or a step on a value of the wrong
kind, which the static types could not exclude) becomes a ``RuleError``, so a faulty
rule is reported at its place instead of crashing the interpreter.
"""

from __future__ import annotations

import ast
import itertools
import re
from collections.abc import Callable, Sequence
from types import CodeType, FunctionType
from typing import Any

from interpreter.errors import RuleError
from interpreter.language.hoist import hoist, hoist_within
from interpreter.language.invariants import UNSET, UNSET_VALUE, once_per_evaluation
from interpreter.language.runtime import MAX_NESTING

_PLAIN = (int, str, bool, float, type(None))
_serial = itertools.count(1)  # unique names across emitters: a namespace may be shared


def local(name: str) -> str:
    """The Python name of a local of the rules (prefixed: never a builtin or a helper)."""
    return f"v_{name}"


def name(identifier: str) -> ast.Name:
    return ast.Name(identifier, ast.Load())


CTX = "ctx"
FILENAME = "<rules>"  # the file name of generated code (how stored rulesets find it)


def function_name(name: str) -> str:
    """The generated code's global name of the ruleset's function ``name``: a call
    is then one global look-up (names made by ``Emitter._fresh`` end in a digit)."""
    return f"_def_{name}_"


def check_name(action: str) -> str:
    """The global name of ``action``'s `requires` with its parameters as arguments."""
    return f"_req_{action}_"


def ctx_attr(*path: str) -> ast.expr:
    """``ctx.a.b…``"""
    node: ast.expr = name(CTX)
    for part in path:
        node = ast.Attribute(node, part, ast.Load())
    return node


def attr(owner: ast.expr, attribute: str) -> ast.expr:
    return ast.Attribute(owner, attribute, ast.Load())


def item(owner: ast.expr, key: ast.expr) -> ast.expr:
    return ast.Subscript(owner, key, ast.Load())


def call(fn: ast.expr, *args: ast.expr, **keywords: ast.expr) -> ast.expr:
    return ast.Call(fn, list(args), [ast.keyword(k, v) for k, v in keywords.items()])


def method(owner: ast.expr, method_name: str, *args: ast.expr) -> ast.expr:
    return call(attr(owner, method_name), *args)


def literal(value: Any) -> ast.expr | None:
    """A plain value as a literal; None for values that need a binding (their class)."""
    if type(value) in _PLAIN:
        return ast.Constant(value)
    if type(value) is tuple and all(type(v) in _PLAIN for v in value):
        return ast.Tuple([ast.Constant(v) for v in value], ast.Load())
    return None


_KINDS = {
    "NoneType": "none",
    "int": "a number",
    "bool": "true/false",
    "str": "a text",
    "tuple": "a list",
    "dict": "a table",
}
_COMPARISON = re.compile(r"'(.+)' not supported between instances of '(\w+)' and '(\w+)'")


def wrong_kind(exc: TypeError) -> RuleError:
    """What a ``TypeError`` in generated code means for the rules' author."""
    found = _COMPARISON.match(str(exc))
    if found:
        op, left, right = found.groups()
        what = f"`{op}` cannot compare {_KINDS.get(left, left)} with {_KINDS.get(right, right)}"
    else:
        what = f"a value of the wrong kind was used ({exc})"
    return RuleError(
        what,
        "a value read from a table, an unset variable or a missing property has no "
        "declared value: check it before comparing or computing with it",
    )


def _locate(root: ast.AST) -> None:
    """Give every node the one position generated code has (line 1): what
    ``ast.fix_missing_locations`` does, without walking again the subtrees that
    expressions share (a condition's tree is part of its `and`-parts' parents)."""
    stack = [root]
    while stack:
        node = stack.pop()
        if getattr(node, "end_lineno", None) is not None:
            continue  # located with everything below it
        for field_name in node._fields:
            value = getattr(node, field_name, None)
            if isinstance(value, list):
                stack.extend(v for v in value if isinstance(v, ast.AST))
            elif isinstance(value, ast.AST):
                stack.append(value)
        if "lineno" in node._attributes:
            node.lineno = node.end_lineno = 1
            node.col_offset = node.end_col_offset = 0


class Emitter:
    """Binds the helpers and constants generated code refers to, and compiles
    expression trees into functions that share one namespace."""

    def __init__(self, namespace: dict[str, Any] | None = None, lazy: bool = False):
        """``lazy``: each function is compiled on its first call (``_Deferred``), for a
        build that is checked and seldom run (`validate`); its functions cannot be
        stored (``codes`` holds only those that were called)."""
        self.namespace: dict[str, Any] = namespace if namespace is not None else {}
        self.namespace.setdefault("_wrong_kind", wrong_kind)
        self.namespace.setdefault(UNSET, UNSET_VALUE)
        self.lazy = lazy
        self._bound: dict[int, str] = {}  # id(value) -> its name (values are kept alive)
        self.codes: dict[str, CodeType] = {}  # every function made, by name (to store them)
        self.explanations: dict[str, str] = {}  # a `can` test's name -> its `why`'s name

    def bind(self, value: Any, hint: str = "c") -> ast.Name:
        """A module-level name for ``value`` (a helper, a table, a typed constant)."""
        known = self._bound.get(id(value))
        if known is not None and self.namespace.get(known) is value:
            return name(known)
        identifier = self._fresh(hint)
        self.namespace[identifier] = value
        self._bound[id(value)] = identifier
        return name(identifier)

    def _fresh(self, hint: str) -> str:
        """A name not yet used in the namespace (a restored one holds names another
        process chose)."""
        while True:
            identifier = f"_{hint}{next(_serial)}"
            if identifier not in self.namespace:
                return identifier

    def value(self, value: Any) -> ast.expr:
        """A constant: a literal where Python has one, else a bound name."""
        return literal(value) or self.bind(value)

    def function(
        self,
        code: ast.expr,
        params: Sequence[str] = (),
        label: str = "expr",
        identifier: str | None = None,
    ) -> Callable[..., Any]:
        """``def f(ctx, *params): return code`` compiled, with the ``TypeError`` net; a
        value ``code`` computes twice, once (``hoist.py``). The body is made when the
        function is compiled (for a lazy build: when first called)."""

        def body() -> list[ast.stmt]:
            value, computed_first = hoist_within(code, params, self._pays_steps)
            return [*computed_first, ast.Return(value)]

        return self.define(body, params, label, identifier, pure=True)

    def first_failing(
        self,
        conditions: Sequence[ast.expr],
        label: str,
        params: Sequence[str] = (),
        identifier: str | None = None,
        nests: bool = True,
    ) -> Callable[..., Any]:
        """``f(ctx, *params)``: the index of the first of ``conditions`` that does not
        hold, or -1 (an action's `requires`, in one function; a value several
        conditions compute is computed once, ``hoist.py``). Where the conditions ask
        `can` (``nests``) the check counts as one level of `can` inside another
        (``ctx.depth``), so that `can`s leading back to their action (through one held
        in a local) end in a located error; a check that asks none cannot nest. The body
        is made when the function is compiled (for a lazy build: when first called)."""
        return self.define(
            lambda: self._failing_body(conditions, params, nests),
            params,
            label,
            identifier,
            pure=True,
        )

    def _failing_body(
        self, conditions: Sequence[ast.expr], params: Sequence[str], nests: bool
    ) -> list[ast.stmt]:
        conditions, computed_first = hoist(conditions, params, self._pays_steps)
        body: list[ast.stmt] = []
        for index, cond in enumerate(conditions):
            body += computed_first[index]
            body.append(ast.If(ast.UnaryOp(ast.Not(), cond), [ast.Return(ast.Constant(index))], []))
        body.append(ast.Return(ast.Constant(-1)))
        if nests:  # ``ctx.depth = ctx.deeper()``, the call made only to raise its error
            depth = ast.Attribute(name(CTX), "depth", ast.Store())
            too_deep = ast.Compare(name("depth"), [ast.GtE()], [ast.Constant(MAX_NESTING)])
            body = [
                ast.Assign([ast.Name("depth", ast.Store())], attr(name(CTX), "depth")),
                ast.If(too_deep, [ast.Expr(method(name(CTX), "deeper"))], []),
                ast.Assign([depth], ast.BinOp(name("depth"), ast.Add(), ast.Constant(1))),
                ast.Try(body, [], [], [ast.Assign([depth], name("depth"))]),
            ]
        return body

    def _pays_steps(self, call: ast.Call) -> bool:
        """Whether ``call`` calls a helper that pays steps of the budget each time."""
        func = call.func
        helper = self.namespace.get(func.id) if isinstance(func, ast.Name) else None
        return getattr(helper, "pays_steps", False)

    def define(
        self,
        statements: list[ast.stmt] | Callable[[], list[ast.stmt]],
        params: Sequence[str],
        label: str,
        identifier: str | None = None,
        pure: bool = False,
    ) -> Callable[..., Any]:
        """``def f(ctx, *params): statements`` compiled, with the ``TypeError`` net;
        named ``identifier`` where other generated code calls it by that name.
        ``statements`` may be what makes them, when the function is compiled.
        ``pure``: the statements evaluate conditions or a value, no effect, so a
        ruleset call a scan repeats is made once (``invariants.py``)."""
        identifier = identifier or self._fresh(label)
        parts = (statements, tuple(params), pure)
        if self.lazy:
            return _Deferred(self, identifier, parts).stub
        return self._compile(identifier, parts)

    def _compile(self, identifier: str, parts: tuple) -> Callable[..., Any]:
        statements, params, pure = parts
        if callable(statements):
            statements = statements()
        if pure:
            statements = once_per_evaluation(statements, (CTX, *params))
        handler = ast.ExceptHandler(
            name("TypeError"),
            "exc",
            [ast.Raise(call(name("_wrong_kind"), name("exc")), ast.Constant(None))],
        )
        body = ast.Try(statements, [handler], [], [])
        arguments = ast.arguments(
            posonlyargs=[],
            args=[ast.arg(CTX), *(ast.arg(p) for p in params)],
            kwonlyargs=[],
            kw_defaults=[],
            defaults=[],
        )
        definition = ast.FunctionDef(identifier, arguments, [body], [], None)
        module = ast.Module([definition], [])
        _locate(module)
        code = compile(module, FILENAME, "exec")
        exec(code, self.namespace)  # built from a checked tree, never from a text
        self.codes[identifier] = code
        return self.namespace[identifier]

    def explain(self, fn: Callable[..., Any], why: Callable[..., Any]) -> None:
        """Give a `can …` test the function that words its refusal (``fn.why``)."""
        fn.why = why  # type: ignore[attr-defined]
        self.explanations[fn.__name__] = why.__name__

    def bound_values(self) -> dict[str, Any]:
        """What the generated code refers to besides itself: helpers and constants."""
        return {k: v for k, v in self.namespace.items() if k not in self.codes}

    @classmethod
    def restore(
        cls, values: dict[str, Any], codes: dict[str, CodeType], explanations: dict[str, str]
    ) -> Emitter:
        """The functions of a stored emitter, made again from their code objects."""
        emitter = cls(dict(values))
        for code in codes.values():
            exec(code, emitter.namespace)  # code this interpreter generated and stored
        emitter.codes = dict(codes)
        for fn_name, why_name in explanations.items():
            emitter.explain(emitter.namespace[fn_name], emitter.namespace[why_name])
        return emitter


def _first_call(*args: Any, _deferred_: Any = None, **kwargs: Any) -> Any:
    """The code of a function not compiled yet (``_Deferred``)."""
    return _deferred_.compiled()(*args, **kwargs)


class _Deferred:
    """A generated function compiled on its first call. Its stub is the function
    everyone holds (the namespace, the ruleset, other generated code by name); the
    first call compiles the tree and gives the stub the real code, so later calls
    cost nothing extra and the attributes set on the stub (``why``) stay."""

    def __init__(self, emitter: Emitter, identifier: str, parts: tuple):
        self.emitter, self.identifier = emitter, identifier
        self.parts: tuple | None = parts  # (statements or their maker, params, pure)
        code = _first_call.__code__.replace(
            co_name=identifier, co_qualname=identifier, co_filename=FILENAME
        )
        self.stub = FunctionType(code, emitter.namespace, identifier)
        self.stub.__kwdefaults__ = {"_deferred_": self}
        emitter.namespace[identifier] = self.stub

    def compiled(self) -> Callable[..., Any]:
        if self.parts is not None:
            parts, self.parts = self.parts, None
            real = self.emitter._compile(self.identifier, parts)
            self.stub.__code__, self.stub.__kwdefaults__ = real.__code__, None
            self.emitter.namespace[self.identifier] = self.stub
        return self.stub
