"""Whether a line of a game log is valid: fastjsonschema's verdict, jsonschema's words.

Each kind of line (a decision, a chance outcome, a checkpoint, the header) is checked
by fastjsonschema's code of its definition in the log's schema, made once per process
when first needed; a block of events of one kind is checked in one call (an array of
them). A line it refuses goes to jsonschema, which words the error. The reader
(``reader.py``) calls them through this module, so that a test or a benchmark can swap
one for all of its callers.

fastjsonschema reads the schema as draft 4 does: there ``5.0`` is no integer, as in the
log's format (jsonschema's validator below says the same), where the later drafts
take it for 5. The schema's one later keyword, ``const``, is read as the ``enum`` of one
value it means.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import TYPE_CHECKING, Any

import fastjsonschema

from interpreter.check import schemas

if TYPE_CHECKING:
    from jsonschema import Draft202012Validator

DRAFT_4 = "http://json-schema.org/draft-04/schema#"


def _definition_schema(definition: str) -> dict[str, Any]:
    return {"$ref": f"#/$defs/{definition}", "$defs": schemas.game_log()["$defs"]}


@cache
def full_validator(definition: str) -> Draft202012Validator:
    """The full validator: slow (~20 µs a line) but it words the error of a bad line."""
    from jsonschema import Draft202012Validator, validators

    # JSON has no integer type of its own: `5.0` must not pass for the integer 5
    log_validator = validators.extend(
        Draft202012Validator,
        type_checker=Draft202012Validator.TYPE_CHECKER.redefine(
            "integer",
            lambda _checker, value: isinstance(value, int) and not isinstance(value, bool),
        ),
    )
    return log_validator(_definition_schema(definition))


def _as_draft_4(node: Any) -> Any:
    """The schema with each ``const`` written as the ``enum`` of its one value."""
    if isinstance(node, dict):
        return {
            ("enum" if key == "const" else key): ([value] if key == "const" else _as_draft_4(value))
            for key, value in node.items()
            if key != "$schema"
        }
    if isinstance(node, list):
        return [_as_draft_4(item) for item in node]
    return node


def _verdict(schema: dict[str, Any]) -> Callable[[Any], bool]:
    """True of the data ``schema`` accepts (fastjsonschema's code, draft 4 reading)."""
    validate = fastjsonschema.compile({**_as_draft_4(schema), "$schema": DRAFT_4})

    def check(data: Any) -> bool:
        try:
            validate(data)
        except (fastjsonschema.JsonSchemaException, RecursionError):
            return False
        return True

    return check


@cache
def _open_check(definition: str) -> Callable[[Any], bool]:
    return _verdict(_definition_schema(definition))


def surely_valid(data: dict[str, Any], definition: str) -> bool:
    """True when the line's ``data`` is valid; False when ``full_validator`` must look
    at it (keys the schema does not name are allowed: ``known_keys``)."""
    return _open_check(definition)(data)


@cache
def known_keys(definition: str) -> frozenset[str]:
    """The keys the schema names for ``definition``."""
    return frozenset(schemas.game_log()["$defs"][definition]["properties"])


def _closed(definition: str) -> dict[str, Any]:
    """The definition that also refuses a key it does not name (at its top)."""
    return {**schemas.game_log()["$defs"][definition], "additionalProperties": False}


class _OnFirstUse(dict):
    """A mapping of each kind of line to its check, made when first asked for: a
    log of decisions alone compiles no checkpoint's check."""

    def __init__(self, make: Callable[[str], Callable[..., bool]]):
        super().__init__()
        self._make = make

    def __missing__(self, definition: str) -> Callable[..., bool]:
        made = self[definition] = self._make(definition)
        return made


@cache
def checks(
    definitions: tuple[str, ...],
) -> tuple[dict[str, Callable[..., bool]], dict[str, Callable[..., bool]]]:
    """Each kind of event's line check (``line_check``) and block check (``many_check``),
    kept for the process, not made for each log read."""
    del definitions  # every kind the schema defines; the key of the cache
    return _OnFirstUse(line_check), _OnFirstUse(many_check)


@cache
def many_check(definition: str) -> Callable[[list[dict[str, Any]]], bool]:
    """True of a block's events of ``definition`` that are all valid and name no key
    their schema does not; False sends the block to the reader's line-by-line path."""
    defs = schemas.game_log()["$defs"]
    return _verdict({"type": "array", "items": _closed(definition), "$defs": defs})


@cache
def line_check(definition: str) -> Callable[[dict[str, Any]], bool]:
    """True of an event line of ``definition`` that is valid and names no key its
    schema does not; False sends the line to the reader's ``_Reader._check``, which
    words its error or its warning."""
    return _verdict({**_closed(definition), "$defs": schemas.game_log()["$defs"]})
