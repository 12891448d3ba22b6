"""Values an action's `requires` or a ruleset function compute more than once, computed once.

The conditions of one action often ask the same thing: three requirements that each
list the components in the same group of spaces, two that each list the same spaces;
one value asks it twice (``s.group == 'top' and … or s.group == 'bottom' and …``).
Conditions and values have no effects, so a value that a condition computes in any
case can be kept in a local for the conditions after it (``hoist``), and one that an
expression computes in any case, for the rest of that expression (``hoist_within``).
Only a value computed whatever happens (not behind `and`, `or`, `if … then`, or
inside a scan's items) is kept, and it is computed where that condition or expression
starts: a value that could fail is never computed where the rules would not have
computed it.
"""

from __future__ import annotations

import ast
import copy
from collections import Counter
from collections.abc import Callable, Iterator, Sequence

MIN_NODES = 4  # smaller values (a name, a look-up) cost less than the local
MAX_SHARED = 8


def hoist(
    conditions: Sequence[ast.expr],
    params: Sequence[str],
    each_time: Callable[[ast.Call], bool] = lambda call: False,
) -> tuple[list[ast.expr], list[list[ast.stmt]]]:
    """The conditions reading locals where they repeat a value, and the statements to
    run before each one's test (``shared_<n> = value``). A call ``each_time`` names
    runs every time the rules say (a scan pays its steps at every scan). The trees
    given are left as they are: the compiler shares subtrees between the trees it
    makes."""
    before: list[list[ast.stmt]] = [[] for _ in conditions]
    allowed = set(params)
    if next(_shared(list(conditions), allowed, each_time), None) is None:
        return list(conditions), before  # most actions: nothing to copy
    conditions = [_unlocated_copy(c) for c in conditions]
    for kept, (index, value, text) in enumerate(_shared(conditions, allowed, each_time)):
        if kept == MAX_SHARED:
            break
        local = f"shared_{kept}"
        before[index].append(ast.Assign([ast.Name(local, ast.Store())], value))
        for position in range(index, len(conditions)):
            if ast.dump(conditions[position]) == text:
                conditions[position] = ast.Name(local, ast.Load())
            else:
                _replace(conditions[position], text, local)
    return conditions, before


def hoist_within(
    value: ast.expr,
    params: Sequence[str],
    each_time: Callable[[ast.Call], bool] = lambda call: False,
) -> tuple[ast.expr, list[ast.stmt]]:
    """``value`` reading locals where it repeats a value it computes whatever happens,
    and the statements that compute those first (``shared_<n> = …``); ``value`` is
    left as it is (module docstring)."""
    calls = [node for node in ast.walk(value) if isinstance(node, ast.Call)]
    callees = [_callee(node.func) for node in calls]
    if len(set(callees)) == len(callees):
        return value, []  # most values: no call made twice
    allowed = set(params)
    value = _unlocated_copy(value)
    before: list[ast.stmt] = []
    for kept, text in enumerate(_repeated_within(value, allowed, each_time)):
        if kept == MAX_SHARED:
            break
        local = f"shared_{kept}"
        computed = next(_calls_like(value, text))
        before.append(ast.Assign([ast.Name(local, ast.Store())], computed))
        if ast.dump(value) == text:
            return ast.Name(local, ast.Load()), before
        _replace(value, text, local)
    return value, before


def _repeated_within(
    value: ast.expr, params: set[str], each_time: Callable[[ast.Call], bool]
) -> Iterator[str]:
    """``ast.dump`` of every call ``value`` makes whatever happens and makes again
    somewhere in itself, outermost first, nothing below a call offered."""
    stack: list[ast.AST] = [value]
    made: Counter[str] | None = None  # how often each call is made, in ``value`` as it is now
    while stack:
        current = stack.pop()
        text = None
        if isinstance(current, ast.Call) and not each_time(current) and _shareable(current, params):
            if made is None:  # counted once for all the calls, not once for each
                made = Counter(ast.dump(n) for n in ast.walk(value) if isinstance(n, ast.Call))
            text = ast.dump(current)
            text = text if made[text] > 1 else None
        if text is None:
            stack.extend(reversed(_unconditional_children(current)))
        else:
            yield text
            made = None  # the caller has rewritten ``value``: counted again


