"""Overlays insert phases and scoring steps before/after an id, located in the overlay."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from interpreter.cli.main import cli
from interpreter.engine.game import Game
from interpreter.ruleset import load_or_raise

MOD = """overlay: {id: insert_test, name: Insert test, base: rococo}
add:
  scoring:
    steps:
      - id: bonus_step
        after: livres
        effect: |
          for p in players { gain(prestige, 1, to: p) }
  structure:
    phases:
      - id: tax
        before: income
        kind: each_player
        effect: gain(livres, my.thread)
"""


def test_inserted_phase_and_step_run_in_place(tmp_path: Path) -> None:
    mod = tmp_path / "insert.yaml"
    mod.write_text(MOD)
    ruleset = load_or_raise("rococo", mods=[mod])
    assert [p.id for p in ruleset.phases] == ["prepare", "choose", "actions", "tax", "income"]
    assert [s.id for s in ruleset.scoring][:3] == ["livres", "bonus_step", "endgame"]
    game = Game(ruleset, ["A", "B"], seed=1)
    while not game.is_over():
        decision = game.pending()[0]
        game.apply(decision.player, decision.options[-1])
    assert all(parts["bonus_step"] == 1 for parts in game.result().breakdown.values())


def test_errors_in_inserted_entries_point_into_the_overlay(tmp_path: Path) -> None:
    mod = tmp_path / "insert.yaml"
    mod.write_text(MOD.replace("my.thread", "my.thred").replace("after: livres", "after: nope"))
    result = CliRunner().invoke(cli, ["validate", str(mod)])
    assert result.exit_code == 1
    assert f"{mod}:6:16: error: there is no step 'nope' to insert next to" in result.output
    assert f"{mod}:14:33: error: a player has no `thred`" in result.output
