"""`rules new`: the scaffolds validate and pass their scenarios as written."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from rules_test_support import ROOT, invoke
from test_no_game_words import _pattern, game_words

TEMPLATES = ROOT / "interpreter" / "cli" / "templates"


@pytest.fixture
def in_tmp(tmp_path: Path):
    """Work in an empty folder (outside the repository: no `schemas/` above it)."""
    before = Path.cwd()
    os.chdir(tmp_path)
    yield tmp_path
    os.chdir(before)


def test_new_mod_writes_a_valid_mod_and_a_passing_scenario(in_tmp):
    result = invoke("new", "mod", "my-staff", "--base", "rococo", "--dir", "mods")
    assert result.exit_code == 0, result.output
    assert result.output.splitlines() == [
        "wrote mods/schemas/ (the schemas the modelines name)",
        "wrote mods/my-staff.yaml",
        "wrote mods/my-staff.scenarios.yaml",
        "next: rules validate mods && rules test mods/my-staff.scenarios.yaml",
    ]
    mod = (in_tmp / "mods" / "my-staff.yaml").read_text()
    # a path that works offline, as the tutorial writes it (issue 47)
    assert mod.startswith("# yaml-language-server: $schema=schemas/overlay.schema.json\n")
    for name in ("overlay", "scenario"):
        assert (in_tmp / "mods" / "schemas" / f"{name}.schema.json").is_file()
    assert "overlay:\n  id: my_staff\n  name: My Staff\n" in mod
    assert "  base: rococo\n" in mod
    for section in ("add:", "extend:", "# patch:", "# replace:", "# remove:"):
        assert f"\n{section}\n" in mod
    validated = invoke("validate", "mods/my-staff.yaml")
    assert validated.exit_code == 0, validated.output
    assert validated.output.splitlines()[-1].endswith(": valid")
    tested = invoke("test", "mods/my-staff.scenarios.yaml")
    assert tested.output.splitlines() == [
        "PASS the example action gains prestige twice",
        "PASS the game runs to its end, with the my_staff_bonus scoring step",
        "PASS what P1 sees that P2 does not",
        "PASS who decides first, with which options",
        "4 scenarios: 4 passed, 0 failed",
    ]


def test_the_scaffold_passes_the_strict_ci_recipe_without_a_warning(in_tmp):
    """Issue 47: `rules validate --strict --format github mods/` failed on the scenario
    file (checked as ruleset content) and on a "never used" constant and action."""
    assert invoke("new", "mod", "fresh", "--base", "rococo", "--dir", "mods").exit_code == 0
    result = invoke("validate", "--strict", "--format", "github", "mods/")
    assert result.exit_code == 0, result.output
    assert result.output.splitlines() == [
        "checked 14 files (1 scenario file), 270 items, 229 provisional values: valid"
    ]
    hook = invoke("validate", "mods/fresh.yaml", "mods/fresh.scenarios.yaml")  # pre-commit
    assert hook.exit_code == 0, hook.output


def test_the_scaffolded_scenarios_reach_the_end_the_view_and_the_decision(in_tmp):
    assert invoke("new", "mod", "fresh", "--base", "rococo").exit_code == 0
    text = (in_tmp / "fresh.scenarios.yaml").read_text()
    for part in (
        "- finish: first",
        "over: true",
        "scores: {P1: ",
        "breakdown: {P1: {fresh_bonus: 2}",
        "view:",
        "P2: {hidden: [",
        "decision: {player: P1, include: [",
    ):
        assert part in text, part


def test_new_ruleset_validates_plays_and_passes(in_tmp):
    result = invoke("new", "ruleset", "my-game")
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[:4] == [
        "wrote my-game/schemas/ (the schemas the modelines name)",
        "wrote my-game/ruleset.yaml",
        "wrote my-game/content.yaml",
        "wrote my-game/scenarios.yaml",
    ]
    validated = invoke("validate", "--strict", "my-game")  # its scenario file too
    assert validated.output == (
        "checked 3 files (1 scenario file), 28 items, 0 provisional values: valid\n"
    )
    scenarios = invoke("validate", "--strict", "my-game/scenarios.yaml")
    assert scenarios.exit_code == 0, scenarios.output
    for players in ("2", "3", "4"):
        played = invoke("play", "my-game", "--players", players, "--seed", "1")
        assert played.exit_code == 0, played.output
        assert played.output.startswith(f"My Game, {players} players, seed 1\n")
    tested = invoke("test", "my-game/scenarios.yaml")
    assert tested.output.splitlines() == [
        "PASS playing a card scores its points",
        "PASS a slot costs its price",
        "PASS the game runs to its end",
        "PASS what P1 sees that P2 does not",
        "PASS who decides first, with which options",
        "5 scenarios: 5 passed, 0 failed",
    ]


def test_the_modeline_is_relative_inside_a_checkout(tmp_path):
    (tmp_path / "schemas").mkdir()
    (tmp_path / "schemas" / "overlay.schema.json").write_text("{}")
    result = invoke("new", "ruleset", "g", "--dir", str(tmp_path / "rulesets"))
    assert result.exit_code == 0, result.output
    manifest = (tmp_path / "rulesets" / "g" / "ruleset.yaml").read_text()
    assert manifest.startswith(
        "# yaml-language-server: $schema=../../schemas/manifest.schema.json\n"
    )


def test_new_refuses_to_overwrite(in_tmp):
    assert invoke("new", "mod", "m", "--base", "rococo").exit_code == 0
    before = (in_tmp / "m.yaml").read_text()
    (in_tmp / "m.yaml").write_text("mine\n")
    result = invoke("new", "mod", "m", "--base", "rococo")
    assert result.exit_code == 1
    lines = result.output.splitlines()
    assert lines[0] == (
        "m.yaml:1:1: error: m.yaml already exists; `rules new` never overwrites a file"
    )
    assert "m.scenarios.yaml:1:1: error: m.scenarios.yaml already exists" in result.output
    assert (in_tmp / "m.yaml").read_text() == "mine\n" != before


def test_new_usage_errors(in_tmp):
    assert invoke("new", "mod", "Bad Name", "--base", "rococo").exit_code == 2
    assert invoke("new", "mod", "m").exit_code == 2  # no --base
    missing = invoke("new", "mod", "m", "--base", "no-such-game")
    assert missing.exit_code == 2 and "no ruleset 'no-such-game'" in missing.output
    assert not list(in_tmp.iterdir())


def test_the_templates_name_no_game():
    pattern = _pattern(game_words())
    for path in TEMPLATES.rglob("*.yaml"):
        assert not pattern.findall(path.read_text()), path
