"""What compiling produces and reports: compiled values and located problems."""

from __future__ import annotations

import ast
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from interpreter.language.codegen import Emitter

Fn = Callable[[Any], Any]
_IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


@dataclass
class Problem:
    """A problem at a 1-based (line, column) of the compiled text."""

    line: int
    column: int
    message: str
    hint: str | None = None
    kind: str = "type"
    related: tuple[int, int] | None = None  # a position the hint names as {at}


NOT_CONSTANT = object()


@dataclass(frozen=True)
class Loop:
    """A `x in ITEMS [where COND]` or `VALUE for x in ITEMS [where COND]` argument, kept
    apart so that `any`, `first`, `count` and `all` can stop at the deciding item.

    A comprehension over a product (`VALUE for a in A for b in B where …`) keeps its
    last clause here as ``items``, ``var`` and ``cond``, and the clauses before it, each
    walked around the next, as ``outer``: Python's own comprehension clauses."""

    items: ast.expr
    var: str  # the Python name of the bound local
    cond: ast.expr | None
    value: ast.expr | None  # None: the item itself
    value_exact: bool = False  # the value is an int at run time (see ``Compiled.exact``)
    outer: tuple[ast.comprehension, ...] = ()  # the clauses around this one, outermost first

    def clauses(self, cond: ast.expr | None) -> list[ast.comprehension]:
        """The comprehension's clauses, with ``cond`` as the last one's test: new clause
        nodes each time (``invariants.py`` rewrites a scan's clauses in place), their
        expressions shared, as the compiler shares subtrees."""
        target = ast.Name(self.var, ast.Store())
        last = ast.comprehension(target, self.items, [cond] if cond is not None else [], 0)
        outer = [ast.comprehension(c.target, c.iter, list(c.ifs), 0) for c in self.outer]
        return [*outer, last]


@dataclass(eq=False)
class Compiled:
    """A checked expression: its static type and its Python expression tree (see
    ``codegen.py``); ``fn`` is the compiled function ``fn(ctx)``, built on first use."""

    type: str
    code: ast.expr
    emitter: Emitter = field(repr=False)
    constant: Any = NOT_CONSTANT  # the value, where it is known when compiling
    loop: Loop | None = None
    why: ast.expr | None = None  # for `can …`: the explanation of a refusal
    exact: bool = False  # the value is an int at run time (a literal, a counter, a sum)
    items_exact: bool = False  # a list literal whose every item is ``exact``

    @cached_property
    def fn(self) -> Fn:
        fn = self.emitter.function(self.code)
        if self.why is not None:
            self.emitter.explain(fn, self.emitter.function(self.why, label="why"))
        return fn


class _Abort(Exception):
    """Raised inside the walk after a problem was recorded, to skip a subtree."""


def did_you_mean(name: str, candidates: set[str] | list[str]) -> str | None:
    """Close names that can be written where ``name`` was (identifiers only)."""
    import difflib  # only where a name is unknown: a valid ruleset's check never asks

    writable = sorted(c for c in candidates if _IDENTIFIER.match(str(c)))
    close = difflib.get_close_matches(name, writable, n=3, cutoff=0.7)
    if not close:
        return None
    return "did you mean " + " or ".join(f"`{c}`" for c in close) + "?"
