"""Whether a line of a game log is valid, by checks derived from the log's schema.

Most lines are one of two flat kinds (a decision, a chance outcome), checked by code
made from their definitions (``quick_check.py``), a block's column by column; the
header and the checkpoints by fastjsonschema's code; a line any of them refuses by
jsonschema, which words its error. The reader (``reader.py``) calls them through this
module, so that a test or a benchmark can swap one for all of its callers.
"""

from __future__ import annotations

import json
import marshal
from collections.abc import Callable
from functools import cache
from pathlib import Path
from types import CodeType
from typing import TYPE_CHECKING, Any

import fastjsonschema

from interpreter import cache_folder
from interpreter.check import schemas
from interpreter.log.quick_check import quick_check, quick_check_many

if TYPE_CHECKING:
    from jsonschema import Draft202012Validator


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


@cache
def fast_validator(definition: str) -> Callable[[Any], Any]:
    """A validator compiled to Python code (~1.5 µs a line): it only says yes or no,
    and a no is handed to ``full_validator`` for the words. Its code is kept in the cache
    folder, as the other things derived from the interpreter's own texts: making it
    (fastjsonschema's text of the header's schema, compiled) took 5 ms of every
    replay."""
    schema = _definition_schema(definition)
    kept = cache_folder.derived_file(
        f"log-check-{definition}",
        json.dumps(schema, sort_keys=True),
        fastjsonschema.VERSION,
        suffix="code",
    )
    code = _kept_code(kept)
    if code is None:
        code = compile(fastjsonschema.compile_to_code(schema), "<log check>", "exec")
        cache_folder.write_entry(kept, marshal.dumps(code))
    namespace: dict[str, Any] = {}
    exec(code, namespace)  # fastjsonschema's code of our own schema
    return namespace["validate"]


def _kept_code(path: Path | None) -> CodeType | None:
    """The code kept in ``path``, or None (none kept, or unreadable: made again)."""
    data = cache_folder.read_entry(path)  # None: missing, not trusted, or not ours
    if data is None:
        return None
    try:
        code = marshal.loads(data)
    except (EOFError, ValueError, TypeError):
        return None
    return code if isinstance(code, CodeType) else None


@cache
def _quick(definition: str) -> Callable[[dict[str, Any]], bool] | None:
    """The quick check of a flat definition, or None (``quick_check.py``)."""
    return quick_check(schemas.game_log()["$defs"][definition])


def surely_valid(data: dict[str, Any], definition: str) -> bool:
    """True when the line's ``data`` is valid; False when ``full_validator`` must look
    at it.

    A flat definition (a decision's, a chance outcome's) has a quick check derived
    from the schema (``quick_check.py``). For the others (the header, a checkpoint: a
    few lines a log, and short): fastjsonschema takes 5.0 for an integer, as JSON
    Schema drafts 6 and later do, and ours does not; the log schema has no other
    numbers, so any float in the line sends it to the full validator."""
    quick = _quick(definition)
    if quick is not None:
        return quick(data)
    try:
        fast_validator(definition)(data)
    except (fastjsonschema.JsonSchemaException, RecursionError):
        return False
    return not _holds_float(data)


def _holds_float(value: Any) -> bool:
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, float):
            return True
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False


@cache
def known_keys(definition: str) -> frozenset[str]:
    """The keys the schema names for ``definition``."""
    return frozenset(schemas.game_log()["$defs"][definition]["properties"])


@cache
def checks(
    definitions: tuple[str, ...],
) -> tuple[dict[str, Callable[..., bool]], dict[str, Callable[..., bool] | None]]:
    """Each kind of event's line check (``line_check``) and block check (``many_check``),
    made once per process, not for each log read."""
    return (
        {definition: line_check(definition) for definition in definitions},
        {definition: many_check(definition) for definition in definitions},
    )


@cache
def many_check(definition: str) -> Callable[[list[dict[str, Any]]], bool] | None:
    """The column-wise check of a block's events of ``definition`` (None: none)."""
    return quick_check_many(schemas.game_log()["$defs"][definition])


def checked_alone(data: dict[str, Any], definition: str) -> bool:
    """An event of a kind with no column-wise check (a checkpoint): valid, with no key
    its schema does not name, checked without a side effect."""
    return data.keys() <= known_keys(definition) and surely_valid(data, definition)


@cache
def line_check(definition: str) -> Callable[[dict[str, Any]], bool]:
    """True of an event line of ``definition`` that is valid and names no key its
    schema does not (``quick_check.py``, closed); False sends the line to
    the reader's ``_Reader._check``, which words its error or its warning, and which checks the
    lines of a definition that has no quick check (the checkpoints: a few a log)."""
    quick = quick_check(schemas.game_log()["$defs"][definition], closed=True)
    return quick if quick is not None else _not_sure


def _not_sure(_data: dict[str, Any]) -> bool:
    return False
