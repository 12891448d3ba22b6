"""Positions: the interpreter counts 1-based lines and characters, LSP counts 0-based
lines and UTF-16 code units. Every conversion goes through here."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import unquote, urlparse

from lsprotocol import types

from interpreter.errors import Location

WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_WORD_CHAR = re.compile(r"[A-Za-z0-9_]")


def uri_to_path(uri: str) -> Path:
    """The file a ``file://`` URI names, resolved (as the loader keys its files)."""
    parsed = urlparse(uri)
    return Path(unquote(parsed.path)).resolve()


def path_to_uri(path: Path) -> str:
    return path.resolve().as_uri()


def absolute(shown: str) -> Path:
    """A path as diagnostics show it (relative to the working folder when it can be)."""
    path = Path(shown)
    return (path if path.is_absolute() else Path.cwd() / path).resolve()


def utf16_column(line_text: str, characters: int) -> int:
    """UTF-16 code units in the first ``characters`` characters of a line."""
    head = line_text[:characters]
    return len(head) + sum(1 for c in head if ord(c) > 0xFFFF)


def character_index(line_text: str, utf16: int) -> int:
    """The character index of a UTF-16 column (the inverse of ``utf16_column``)."""
    units = 0
    for index, c in enumerate(line_text):
        if units >= utf16:
            return index
        units += 2 if ord(c) > 0xFFFF else 1
    return len(line_text)


def line_of(lines: list[str], number: int) -> str:
    """0-based line ``number`` of ``lines``, or '' past the end."""
    return lines[number] if 0 <= number < len(lines) else ""


def span_range(lines: list[str], line: int, column: int, length: int) -> types.Range:
    """The LSP range of ``length`` characters from 1-based (``line``, ``column``)."""
    text = line_of(lines, line - 1)
    start = max(column - 1, 0)
    end = min(start + max(length, 0), len(text))
    return types.Range(
        types.Position(max(line - 1, 0), utf16_column(text, start)),
        types.Position(max(line - 1, 0), utf16_column(text, max(end, start))),
    )


def location_range(lines: list[str], location: Location) -> types.Range:
    """A diagnostic's range: the word (or else the one character) it points at.

    Diagnostics carry where a problem starts; the word there is the name, key or
    token the message is about, which is what an editor should underline.
    """
    if location.line <= 0:
        return types.Range(types.Position(0, 0), types.Position(0, 0))
    text = line_of(lines, location.line - 1)
    start = max(location.column - 1, 0)
    if start >= len(text):  # at the end of the line: underline its last character
        start = max(len(text) - 1, 0)
        return span_range(lines, location.line, start + 1, 1 if text else 0)
    match = WORD.match(text, start) if _WORD_CHAR.match(text, start) else None
    length = match.end() - start if match else 1
    return span_range(lines, location.line, start + 1, length)


def word_at(line_text: str, character: int) -> tuple[str, int] | None:
    """The name under (or just before) character index ``character``, with its start."""
    for match in WORD.finditer(line_text):
        if match.start() <= character <= match.end():
            return match.group(0), match.start()
        if match.start() > character:
            break
    return None
