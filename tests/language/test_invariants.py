"""A ruleset call a scan repeats with the same arguments is made once per evaluation
(invariants.py): the same value, fewer steps, never inside an effect."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from rules_test_support import TINY_CONTENT, write_tiny

from interpreter.engine.state import State
from interpreter.language.invariants import once_per_evaluation
from interpreter.language.runtime import Context
from interpreter.language.values import Player
from interpreter.ruleset import load
from interpreter.ruleset.tables import Tables

FUNCTIONS = """\
functions:
  inner: {returns: number, value: "count(c in card where c.points >= 0)"}
  outer: {returns: number, value: "count(x in [1, 2, 3, 4] where x <= inner())"}
  plain: {returns: number, value: "count(x in [1, 2, 3, 4] where x <= 5)"}
"""


@pytest.fixture
def tables(tmp_path: Path) -> Tables:
    content = TINY_CONTENT.replace("functions:\n", FUNCTIONS, 1)
    loaded = load(write_tiny(tmp_path / "tiny", content), use_store=False)
    assert loaded.ruleset is not None, loaded.diagnostics
    return Tables(loaded.ruleset, 2)


def steps(tables: Tables, function: str) -> tuple[object, int]:
    ctx = Context(State(("ann", "bob")), tables, Player(0), {})
    before = ctx.budget[0]
    value = tables.functions[function](ctx)
    return value, before - ctx.budget[0]


def test_the_call_is_made_once_and_gives_the_same_value(tables: Tables) -> None:
    members = len(tables.kind_members["card"])
    assert steps(tables, "inner") == (members, members)
    value, paid = steps(tables, "outer")
    assert value == 4
    assert paid == 4 + members  # the scan of 4, and `inner` once (not 4 times)
    assert steps(tables, "plain") == (4, 4)


def test_what_is_rewritten_and_what_is_not() -> None:
    def rewritten(expression: str, params: tuple[str, ...] = ()) -> str:
        tree = ast.parse(expression, mode="eval").body
        body = once_per_evaluation([ast.Return(tree)], ("ctx", *params))
        return ast.unparse(ast.fix_missing_locations(ast.Module(body, [])))

    kept = rewritten("sum((1 for v_h in xs if _def_f_(ctx, v_h) < _def_f_(ctx, v_g)))", ("v_g",))
    assert kept.startswith("once_0 = _unset_")
    assert "_def_f_(ctx, v_h) <" in kept  # it reads the scan's variable: each time
    assert "(once_0 := _def_f_(ctx, v_g))" in kept
    # the same call outside the scan shares its local, before the scan or after it
    text = "_def_f_(ctx, v_g) > 0 or any((_def_f_(ctx, v_g) > v_h for v_h in xs))"
    shared = rewritten(text, ("v_g",))
    assert shared.count("(once_0 := _def_f_(ctx, v_g))") == 2 and "once_1" not in shared
    # not a ruleset call, a call reading the scan's variable, a call outside a scan
    for left in (
        "any((_each1(ctx, v_g) for v_h in xs))",
        "any((_def_f_(ctx, v_h) for v_h in xs))",
        "_def_f_(ctx, v_g)",
        "_def_f_(ctx, v_g) or any((_def_f_(ctx, v_h) for v_h in xs))",  # not the same call
        "any((1 for v_h in _def_f_(ctx, v_g)))",  # the collection: evaluated once anyway
    ):
        assert "once_" not in rewritten(left, ("v_g",)), left
