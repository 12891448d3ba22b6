"""Re-printing parse trees as source: readable, canonical, and parsed back the same."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from lark import Token, Tree

from interpreter.language.parser import parse
from interpreter.language.syntax_tree import _unquote
from interpreter.language.unparse import unparse
from interpreter.load.ruleset_files import Loader, resolve_ruleset
from interpreter.ruleset.build import Builder

ROCOCO_EXPANSIONS = ["deluxe", "jewelry_box", "fancy", "festive", "haute_couture", "solo"]


def canonical(node):
    """A tree with what unparse may change taken out: a text's quotes and escapes (its
    value stays), and empty `;` statements."""
    if isinstance(node, Token):
        return ("STRING", _unquote(node)) if node.type == "STRING" else (node.type, str(node))
    if isinstance(node, Tree):
        kept = [c for c in node.children if not (isinstance(c, Tree) and c.data == "empty_stmt")]
        return (str(node.data), tuple(canonical(c) for c in kept))
    return None


def round_trip(text: str, start: str) -> str:
    tree = parse(text, start)
    printed = unparse(tree)
    assert canonical(parse(printed, start)) == canonical(tree), printed
    return printed


def checked_trees(ruleset: str, expansions: list[str]):
    """Every expression and effect tree the build stage checked, with its place."""
    catalog = Loader().ruleset(resolve_ruleset(ruleset), expansions)
    builder = Builder(catalog)
    assert builder.build().ruleset is not None
    for key, tree in builder.expression_trees.items():
        yield key, tree, "expr"
    for key, (tree, _, _) in builder.effect_trees.items():
        yield key, tree, "effect"


@pytest.mark.parametrize(
    ("ruleset", "expansions"),
    [("queens-necklace", []), ("rococo", [])] + [("rococo", [e]) for e in ROCOCO_EXPANSIONS],
)
def test_every_shipped_expression_parses_back_to_its_tree(ruleset, expansions) -> None:
    count = 0
    for key, tree, start in checked_trees(ruleset, expansions):
        printed = unparse(tree)
        assert canonical(parse(printed, start)) == canonical(tree), (key, printed)
        count += 1
    assert count > 60


@pytest.mark.parametrize(
    ("source", "printed"),
    [
        ("(a + b) * c", "(a + b) * c"),
        ("a + (b * c)", "a + b * c"),
        ("a - (b - c)", "a - (b - c)"),
        ("(a - b) - c", "a - b - c"),
        ("-(a + b)", "-(a + b)"),
        ("not (a and b)", "not (a and b)"),
        ("(a or b) and c", "(a or b) and c"),
        ("a or (b and c)", "a or b and c"),
        ("(a == b) == c", "(a == b) == c"),
        ("(if a then b else c) + 1", "(if a then b else c) + 1"),
        ("if a then b else if c then d else e", "if a then b else if c then d else e"),
        ("(a + b).size", "(a + b).size"),
        ("(-a)[1]", "(-a)[1]"),
        (
            "f(x, n: 2,t in ts where t.v>1, t.v for t in ts)",
            "f(x, n: 2, t in ts where t.v > 1, t.v for t in ts)",
        ),
        ("[ ]", "[]"),
        ("can  go", "can go"),
        ("can go(x: 1)", "can go(x: 1)"),
        ("'a'", '"a"'),
        ("'say \"hi\"'", "'say \"hi\"'"),
        ('"it\'s \\"x\\""', '"it\'s \\"x\\""'),
    ],
)
def test_expressions_get_only_the_parentheses_they_need(source: str, printed: str) -> None:
    assert round_trip(source, "expr") == printed


def test_effects_are_indented_one_statement_a_line() -> None:
    source = (
        "let n: number = 2; x.y[1] += n ;"
        "if a {b()} elif c {} else {d(1) e(2)}"
        "may choose t in ts where t.ok by p as 'take' { do go(t: t) }"
        'choose by chance { option "a" if ok { stop } option s in ss { emit done(s: s) } }'
        "simultaneous for p in players { act as p { repeat 2 { while x < 3 { x += 1 } } } }"
        "do end"
    )
    assert round_trip(source, "effect") == "\n".join(
        [
            "let n: number = 2",
            "x.y[1] += n",
            "if a { b() } elif c { } else {",
            "  d(1)",
            "  e(2)",
            "}",
            'may choose t in ts where t.ok by p as "take" { do go(t: t) }',
            "choose by chance {",
            '  option "a" if ok { stop }',
            "  option s in ss { emit done(s: s) }",
            "}",
            "simultaneous for p in players {",
            "  act as p {",
            "    repeat 2 {",
            "      while x < 3 { x += 1 }",
            "    }",
            "  }",
            "}",
            "do end",
        ]
    )


def test_a_long_one_statement_block_goes_on_its_own_lines() -> None:
    source = "if ok { gain(" + ", ".join(f"argument_{i}" for i in range(12)) + ") }"
    printed = round_trip(source, "effect")
    assert printed.splitlines()[0] == "if ok {"
    assert printed.splitlines()[-1] == "}"


_names = st.sampled_from(["a", "b", "my", "x_1"])
_leaves = st.one_of(
    _names,
    st.integers(0, 99).map(str),
    st.sampled_from(['"t"', "'u'", "true", "none"]),
)


def _grow(inner):
    return st.one_of(
        st.tuples(inner, st.sampled_from(["+", "-", "*", "//", "%"]), inner).map(
            lambda t: f"({t[0]} {t[1]} {t[2]})"
        ),
        st.tuples(inner, st.sampled_from(["==", "<", ">="]), inner).map(
            lambda t: f"({t[0]} {t[1]} {t[2]})"
        ),
        st.tuples(inner, st.sampled_from(["and", "or"]), inner).map(
            lambda t: f"({t[0]} {t[1]} {t[2]})"
        ),
        inner.map(lambda e: f"(not {e})"),
        inner.map(lambda e: f"(-{e})"),
        st.tuples(inner, inner, inner).map(lambda t: f"(if {t[0]} then {t[1]} else {t[2]})"),
        st.tuples(inner, _names).map(lambda t: f"{t[0]}.{t[1]}"),
        st.tuples(inner, inner).map(lambda t: f"{t[0]}[{t[1]}]"),
        st.lists(inner, max_size=3).map(lambda xs: f"f({', '.join(xs)})"),
        st.lists(inner, max_size=3).map(lambda xs: f"[{', '.join(xs)}]"),
    )


@given(st.recursive(_leaves, _grow, max_leaves=12))
def test_any_fully_bracketed_expression_parses_back_to_its_tree(source: str) -> None:
    printed = round_trip(source, "expr")
    assert printed.count("(") <= source.count("(")
