"""Validate a loaded document against a JSON Schema; report at YAML positions.

jsonschema judges and words: one validator per schema and process, and the walk that
finds nothing wrong in a valid document is its verdict.
"""

from __future__ import annotations

import re
from functools import cache
from typing import TYPE_CHECKING, Any

from interpreter.check import schemas
from interpreter.errors import Diagnostic
from interpreter.language.compiled import did_you_mean
from interpreter.load.yaml_source import Document

if TYPE_CHECKING:
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import ValidationError

_LEFT_OUT = ("missing required key", "missing key")  # the words of a key left out


@cache
def validator(name: str) -> Draft202012Validator:
    from jsonschema import Draft202012Validator

    return Draft202012Validator(schemas.SCHEMAS[name]())


def check(document: Document, schema_name: str) -> list[Diagnostic]:
    """All schema violations of ``document``, one diagnostic each, in file order."""
    return check_data(document, document.data, validator(schema_name))


def check_item_keys(document: Document, data: Any, section: str, base: tuple) -> list[Diagnostic]:
    """Check the keys one item of a content section is given (an overlay's extension
    of it): keys it leaves out are the base's, so a key missing is no error."""
    found = check_data(document, data, _item_validator(section), base)
    return [d for d in found if not d.message.startswith(_LEFT_OUT)]


@cache
def _item_validator(section: str) -> Draft202012Validator:
    """The validator of one item of a content section (``check_item_keys``)."""
    from jsonschema import Draft202012Validator

    content = schemas.content()
    item_schema = content["properties"][section].get("additionalProperties", {})
    return Draft202012Validator({**item_schema, "$defs": content["$defs"]})


def check_data(
    document: Document, data: Any, schema_validator: Draft202012Validator, prefix: tuple = ()
) -> list[Diagnostic]:
    found = []
    for error in schema_validator.iter_errors(data):
        found.extend(_diagnose(document, error, prefix))
    found.sort(key=lambda d: "does not match any" in d.message)  # the specific first
    unique: dict[tuple, Diagnostic] = {}
    for diagnostic in found:  # one problem per place: a value may break several keywords
        unique.setdefault((diagnostic.location, diagnostic.data_path), diagnostic)
    return sorted(unique.values(), key=lambda d: (d.location.line, d.location.column))


def _diagnose(document: Document, error: ValidationError, prefix: tuple = ()) -> list[Diagnostic]:
    from jsonschema.exceptions import best_match

    if error.validator in ("oneOf", "anyOf") and error.context:
        deepest = _matching_branch_error(error) or best_match(error.context)
        if deepest is not None and deepest.validator in ("oneOf", "anyOf") and deepest.context:
            return _diagnose(document, deepest, prefix)  # a choice inside a choice
        if deepest is not None and deepest.validator not in ("oneOf", "anyOf"):
            path = tuple(error.absolute_path) + tuple(deepest.relative_path)
            deepest.path = deepest.relative_path
            return [_one(document, deepest, (*prefix, *path))]
    return [_one(document, error, (*prefix, *error.absolute_path))]


def _matching_branch_error(error: ValidationError) -> ValidationError | None:
    """In a oneOf, the first error of the branch whose type fits the value."""
    branches: dict[int, list[ValidationError]] = {}
    for sub in error.context:
        branches.setdefault(sub.schema_path[0], []).append(sub)
    fitting = [
        errs
        for errs in branches.values()
        if not any(e.validator == "type" and not e.relative_path for e in errs)
    ]
    if len(fitting) == 1:
        return min(fitting[0], key=lambda e: -len(e.relative_path))
    return None


