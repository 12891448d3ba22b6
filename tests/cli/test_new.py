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
        "wrote mods/my-staff.yaml",
        "wrote mods/my-staff.scenarios.yaml",
        "next: rules validate mods/my-staff.yaml && rules test mods/my-staff.scenarios.yaml",
    ]
    mod = (in_tmp / "mods" / "my-staff.yaml").read_text()
    assert mod.startswith(
        "# yaml-language-server: $schema=https://tabletop-rules.dev/schemas/overlay.schema.json\n"
    )
    assert "overlay:\n  id: my_staff\n  name: My Staff\n" in mod
    assert "  base: rococo\n" in mod
    for section in ("add:", "extend:", "# patch:", "# replace:", "# remove:"):
        assert f"\n{section}\n" in mod
    validated = invoke("validate", "mods/my-staff.yaml")
    assert validated.exit_code == 0, validated.output
    assert validated.output.splitlines()[-1].endswith(": valid")
    tested = invoke("test", "mods/my-staff.scenarios.yaml")
    assert tested.output.splitlines() == [
        "PASS the example action gains livres twice",
        "1 scenario: 1 passed, 0 failed",
    ]


def test_new_ruleset_validates_plays_and_passes(in_tmp):
    result = invoke("new", "ruleset", "my-game")
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[:3] == [
        "wrote my-game/ruleset.yaml",
        "wrote my-game/content.yaml",
        "wrote my-game/scenarios.yaml",
    ]
    validated = invoke("validate", "my-game")
    assert validated.output == "checked 2 files, 28 items, 0 provisional values: valid\n"
    for players in ("2", "3", "4"):
        played = invoke("play", "my-game", "--players", players, "--seed", "1")
        assert played.exit_code == 0, played.output
        assert played.output.startswith(f"My Game, {players} players, seed 1\n")
    tested = invoke("test", "my-game/scenarios.yaml")
    assert tested.output.splitlines() == [
        "PASS playing a card scores its points",
        "PASS a slot costs its price",
        "2 scenarios: 2 passed, 0 failed",
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
