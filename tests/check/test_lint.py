"""Issue 15 item 3: lint warnings (unused definitions, options never legal).

A small ruleset carries one instance of every warning; each test checks the exact
`path:line:col: warning: message` the lint gives, computed from the text so the
positions follow the file. The shipped rulesets must stay free of false warnings.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from rules_test_support import ROOT, invoke, position, shown

from interpreter.check.lint import lint
from interpreter.ruleset import load

MANIFEST = """\
id: linty
name: Linty
version: 0.1.0
players: {min: 2, max: 3}
include: [content.yaml]
"""

CONTENT = """\
constants:
  limit: {value: 3}
  spare: {value: 9}
  choices: {value: []}
  reading: {value: true, decision: The books are silent.}
  enabled: {value: false}
counters:
  coins: {per: player, initial: 3}
  score: {per: player}
  turn: {per: game}
  tally: {per: game}
functions:
  double: {params: {n: number}, returns: number, value: n * 2}
  helper: {returns: number, value: "2"}
  lonely: {returns: number, value: helper() + 1}
actions:
  take:
    requires:
      - {condition: my.coins < limit, message: too rich}
    effect: gain(score, double(1))
  never:
    requires:
      - {condition: enabled and 1 < 2, message: switched off}
    effect: gain(score, 1)
  forgotten:
    effect: gain(coins, 1)
events:
  scored: {params: {amount: number}}
  silent: {params: {amount: number}}
triggers:
  on_scored: {on: scored, effect: "gain(coins, amount)"}
structure:
  rounds: {count: 2, counter: turn}
  phases:
    - id: play
      kind: each_player
      effect: |
        do take()
        do never()
        may choose x in choices as "pick" { gain(coins, 1) }
scoring:
  score: score
  steps:
    - {id: coins, effect: "for p in players { gain(score, p.coins // 2, to: p) }"}
"""


@pytest.fixture
def linty(tmp_path: Path) -> Path:
    folder = tmp_path / "linty"
    folder.mkdir()
    (folder / "ruleset.yaml").write_text(MANIFEST, encoding="utf-8")
    (folder / "content.yaml").write_text(CONTENT, encoding="utf-8")
    return folder


def at(folder: Path, mark: str, nth: int = 0) -> str:
    """`path:line:col` of the ``nth`` occurrence of ``mark`` in content.yaml."""
    index = -1
    for _ in range(nth + 1):
        index = CONTENT.index(mark, index + 1)
    line, column = position(CONTENT, index)
    return f"{shown(folder / 'content.yaml')}:{line}:{column}"


def headlines(folder: Path) -> list[str]:
    loaded = load(folder)
    assert loaded.diagnostics == [] and loaded.catalog is not None
    return [d.headline() for d in lint(loaded.catalog)]


def test_every_warning_at_its_definition(linty: Path) -> None:
    assert headlines(linty) == [
        f"{at(linty, 'spare:')}: warning: constant `spare` is never used",
        f"{at(linty, 'tally:')}: warning: counter `tally` is never used",
        f"{at(linty, 'helper:')}: warning: function `helper` is never used",
        f"{at(linty, 'lonely:')}: warning: function `lonely` is never used",
        f"{at(linty, 'enabled and')}: warning: this requirement of action `never` is always "
        "false: the action can never be taken",
        f"{at(linty, 'forgotten:')}: warning: action `forgotten` is never used",
        f"{at(linty, 'silent:')}: warning: event `silent` is never used",
        f"{at(linty, 'choices as')}: warning: `choices` is a constant empty list: this "
        "choice in the structure never has an option",
    ]


def test_warnings_have_severity_kind_and_hint(linty: Path) -> None:
    loaded = load(linty)
    found = {d.kind: d for d in lint(loaded.catalog)}
    assert set(found) == {
        "unused-constant",
        "unused-function",
        "unused-counter",
        "unused-action",
        "unused-event",
        "never-legal",
    }
    assert all(d.severity == "warning" for d in found.values())
    assert found["unused-event"].hint == (
        "nothing in the rules refers to `silent`; remove it, or use it with "
        "`emit NAME(…)` and a trigger `on: NAME`"
    )


def test_a_function_used_only_by_an_unused_one_is_unused(linty: Path) -> None:
    """Reachability, not mere mention: `helper` is called, but only by `lonely`."""
    text = CONTENT.replace("  spare: {value: 9}\n", "  spare: {value: 9}\n  keep: {value: 1}\n")
    text = text.replace("gain(score, double(1))", "gain(score, double(lonely()))")
    (linty / "content.yaml").write_text(text, encoding="utf-8")
    kinds = [(d.kind, d.message) for d in lint(load(linty).catalog)]
    assert ("unused-function", "function `helper` is never used") not in kinds
    assert ("unused-function", "function `lonely` is never used") not in kinds
    assert ("unused-constant", "constant `keep` is never used") in kinds


def test_prose_is_not_a_use(linty: Path) -> None:
    text = CONTENT.replace(
        "  forgotten:\n", "  forgotten:\n    description: like spare and silent\n"
    )
    (linty / "content.yaml").write_text(text, encoding="utf-8")
    messages = [d.message for d in lint(load(linty).catalog)]
    assert "constant `spare` is never used" in messages
    assert "event `silent` is never used" in messages


def test_a_requirement_that_depends_on_the_game_is_no_warning(linty: Path) -> None:
    text = CONTENT.replace("enabled and 1 < 2", "enabled or my.coins > 1")
    (linty / "content.yaml").write_text(text, encoding="utf-8")
    messages = [d.message for d in lint(load(linty).catalog)]
    assert [m for m in messages if "always false" in m] == []


# ------------------------------------------------------- the shipped rulesets
ROCOCO_EXPANSIONS = [
    [],
    ["deluxe"],
    ["deluxe", "jewelry_box"],
    ["deluxe", "fancy"],
    ["deluxe", "festive"],
    ["deluxe", "haute_couture"],
    ["deluxe", "solo"],
]


# The one true warning in the shipped rules: Rococo declares the box's marker count,
# which the rules never need (markers are unlimited in play).
@pytest.mark.parametrize("expansions", ROCOCO_EXPANSIONS, ids=lambda e: "+".join(e) or "base")
def test_rococo_has_no_warning(expansions: list[str], monkeypatch) -> None:
    monkeypatch.chdir(ROOT)
    loaded = load(Path("rulesets/rococo"), expansions=expansions)
    assert loaded.diagnostics == []
    assert [d.headline() for d in lint(loaded.catalog)] == []


def test_queens_necklace_has_no_warning() -> None:
    loaded = load(ROOT / "rulesets" / "queens-necklace")
    assert loaded.diagnostics == []
    assert lint(loaded.catalog) == []


@pytest.mark.parametrize("mod", sorted((ROOT / "examples" / "mods").glob("*.yaml")), ids=str)
def test_example_mods_have_no_warning(mod: Path, monkeypatch) -> None:
    """`rules validate MOD` shows the warnings about the mod, not its base's."""
    monkeypatch.chdir(ROOT)
    result = invoke("validate", str(mod.relative_to(ROOT)))
    assert result.exit_code == 0, result.output
    assert ": warning: " not in result.output
