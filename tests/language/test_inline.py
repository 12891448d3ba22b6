"""Small ruleset functions written into their callers (inline.py): the same values,
steps and errors, and the calls that must stay calls stay."""

from __future__ import annotations

import ast
from types import CodeType

import pytest
from rules_test_support import TINY_CONTENT, write_tiny

from interpreter.engine.state import State
from interpreter.errors import RuleError
from interpreter.language.inline import Inliner
from interpreter.language.runtime import Context
from interpreter.language.values import Player
from interpreter.ruleset import load
from interpreter.ruleset.tables import Tables

FUNCTIONS = """\
functions:
  bump: {params: {n: number}, returns: number, value: "n + 1"}
  twice_bumped: {params: {n: number}, returns: number, value: "bump(n) * 2"}
  small: {params: {n: number}, returns: bool, value: "n < 3"}
  not_small: {params: {n: number}, returns: bool, value: "not small(n)"}
  bumps_in_scan: {returns: number, value: "sum(bump(x) for x in [1, 2, 3])"}
  of_suit: {params: {s: text}, returns: number, value: "count(c in card where c.suit == s)"}
  over_each: {returns: number, value: "of_suit('red') + of_suit('red')"}
"""


@pytest.fixture(scope="module")
def tables(tmp_path_factory: pytest.TempPathFactory) -> Tables:
    content = TINY_CONTENT.replace("functions:\n", FUNCTIONS, 1)
    folder = write_tiny(tmp_path_factory.mktemp("inline") / "tiny", content)
    loaded = load(folder, use_store=False)
    assert loaded.ruleset is not None, loaded.diagnostics
    return Tables(loaded.ruleset, 2)


def call(tables: Tables, function: str, *args: object) -> tuple[object, int]:
    """The value of ``function`` and the steps it paid."""
    ctx = Context(State(("ann", "bob")), tables, Player(0), {})
    before = ctx.budget[0]
    value = tables.functions[function](ctx, *args)
    return value, before - ctx.budget[0]


def calls_made(tables: Tables, function: str) -> set[str]:
    """The ruleset functions the generated code of ``function`` calls (its scans'
    code included)."""
    codes, names = [tables.functions[function].__code__], set()
    while codes:
        code = codes.pop()
        names |= {n for n in code.co_names if n.startswith("_def_")}
        codes += [c for c in code.co_consts if isinstance(c, CodeType)]
    return names


def test_a_small_function_is_written_into_its_caller(tables: Tables) -> None:
    assert calls_made(tables, "twice_bumped") == set()
    assert call(tables, "twice_bumped", 4) == (10, 0)


@pytest.mark.parametrize(
    ("callee", "caller", "message"),
    [
        ("bump", "twice_bumped", "`+` needs numbers"),  # a rule error of a helper
        ("small", "not_small", "`<` cannot compare"),  # a TypeError, in the caller's net
    ],
)
def test_an_error_in_the_written_body_is_the_functions_own(
    tables: Tables, callee: str, caller: str, message: str
) -> None:
    assert calls_made(tables, caller) == set()
    with pytest.raises(RuleError) as alone:
        call(tables, callee, "x")
    with pytest.raises(RuleError) as written:
        call(tables, caller, "x")
    assert str(written.value) == str(alone.value)
    assert message in str(alone.value)


def test_calls_in_a_scan_and_calls_made_twice_stay_calls(tables: Tables) -> None:
    assert calls_made(tables, "bumps_in_scan") == {"_def_bump_"}
    assert call(tables, "bumps_in_scan") == (9, 3)
    assert calls_made(tables, "over_each") == {"_def_of_suit_"}
    assert call(tables, "over_each")[0] == 2 * call(tables, "of_suit", "red")[0]  # made once


def rewritten(bodies: dict[str, tuple[tuple[str, ...], str]], expression: str) -> str:
    inliner = Inliner()
    for name, (params, body) in bodies.items():
        inliner.offer(name, params, ast.parse(body, mode="eval").body)
    return ast.unparse(inliner.inline(ast.parse(expression, mode="eval").body))


def test_what_is_written_out_and_what_is_not() -> None:
    bodies = {
        "_def_f_": (("v_a",), "v_a + ctx.rules.x"),
        "_def_g_": (("v_a",), "any((v_c == v_a for v_c in ctx.xs))"),
        "_def_big_": (("v_a",), " + ".join(["v_a"] * 70)),
        "_def_h_": (("v_a",), "_def_f_(ctx, v_a) * 2"),
    }
    assert rewritten(bodies, "_def_f_(ctx, v_b) > 0") == "v_b + ctx.rules.x > 0"
    assert rewritten(bodies, "_def_f_(ctx, ctx.me)") == "ctx.me + ctx.rules.x"
    assert rewritten(bodies, "_def_h_(ctx, 3)") == "(3 + ctx.rules.x) * 2"  # nested
    kept = (
        "_def_f_(ctx, v_b + 1)",  # an argument that computes (it could fail, or cost)
        "_def_f_(ctx, ctx.env['x'])",  # a look-up that could fail
        "_def_g_(ctx, v_c)",  # the body's scan binds the name the argument reads
        "_def_big_(ctx, v_b)",  # too large
        "_def_f_(ctx, v_b) + _def_f_(ctx, v_b)",  # the same call twice: made once elsewhere
        "any((_def_f_(ctx, v_x) for v_x in xs))",  # in a scan
    )
    for text in kept:
        assert rewritten(bodies, text) == ast.unparse(ast.parse(text, mode="eval").body), text
