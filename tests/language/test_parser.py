"""The grammar of the effect language: conflict-free LALR, precedence, errors."""

from __future__ import annotations

import lark
import pytest
from lark import Token, Tree

from interpreter.language.parser import (
    GRAMMAR_PATH,
    MAX_NESTING,
    MAX_TEXT,
    MAX_TREE_DEPTH,
    SyntaxProblem,
    parse,
)


def test_grammar_is_lalr_without_conflicts() -> None:
    """strict=True turns every shift/reduce or reduce/reduce conflict (and any
    terminal collision: interegular, a test dependency only) into an error."""
    lark.Lark(
        GRAMMAR_PATH.read_text(encoding="utf-8"),
        parser="lalr",
        strict=True,
        start=["effect", "expr"],
    )


def shape(node) -> str:
    """A tree in a compact prefix form: `(arith 1 + (arith 2 * 3))`."""
    if isinstance(node, Token):
        return str(node)
    if node is None:
        return "_"
    if node.data in ("number", "name", "string"):
        return str(node.children[0])
    if node.data in ("true", "false", "none"):
        return str(node.data)
    inner = " ".join(shape(child) for child in node.children)
    return f"({node.data} {inner})"


@pytest.mark.parametrize(
    "text, expected",
    [
        ("1 + 2 * 3", "(arith 1 + (arith 2 * 3))"),
        ("1 * 2 + 3", "(arith (arith 1 * 2) + 3)"),
        ("1 - 2 - 3", "(arith (arith 1 - 2) - 3)"),
        ("8 // 2 // 2", "(arith (arith 8 // 2) // 2)"),
        ("7 % 3 * 2", "(arith (arith 7 % 3) * 2)"),
        ("-2 * 3", "(arith (neg 2) * 3)"),
        ("- a.b", "(neg (attr a b))"),
        ("1 + 2 < 3 * 4", "(compare (arith 1 + 2) < (arith 3 * 4))"),
        ("a == b and c", "(and_op (compare a == b) c)"),
        ("a or b and c", "(or_op a (and_op b c))"),
        ("a and b or c", "(or_op (and_op a b) c)"),
        ("not a and b", "(and_op (not_op a) b)"),
        ("not a == b", "(not_op (compare a == b))"),
        ("a or b or c", "(or_op (or_op a b) c)"),
        ("if a then 1 else 2 + 3", "(if_expr a 1 (arith 2 + 3))"),
        ("if a then 1 else if b then 2 else 3", "(if_expr a 1 (if_expr b 2 3))"),
        ("a.b[0].c", "(attr (index (attr a b) 0) c)"),
        ("(1 + 2) * 3", "(arith (arith 1 + 2) * 3)"),
        ("[1, 2 + 3]", "(list 1 (arith 2 + 3))"),
    ],
)
def test_precedence_and_associativity(text: str, expected: str) -> None:
    assert shape(parse(text, "expr")) == expected


def test_call_argument_forms() -> None:
    tree = parse("f(x, k: 1, y in z where y > 0, y.p for y in z)", "expr")
    args = tree.children[1].children
    assert [a.data if isinstance(a, Tree) else a.type for a in args] == [
        "name",
        "named_arg",
        "binder_arg",
        "mapper_arg",
    ]


def test_effect_statements_and_separators() -> None:
    text = "gain(c, 1); pay(c, 2)\nlet x = 3 # a comment\nmy.c += x stop"
    tree = parse(text, "effect")
    kinds = [s.data for s in tree.children if s.data != "empty_stmt"]
    assert kinds == ["call_stmt", "call_stmt", "let_stmt", "assign_stmt", "stop_stmt"]


def test_choose_forms() -> None:
    tree = parse('may choose c in h where c.p > 0 by me as "play" { stop }', "effect")
    (stmt,) = tree.children
    assert stmt.data == "choose_item" and stmt.children[0] == "may"
    tree = parse('choose { option "a" if x { stop } option "b" { } }', "effect")
    (stmt,) = tree.children
    assert stmt.data == "choose_option"
    assert [str(o.children[0]) for o in stmt.children[2:]] == ['"a"', '"b"']


def test_strings_with_escapes_and_both_quotes() -> None:
    assert shape(parse(r"'it\'s'", "expr")) == r"'it\'s'"
    assert shape(parse('"say \\"hi\\""', "expr")) == '"say \\"hi\\""'


# ------------------------------------------------------------------------ errors
def problem(text: str, start: str = "expr") -> SyntaxProblem:
    with pytest.raises(SyntaxProblem) as info:
        parse(text, start)
    return info.value


@pytest.mark.parametrize(
    "text, start, line, column, message, hint",
    [
        ("a = 1", "expr", 1, 3, "unexpected '='", "compare with `==`"),
        ("a / b", "expr", 1, 3, "unexpected character '/'", "integer division is written `//`"),
        ("a && b", "expr", 1, 3, "unexpected character '&'", "write `and` / `or`"),
        ("a ! b", "expr", 1, 3, "unexpected character '!'", "write `not`"),
        ("x +", "expr", 1, 4, "end of the text", None),
        ("1 < 2 < 3", "expr", 1, 7, "unexpected '<'", None),
        ("gain(coins 1)", "effect", 1, 12, "unexpected '1'", None),
        ("f(1,\n  2 3)", "expr", 2, 5, "unexpected '3'", None),
        ("{ x }", "expr", 1, 1, "unexpected '{'", "effects go in `effect:` fields"),
        ("if a {\n  gain(c, 1)\n", "effect", 2, 13, "end of the text", "'{' opened at"),
        ("gain(c, 1) }", "effect", 1, 12, "unexpected '}'", None),
        # issue 49: the spelling of other languages gets this one's
        ("if a { stop } else if b { stop }", "effect", 1, 20, "unexpected 'if'", "`elif"),
        ("if a { stop }\nelse\n  if b { stop }", "effect", 3, 3, "unexpected 'if'", "`elif"),
    ],
)
def test_parse_errors_and_their_columns(
    text: str, start: str, line: int, column: int, message: str, hint: str | None
) -> None:
    found = problem(text, start)
    assert (found.line, found.column) == (line, column)
    assert message in found.message
    if hint:
        assert hint in (found.hint or "")


def test_nesting_limit_is_a_located_problem() -> None:
    text = "(" * (MAX_NESTING + 10) + "1" + ")" * (MAX_NESTING + 10)
    found = problem(text)
    assert (found.line, found.column) == (1, MAX_NESTING + 1)
    assert "nested deeper" in found.message


@pytest.mark.parametrize(
    ("text", "column"),
    [(" + ".join(["1"] * 170), 41), (" + ".join(["1"] * 400), 961), ("not " * 170 + "true", 641)],
)
def test_a_tree_deeper_than_the_limit_is_a_located_problem(text: str, column: int) -> None:
    """Long chains of operators nest the tree without brackets (the depth is walked
    only where a parse built more nodes than the limit: fewer cannot nest deeper)."""
    found = problem(text)
    assert (found.line, found.column) == (1, column)
    assert found.message == f"expression nested deeper than {MAX_TREE_DEPTH} levels"


def test_a_tree_as_deep_as_the_limit_allows_parses() -> None:
    assert parse(" + ".join(["1"] * 150), "expr").data == "arith"


def test_length_limit() -> None:
    found = problem("1 + " * (MAX_TEXT // 4 + 1) + "1")
    assert "longer than" in found.message


def test_two_values_side_by_side_say_what_was_expected() -> None:
    found = problem("a b")
    assert (found.line, found.column) == (1, 3)
    assert "something else" not in found.message
