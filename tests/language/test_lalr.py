"""The parser on Lark's tables (``lalr.py``) gives Lark's own trees and positions, and
refuses exactly the texts Lark refuses."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import lark
import pytest
from lark import Lark
from lark.exceptions import UnexpectedInput
from ruamel.yaml import YAML

from interpreter.language import lalr, parse_tables, parse_tree
from interpreter.language.parser import GRAMMAR_PATH, tables_parser

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
    """The grammar as Lark parses it, built as ``parser.grammar`` builds it."""
    return Lark(
        GRAMMAR_PATH.read_text(encoding="utf-8"),
        parser="lalr",
        start=["effect", "expr"],
        propagate_positions=True,
        maybe_placeholders=True,
    )


def _shape(node: Any) -> Any:
    """A tree (Lark's classes or ours) as plain data, every position of every node and
    token included."""
    if isinstance(node, lark.Tree | parse_tree.Tree):
        meta = node._meta
        positions = None if meta is None else tuple(sorted(vars(meta).items()))
        return (node.data, positions, tuple(_shape(c) for c in node.children))
    if isinstance(node, lark.Token | parse_tree.Token):
        return (
            node.type,
            str(node),
            node.start_pos,
            node.line,
            node.column,
            node.end_line,
            node.end_column,
            node.end_pos,
        )
    return node


def _outcome(parser: Lark, text: str, start: str) -> Any:
    """Lark's tree of ``text``, or that it refuses it."""
    try:
        return _shape(parser.parse(text, start=start))
    except UnexpectedInput:
        return "refused"


def _ours(text: str, start: str) -> Any:
    parser = tables_parser()
    assert parser is not None
    try:
        return _shape(parser.parse(text, start))
    except lalr.NoParse:
        return "refused"


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


def test_the_rules_are_parsed_on_the_tables() -> None:
    assert isinstance(tables_parser(), lalr.Parser)


def test_every_text_of_the_bundled_rules_parses_as_lark_parses_it(reference: Lark) -> None:
    texts = _texts()
    parsed = 0
    for text in texts:
        for start in ("effect", "expr"):
            expected = _outcome(reference, text, start)
            assert _ours(text, start) == expected, (text, start)
            parsed += expected != "refused"
    assert len(texts) > 1000 and parsed > 500  # the rules' texts, not only errors


@pytest.mark.parametrize("text, start", EDGE_CASES)
def test_edge_cases_parse_as_lark_parses_them(reference: Lark, text: str, start: str) -> None:
    assert _ours(text, start) == _outcome(reference, text, start)


def test_the_tables_survive_their_file(reference: Lark) -> None:
    """What the cache file holds (``marshal``) parses as the tables it was made of."""
    import marshal

    tables = parse_tables.from_lark(reference)
    assert tables is not None
    again = parse_tables.ParseTables.from_data(marshal.loads(marshal.dumps(tables.as_data())))
    assert again == tables
    text = "if a { x += 1 } elif b { y = [1, 2] } else { stop }"
    assert _shape(lalr.Parser(again).parse(text, "effect")) == _outcome(reference, text, "effect")


def test_tables_of_another_format_are_not_read() -> None:
    assert parse_tables.ParseTables.from_data({"format": -1}) is None
    assert parse_tables.ParseTables.from_data("half a file") is None
    assert parse_tables.ParseTables.from_data({"format": parse_tables.FORMAT}) is None


def test_a_parser_of_other_options_has_no_tables() -> None:
    """Lark parses texts itself where its parser is not the one the tables copy."""
    plain = Lark(GRAMMAR_PATH.read_text(encoding="utf-8"), parser="lalr", start="expr")
    assert parse_tables.from_lark(plain) is None  # no positions asked for


def test_lark_s_trees_become_ours(reference: Lark) -> None:
    text = "for p in players where p != me { gain(coins, -1, to: p) }"
    theirs = reference.parse(text, start="effect")
    ours = parse_tree.from_lark(theirs)
    assert isinstance(ours, parse_tree.Tree) and _shape(ours) == _shape(theirs)
    assert ours == theirs and ours.pretty() == theirs.pretty()
    assert [t.data for t in ours.iter_subtrees()] == [t.data for t in theirs.iter_subtrees()]
    assert [t.data for t in ours.iter_subtrees_topdown()] == [
        t.data for t in theirs.iter_subtrees_topdown()
    ]


def test_the_lexers_kept_compiled_match_as_re_compiles_them() -> None:
    """The regular expressions made from the kept code (``parse_tables.compiled``) are
    ``re.compile``'s: the same pattern, flags and groups, the same match everywhere."""
    import marshal
    import re

    tables = parse_tables.from_lark(_reference())
    assert tables is not None and tables.codes is None  # worked out only to be written
    kept = parse_tables.ParseTables.from_data(marshal.loads(marshal.dumps(tables.as_data())))
    assert kept is not None and kept.codes is not None and kept.engine is not None
    texts = [text for text, _ in EDGE_CASES] + ["'a' \"b\" # c\n 12 >= x != y", "\t\x0c\r\n"]
    for index, (patterns, _) in enumerate(kept.lexers):
        for made, (pattern, flags) in zip(kept.compiled(index), patterns, strict=True):
            expected = re.compile(pattern, flags)
            assert (made.pattern, made.flags, made.groups, made.groupindex) == (
                expected.pattern,
                expected.flags,
                expected.groups,
                expected.groupindex,
            )
            for text in texts:
                for pos in range(len(text) + 1):
                    found, wanted = made.match(text, pos), expected.match(text, pos)
                    assert (found and (found.span(), found.lastgroup)) == (
                        wanted and (wanted.span(), wanted.lastgroup)
                    )


def test_code_for_another_engine_is_compiled_again_by_re() -> None:
    import dataclasses
    import re

    tables = tables_parser()._tables  # type: ignore[union-attr]
    other = dataclasses.replace(tables, engine=-1)
    pattern, flags = tables.lexers[0][0][0]
    assert other.compiled(0)[0] is re.compile(pattern, flags)  # re's own, from its cache
    assert parse_tables.compiled(pattern, flags, ("not", "code")) is re.compile(pattern, flags)
