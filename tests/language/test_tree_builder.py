"""The fused tree builder gives Lark's own trees, positions and errors."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedInput
from ruamel.yaml import YAML

from interpreter.language import tree_builder
from interpreter.language.parser import GRAMMAR_PATH, grammar

ROOT = Path(__file__).parents[2]
EDGE_CASES = [
    ("", "effect"),
    ("x", "expr"),
    ("(((1)))", "expr"),
    ("f()", "expr"),
    ("-(-x)", "expr"),
    ("a.b[c](d)", "expr"),
    ("if a { } else if b { x = 1 } else { }", "effect"),
    ("choose c in my.hand where c.cost <= 2 as 'pick' { move(c, table) } or pass", "effect"),
    ("sum(x.v for x in xs where not x.hidden)", "expr"),
    ("for p in players {\n  gain(coins, 1, to: p)\n}\n", "effect"),
]


def _reference() -> Lark:
    """The grammar with Lark's own tree builder, built as ``parser.grammar`` builds it."""
    return Lark(
        GRAMMAR_PATH.read_text(encoding="utf-8"),
        parser="lalr",
        start=["effect", "expr"],
        propagate_positions=True,
        maybe_placeholders=True,
    )


def _shape(node: Any) -> Any:
    """A tree as plain data, every position of every node and token included."""
    if isinstance(node, Tree):
        meta = node._meta
        positions = None if meta is None else tuple(sorted(vars(meta).items()))
        return (node.data, positions, tuple(_shape(c) for c in node.children))
    if isinstance(node, Token):
        return (node.type, str(node), node.line, node.column, node.end_line, node.end_column)
    return node


def _outcome(parser: Lark, text: str, start: str) -> Any:
    try:
        return _shape(parser.parse(text, start=start))
    except UnexpectedInput as exc:
        return (type(exc).__name__, exc.line, exc.column)


def _texts() -> list[str]:
    """Every text of the bundled rulesets and example mods (most are not expressions:
    those are compared as errors)."""
    yaml = YAML(typ="safe", pure=True)
    found: list[str] = []

    def walk(value: Any) -> None:
        if isinstance(value, str):
            found.append(value)
        elif isinstance(value, dict):
            for part in value.values():
                walk(part)
        elif isinstance(value, list):
            for part in value:
                walk(part)

    for folder in (ROOT / "rulesets", ROOT / "examples" / "mods"):
        for path in sorted(folder.rglob("*.yaml")):
            walk(yaml.load(path.read_text(encoding="utf-8")))
    return sorted(set(found))


@pytest.fixture(scope="module")
def reference() -> Lark:
    return _reference()


def test_the_rules_parser_uses_the_fused_builder() -> None:
    callbacks = grammar()._callbacks
    assert callbacks and all(
        getattr(fn, "__qualname__", "") == "_builder.<locals>.build"
        for rule, fn in callbacks.items()
        if not isinstance(rule, str)
    )


def test_every_text_of_the_bundled_rules_parses_as_lark_parses_it(reference: Lark) -> None:
    texts = _texts()
    parsed = 0
    for text in texts:
        for start in ("effect", "expr"):
            expected = _outcome(reference, text, start)
            assert _outcome(grammar(), text, start) == expected, (text, start)
            parsed += isinstance(expected[0], str) and expected[0] not in (
                "UnexpectedCharacters",
                "UnexpectedToken",
                "UnexpectedEOF",
            )
    assert len(texts) > 1000 and parsed > 500  # the rules' texts, not only errors


@pytest.mark.parametrize("text, start", EDGE_CASES)
def test_edge_cases_parse_as_lark_parses_them(reference: Lark, text: str, start: str) -> None:
    assert _outcome(grammar(), text, start) == _outcome(reference, text, start)


def test_an_unsupported_parser_keeps_lark_s_own_builder() -> None:
    plain = Lark(GRAMMAR_PATH.read_text(encoding="utf-8"), parser="lalr", start="expr")
    before = dict(plain._callbacks)
    assert tree_builder.install(plain) is False  # no positions asked for
    assert plain._callbacks == before
