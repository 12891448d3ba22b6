"""Issue 15 items 3-4: warnings, `--strict`, and the CI formats of `rules validate`.

One small ruleset with one unused constant (a warning) and a variant with one
unknown name (an error); each format is checked line by line, SARIF against the
fields the 2.1.0 specification requires.
"""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from rules_test_support import invoke, position, shown

from interpreter import __version__
from interpreter.cli.formats import _data, _property

MANIFEST = """\
id: small
name: Small
version: 0.1.0
players: {min: 2, max: 2}
include: [content.yaml]
"""

CONTENT = """\
constants:
  spare: {value: 9}
  gift: {value: 1}
counters:
  score: {per: player}
  turn: {per: game}
structure:
  rounds: {count: 1, counter: turn}
  phases:
    - {id: play, kind: each_player, effect: "gain(score, gift)"}
scoring:
  score: score
  steps:
    - {id: none, effect: "gain(score, 0)"}
"""


def write(folder: Path, content: str) -> Path:
    folder.mkdir()
    (folder / "ruleset.yaml").write_text(MANIFEST, encoding="utf-8")
    (folder / "content.yaml").write_text(content, encoding="utf-8")
    return folder


@pytest.fixture
def small(tmp_path: Path) -> Path:
    return write(tmp_path / "small", CONTENT)


@pytest.fixture
def broken(tmp_path: Path) -> Path:
    return write(tmp_path / "broken", CONTENT.replace("gain(score, gift)", "gain(score, gifts)"))


def where(folder: Path, text: str, mark: str) -> tuple[str, int, int]:
    line, column = position(text, text.index(mark))
    return shown(folder / "content.yaml"), line, column


# ------------------------------------------------------------- text and --strict
def test_a_warning_prints_but_exits_0(small: Path) -> None:
    path, line, column = where(small, CONTENT, "spare:")
    result = invoke("validate", str(small))
    assert result.exit_code == 0
    assert result.output.splitlines() == [
        f"{path}:{line}:{column}: warning: constant `spare` is never used",
        f"{line:>4} |   spare: {{value: 9}}",
        " " * (len(f"{line:>4} | ") + column - 1) + "^",
        "     = hint: nothing in the rules refers to `spare`; remove it, or use it in an "
        "expression",
        "checked 2 files, 6 items, 0 provisional values: valid",
    ]


def test_strict_makes_the_warning_an_error(small: Path) -> None:
    path, line, column = where(small, CONTENT, "spare:")
    result = invoke("validate", "--strict", str(small))
    assert result.exit_code == 1
    lines = result.output.splitlines()
    assert lines[0] == f"{path}:{line}:{column}: error: constant `spare` is never used"
    assert lines[-1] == "checked 2 files, 6 items, 0 provisional values: 1 error"


# ------------------------------------------------------------------------ json
def test_json_keeps_warnings_apart_from_errors(small: Path) -> None:
    path, line, column = where(small, CONTENT, "spare:")
    report = json.loads(invoke("validate", "--format", "json", str(small)).output)
    assert report["valid"] is True and report["errors"] == []
    assert report["warnings"] == [
        {
            "path": path,
            "line": line,
            "column": column,
            "severity": "warning",
            "kind": "unused-constant",
            "message": "constant `spare` is never used",
            "hint": "nothing in the rules refers to `spare`; remove it, or use it in an expression",
        }
    ]
    assert report["summary"]["errors"] == 0 and report["summary"]["warnings"] == 1


def test_json_strict_reports_the_warning_as_an_error(small: Path) -> None:
    result = invoke("validate", "--format", "json", "--strict", str(small))
    report = json.loads(result.output)
    assert result.exit_code == 1
    assert report["valid"] is False and report["warnings"] == []
    assert [(e["severity"], e["kind"]) for e in report["errors"]] == [("error", "unused-constant")]


# ---------------------------------------------------------------------- github
def test_github_annotations(small: Path, broken: Path) -> None:
    path, line, column = where(small, CONTENT, "spare:")
    result = invoke("validate", "--format", "github", str(small))
    assert result.exit_code == 0
    assert result.output.splitlines() == [
        f"::warning file={path},line={line},col={column},title=rules validate%3A "
        "unused-constant::constant `spare` is never used%0Ahint: nothing in the rules refers "
        "to `spare`; remove it, or use it in an expression",
        "checked 2 files, 6 items, 0 provisional values: valid",
    ]
    text = (broken / "content.yaml").read_text(encoding="utf-8")
    path, line, column = where(broken, text, "gifts")
    result = invoke("validate", "--format", "github", str(broken))
    assert result.exit_code == 1
    assert result.output.splitlines()[0] == (
        f"::error file={path},line={line},col={column},title=rules validate%3A "
        "unknown-name::`gifts` is not defined%0Ahint: did you mean `gift`?"
    )


