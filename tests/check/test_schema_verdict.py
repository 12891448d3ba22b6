"""The yes/no verdict of a schema (interpreter/check/schema_verdict.py) is jsonschema's:
on every bundled file, on a few thousand mutations of Rococo's files, and keyword by
keyword; where it cannot tell, there is no verdict and jsonschema decides."""

from __future__ import annotations

import copy
import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from rules_test_support import ROCOCO

from interpreter.check import schema_check, schemas
from interpreter.check.schema_verdict import accepts, verdict
from interpreter.load.yaml_source import load_text

ROOT = Path(__file__).resolve().parents[2]
NAMED = re.compile(r"\$schema=\S*/(\w+\.schema\.json)")
FILES = [
    path
    for path in sorted(ROOT.glob("rulesets/**/*.yaml")) + sorted(ROOT.glob("examples/**/*.yaml"))
    if NAMED.search(path.read_text(encoding="utf-8"))
]


def jsonschema_says(schema: dict[str, Any], data: Any) -> bool:
    return Draft202012Validator(schema).is_valid(data)


def loaded(path: Path) -> Any:
    try:
        return load_text(path.read_text(encoding="utf-8"), str(path)).data
    except Exception:  # a broken example that does not even load
        return None


def schema_of(path: Path) -> str:
    found = NAMED.search(path.read_text(encoding="utf-8"))
    assert found is not None
    return found.group(1)


def test_every_schema_has_a_verdict() -> None:
    for name, make in schemas.SCHEMAS.items():
        assert verdict(make()) is not None, name


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(ROOT)) for p in FILES])
def test_the_verdict_on_every_bundled_file_is_jsonschemas(path: Path) -> None:
    data = loaded(path)
    if data is None:
        return
    schema = schemas.SCHEMAS[schema_of(path)]()
    assert accepts(verdict(schema), data) == jsonschema_says(schema, data)


ODD_VALUES = [
    0,
    1,
    -1,
    1.0,
    2.5,
    True,
    False,
    None,
    "",
    "x",
    "x\n",
    "Not An Id",
    [],
    [1],
    {},
    {"a": 1},
]


def mutations(data: Any, rng: random.Random, count: int) -> list[Any]:
    """``count`` copies of ``data``, each with one value replaced, one key removed or
    one unknown key added, somewhere at random."""
    out = []
    for _ in range(count):
        mutated = copy.deepcopy(data)
        parent, key = _somewhere(mutated, rng)
        action = rng.random()
        if isinstance(parent, dict) and action < 0.2:
            del parent[key]
        elif isinstance(parent, dict) and action < 0.3:
            parent[rng.choice(["extra", "x_y", "Bad Key"])] = rng.choice(ODD_VALUES)
        else:
            parent[key] = copy.deepcopy(rng.choice(ODD_VALUES))
        out.append(mutated)
    return out


def _somewhere(data: Any, rng: random.Random) -> tuple[Any, Any]:
    parent, key = data, None
    node = data
    for _ in range(rng.randint(1, 8)):
        if isinstance(node, dict) and node:
            parent, key = node, rng.choice(list(node))
        elif isinstance(node, list) and node:
            parent, key = node, rng.randrange(len(node))
        else:
            break
        node = parent[key]
    if key is None:
        key = next(iter(data))
        parent = data
    return parent, key


def test_the_verdict_on_mutated_rococo_files_is_jsonschemas() -> None:
    rng = random.Random(13)
    checked = refused = 0
    for path in sorted(ROCOCO.rglob("*.yaml")):
        schema = schemas.SCHEMAS[schema_of(path)]()
        check = verdict(schema)
        validator = Draft202012Validator(schema)
        for data in mutations(loaded(path), rng, 120):
            said = validator.is_valid(data)
            assert accepts(check, data) == said, (path.name, data)
            checked += 1
            refused += not said
    assert checked > 2000 and checked / 4 < refused < checked  # both answers were tried


