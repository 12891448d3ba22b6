"""One source of truth: the registry, the reference docs and the JSON Schemas agree."""

from __future__ import annotations

import json
import re

import pytest
from jsonschema import Draft202012Validator
from rules_test_support import ROOT

from interpreter.check import schemas
from interpreter.language import reference
from interpreter.language.parser import SyntaxProblem, parse
from interpreter.language.registry import REGISTRY
from interpreter.language.values import TYPE_NAMES

DOCS = ROOT / "docs" / "language.md"
SCHEMAS = ROOT / "schemas"
ALL_PRIMITIVES = sorted({**REGISTRY.functions, **REGISTRY.statements}.items())


def test_docs_are_generated_from_the_registry() -> None:
    """docs/language.md is `rules reference --write docs/language.md`, never hand-edited."""
    assert DOCS.read_text(encoding="utf-8") == reference.render()


@pytest.mark.parametrize("name", sorted(REGISTRY.functions))
def test_every_function_is_documented_and_in_the_schema(name: str) -> None:
    docs = DOCS.read_text(encoding="utf-8")
    assert re.search(rf"^#### `{name}\(", docs, re.MULTILINE), f"{name} not in language.md"
    content = json.loads((SCHEMAS / "content.schema.json").read_text(encoding="utf-8"))
    assert name in content["$defs"]["expression"]["x-functions"]
    assert name in content["$defs"]["expression"]["description"]


@pytest.mark.parametrize("name", sorted(REGISTRY.statements))
def test_every_statement_is_documented_and_in_the_schema(name: str) -> None:
    docs = DOCS.read_text(encoding="utf-8")
    assert re.search(rf"^#### `{name}\(", docs, re.MULTILINE), f"{name} not in language.md"
    content = json.loads((SCHEMAS / "content.schema.json").read_text(encoding="utf-8"))
    assert name in content["$defs"]["effect"]["x-statements"]


def test_schema_lists_hold_nothing_else() -> None:
    for name in schemas.SCHEMAS:
        data = json.loads((SCHEMAS / name).read_text(encoding="utf-8"))
        defs = data.get("$defs", {})
        if "expression" in defs:
            assert defs["expression"]["x-functions"] == sorted(REGISTRY.functions)
            assert defs["effect"]["x-statements"] == sorted(REGISTRY.statements)
            assert defs["type_name"]["enum"] == list(TYPE_NAMES)


def test_documented_names_are_all_registered() -> None:
    """No stale entry: every `#### name(` heading in the docs is a registered primitive."""
    documented = set(re.findall(r"^#### `(\w+)\(", DOCS.read_text(encoding="utf-8"), re.MULTILINE))
    assert documented == set(REGISTRY.functions) | set(REGISTRY.statements)


def test_functions_and_statements_do_not_share_names() -> None:
    assert not set(REGISTRY.functions) & set(REGISTRY.statements)
    assert not (set(REGISTRY.functions) | set(REGISTRY.statements)) & set(REGISTRY.names)


@pytest.mark.parametrize("name", sorted(schemas.SCHEMAS))
def test_schema_files_are_generated(name: str) -> None:
    """schemas/*.json are `rules schema --write schemas/`, never hand-edited."""
    assert (SCHEMAS / name).read_text(encoding="utf-8") == schemas.render(name)


@pytest.mark.parametrize("name", sorted(schemas.SCHEMAS))
def test_schemas_are_valid_draft_2020_12(name: str) -> None:
    Draft202012Validator.check_schema(schemas.SCHEMAS[name]())
    Draft202012Validator.check_schema(json.loads((SCHEMAS / name).read_text(encoding="utf-8")))


def test_no_extra_schema_files() -> None:
    assert sorted(p.name for p in SCHEMAS.glob("*.json")) == sorted(schemas.SCHEMAS)


@pytest.mark.parametrize("name, primitive", ALL_PRIMITIVES, ids=[n for n, _ in ALL_PRIMITIVES])
def test_every_primitive_is_documented_fully(name: str, primitive) -> None:
    known = (*TYPE_NAMES, "list:any", "counter")  # `counter`: a counter's name, for gain/pay
    assert primitive.doc and primitive.example
    assert all(param.doc for param in primitive.params)
    assert all(param.type in known for param in primitive.params)
    assert primitive.returns is None or primitive.returns in known


@pytest.mark.parametrize("name, primitive", ALL_PRIMITIVES, ids=[n for n, _ in ALL_PRIMITIVES])
def test_every_example_parses(name: str, primitive) -> None:
    """Examples are written in the language they document (`{ … }` stands for a block)."""
    example = primitive.example.replace("…", "")
    try:
        parse(example, "expr" if primitive.kind == "function" else "effect")
    except SyntaxProblem:
        parse(example, "effect")  # a function shown inside a statement
    assert re.search(rf"\b{name}\(", example)


def test_every_primitive_has_an_implementation() -> None:
    for _, primitive in ALL_PRIMITIVES:
        assert callable(primitive.impl)