def test_github_escaping() -> None:
    assert _data("50% done\r\nnext") == "50%25 done%0D%0Anext"
    assert _data("a: b, c") == "a: b, c"  # only properties escape `:` and `,`
    assert _property("C:\\mods\\a,b.yaml") == "C%3A\\mods\\a%2Cb.yaml"
    assert _property("100%\n") == "100%25%0A"


# ----------------------------------------------------------------------- sarif
# The fields SARIF 2.1.0 requires (sarifLog, run, tool, toolComponent, result,
# message, physicalLocation, region) and the ones GitHub code scanning reads.
SARIF_REQUIRED = {
    "type": "object",
    "required": ["version", "runs"],
    "properties": {
        "version": {"const": "2.1.0"},
        "$schema": {"type": "string"},
        "runs": {
            "type": "array",
            "minItems": 1,
            "maxItems": 1,
            "items": {
                "type": "object",
                "required": ["tool", "results"],
                "properties": {
                    "tool": {
                        "type": "object",
                        "required": ["driver"],
                        "properties": {
                            "driver": {
                                "type": "object",
                                "required": ["name", "version", "rules"],
                                "properties": {
                                    "name": {"type": "string"},
                                    "version": {"type": "string"},
                                    "rules": {
                                        "type": "array",
                                        "items": {
                                            "type": "object",
                                            "required": ["id", "shortDescription"],
                                            "properties": {
                                                "id": {"type": "string"},
                                                "shortDescription": {
                                                    "type": "object",
                                                    "required": ["text"],
                                                },
                                            },
                                        },
                                    },
                                },
                            }
                        },
                    },
                    "results": {
                        "type": "array",
                        "items": {
                            "type": "object",
                            "required": ["ruleId", "level", "message", "locations"],
                            "properties": {
                                "ruleId": {"type": "string"},
                                "ruleIndex": {"type": "integer", "minimum": 0},
                                "level": {"enum": ["none", "note", "warning", "error"]},
                                "message": {
                                    "type": "object",
                                    "required": ["text"],
                                    "properties": {"text": {"type": "string"}},
                                },
                                "locations": {
                                    "type": "array",
                                    "minItems": 1,
                                    "items": {
                                        "type": "object",
                                        "required": ["physicalLocation"],
                                        "properties": {
                                            "physicalLocation": {
                                                "type": "object",
                                                "required": ["artifactLocation"],
                                                "properties": {
                                                    "artifactLocation": {
                                                        "type": "object",
                                                        "required": ["uri"],
                                                    },
                                                    "region": {
                                                        "type": "object",
                                                        "required": ["startLine"],
                                                        "properties": {
                                                            "startLine": {
                                                                "type": "integer",
                                                                "minimum": 1,
                                                            },
                                                            "startColumn": {
                                                                "type": "integer",
                                                                "minimum": 1,
                                                            },
                                                        },
                                                    },
                                                },
                                            }
                                        },
                                    },
                                },
                            },
                        },
                    },
                },
            },
        },
    },
}


def test_sarif_log(small: Path, broken: Path) -> None:
    result = invoke("validate", "--format", "sarif", str(small), str(broken))
    assert result.exit_code == 1
    log = json.loads(result.output)
    jsonschema.validate(log, SARIF_REQUIRED)
    (run,) = log["runs"]
    driver = run["tool"]["driver"]
    assert (driver["name"], driver["version"]) == ("rules", __version__)
    assert [r["id"] for r in driver["rules"]] == ["unknown-name", "unused-constant"]
    broken_path, broken_line, broken_column = where(
        broken, (broken / "content.yaml").read_text(encoding="utf-8"), "gifts"
    )
    path, line, column = where(small, CONTENT, "spare:")
    assert run["results"] == [
        {
            "ruleId": "unknown-name",
            "ruleIndex": 0,
            "level": "error",
            "message": {"text": "`gifts` is not defined (hint: did you mean `gift`?)"},
            "locations": [
                {
                    "physicalLocation": {
                        "artifactLocation": {"uri": Path(broken_path).as_uri()},
                        "region": {"startLine": broken_line, "startColumn": broken_column},
                    }
                }
            ],
        },
        {
            "ruleId": "unused-constant",
            "ruleIndex": 1,
            "level": "warning",
            "message": {
                "text": "constant `spare` is never used (hint: nothing in the rules refers to "
                "`spare`; remove it, or use it in an expression)"
            },
            "locations": [
                {
                    "physicalLocation": {
                        "artifactLocation": {"uri": Path(path).as_uri()},
                        "region": {"startLine": line, "startColumn": column},
                    }
                }
            ],
        },
    ]


def test_sarif_of_a_valid_ruleset_has_no_result(tmp_path: Path) -> None:
    folder = write(tmp_path / "clean", CONTENT.replace("  spare: {value: 9}\n", ""))
    result = invoke("validate", "--format", "sarif", str(folder))
    assert result.exit_code == 0
    log = json.loads(result.output)
    jsonschema.validate(log, SARIF_REQUIRED)
    assert log["runs"][0]["results"] == [] and log["runs"][0]["tool"]["driver"]["rules"] == []
