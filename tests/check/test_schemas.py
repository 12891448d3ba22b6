"""The JSON Schemas and the schema check that reports at YAML positions.

(That the files in schemas/ equal the generated schemas, and that each is a valid
Draft 2020-12 schema, is checked with the registry in tests/language/test_registry.py.)
"""

from __future__ import annotations

import re

import pytest
from jsonschema import Draft202012Validator
from ruamel.yaml import YAML
from rules_test_support import ROCOCO, position

from interpreter.check import schemas, sections
from interpreter.check.schema_check import check
from interpreter.load.yaml_source import load_text

PATH = "f.yaml"


def problems(text: str, schema: str = "content.schema.json"):
    return check(load_text(text, PATH), schema)


def at(text: str, mark: str) -> tuple[int, int]:
    return position(text, text.index(mark))


def where(diagnostic) -> tuple[int, int]:
    return diagnostic.location.line, diagnostic.location.column


# ------------------------------------------------------------- the real files
def _plain_yaml(path):
    return YAML(typ="safe", pure=True).load(path.read_text(encoding="utf-8"))


def test_rococo_files_match_their_schemas() -> None:
    """Checked with jsonschema directly, independently of the project's checker."""
    manifest = Draft202012Validator(schemas.manifest())
    content = Draft202012Validator(schemas.content())
    assert list(manifest.iter_errors(_plain_yaml(ROCOCO / "ruleset.yaml"))) == []
    for name in _plain_yaml(ROCOCO / "ruleset.yaml")["include"]:
        errors = list(content.iter_errors(_plain_yaml(ROCOCO / name)))
        assert errors == [], f"{name}: {errors[0].message}"


def test_every_rococo_file_names_its_schema() -> None:
    """The first line tells an editor's YAML language server which schema applies."""
    for path in ROCOCO.rglob("*.yaml"):
        first = path.read_text(encoding="utf-8").splitlines()[0]
        match = re.fullmatch(r"# yaml-language-server: \$schema=(\S+)", first)
        assert match, f"{path.name}: {first!r}"
        target = (path.parent / match.group(1)).resolve()
        assert target.is_file(), f"{path.name} points at {target}"
        expected = "manifest" if path.name == "ruleset.yaml" else "content"
        if path.parent.name == "expansions":
            expected = "overlay"
        assert target.name == f"{expected}.schema.json"


# ----------------------------------------------------------- located problems
def test_unknown_key_at_the_key_with_did_you_mean() -> None:
    text = "counters:\n  coins: {per: player, lable: Coins}\n"
    (d,) = problems(text)
    assert where(d) == at(text, "lable")
    assert d.message == "unknown key 'lable'"
    assert d.hint == "did you mean `label`?"
    assert d.json_path == "/counters/coins"


def test_unknown_top_level_section() -> None:
    text = "countres:\n  coins: {per: player}\n"
    (d,) = problems(text)
    assert where(d) == (1, 1)
    assert "did you mean `counters`?" in d.hint


def test_wrong_type_at_the_value() -> None:
    # (`rounds.count` takes a constant's name since issue 49: ruleset/test_counts.py)
    text = "sides:\n  small: {players: [2, seven]}\n"
    (d,) = problems(text)
    assert where(d) == at(text, "seven")
    assert d.message == "expected a whole number, got 'seven'"


def test_enum_lists_the_allowed_values() -> None:
    text = "zones:\n  deck: {per: game, visibility: hidden}\n"
    (d,) = problems(text)
    assert where(d) == at(text, "hidden")
    assert "'hidden' is not one of public, private, others, secret" in d.message


def test_missing_required_key() -> None:
    text = "counters:\n  coins: {initial: 3}\n"
    (d,) = problems(text)
    assert where(d) == at(text, "coins")
    assert d.message == "missing required key 'per' in 'coins'"


def test_invalid_id() -> None:
    text = "constants:\n  9lives: {value: 9}\n"
    (d,) = problems(text)
    assert where(d) == at(text, "9lives")
    assert "'9lives'" in d.message
    assert "not starting with a digit" in d.hint


