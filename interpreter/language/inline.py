"""Small ruleset functions written into the code that calls them.

A ruleset function is a Python function of its own (``codegen.function_name``), and a
call of one costs a frame: `allowed(me, x)` asking `cost(x)` asking
`step(x)` is three, for a few look-ups. Where the call's arguments are values
that cannot fail and cost nothing to read again (a local, a constant, a field of the
context), and the function's body is small, the body is written in place of the
call with the arguments in place of the parameters: the same look-ups in the same
order, the same values, the same errors (a ``TypeError`` or a rule error raised in
the body is raised in the caller, whose net turns it into the same message; a
function's error names no place of its own), the same steps paid (a scan pays as
it did, ``operations.each``). Left as calls: the calls inside a scan, and a call made
more than once in the same code, which ``invariants.py`` and ``hoist.py`` make once.
"""

from __future__ import annotations

import ast
from collections import Counter
from collections.abc import Sequence

MAX_NODES = 120  # a larger body stays a call (the code it is written into grows)
MAX_DEPTH = 3  # functions written into functions written into …
_SCOPES = (ast.GeneratorExp, ast.ListComp, ast.SetComp, ast.DictComp, ast.Lambda)


class Inliner:
    """The bodies of the ruleset's small functions, by their generated names."""

    def __init__(self) -> None:
        self.bodies: dict[str, tuple[tuple[str, ...], ast.expr]] = {}

    def offer(self, identifier: str, params: Sequence[str], body: ast.expr) -> None:
        """Keep ``body`` to write it where ``identifier`` is called, if it is small and
        binds no name of its own over a parameter."""
        nodes = list(ast.walk(body))
        if len(nodes) > MAX_NODES or _bound(nodes) & set(params):
            return
        self.bodies[identifier] = (tuple(params), body)

    def inline(self, tree: ast.expr) -> ast.expr:
        """``tree`` with the calls that qualify written out (new nodes on the paths to
        them; the compiler shares subtrees and never changes one in place)."""
        if not self.bodies:
            return tree
        made = Counter(
            ast.dump(node)
            for node in ast.walk(tree)
            if isinstance(node, ast.Call) and _name(node.func) in self.bodies
        )
        if not made:
            return tree
        return self._visit(tree, made, 0)

    def _visit(self, node: ast.AST, made: Counter, depth: int) -> ast.AST:
        if isinstance(node, _SCOPES):
            return node  # a call inside a scan is made once by ``invariants.py``
        if isinstance(node, ast.Call):
            written = self._written(node, made, depth)
            if written is not None:
                return written
        changed = {}
        for field, old in ast.iter_fields(node):
            if isinstance(old, ast.AST):
                new = self._visit(old, made, depth)
            elif isinstance(old, list):
                new = [self._visit(x, made, depth) if isinstance(x, ast.AST) else x for x in old]
                new = old if all(a is b for a, b in zip(new, old, strict=True)) else new
            else:
                continue
            if new is not old:
                changed[field] = new
        if not changed:
            return node
        return type(node)(**{**dict(ast.iter_fields(node)), **changed})

    def _written(self, call: ast.Call, made: Counter, depth: int) -> ast.expr | None:
        """The body of the function ``call`` calls, or None where it stays a call."""
        found = self.bodies.get(_name(call.func))
        if found is None or depth >= MAX_DEPTH or call.keywords:
            return None
        params, body = found
        context, *args = call.args
        if len(args) != len(params) or not _is_context(context) or made[ast.dump(call)] > 1:
            return None
        if not all(_free(arg) for arg in args):
            return None
        read = {n.id for arg in args for n in ast.walk(arg) if isinstance(n, ast.Name)}
        if read & _bound(list(ast.walk(body))):
            return None  # a scan of the body binds a name an argument reads
        written = _substituted(body, dict(zip(params, args, strict=True)))
        inner = Counter(
            ast.dump(n)
            for n in ast.walk(written)
            if isinstance(n, ast.Call) and _name(n.func) in self.bodies
        )
        return self._visit(written, made + inner, depth + 1)


def _name(func: ast.expr) -> str | None:
    return func.id if isinstance(func, ast.Name) else None


def _is_context(node: ast.expr) -> bool:
    from interpreter.language.codegen import CTX

    return isinstance(node, ast.Name) and node.id == CTX


def _free(arg: ast.expr) -> bool:
    """Whether ``arg`` cannot fail and costs next to nothing to read again: a local or
    a bound constant, a literal, a field of the context (``ctx.me``)."""
    while isinstance(arg, ast.Attribute):
        arg = arg.value
        if isinstance(arg, ast.Name):
            return _is_context(arg)
    return isinstance(arg, ast.Name | ast.Constant)


def _bound(nodes: list[ast.AST]) -> set[str]:
    """The names a tree binds itself: a scan's variable, a ``:=``, a parameter of a
    ``lambda``."""
    out = set()
    for node in nodes:
        if isinstance(node, ast.comprehension | ast.NamedExpr):
            out |= {n.id for n in ast.walk(node.target) if isinstance(n, ast.Name)}
        elif isinstance(node, ast.Lambda):
            out |= {a.arg for a in node.args.args}
    return out


def _substituted(tree: ast.AST, values: dict[str, ast.expr]) -> ast.AST:
    """``tree`` reading ``values[p]`` where it read the local ``p``."""
    if isinstance(tree, ast.Name):
        return values.get(tree.id, tree)
    changed = {}
    for field, old in ast.iter_fields(tree):
        if isinstance(old, ast.AST):
            new = _substituted(old, values)
        elif isinstance(old, list):
            new = [_substituted(x, values) if isinstance(x, ast.AST) else x for x in old]
            new = old if all(a is b for a, b in zip(new, old, strict=True)) else new
        else:
            continue
        if new is not old:
            changed[field] = new
    if not changed:
        return tree
    return type(tree)(**{**dict(ast.iter_fields(tree)), **changed})
