"""A call of a ruleset function inside a scan that does not depend on the scan, made
once per evaluation instead of once per member.

`count(h in kinds where rank(h) < rank(g))` computes `rank(g)` for every `h`; its
value cannot change while the condition is evaluated (conditions and functions have
no effects). In a function or a requirement (never in an effect, whose statements
change the state between two expressions), such a call — of the ruleset's functions
or `can` checks, with arguments that read no variable of a scan — is made the first
time the scan needs it and kept in a local for the rest of that evaluation: made at
the same moment as before, so it fails or pays steps where it did before, only not
again. The same call made outside the scan too (before it, or after) shares that
local: `all(deficit(c) == 0 for c in colours) or any(… deficit('red') …)`, whose
written list of colours the code tests item by item, asks each deficit once.
"""

from __future__ import annotations

import ast
import builtins
import copy
from collections.abc import Sequence

UNSET = "_unset_"  # the global the generated code compares a local with: not made yet
_RULESET_CALLS = ("_def_", "_req_")  # ``codegen.function_name``, ``check_name``
_COMPREHENSIONS = (ast.GeneratorExp, ast.ListComp, ast.SetComp, ast.DictComp)
_BUILTINS = frozenset(dir(builtins))


class _Unset:
    def __repr__(self) -> str:
        return "<not computed yet>"


UNSET_VALUE = _Unset()


def once_per_evaluation(statements: list[ast.stmt], names: Sequence[str]) -> list[ast.stmt]:
    """``statements`` with the scan-invariant ruleset calls made once (a copy where
    any is found; the compiler shares subtrees between the trees it makes); ``names``
    are the evaluation's own (the context, the parameters)."""
    allowed = set(names)
    wanted = {ast.dump(c) for s in statements for c in _candidates(s, allowed)}
    if not wanted:
        return statements
    statements = [copy.deepcopy(s) for s in statements]
    memo: dict[str, str] = {}  # ast.dump of a call -> its local
    for statement in statements:
        _Rewriter(allowed, wanted, memo).visit(statement)
    starts: list[ast.stmt] = [
        ast.Assign([ast.Name(local, ast.Store())], ast.Name(UNSET, ast.Load()))
        for local in memo.values()
    ]
    return starts + statements


def _candidates(node: ast.AST, allowed: set[str]) -> list[ast.Call]:
    """The calls to keep, inside the scans of ``node``."""
    found: list[ast.Call] = []
    for scan in ast.walk(node):
        if isinstance(scan, _COMPREHENSIONS):
            for part in _inside(scan):
                found += [c for c in ast.walk(part) if _invariant_call(c, allowed)]
    return found


def _inside(scan: ast.expr) -> list[ast.AST]:
    """What a scan evaluates per member, where Python lets a local be set: its
    element and its conditions (not a collection it walks)."""
    parts: list[ast.AST] = []
    if isinstance(scan, ast.DictComp):
        parts += [scan.key, scan.value]
    else:
        parts.append(scan.elt)  # type: ignore[attr-defined]
    for generator in scan.generators:  # type: ignore[attr-defined]
        parts += generator.ifs
    return parts


def _invariant_call(node: ast.AST, allowed: set[str]) -> bool:
    """A call of a ruleset function whose arguments read only the evaluation's own
    names (``ctx``, the parameters) and globals: the same value for every member."""
    if not (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id.startswith(_RULESET_CALLS)
    ):
        return False
    for inner in ast.walk(node):
        if isinstance(inner, (*_COMPREHENSIONS, ast.Lambda, ast.NamedExpr)):
            return False
        if isinstance(inner, ast.Name) and not (
            inner.id in allowed or inner.id.startswith("_") or inner.id in _BUILTINS
        ):
            return False
    return True


class _Rewriter(ast.NodeTransformer):
    """Replaces each kept call by ``(local if local is not _unset_ else (local := call))``:
    in a scan, and outside one where a scan makes the same call (``wanted``)."""

    def __init__(self, allowed: set[str], wanted: set[str], memo: dict[str, str]):
        self.allowed, self.wanted, self.memo = allowed, wanted, memo
        self.scans = 0  # how many scans the walk is inside
        self.iterating = 0  # inside the collection a scan walks

    def _visit_scan(self, node: ast.expr) -> ast.expr:
        self.iterating += 1  # Python sets no local in a collection a scan walks
        try:
            for generator in node.generators:  # type: ignore[attr-defined]
                generator.iter = self.visit(generator.iter)
        finally:
            self.iterating -= 1
        self.scans += 1
        try:
            for field in ("elt", "key", "value"):
                if hasattr(node, field):
                    setattr(node, field, self.visit(getattr(node, field)))
            for generator in node.generators:  # type: ignore[attr-defined]
                generator.ifs = [self.visit(test) for test in generator.ifs]
        finally:
            self.scans -= 1
        return node

    visit_GeneratorExp = visit_ListComp = visit_SetComp = visit_DictComp = _visit_scan

    def visit_Call(self, node: ast.Call) -> ast.expr:
        if self.iterating or not _invariant_call(node, self.allowed):
            return self.generic_visit(node)
        key = ast.dump(node)
        if not self.scans and key not in self.wanted:
            return self.generic_visit(node)
        local = self.memo.setdefault(key, f"once_{len(self.memo)}")
        made = ast.NamedExpr(ast.Name(local, ast.Store()), node)
        return ast.IfExp(
            ast.Compare(ast.Name(local, ast.Load()), [ast.IsNot()], [ast.Name(UNSET, ast.Load())]),
            ast.Name(local, ast.Load()),
            made,
        )