def test_one_of_reports_the_branch_that_fits() -> None:
    text = "actions:\n  go:\n    effect: [gain(coins, 1), 5]\n"
    (d,) = problems(text)
    assert where(d) == at(text, "5]")
    assert "expected a text" in d.message


def test_constant_needs_value_or_per_side() -> None:
    text = "constants:\n  x: {description: nothing}\n"
    (d,) = problems(text)
    assert d.location.line == 2


def test_all_problems_in_file_order() -> None:
    text = (
        "counters:\n  coins: {per: player, lable: x}\n"
        "zones:\n  deck: {per: everyone}\n"
        "structure:\n  phases: [{id: p, kind: once}]\n"
    )
    found = problems(text)
    assert len(found) == 3
    assert [where(d) for d in found] == sorted(where(d) for d in found)
    assert where(found[0]) == at(text, "lable")
    assert where(found[1]) == at(text, "everyone")


def test_manifest_schema() -> None:
    text = "id: game\nname: G\nversion: '1.0'\nplayers: {min: 2, max: 4}\ninclude: [a.yaml]\n"
    (d,) = problems(text, "manifest.schema.json")
    assert where(d) == at(text, "'1.0'")
    (d,) = problems(
        text.replace("'1.0'", "1.0.0").replace("include: [a.yaml]\n", ""), "manifest.schema.json"
    )
    assert "missing required key 'include'" in d.message


def test_overlay_schema() -> None:
    good = "overlay: {id: m, name: M, base: rococo}\npatch:\n  components:\n    E05: {level: 2}\n"
    assert problems(good, "overlay.schema.json") == []
    bad = "overlay: {id: m, name: M}\nadd:\n  componnets: {}\n"
    (d,) = problems(bad, "overlay.schema.json")
    assert d.message == "unknown key 'componnets'"
    assert "did you mean `components`?" in d.hint


# ------------------------------------------------------------------ game logs
HEADER = {
    "format": "rules-log/1",
    "ruleset": "rococo",
    "ruleset_version": "1.0.0",
    "ruleset_digest": "sha256:" + "0" * 64,
    "players": ["Ann", "Bob"],
    "seed": 7,
}


@pytest.mark.parametrize(
    "line, valid",
    [
        (HEADER, True),
        ({"n": 1, "player": "Ann", "choice": "hire E12"}, True),
        ({"n": 2, "chance": "shuffle deck", "outcome": ["E1", "E2"]}, True),
        ({"n": 3, "scores": {"Ann": 3, "Bob": 5}}, True),
        ({"n": 4, "state_digest": "sha256:" + "a" * 64}, True),
        ({**HEADER, "format": "rules-log/2"}, False),
        ({**HEADER, "players": ["Ann", "Ann"]}, False),
        ({"n": 0, "player": "Ann", "choice": "x"}, False),
        ({"n": 4, "state_digest": "sha256:short"}, False),
        ({"n": 1, "player": "Ann"}, False),
    ],
)
def test_game_log_lines(line: dict, valid: bool) -> None:
    validator = Draft202012Validator(schemas.game_log())
    assert validator.is_valid(line) is valid


# ------------------------------------------------------------- schema content
def test_editor_lists_come_from_the_registry() -> None:
    from interpreter.language.registry import REGISTRY
    from interpreter.language.values import TYPE_NAMES

    defs = schemas.content()["$defs"]
    assert defs["expression"]["x-functions"] == sorted(REGISTRY.functions)
    assert defs["effect"]["x-statements"] == sorted(REGISTRY.statements)
    assert defs["type_name"]["enum"] == list(TYPE_NAMES)


@pytest.mark.parametrize(
    "name, ok",
    [
        ("a", True),
        ("_a1", True),
        ("A_b_9", True),
        ("9a", False),
        ("a-b", False),
        ("", False),
        ("a b", False),
        ("gift\n", False),  # Python's `$` matched before a last newline (issue 44)
        ("gi\x00ft", False),
    ],
)
def test_id_pattern(name: str, ok: bool) -> None:
    for pattern in (schemas.ID_PATTERN, sections.COMPONENT_ID_PATTERN):
        assert bool(re.match(pattern, name)) is ok
        assert bool(re.search(pattern, name)) is ok  # as jsonschema applies it
