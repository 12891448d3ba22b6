"""Issue 15 items 3-4: folders of mods, mods that break their base, files no ruleset
includes, and the pre-commit hook.

Every expected line is computed from the text written, so positions follow it.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from ruamel.yaml import YAML
from rules_test_support import ROOT, invoke, position, shown

RICH = """\
overlay: {id: rich, name: Rich, base: rococo}
patch:
  constants:
    income: {value: 7}
"""
POOR = RICH.replace("rich", "poor").replace("Rich", "Poor").replace("value: 7", "value: 3")


def at(path: Path, mark: str) -> str:
    text = path.read_text(encoding="utf-8")
    line, column = position(text, text.index(mark))
    return f"{shown(path)}:{line}:{column}"


def errors(output: str) -> list[str]:
    return [line for line in output.splitlines() if re.match(r"^\S.*: (error|warning): ", line)]


# ---------------------------------------------------------------- mod folders
def test_the_example_mods_alone_and_together(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    result = invoke("validate", "--format", "json", "examples/mods")
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["errors"] == [] and report["warnings"] == []
    assert report["summary"]["rulesets"] == [
        "rococo+new_staff",
        "rococo+small_hands",
        "rococo+welcome_gift",
        "rococo+new_staff+small_hands+welcome_gift",
    ]


def test_two_mods_fine_alone_conflict_together(tmp_path: Path) -> None:
    rich, poor = tmp_path / "rich.yaml", tmp_path / "poor.yaml"
    rich.write_text(RICH, encoding="utf-8")
    poor.write_text(POOR, encoding="utf-8")
    assert invoke("validate", str(rich)).exit_code == 0
    assert invoke("validate", str(poor)).exit_code == 0
    result = invoke("validate", str(tmp_path))
    assert result.exit_code == 1
    assert errors(result.output) == [
        f"{at(rich, 'value: 7')}: error: 'rich' patches constants 'income' (key 'value'), "
        "which 'poor' patches too"
    ]
    assert result.output.splitlines()[-1].endswith(": 1 error")


def test_a_folder_without_yaml_is_an_error(tmp_path: Path) -> None:
    result = invoke("validate", str(tmp_path))
    assert result.exit_code == 1
    assert result.output.splitlines()[0] == (
        f"{shown(tmp_path)}: error: this folder has no ruleset.yaml and no YAML file"
    )


def test_a_required_expansion_the_manifest_misdeclares_is_no_crash(rococo_copy: Path) -> None:
    """An offered expansion that is no mapping: its schema error and the requirement
    left unmet, where finding what the mod requires raised AttributeError (exit 70)."""
    manifest = rococo_copy / "ruleset.yaml"
    text = manifest.read_text(encoding="utf-8")
    manifest.write_text(text.replace("  deluxe:\n    file:", "  deluxe: 3\n  dx:\n    file:"))
    mod = rococo_copy.parent / "m.yaml"
    mod.write_text("overlay: {id: m, name: M, base: ./rococo, requires: [deluxe]}\n")
    result = invoke("validate", str(mod))
    assert result.exit_code == 1, result.output
    value = at(manifest, "3\n  dx:")
    assert errors(result.output) == [
        f"{at(mod, 'deluxe]')}: error: 'm' requires 'deluxe', which is not applied",
        f"{value}: error: expected a mapping, got 3",
    ]


# ------------------------------------------------------ a mod that breaks its base
def test_a_removal_the_base_needs_is_reported_at_the_mod(tmp_path: Path) -> None:
    mod = tmp_path / "stingy.yaml"
    mod.write_text(
        "overlay: {id: stingy, name: Stingy, base: rococo}\nremove:\n  constants: [favour_money]\n",
        encoding="utf-8",
    )
    actions = ROOT / "rulesets" / "rococo" / "actions.yaml"
    base_error = at(actions, "favour_money)")
    result = invoke("validate", str(mod))
    assert result.exit_code == 1
    assert errors(result.output) == [
        f"{at(mod, 'favour_money]')}: error: removing 'favour_money' from `constants` breaks "
        f"the base ruleset at {base_error}",
        f"{base_error}: error: `favour_money` is not defined",
    ]
    assert "= hint: there: `favour_money` is not defined; the base still relies" in result.output


def test_a_patch_the_base_calls_break_is_reported_at_the_mod(tmp_path: Path) -> None:
    mod = tmp_path / "costly.yaml"
    mod.write_text(
        "overlay: {id: costly, name: Costly, base: rococo}\n"
        "patch:\n"
        "  functions:\n"
        "    hire_cost:\n"
        "      params: {p: player}\n",
        encoding="utf-8",
    )
    actions = ROOT / "rulesets" / "rococo" / "actions.yaml"
    first = at(actions, "hire_cost() <=")
    result = invoke("validate", str(mod))
    assert result.exit_code == 1
    found = errors(result.output)
    assert found[0] == (
        f"{at(mod, 'hire_cost:')}: error: this patch of 'hire_cost' breaks the base ruleset "
        f"at {first} (and 2 more)"
    )
    assert f"{first}: error: `hire_cost` takes 1 argument, not 0" in found


def test_a_mod_that_breaks_nothing_adds_no_error(tmp_path: Path) -> None:
    mod = tmp_path / "typo.yaml"
    mod.write_text(
        "overlay: {id: typo, name: Typo, base: rococo}\n"
        "patch:\n"
        "  actions:\n"
        "    hire:\n"
        "      effect: gain(livres, favour_mony)\n",
        encoding="utf-8",
    )
    result = invoke("validate", str(mod))
    assert result.exit_code == 1
    assert errors(result.output) == [
        f"{at(mod, 'favour_mony')}: error: `favour_mony` is not defined"
    ]


# ------------------------------------------------- files that no ruleset includes
NOTES = "constants:\n  tip: {value: 1}\n"


def test_a_lone_content_file_is_not_a_silent_green(tmp_path: Path) -> None:
    notes = tmp_path / "notes.yaml"
    notes.write_text(NOTES, encoding="utf-8")
    result = invoke("validate", str(notes))
    assert result.exit_code == 0
    assert errors(result.output) == [
        f"{shown(notes)}:1:1: warning: this file belongs to no ruleset: no ruleset.yaml "
        "above it includes it"
    ]
    strict = invoke("validate", "--strict", str(notes))
    assert strict.exit_code == 1
    assert (
        strict.output.splitlines()[-1] == "checked 1 file, 0 items, 0 provisional values: 1 error"
    )


def test_a_file_the_manifest_does_not_list(rococo_copy: Path) -> None:
    notes = rococo_copy / "board" / "notes.yaml"
    notes.write_text(NOTES, encoding="utf-8")
    result = invoke("validate", str(notes))
    assert result.exit_code == 0
    assert errors(result.output) == [
        f"{shown(notes)}:1:1: warning: this file belongs to no ruleset: "
        f"{shown(rococo_copy / 'ruleset.yaml')} does not include it"
    ]
    listed = invoke("validate", str(rococo_copy / "board" / "halls.yaml"))
    assert listed.exit_code == 0 and errors(listed.output) == []


# ------------------------------------------------------------------ pre-commit
def test_pre_commit_hook_runs_rules_validate_on_the_example_mods() -> None:
    (hook,) = YAML(typ="safe").load((ROOT / ".pre-commit-hooks.yaml").read_text())
    assert hook["id"] == "rules-validate"
    assert hook["entry"] == "rules validate"
    assert hook["language"] == "python"
    assert hook["pass_filenames"] is True
    files, exclude = re.compile(hook["files"]), re.compile(hook["exclude"])
    candidates = [
        "examples/mods/new-staff.yaml",
        "examples/mods/small-hands.yaml",
        "examples/mods/welcome-gift.yaml",
        "README.md",
        ".pre-commit-config.yaml",
        ".github/workflows/rules.yml",
    ]
    # what pre-commit passes: the files that match `files` and not `exclude`
    passed = [f for f in candidates if files.search(f) and not exclude.search(f)]
    assert passed == candidates[:3]
    program, *arguments = hook["entry"].split()
    executable = Path(sys.executable).parent / program
    result = subprocess.run(
        [str(executable), *arguments, *passed],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.splitlines()[-1].endswith(": valid")
    assert "warning" not in result.stdout and result.stderr == ""
