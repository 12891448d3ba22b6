"""A rule that fails at run time is the ruleset's fault: it is reported at its rule
(file:line:col, inside the YAML string), with the round, phase and event, never as an
illegal move and never as an internal error."""

from __future__ import annotations

import shutil
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

from interpreter.cli.main import cli
from interpreter.engine.game import Game
from interpreter.errors import RuleError
from interpreter.ruleset import load_or_raise

TOY = Path(__file__).parent / "toy"


def toy_with(tmp_path: Path, content: str) -> Path:
    folder = tmp_path / "toy"
    shutil.copytree(TOY, folder)
    (folder / "extra.yaml").write_text(textwrap.dedent(content).lstrip())
    manifest = folder / "ruleset.yaml"
    text = manifest.read_text().replace("include: [toy.yaml]", "include: [toy.yaml, extra.yaml]")
    manifest.write_text(text)
    return folder


BROKEN = """
actions:
  broken:
    params: {}
    effect: |
      gain(coins, 1)
      let zero = my.coins - my.coins
      gain(coins, 10 // zero)
"""


def test_a_run_time_failure_names_its_rule_and_the_moment(tmp_path):
    rules = load_or_raise(toy_with(tmp_path, BROKEN))
    game = Game(rules, ["Ann", "Bob"], seed=1)
    with pytest.raises(RuleError) as caught:
        game.run_action("broken", 0)
    error = caught.value
    assert error.message == "division by zero"
    assert (Path(error.where.path).name, error.where.line, error.where.column) == (
        "extra.yaml",
        7,
        7,
    )
    assert error.when is None or "round" in error.when
    assert error.headline().startswith(f"{error.where}: error: division by zero")


def test_play_reports_a_failing_rule_at_its_place_with_round_phase_and_event(tmp_path):
    folder = toy_with(
        tmp_path,
        """
        triggers:
          on_any_play:
            on: played
            effect: |
              let zero = 0
              gain(coins, 1 // zero)
        """,
    )
    result = CliRunner().invoke(cli, ["play", str(folder), "--players", "2", "--seed", "1"])
    assert result.exit_code == 1, result.output
    line = next(x for x in result.output.splitlines() if "division by zero" in x)
    assert line.split(": error: ")[0].endswith("extra.yaml:6:7")
    assert "(round 1, phase turns, event " in line


def test_a_simultaneous_step_whose_branches_end_at_once_runs_every_branch(tmp_path):
    """Found by the fuzzer: branches that end without a decision resumed the step
    before the other branches had started, so what follows saw the first one only."""
    folder = toy_with(
        tmp_path,
        """
        actions:
          everyone:
            params: {}
            effect: |
              simultaneous for p in players { act as p { gain(coins, 1) } }
              loops = sum(p.coins for p in players)
        """,
    )
    game = Game(load_or_raise(folder), ["Ann", "Bob", "Cy"], seed=1)
    before = sum(game.state.counters[f"coins#{s}"] for s in range(3))
    game.run_action("everyone", 0)
    assert game.state.counters["loops"] == before + 3
