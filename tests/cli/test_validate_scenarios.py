"""`rules validate` on scenario files, on a mod with `--all-combinations`, and on nothing.

Issue 47: a scenario file was checked as ruleset content (`unknown key 'mods'`), a
mod with `--all-combinations` printed "in 0 combinations of expansions: valid", and
validate could print "valid" having checked nothing.
"""

from __future__ import annotations

from pathlib import Path

from rules_test_support import ROOT, invoke, place

MOD = ROOT / "examples" / "mods" / "new-staff.yaml"

SCENARIOS = f"""\
ruleset: rococo
mods: [{MOD}]
players: 2
scenarios:
  - name: ns1
    setup:
      counters: {{P1: {{livres: 0}}}}
      zones: {{P1.hand: [NS1]}}
    do: {{action: livre_per_thread_lace_pair, player: P1, args: {{card: NS1}}}}
    steps:
      - finish: first
    expect:
      scores: {{P1: 0}}
      view: {{P2: {{hidden: [NS1]}}}}
"""


def write(tmp_path: Path, text: str, name: str = "s.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_a_scenario_file_is_checked_as_one_by_its_keys(tmp_path):
    """Valid although it has `mods:` and `scenarios:`; the expectations are not run
    (`scores: {P1: 0}` is rules test's to judge)."""
    path = write(tmp_path, SCENARIOS)
    result = invoke("validate", "--strict", str(path))
    assert result.exit_code == 0, result.output
    assert result.output.endswith("(1 scenario file), 0 items, 0 provisional values: valid\n")


def test_a_scenario_file_is_recognised_by_its_modeline(tmp_path):
    """With the modeline, even a file missing `scenarios:` is judged by the scenario
    schema, not the content schema."""
    text = "# yaml-language-server: $schema=schemas/scenario.schema.json\nruleset: rococo\n"
    path = write(tmp_path, text)
    result = invoke("validate", str(path))
    assert result.exit_code == 1
    assert "required property" in result.output or "'scenarios'" in result.output
    assert "unknown key" not in result.output


def test_wrong_names_in_a_scenario_file_are_located(tmp_path):
    text = (
        SCENARIOS.replace("P1: {livres", "P1: {livers")
        .replace("hidden: [NS1]", "hidden: [NS9]")
        .replace("livre_per_thread_lace_pair", "no_such_action")
        .replace("finish: first", "finish: human")
    )
    path = write(tmp_path, text)
    result = invoke("validate", str(path))
    assert result.exit_code == 1
    lines = result.output.splitlines()
    assert f"{place(path, 'livers')}: error: there is no counter 'livers'" in lines
    assert f"{place(path, 'no_such_action')}: error: there is no action 'no_such_action'" in lines
    assert f"{place(path, 'human')}: error: a scenario cannot ask a person" in lines
    assert f"{place(path, 'NS9')}: error: there is no piece or counter 'NS9'" in lines


def test_a_scenario_file_naming_a_missing_mod(tmp_path):
    path = write(tmp_path, SCENARIOS.replace(str(MOD), "gone.yaml"))
    result = invoke("validate", str(path))
    assert result.exit_code == 1
    assert f"{place(path, 'gone.yaml')}: error: no mod file 'gone.yaml'" in result.output


def test_a_folder_with_a_mod_and_its_scenarios(tmp_path):
    (tmp_path / "new-staff.yaml").write_text(MOD.read_text(encoding="utf-8"), encoding="utf-8")
    write(tmp_path, SCENARIOS.replace(str(MOD), "new-staff.yaml"), "new-staff.scenarios.yaml")
    result = invoke("validate", "--strict", "--format", "github", str(tmp_path))
    assert result.exit_code == 0, result.output
    assert "(1 scenario file)" in result.output


def test_a_mod_with_all_combinations_is_checked_on_each(tmp_path):
    result = invoke("validate", str(MOD), "--all-combinations")
    assert result.exit_code == 0, result.output
    summary = result.output.splitlines()[-1]
    count = int(summary.split(" in ")[1].split()[0])
    assert count > 1, summary  # rococo offers several expansions


def test_nothing_checked_is_never_valid(tmp_path):
    scenario = write(tmp_path, SCENARIOS)
    combined = invoke("validate", str(scenario), "--all-combinations")
    assert combined.exit_code == 1
    assert "error: no combination of expansions was checked" in combined.output
    assert ": valid" not in combined.output
    empty = tmp_path / "empty"
    empty.mkdir()
    nothing = invoke("validate", str(empty))
    assert nothing.exit_code == 1
    assert ": valid" not in nothing.output


def test_a_ruleset_folder_s_scenario_file_is_checked_with_it(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert invoke("new", "ruleset", "g").exit_code == 0
    scenarios = tmp_path / "g" / "scenarios.yaml"
    scenarios.write_text(scenarios.read_text().replace("args: {card: c3}", "args: {card: c9}"))
    result = invoke("validate", "g")
    assert result.exit_code == 1
    assert f"{place(scenarios, 'c9')}: error: there is no piece 'c9'" in result.output
