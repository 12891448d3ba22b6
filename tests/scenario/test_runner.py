"""`rules test`: the shipped scenarios pass, and every kind of failure is located."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from rules_test_support import ROOT, invoke, place

from interpreter.scenario.schema import NAME, render

EXAMPLE = ROOT / "examples" / "scenarios" / "new-staff.yaml"
MOD = ROOT / "examples" / "mods" / "new-staff.yaml"

HEADER = f"""\
ruleset: rococo
mods: [{MOD}]
players: 2
seed: 1
scenarios:
"""

NS1 = """\
  - name: ns1 pays
    setup:
      counters: {P1: {livres: 0, thread: 2, lace: 3}}
    do: {action: livre_per_thread_lace_pair, player: P1, args: {card: NS1}}
    expect:
      counters: {P1: {livres: 2}}
"""


def write(tmp_path: Path, body: str, header: str = HEADER) -> Path:
    path = tmp_path / "s.yaml"
    path.write_text(header + body, encoding="utf-8")
    return path


def test_the_tutorial_scenarios_pass():
    result = invoke("test", str(EXAMPLE.relative_to(ROOT)))
    assert result.exit_code == 0, result.output
    assert result.output.splitlines() == [
        "PASS NS1 gives 1 livre per thread + lace pair",
        "PASS NS1 gives nothing without lace",
        "PASS NS2 sews a dress and sells it for 2 livres more",
        "PASS NS2 brings nothing more when the dress is rented",
        "PASS NS2 cannot be used when no dress can be sewn",
        "PASS Fund offers the garden spaces the player can afford",
        "6 scenarios: 6 passed, 0 failed",
    ]


def test_the_scenarios_catch_a_broken_mod(tmp_path):
    """Without NS2's 2 livres the sell scenario fails, at its expectation."""
    mod = tmp_path / "mods" / "new-staff.yaml"
    mod.parent.mkdir()
    mod.write_text(MOD.read_text().replace("gain(livres, 2)", "gain(livres, 0)"))
    scenarios = tmp_path / "scenarios" / "new-staff.yaml"
    scenarios.parent.mkdir()
    scenarios.write_text(EXAMPLE.read_text())
    result = invoke("test", str(scenarios))
    assert result.exit_code == 1
    lines = result.output.splitlines()
    assert "FAIL NS2 sews a dress and sells it for 2 livres more" in lines
    where = place(scenarios, "18}")
    assert f"  {where}: error: counter P1.livres: expected 18, got 16" in lines
    assert lines[-1] == "6 scenarios: 5 passed, 1 failed"


def test_a_passing_scenario(tmp_path):
    result = invoke("test", str(write(tmp_path, NS1)))
    assert result.output.splitlines() == ["PASS ns1 pays", "1 scenario: 1 passed, 0 failed"]
    assert result.exit_code == 0


def test_a_failed_expectation_shows_the_line_expected_and_actual(tmp_path):
    path = write(tmp_path, NS1.replace("livres: 2}}\n", "livres: 3}}\n"))
    result = invoke("test", str(path))
    assert result.exit_code == 1
    where = place(path, "3}}", nth=1)
    assert result.output.splitlines() == [
        "FAIL ns1 pays",
        f"  {where}: error: counter P1.livres: expected 3, got 2",
        "    11 |       counters: {P1: {livres: 3}}",
        " " * 39 + "^",
        "1 scenario: 0 passed, 1 failed",
    ]