KEYWORDS = [  # (schema, value, jsonschema's answer)
    ({"type": "integer"}, 1.0, True),
    ({"type": "integer"}, 1.5, False),
    ({"type": "integer"}, True, False),
    ({"type": "number"}, False, False),
    ({"type": ["string", "null"]}, None, True),
    ({"pattern": "^[a-z]+$"}, "abc\n", True),  # Python's `$`, as jsonschema reads it
    ({"pattern": "^[a-z]+$"}, "abc\nd", False),
    ({"pattern": "^a"}, 5, True),
    ({"enum": ["a", "b"]}, "b", True),
    ({"enum": ["a", "b"]}, True, False),
    ({"const": "a"}, "a", True),
    ({"minimum": 1}, True, True),  # not a number: minimum says nothing of it
    ({"minimum": 1}, 0, False),
    ({"oneOf": [{"type": "integer"}, {"type": "number"}]}, 1, False),
    ({"oneOf": [{"type": "integer"}, {"type": "string"}]}, 1, True),
    ({"anyOf": [{"type": "integer"}, {"type": "string"}]}, [], False),
    ({"not": {"type": "integer"}}, 1.0, False),
    ({"required": ["a"], "properties": {"a": {"type": "string"}}}, {"a": 1}, False),
    ({"additionalProperties": False, "properties": {"a": {}}}, {"a": 1, "b": 2}, False),
    ({"additionalProperties": {"type": "string"}}, {"a": "x"}, True),
    ({"propertyNames": {"pattern": "^[a-z]+$"}}, {"A": 1}, False),
    ({"items": {"type": "string"}, "minItems": 2}, ["a"], False),
    ({"items": {"type": "string"}, "uniqueItems": True}, ["a", "a"], False),
    ({"minProperties": 1}, {}, False),
    ({"maxLength": 2, "minLength": 1}, "abc", False),
    (
        {"$defs": {"n": {"type": "array", "items": {"$ref": "#/$defs/n"}}}, "$ref": "#/$defs/n"},
        [[[]], []],
        True,
    ),
    (
        {"$defs": {"n": {"type": "array", "items": {"$ref": "#/$defs/n"}}}, "$ref": "#/$defs/n"},
        [[1]],
        False,
    ),
    ({"$ref": "#/$defs/s", "minLength": 2, "$defs": {"s": {"type": "string"}}}, "a", False),
]


@pytest.mark.parametrize("schema, value, valid", KEYWORDS)
def test_each_keyword_means_what_it_means_to_jsonschema(
    schema: dict[str, Any], value: Any, valid: bool
) -> None:
    assert jsonschema_says(schema, value) is valid  # the table itself is right
    assert accepts(verdict(schema), value) is valid


@pytest.mark.parametrize(
    "schema",
    [
        {"if": {"type": "string"}, "then": {"minLength": 1}},
        {"patternProperties": {"^a": {}}, "additionalProperties": False},
        {"enum": [1, True]},
        {"$ref": "other.json#/x"},
        {"format": "email"},
    ],
)
def test_a_schema_with_what_it_does_not_read_has_no_verdict(schema: dict[str, Any]) -> None:
    assert verdict(schema) is None
    assert accepts(None, "anything") is False  # jsonschema decides then


def test_what_it_cannot_judge_goes_to_jsonschema() -> None:
    check = verdict({"items": {}, "uniqueItems": True})
    assert accepts(check, ["a", "b"]) is True
    assert accepts(check, [1, True]) is False  # distinct to JSON Schema, not to Python
    assert jsonschema_says({"items": {}, "uniqueItems": True}, [1, True])


def test_an_extension_may_leave_required_keys_out_and_is_still_checked() -> None:
    text = "counters:\n  c:\n    description: more\n"
    document = load_text(text, "x.yaml")
    data = document.data["counters"]["c"]
    assert schema_check.check_item_keys(document, data, "counters", ("counters", "c")) == []
    bad = load_text("counters:\n  c:\n    initial: many\n", "x.yaml")
    found = schema_check.check_item_keys(
        bad, bad.data["counters"]["c"], "counters", ("counters", "c")
    )
    assert [(d.location.line, d.location.column) for d in found] == [(3, 14)]
    assert found[0].message.startswith("expected a whole number")


def test_a_valid_ruleset_is_validated_without_importing_jsonschema(tmp_path: Path) -> None:
    probe = (
        "import sys; from interpreter.cli.main import main; sys.argv = ['rules', 'validate', "
        f"{str(ROCOCO)!r}];\ntry: main()\nexcept SystemExit: pass\n"
        "print('jsonschema' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert done.stdout.strip().splitlines()[-1] == "False"
