"""Issue 49: the defaults of the rules files' keys are declared once
(`interpreter/check/defaults.py`); the build takes them from there, and docs/format.md
and docs/language.md print the same table, `capacity: 0` included."""

from __future__ import annotations

from pathlib import Path

from rules_test_support import ROOT

from interpreter.check import defaults
from interpreter.language.reference import render, with_defaults
from interpreter.ruleset import load

FORMAT = ROOT / "docs" / "format.md"
LANGUAGE = ROOT / "docs" / "language.md"


def _table(text: str) -> str:
    start, end = text.index(defaults.BEGIN), text.index(defaults.END)
    return text[start + len(defaults.BEGIN) : end].strip()


def test_format_and_language_print_the_one_table() -> None:
    table = defaults.render()
    assert _table(FORMAT.read_text(encoding="utf-8")) == table
    assert _table(LANGUAGE.read_text(encoding="utf-8")) == table
    assert _table(render()) == table


def test_both_docs_say_the_same_of_capacity_0() -> None:
    """Before: format.md said a space of `capacity: 0` takes a marker only, language.md
    that its capacity 0 is unlimited."""
    language = LANGUAGE.read_text(encoding="utf-8")
    fmt = FORMAT.read_text(encoding="utf-8")
    for zero in (defaults.ZONE_CAPACITY_ZERO, defaults.SPACE_CAPACITY_ZERO):
        assert zero in _table(fmt)
        attribute = next(line for line in language.splitlines() if "`.capacity`" in line)
        assert zero in attribute
    assert "unlimited" not in language


def test_renewing_the_table_keeps_the_rest_of_format_md() -> None:
    text = FORMAT.read_text(encoding="utf-8")
    stale = text.replace(defaults.render(), "| old | table |")
    assert stale != text and with_defaults(stale) == text
    assert with_defaults("no markers here") == "no markers here"


BARE = """\
counters:
  coins: {per: player}
variables:
  flag: {per: game, type: bool}
zones:
  pile: {per: game}
kinds:
  token: {}
components:
  t1: {kind: token}
spaces:
  seat:
    items:
      seat1: {}
structure:
  rounds: {count: 1}
  phases:
    - {id: go, kind: once, effect: "gain(coins, 1, to: first(players))"}
scoring:
  score: coins
  steps: []
"""


def test_the_build_takes_the_declared_defaults(tmp_path: Path) -> None:
    folder = tmp_path / "bare"
    folder.mkdir()
    (folder / "ruleset.yaml").write_text(
        "id: bare\nname: Bare\nversion: 0.1.0\nplayers: {min: 2, max: 2}\ninclude: [content.yaml]\n"
    )
    (folder / "content.yaml").write_text(BARE)
    loaded = load(folder)
    assert loaded.diagnostics == [] and loaded.ruleset is not None
    ruleset = loaded.ruleset
    built = {
        "counters": ruleset.counters["coins"],
        "variables": ruleset.variables["flag"],
        "zones": ruleset.zones["pile"],
        "spaces": ruleset.spaces["seat1"],
    }
    for d in defaults.DEFAULTS:
        field = {"min": "minimum", "max": "maximum"}.get(d.key, d.key)
        assert getattr(built[d.section], field) == d.value, (d.section, d.key)