@pytest.mark.parametrize(
    "old,new,mark,message,hint",
    [
        ("{livres: 0,", "{livers: 0,", "livers", "there is no counter 'livers'", "`livres`"),
        ("{P1: {livres: 0", "{P7: {livres: 0", "P7", "there is no player 'P7'", "P1, P2"),
        (
            "action: livre_per_thread_lace_pair",
            "action: livre_per_thread",
            "livre_per_thread,",
            "there is no action 'livre_per_thread'",
            "`livre_per_thread_lace_pair`",
        ),
        ("{card: NS1}", "{card: NS10}", "NS10", "there is no piece 'NS10'", "`NS1`"),
        ("{card: NS1}", "{crad: NS1}", "crad", "has no parameter 'crad'", "`card`"),
    ],
)
def test_a_wrong_name_is_located_with_a_hint(tmp_path, old, new, mark, message, hint):
    path = write(tmp_path, NS1.replace(old, new))
    result = invoke("test", str(path))
    assert result.exit_code == 1
    lines = result.output.splitlines()
    headline = next(line for line in lines if ": error: " in line)
    assert headline.startswith(f"  {place(path, mark)}: error: ")
    assert message in headline
    assert hint in next(line for line in lines if "= hint:" in line)


def test_zone_checks(tmp_path):
    body = """\
  - name: zones
    setup:
      zones: {P1.hand: [NS1, NS2]}
    expect:
      zones:
        P1.hand: {contains: [NS1, E01], lacks: [NS2], count: 3}
"""
    path = write(tmp_path, body)
    result = invoke("test", str(path))
    headlines = [line.strip() for line in result.output.splitlines() if ": error: " in line]
    assert headlines == [
        f"{place(path, 'E01')}: error: zone P1.hand: expected to hold E01, got [NS1, NS2]",
        f"{place(path, 'NS2], count')}: error: zone P1.hand: expected not to hold NS2, "
        "got [NS1, NS2]",
        f"{place(path, '3}')}: error: zone P1.hand size: expected 3, got 2",
    ]


def test_a_per_player_zone_needs_its_player(tmp_path):
    path = write(tmp_path, "  - name: z\n    setup:\n      zones: {hand: [NS1]}\n")
    result = invoke("test", str(path))
    assert f"{place(path, 'hand:')}: error: the zone 'hand' is per player" in result.output
    assert "= hint: write `P1.hand`" in result.output


def test_an_unexpected_refusal_fails_at_the_step(tmp_path):
    body = """\
  - name: refused
    setup:
      counters: {P1: {livres: 7}}
    do: {action: fund, player: P1, args: {card: NS1}}
    steps:
      - answer: fund garden2
"""
    path = write(tmp_path, body)
    result = invoke("test", str(path))
    assert result.exit_code == 1
    assert (
        f"  {place(path, 'fund garden2')}: error: P1 cannot answer 'fund garden2': "
        "only 7 livres; garden2 costs 11"
    ) in result.output.splitlines()


def test_an_illegal_move_with_another_reason(tmp_path):
    body = """\
  - name: illegal
    setup:
      counters: {P1: {livres: 7}}
    do: {action: fund, player: P1, args: {card: NS1}}
    steps:
      - illegal: {option: fund garden2, reason: too far}
"""
    path = write(tmp_path, body)
    result = invoke("test", str(path))
    assert (
        f"  {place(path, 'too far')}: error: 'fund garden2' was refused for another reason: "
        "expected 'too far', got 'only 7 livres; garden2 costs 11'"
    ) in result.output.splitlines()


def test_an_illegal_move_that_is_legal(tmp_path):
    body = """\
  - name: legal after all
    setup:
      counters: {P1: {livres: 7}}
    do: {action: fund, player: P1, args: {card: NS1}}
    steps:
      - illegal: {option: fund garden1}
    expect:
      owners: {garden1: P1}
"""
    path = write(tmp_path, body)
    result = invoke("test", str(path))
    where = place(path, "option: fund garden1").rsplit(":", 1)[0]
    assert f"  {where}:" in result.output
    assert "'fund garden1' was accepted: it is a legal option" in result.output


def test_options_mismatch(tmp_path):
    body = """\
  - name: options
    setup:
      counters: {P1: {livres: 20}}
    do: {action: fund, player: P1, args: {card: NS1}}
    steps:
      - options: {include: [fund garden3], exclude: [fund garden2]}
"""
    path = write(tmp_path, body)
    result = invoke("test", str(path))
    headlines = [line.strip() for line in result.output.splitlines() if ": error: " in line]
    assert headlines[0].startswith(
        f"{place(path, 'fund garden3')}: error: options: expected 'fund garden3' among them, "
        "got [fund "
    )
    assert headlines[1].startswith(
        f"{place(path, 'fund garden2]')}: error: options: expected no 'fund garden2', got [fund "
    )