def _unlocated_copy(tree: ast.expr) -> ast.expr:
    """A copy of ``tree`` without positions: the compiler shares subtrees between
    functions, and one compiled already is located (``codegen._locate`` gives the
    copy, new locals included, its positions again)."""
    tree = copy.deepcopy(tree)
    for node in ast.walk(tree):
        for attribute in ("lineno", "end_lineno", "col_offset", "end_col_offset"):
            vars(node).pop(attribute, None)  # an optional one is the class's None
    return tree


def _calls_like(root: ast.AST, text: str) -> Iterator[ast.Call]:
    """The calls below ``root`` (itself included) whose ``ast.dump`` is ``text``."""
    calls = (node for node in ast.walk(root) if isinstance(node, ast.Call))
    return (node for node in calls if ast.dump(node) == text)


def _shared(
    conditions: list[ast.expr], params: set[str], each_time: Callable[[ast.Call], bool]
) -> Iterator[tuple[int, ast.Call, str]]:
    """(condition index, value, its ``ast.dump``) of every value a condition computes
    whatever happens and a later one computes again, outermost first, nothing below
    a value offered. The conditions may be rewritten between two values: each is
    looked for in the later conditions as they are then."""
    for index in range(len(conditions) - 1):
        stack: list[ast.AST] = [conditions[index]]  # the values computed whatever happens
        while stack:
            current = stack.pop()
            text = None
            if isinstance(current, ast.Call) and not each_time(current):
                text = _repeated(current, conditions[index + 1 :], params)
            if text is None:
                stack.extend(reversed(_unconditional_children(current)))
            else:
                yield index, current, text


def _repeated(value: ast.Call, later: Sequence[ast.expr], params: set[str]) -> str | None:
    """``ast.dump(value)`` if a later condition computes the same value, else None."""
    callee = _callee(value.func)
    same_callee = [
        node
        for condition in later
        for node in ast.walk(condition)
        if isinstance(node, ast.Call) and _callee(node.func) == callee
    ]
    if not same_callee or not _shareable(value, params):
        return None
    text = ast.dump(value)
    return text if any(ast.dump(node) == text for node in same_callee) else None


def _callee(func: ast.expr) -> str:
    return func.id if isinstance(func, ast.Name) else ast.dump(func)


def _unconditional_children(node: ast.AST) -> list[ast.AST]:
    if isinstance(node, ast.BoolOp):
        return [node.values[0]]
    if isinstance(node, ast.IfExp):
        return [node.test]
    if isinstance(node, ast.Compare):
        return [node.left, node.comparators[0]]
    if isinstance(node, ast.GeneratorExp | ast.ListComp | ast.SetComp | ast.DictComp):
        return [node.generators[0].iter]
    if isinstance(node, ast.Lambda):
        return []
    return [c for c in ast.iter_child_nodes(node) if isinstance(c, ast.expr)]


def _shareable(value: ast.expr, params: set[str]) -> bool:
    """Big enough to be worth a local, and naming no local of a scan (its value would
    change from item to item)."""
    nodes = list(ast.walk(value))
    if len(nodes) < MIN_NODES:
        return False
    for node in nodes:
        if isinstance(node, ast.Name) and node.id.startswith("v_") and node.id not in params:
            return False
        if isinstance(node, ast.Lambda | ast.NamedExpr):
            return False
    return True


def _replace(root: ast.AST, text: str, local: str) -> None:
    """Every call below ``root`` equal to ``text`` (an ``ast.dump``) becomes ``local``."""
    for node in ast.walk(root):
        for field, value in ast.iter_fields(node):
            if isinstance(value, ast.Call) and ast.dump(value) == text:  # kept values are calls
                setattr(node, field, ast.Name(local, ast.Load()))
            elif isinstance(value, list):
                for i, item in enumerate(value):
                    if isinstance(item, ast.Call) and ast.dump(item) == text:
                        value[i] = ast.Name(local, ast.Load())
