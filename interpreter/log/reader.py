"""Read a game log (rules-log/1): JSON Lines with comments, checked line by line."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator

from interpreter.check import schemas

MAX_BYTES = 50_000_000
EVENT_KINDS = ("decision", "chance", "score_checkpoint", "digest_checkpoint")


@dataclass
class LogLine:
    line: int  # 1-based line number in the file
    data: dict[str, Any]
    text: str

    @property
    def kind(self) -> str:
        if "choice" in self.data:
            return "decision"
        if "chance" in self.data:
            return "chance"
        if "scores" in self.data:
            return "score_checkpoint"
        return "digest_checkpoint"


@dataclass
class ParsedLog:
    path: str
    header: LogLine | None = None
    events: list[LogLine] = field(default_factory=list)
    errors: list[tuple[int, str]] = field(default_factory=list)
    warnings: list[tuple[int, str]] = field(default_factory=list)


@cache
def _validator(definition: str) -> Draft202012Validator:
    schema = schemas.game_log()
    return Draft202012Validator({"$ref": f"#/$defs/{definition}", "$defs": schema["$defs"]})


@cache
def _known_keys(definition: str) -> frozenset[str]:
    return frozenset(schemas.game_log()["$defs"][definition]["properties"])


def read(path: Path, strict: bool = False) -> ParsedLog:
    shown = str(path)
    parsed = ParsedLog(shown)
    try:
        if path.stat().st_size > MAX_BYTES:
            parsed.errors.append((1, f"the log is larger than {MAX_BYTES:,} bytes"))
            return parsed
        raw = path.read_bytes()
    except OSError as exc:
        parsed.errors.append((0, f"cannot read the log: {exc.strerror or exc}"))
        return parsed
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        parsed.errors.append((raw[: exc.start].count(b"\n") + 1, "the log is not UTF-8 text"))
        return parsed
    # JSON Lines end lines with "\n" only: U+2028 and friends may stand inside strings
    for number, line in enumerate(text.split("\n"), start=1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        try:
            data = json.loads(stripped)
        except json.JSONDecodeError as exc:
            column = exc.colno + len(line) - len(line.lstrip())
            parsed.errors.append((number, f"bad JSON: {exc.msg} (column {column})"))
            return parsed
        except (ValueError, RecursionError) as exc:  # huge numbers, deep nesting
            message = "nesting too deep" if isinstance(exc, RecursionError) else str(exc)
            parsed.errors.append((number, f"bad JSON: {message}"))
            return parsed
        if not isinstance(data, dict):
            parsed.errors.append((number, "each line must be a JSON object"))
            return parsed
        entry = LogLine(number, data, stripped)
        if parsed.header is None:
            if not _check(parsed, entry, "header", strict):
                return parsed
            parsed.header = entry
            continue
        definition = next((k for k in EVENT_KINDS if _fits(k, data)), None)
        if definition is None:
            parsed.errors.append((number, _describe_event_error(data)))
            return parsed
        if not _check(parsed, entry, definition, strict):
            return parsed
        expected = len(parsed.events) + 1
        if data["n"] != expected:
            parsed.errors.append(
                (
                    number,
                    f"event number n={data['n']} where n={expected} "
                    "was expected (events are numbered 1, 2, 3, …)",
                )
            )
            return parsed
        parsed.events.append(entry)
    if parsed.header is None and not parsed.errors:
        parsed.errors.append((1, "the log is empty: line 1 must be the header"))
    return parsed


def _fits(definition: str, data: dict[str, Any]) -> bool:
    key = {
        "decision": "choice",
        "chance": "chance",
        "score_checkpoint": "scores",
        "digest_checkpoint": "state_digest",
    }[definition]
    return key in data


def _check(parsed: ParsedLog, entry: LogLine, definition: str, strict: bool) -> bool:
    errors = sorted(_validator(definition).iter_errors(entry.data), key=lambda e: list(e.path))
    if errors:
        error = errors[0]
        where = "/".join(str(p) for p in error.absolute_path)
        what = "the header" if definition == "header" else f"a {definition.replace('_', ' ')}"
        parsed.errors.append(
            (
                entry.line,
                f"{what} is invalid: {error.message}" + (f" (at {where})" if where else ""),
            )
        )
        return False
    unknown = sorted(set(entry.data) - _known_keys(definition))
    if unknown:
        message = f"unknown key{'s' if len(unknown) > 1 else ''} {', '.join(map(repr, unknown))}"
        if strict:
            parsed.errors.append((entry.line, message + " (not allowed with --strict)"))
            return False
        parsed.warnings.append((entry.line, message + " (ignored)"))
    return True


def _describe_event_error(data: dict[str, Any]) -> str:
    if "n" not in data:
        return "an event needs `n` (its sequence number)"
    return (
        "an event is a decision (`player` and `choice`), a chance outcome (`chance` and "
        "`outcome`) or a checkpoint (`scores` or `state_digest`)"
    )
