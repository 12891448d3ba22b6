"""Issue 49: an effect that spends its whole step budget is named at the rule that
spent it (the function or requirement whose code ran, else the outermost loop of the
effect around the statement that ran out), not at the statement that called it; and
a bounded search is not called a loop without end, a `while` may be."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from interpreter.cli.main import cli
from interpreter.engine.game import Game
from interpreter.errors import RuleError
from interpreter.ruleset import load_or_raise

MANIFEST = """\
id: budget
name: Budget
version: 0.1.0
players: {min: 2, max: 2}
include: [content.yaml]
"""

# `search` is a bounded search over 9,000 × 9,000 pairs, far above the budget
CONTENT = """\
counters:
  score: {{per: player}}
functions:
  search:
    returns: number
    value: "sum(count(y in range(0, 9000) where y > x) for x in range(0, 9000))"
actions:
  look:
    requires:
      - {{condition: search() > 0, message: nothing found}}
    effect: gain(score, 1)
structure:
  rounds: {{count: 1}}
  phases:
    - id: work
      kind: once
      effect: |
        gain(score, 1, to: first(players))
        {work}
scoring:
  score: score
  steps: []
"""


def spent(tmp_path: Path, work: str) -> tuple[RuleError, list[str]]:
    folder = tmp_path / "budget"
    folder.mkdir()
    (folder / "ruleset.yaml").write_text(MANIFEST)
    content = CONTENT.format(work=work)
    (folder / "content.yaml").write_text(content)
    with pytest.raises(RuleError) as caught:
        Game(load_or_raise(folder), ["Ann", "Bob"], seed=1)
    return caught.value, content.splitlines()


def line_of(error: RuleError, lines: list[str]) -> str:
    assert error.where is not None and Path(error.where.path).name == "content.yaml"
    return lines[error.where.line - 1][error.where.column - 1 :]


def test_a_search_in_a_function_is_named_at_the_function(tmp_path):
    """Before: at the statement that called it, `for p in players { … }`."""
    error, lines = spent(tmp_path, "for p in players { gain(score, search(), to: p) }")
    assert line_of(error, lines).startswith("search:")
    assert "loops without end" not in error.message
    assert error.message.startswith("this step of play spent its whole step budget (200,000")
    assert "a search or loop too large for it" in error.message
    assert "narrow the scan" in error.hint


def test_a_search_in_a_requirement_is_named_at_its_function_through_do(tmp_path):
    error, lines = spent(tmp_path, "act as first(players) { do look() }")
    assert line_of(error, lines).startswith("search:")


def test_nested_loops_are_named_at_the_outermost(tmp_path):
    work = "for a in range(0, 3000) {\n          for b in range(0, 3000) { let z = b }\n        }"
    error, lines = spent(tmp_path, work)
    assert line_of(error, lines).startswith("for a in range(0, 3000)")
    assert "in this loop: a search or loop too large for it" in error.message


def test_a_while_may_never_end(tmp_path):
    error, lines = spent(tmp_path, "while true { for b in range(0, 10) { let z = b } }")
    assert line_of(error, lines).startswith("while true")
    assert error.message.endswith("in this `while`: it may never end")


def test_rules_play_prints_the_rule(tmp_path):
    spent(tmp_path, "let n = search()")
    folder = tmp_path / "budget"
    result = CliRunner().invoke(cli, ["play", str(folder), "--players", "2", "--seed", "1"])
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    assert "content.yaml:4:3: error: this step of play spent its whole step budget" in (
        result.output
    )


def test_a_scenario_names_the_rule_not_only_its_own_line(tmp_path):
    """The issue's case: a scenario whose game spends the budget named only the
    scenario's line (a game that cannot start dropped the rule's place)."""
    spent(tmp_path, "let n = search()")
    scenario = tmp_path / "s.yaml"
    scenario.write_text(f"ruleset: {tmp_path / 'budget'}\nscenarios:\n  - name: s\n")
    result = CliRunner().invoke(cli, ["test", str(scenario)])
    assert result.exit_code == 1, result.output
    assert "the game cannot start: " in result.output
    assert "content.yaml:4:3: error: this step of play spent" in result.output