def test_schema_errors_are_located(tmp_path):
    path = write(tmp_path, NS1.replace("    do:", "    stpes: []\n    do:"))
    result = invoke("test", str(path))
    assert result.exit_code == 1
    lines = result.output.splitlines()
    assert lines[0] == f"{place(path, 'stpes')}: error: unknown key 'stpes'"
    assert "= hint: did you mean `steps`?" in result.output
    assert lines[-1] == "0 scenarios: 0 passed, 0 failed; 1 error in the files"


def test_yaml_errors_and_missing_ruleset_are_located(tmp_path):
    bad = write(tmp_path, NS1, HEADER.replace("ruleset: rococo", "ruleset: rococco"))
    result = invoke("test", str(bad))
    assert result.output.startswith(f"{place(bad, 'rococco')}: error: no ruleset 'rococco'")
    broken = tmp_path / "b.yaml"
    broken.write_text("ruleset: [rococo\n")
    result = invoke("test", str(broken))
    assert result.exit_code == 1
    assert result.output.startswith(f"{broken}:")
    assert ": error: " in result.output.splitlines()[0]


def test_json_format(tmp_path):
    path = write(tmp_path, NS1 + NS1.replace("ns1 pays", "ns1 wrong").replace("2}}", "5}}"))
    result = invoke("test", "--format", "json", str(path))
    assert result.exit_code == 1
    report = json.loads(result.output)
    assert (report["passed"], report["failed"], report["errors"]) == (1, 1, [])
    failed = report["scenarios"][1]
    assert failed["status"] == "fail" and failed["name"] == "ns1 wrong"
    line, column = (int(x) for x in place(path, "5}}").split(":")[-2:])
    assert failed["problems"] == [
        {
            "path": str(path),
            "line": line,
            "column": column,
            "severity": "error",
            "kind": "expectation",
            "message": "counter P1.livres: expected 5, got 2",
        }
    ]


def test_usage_errors_exit_2(tmp_path):
    assert invoke("test").exit_code == 2
    assert invoke("test", str(tmp_path / "missing.yaml")).exit_code == 2


def test_the_schema_file_is_generated():
    assert (ROOT / "schemas" / NAME).read_text(encoding="utf-8") == render()


def test_variables_and_who_decides(tmp_path):
    body = """\
  - name: variables
    setup:
      variables: {start_player: P2}
    expect:
      variables: {start_player: P1}
      decision: null
"""
    path = write(tmp_path, body)
    result = invoke("test", str(path))
    headlines = [line.strip() for line in result.output.splitlines() if ": error: " in line]
    assert headlines == [
        f"{place(path, 'P1}', nth=0)}: error: variable start_player: expected P1, got P2",
        f"{place(path, 'null')}: error: who decides: expected nobody, got P1, P2",
    ]


def test_a_turn_of_an_unknown_phase(tmp_path):
    path = write(tmp_path, "  - name: t\n    steps:\n      - turn: {phase: actons}\n")
    result = invoke("test", str(path))
    assert f"  {place(path, 'actons')}: error: there is no phase 'actons'" in result.output
    assert "= hint: did you mean `actions`?" in result.output


def test_a_game_that_cannot_start(tmp_path):
    path = write(tmp_path, "  - name: crowd\n    players: 9\n")
    result = invoke("test", str(path))
    assert result.exit_code == 1
    assert f"  {place(path, '9')}: error: the game cannot start: " in result.output


def test_a_piece_in_two_zones_is_refused(tmp_path):
    body = "  - name: d\n    setup:\n      zones: {P1.hand: [NS1], P2.hand: [NS1]}\n"
    path = write(tmp_path, body)
    result = invoke("test", str(path))
    assert f"  {place(path, 'NS1]}')}: error: NS1 is put in two places" in result.output