def _one(document: Document, error: ValidationError, path: tuple) -> Diagnostic:
    pointer = "/" + "/".join(str(p) for p in path)
    schema = error.schema if isinstance(error.schema, dict) else {}
    custom = schema.get("x-message")
    if error.validator == "additionalProperties":
        extra = _unexpected(error.message)
        allowed = set(schema.get("properties", {}))
        if extra:
            key_path = (*path, extra[0])
            location = document.location(key_path, key=True)
            hint = (
                _cut_at_a_comma(error.instance, extra[0])
                or did_you_mean(extra[0], allowed)
                or (f"allowed keys: {', '.join(sorted(allowed))}" if allowed else None)
            )
            return Diagnostic(
                location,
                f"unknown key {extra[0]!r}",
                hint,
                kind="unknown-key",
                json_path=pointer,
                data_path=key_path,
            )
    if error.validator == "required":
        missing = re.findall(r"'([^']+)' is a required property", error.message)
        name = missing[0] if missing else "a key"
        if path and isinstance(path[-1], int):  # an entry of a list: at the entry itself
            location = document.location(path)
            parent = next((str(p) for p in reversed(path) if isinstance(p, str)), "the list")
            message = f"missing key `{name}` in entry {path[-1] + 1} of `{parent}`"
        else:
            location = document.location(path, key=True) if path else document.location(())
            message = f"missing required key {name!r}" + (f" in {path[-1]!r}" if path else "")
        return Diagnostic(
            location,
            message,
            _describe_key(schema, name),
            kind="schema",
            json_path=pointer,
            data_path=path,
        )
    if error.validator == "propertyNames":
        bad = error.instance
        location = document.location((*path, bad), key=True)
        return Diagnostic(
            location,
            f"invalid id {bad!r}",
            custom or _x_message(error),
            kind="schema",
            json_path=pointer,
            data_path=(*path, bad),
        )
    location = document.location(path)
    message = _friendly(error)
    hint = custom or schema.get("description")
    return Diagnostic(
        location, message, _short(hint), kind="schema", json_path=pointer, data_path=path
    )


def _cut_at_a_comma(mapping: Any, key: str) -> str | None:
    """The hint for `{label: Draw three, face up in order.}`: YAML ends a value of a
    `{…}` mapping at its first comma, so the rest becomes a key of no value. A key with
    a space and no value, after a key whose value is a text, is read as such a rest."""
    if not isinstance(mapping, dict) or mapping.get(key, "") is not None or " " not in key:
        return None
    keys = list(mapping)
    before = keys[keys.index(key) - 1] if keys.index(key) > 0 else None
    if before is None or not isinstance(mapping[before], str):
        return None
    return (
        "in a `{…}` mapping a comma ends the value, so the text was cut there: put the "
        f'whole text in quotes, `{before}: "{mapping[before]}, {key}"`'
    )


def _x_message(error: ValidationError) -> str | None:
    schema = error.schema if isinstance(error.schema, dict) else {}
    names = schema.get("propertyNames", {})
    return names.get("x-message") if isinstance(names, dict) else None


def _describe_key(schema: dict[str, Any], name: str) -> str | None:
    prop = schema.get("properties", {}).get(name, {})
    return _short(prop.get("description")) if isinstance(prop, dict) else None


def _short(text: str | None) -> str | None:
    if not text:
        return None
    return text if len(text) <= 160 else text[:157] + "…"


def _unexpected(message: str) -> list[str]:
    return re.findall(r"'([^']+)'", message.split("(")[-1]) if "unexpected" in message else []


def _friendly(error: ValidationError) -> str:
    instance = error.instance
    shown = repr(instance) if not isinstance(instance, dict | list) else type(instance).__name__
    if len(shown) > 60:
        shown = shown[:57] + "…"
    validator_name = error.validator
    if validator_name == "type":
        expected = error.validator_value
        expected = " or ".join(expected) if isinstance(expected, list) else expected
        words = {
            "object": "a mapping",
            "array": "a list",
            "string": "a text",
            "integer": "a whole number",
            "boolean": "true or false",
            "number": "a number",
        }
        wanted = " or ".join(words.get(e, e) for e in str(expected).split(" or "))
        return f"expected {wanted}, got {shown}"
    if validator_name == "enum":
        return f"{shown} is not one of {', '.join(map(str, error.validator_value))}"
    if validator_name == "const":
        return f"{shown} must be {error.validator_value!r}"
    if validator_name == "pattern":
        return f"{shown} does not have the expected form"
    if validator_name in ("minimum", "maximum"):
        return (
            f"{shown} is {'below' if validator_name == 'minimum' else 'above'} the "
            f"{validator_name} {error.validator_value}"
        )
    if validator_name == "minLength":
        return "must not be empty"
    if validator_name == "minItems":
        return f"needs at least {error.validator_value} item(s)"
    if validator_name in ("oneOf", "anyOf"):
        return f"{shown} does not match any accepted form"
    return error.message
