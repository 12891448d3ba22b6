"""The examples the reference says come from a shipped game are in that game.

Two places make the claim. In docs/language.md (generated from the registry) an
example marked `quoted` is followed by the file that holds it, which the generator
finds by the example's text; in the hand-written docs a block is quoted from a file
when the line before it is `<!-- doc-test: quote PATH -->`. A shipped game is a
ruleset of rulesets/ or an example game of examples/games/ (Liar's Dice, Connect
Four). Every primitive issue 49 added is shown with such an example, or is named below
as not used by any shipped game yet (and the test fails once one uses it, so its
example can be quoted then).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from rules_test_support import ROOT

from interpreter.language.reference import shipped_source
from interpreter.language.registry import REGISTRY

DOCS = ROOT / "docs"
SHIPPED = [ROOT / "rulesets", ROOT / "examples" / "games"]  # the folders of shipped games
QUOTE = re.compile(r"^<!--\s*doc-test:\s*quote\s+(\S+)\s*-->\s*\n```\w*\n(.*?)^```", re.M | re.S)

# Issue 49's primitives of the language, each shown with an example from a shipped game.
FUNCTIONS = ["cell", "directions", "distance", "line", "neighbours", "ray"]
STATEMENTS = ["roll", "rotate"]
SYNTAX = ["choose NAME in COLLECTION as (TEXT) { … }", "TEXT + TEXT, LIST + LIST"]
# Issue 49's keys of the rules files, each in a block format.md quotes from a shipped game.
KEYS = {
    "each (generated components)": r"^\s+each:",
    "ids (their ids)": r"^\s+ids: ",
    "count by a property (copies per value)": r"count: \{by: ",
    "grid (a board of rows and columns)": r"^\s+grid: \{rows: ",
    "layout: grid (drawn as a board)": r"^\s+layout: grid",
    "result: lowest": r"^\s+result: lowest",
    "result: cooperative": r"^\s+result: cooperative",
    "result: teams": r"^\s+result: teams",
    "keys (a keyed counter)": r"^counters:.*\n(?:[ \t]+.*\n)*?[ \t]+\w+: \{[^}\n]*\bkeys: ",
    "visibility: others": r"visibility: others",
    "players: note by count": r'^\s+note:.*\n\s+"1": ',
}
# What no shipped game uses yet: the pattern that finds a first use in a shipped game.
NOT_SHIPPED: dict[str, str] = {}


def _quotes() -> list[tuple[str, int, str, str]]:
    """(doc, line, quoted file, block) of every quote block of docs/*.md."""
    found = []
    for doc in sorted(DOCS.glob("*.md")):
        text = doc.read_text(encoding="utf-8")
        for match in QUOTE.finditer(text):
            line = text.count("\n", 0, match.start()) + 1
            found.append((doc.name, line, match.group(1), match.group(2)))
    return found


def _lines(text: str) -> list[str]:
    """The lines of a YAML text without comments and blank lines (a quote may leave out
    lines and comment what it keeps, never change a line)."""
    kept = (re.sub(r"(^|\s+)#(\s.*)?$", "", line).rstrip() for line in text.splitlines())
    return [line for line in kept if line.strip()]


def _in_order(quoted: list[str], lines: list[str]) -> str | None:
    """The first quoted line that is not a line of `lines` after the ones before it."""
    rest = iter(lines)
    for line in quoted:
        if not any(line == candidate for candidate in rest):
            return line
    return None


QUOTES = _quotes()


@pytest.mark.parametrize("doc,line,path,block", QUOTES, ids=[f"{q[0]}:{q[1]}" for q in QUOTES])
def test_a_quoted_block_is_in_its_file(doc: str, line: int, path: str, block: str):
    source = ROOT / path
    assert source.is_file(), f"docs/{doc}:{line}: {path} is no file"
    missing = _in_order(_lines(block), _lines(source.read_text(encoding="utf-8")))
    assert missing is None, f"docs/{doc}:{line}: not a line of {path} (in this order): {missing!r}"


def test_the_quote_check_finds_a_changed_line(tmp_path: Path):
    lines = _lines("a:\n  b: 1   # a comment\n\n  # a comment line\n  c: 2\n")
    assert lines == ["a:", "  b: 1", "  c: 2"]
    assert _in_order(["a:", "  c: 2"], lines) is None  # a line left out
    assert _in_order(["  c: 2", "  b: 1"], lines) == "  b: 1"  # out of order
    assert _in_order(["a:", "  b: 2"], lines) == "  b: 2"  # changed
    assert _in_order(["b: 1"], lines) == "b: 1"  # indented otherwise


@pytest.mark.parametrize("name", FUNCTIONS + STATEMENTS)
def test_a_new_primitive_has_an_example_from_a_shipped_game(name: str):
    primitive = REGISTRY.functions.get(name) or REGISTRY.statements[name]
    assert primitive.quoted, f"{name}: its example is not marked as quoted from a shipped game"
    source = shipped_source(primitive.example)
    assert source is not None, f"{name}: no shipped ruleset holds `{primitive.example}`"
    assert f"Example: `{primitive.example}` (from `{source}`)" in _language()


@pytest.mark.parametrize("form", SYNTAX)
def test_a_new_form_has_an_example_from_a_shipped_game(form: str):
    syntax = next(s for s in REGISTRY.syntax if s.form == form)
    source = shipped_source(syntax.example)
    assert syntax.quoted and source is not None, f"{form}: `{syntax.example}` is in no ruleset"
    assert f"`{syntax.example}` (from `{source}`)" in _language()


def test_every_example_marked_quoted_is_in_a_shipped_game():
    marked = [p for p in {**REGISTRY.functions, **REGISTRY.statements}.values() if p.quoted]
    marked += [s for s in REGISTRY.syntax if s.quoted]
    missing = [m.example for m in marked if shipped_source(m.example) is None]
    assert not missing, f"marked as quoted from a shipped game, found in none: {missing}"


def test_a_source_is_found_by_its_text_whitespace_aside():
    assert shipped_source("claim(cell(board,  4, 4),\n by: players[1])") == (
        "rulesets/reversi/structure.yaml"
    )
    assert shipped_source("claim(cell(board, 9, 9), by: players[1])") is None


@pytest.mark.parametrize("key", sorted(KEYS))
def test_a_new_key_is_shown_from_a_shipped_game(key: str):
    pattern = re.compile(KEYS[key], re.M)
    assert any(pattern.search(block) for doc, _, _, block in QUOTES if doc == "format.md"), (
        f"format.md quotes no shipped game for {key}"
    )


def test_what_has_no_shipped_example_is_used_by_no_shipped_game():
    files = [path for folder in SHIPPED for path in sorted(folder.rglob("*.yaml"))]
    for what, pattern in NOT_SHIPPED.items():
        used = [
            path.relative_to(ROOT).as_posix()
            for path in files
            if re.search(pattern, path.read_text(encoding="utf-8"), re.M)
        ]
        assert not used, f"{what} is used in {used}: quote it in the reference, then drop it"


def test_an_example_game_counts_as_shipped():
    assert shipped_source("for p in still_in() { roll(p.cup) }") == (
        "examples/games/liars-dice/play.yaml"
    )


def _language() -> str:
    return (DOCS / "language.md").read_text(encoding="utf-8")
