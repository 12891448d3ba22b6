"""Parsed YAML into plain data (dicts, lists, texts, numbers), keeping every node's place.

Two readings give one result. libyaml's parsing events (``from_events``: the fast
path of ``fast_yaml``) become data directly: no nodes are composed, and ruamel's
round-trip constructor makes only the scalars that are not texts (composing
libyaml's nodes from a second parse of each file, and resolving every tag, made
loading the 18 files of the largest bundled ruleset take 729 M instructions instead
of 416 M); the pure reader's round-trip data (``from_round_trip``: ``CommentedMap``
and ``CommentedSeq`` with their ``lc`` positions) is walked the same way. Both
record a key's and a value's position from the node's start mark, and the span of
every text (tests/load/test_fast_yaml.py compares the two on every bundled file).

``from_events`` takes only what it reads exactly as the round-trip constructor does:
a merge key (``<<``), a duplicate key, an alias, a second document raise ``Unusual``,
and the text goes to the pure reader (explicit tags and anchors never come here:
``fast_yaml.same_reading``). It refuses what must not be composed as it meets it
(too deep, a number too long, a collection as a key) with the errors
``yaml_source._scan_events`` gives the pure reader's events.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ruamel.yaml.events import (
    AliasEvent,
    DocumentStartEvent,
    MappingEndEvent,
    MappingStartEvent,
    ScalarEvent,
    SequenceEndEvent,
    SequenceStartEvent,
)
from ruamel.yaml.scalarbool import ScalarBoolean
from ruamel.yaml.scalarstring import (
    DoubleQuotedScalarString,
    FoldedScalarString,
    LiteralScalarString,
    SingleQuotedScalarString,
)

from interpreter.errors import Diagnostic, LoadError, Location

if TYPE_CHECKING:
    from interpreter.load.yaml_source import Document, JsonPath, Limits


class Unusual(Exception):
    """The events hold something ``from_events`` leaves to the pure reader."""


@dataclass
class ScalarSpan:
    """Where a string scalar's text starts and how its lines map back to the file."""

    line: int  # 1-based line of the first character of the text
    column: int  # 1-based column of the first character
    block: bool  # literal/folded block: line i of the text is file line ``line + i``
    indent: int  # for blocks: 1-based column of each content line
    literal: bool = False  # a literal (|) block: lines map one to one


# ----------------------------------------------------------------- libyaml's events
def from_events(
    events: list[Any], doc: Document, limits: Limits, scalar: Callable[[Any], Any]
) -> Any:
    """Plain data of libyaml's parsing events (None for a text of comments only),
    composed as ruamel's composer composes its nodes, without making the nodes.

    ``scalar(event)`` gives a scalar event's value: its text, or what the round-trip
    constructor makes of a plain scalar resolved to another tag (``fast_yaml``). The
    events come after ``fast_yaml.same_reading``: no explicit tag, no anchor.
    """
    lines = doc.text.splitlines()
    stream = iter(events)
    path, key_positions, value_positions = doc.path, doc.key_positions, doc.value_positions
    nodes, max_nodes, max_digits = 0, limits.max_nodes, limits.max_int_digits

    # one call a node: the node count, the number check (a text no longer than the
    # longest number allowed needs none) and a plain text's span are done in place
    def walk(event: Any, jpath: JsonPath) -> Any:
        nonlocal nodes
        nodes += 1
        if nodes > max_nodes:
            raise _too_many_nodes(doc, limits)
        kind = type(event)
        if kind is MappingStartEvent:
            refuse_depth(path, event, len(jpath) + 1, limits)
            out: dict[str, Any] = {}
            seen: set[Any] = set()
            for key_event in stream:
                key_kind = type(key_event)
                if key_kind is MappingEndEvent:
                    return out
                if key_kind is not ScalarEvent:
                    if key_kind is MappingStartEvent or key_kind is SequenceStartEvent:
                        raise collection_key(path, key_event)
                    raise Unusual
                if not key_event.style and len(key_event.value) > max_digits:
                    refuse_long_number(path, key_event, limits)
                key = scalar(key_event)
                mark = key_event.start_mark
                if type(key) is not str and not _plain_key(key):
                    raise _bad_key(doc, mark.line, mark.column)
                if key in seen:  # a duplicate, or `1` after `true`: the first one counts
                    raise Unusual
                seen.add(key)
                child = (*jpath, str(key))
                key_positions[child] = Location(path, mark.line + 1, mark.column + 1)
                value_event = next(stream)
                mark = value_event.start_mark
                value_positions[child] = Location(path, mark.line + 1, mark.column + 1)
                out[child[-1]] = walk(value_event, child)
            raise Unusual  # the events ended inside a mapping
        if kind is SequenceStartEvent:
            refuse_depth(path, event, len(jpath) + 1, limits)
            items = []
            for index, item_event in enumerate(stream):
                if type(item_event) is SequenceEndEvent:
                    return items
                child = (*jpath, index)
                mark = item_event.start_mark
                value_positions[child] = Location(path, mark.line + 1, mark.column + 1)
                items.append(walk(item_event, child))
            raise Unusual
        if kind is not ScalarEvent:
            raise Unusual  # an alias (same_reading leaves none with its anchor)
        style = event.style
        if not style and len(event.value) > max_digits:
            refuse_long_number(path, event, limits)
        value = scalar(event)
        if type(value) is str:
            start = value_positions.get(jpath)
            if start is None:
                return value
            if style == "|" or style == ">":
                _record_span(doc, jpath, style, lines)
            else:  # plain or quoted: the text starts at the node (after its quote)
                quoted = style == "'" or style == '"'
                doc.spans[jpath] = ScalarSpan(start.line, start.column + quoted, False, 1)
            return value
        if isinstance(value, str):
            if jpath in value_positions:
                _record_span(doc, jpath, style, lines)
            return str(value)
        return _scalar(value, jpath, doc, limits)

    root = None
    documents = 0
    for event in stream:
        if type(event) in (MappingStartEvent, SequenceStartEvent, ScalarEvent, AliasEvent):
            if root is not None:
                raise Unusual
            root = walk(event, ())
        elif type(event) is DocumentStartEvent:
            documents += 1
            if documents > 1:
                raise Unusual  # the pure reader's scan refuses a second document there
    return root


# ------------------------------------------------------- the pure reader's round trip
def from_round_trip(root: Any, doc: Document, limits: Limits) -> Any:
    """Plain data of ruamel's round-trip data (positions from its ``lc``)."""
    lines = doc.text.splitlines()
    counter = [0]

    def walk(node: Any, jpath: JsonPath) -> Any:
        _count(counter, doc, limits)
        if isinstance(node, dict):
            out: dict[str, Any] = {}
            lc = getattr(node, "lc", None)
            for key, value in node.items():
                if not _plain_key(key):
                    line, col = lc.key(key) if lc is not None else (0, 0)
                    raise _bad_key(doc, line, col)
                child = (*jpath, str(key))
                if lc is not None:
                    try:
                        kl, kc = lc.key(key)
                        doc.key_positions[child] = Location(doc.path, kl + 1, kc + 1)
                        vl, vc = lc.value(key)
                        doc.value_positions[child] = Location(doc.path, vl + 1, vc + 1)
                    except (KeyError, TypeError):
                        pass
                out[child[-1]] = walk(value, child)
            return out
        if isinstance(node, list):
            items = []
            lc = getattr(node, "lc", None)
            for index, value in enumerate(node):
                child = (*jpath, index)
                if lc is not None:
                    try:
                        il, ic = lc.item(index)
                        doc.value_positions[child] = Location(doc.path, il + 1, ic + 1)
                    except (KeyError, TypeError):
                        pass
                items.append(walk(value, child))
            return items
        if isinstance(node, str):
            if jpath in doc.value_positions:
                _record_span(doc, jpath, _style(node), lines)
            return str(node)
        return _scalar(node, jpath, doc, limits)

    return walk(root, ())


def _style(text: str) -> str | None:
    """The YAML style a round-trip text was written in (its class keeps it)."""
    if isinstance(text, LiteralScalarString):
        return "|"
    if isinstance(text, FoldedScalarString):
        return ">"
    if isinstance(text, SingleQuotedScalarString | DoubleQuotedScalarString):
        return '"'
    return None


# -------------------------------------------------------------------- shared parts
def _count(counter: list[int], doc: Document, limits: Limits) -> None:
    counter[0] += 1
    if counter[0] > limits.max_nodes:
        raise _too_many_nodes(doc, limits)


def _too_many_nodes(doc: Document, limits: Limits) -> LoadError:
    return located_error(
        doc.path,
        1,
        1,
        f"more than {limits.max_nodes:,} nodes after aliases",
        "aliases are expanded when loading; write smaller files",
    )


def _plain_key(key: Any) -> bool:
    """Whether a mapping key is a text, a number or a truth value (kept as its text)."""
    return isinstance(key, str | int | bool) and not isinstance(key, float)


def _bad_key(doc: Document, line: int, column: int) -> LoadError:
    """The error for a key that is not plain, at its 0-based ``line`` and ``column``."""
    return located_error(doc.path, line + 1, column + 1, "mapping keys must be plain names")


def _scalar(value: Any, jpath: JsonPath, doc: Document, limits: Limits) -> Any:
    """A scalar that is not a text as a plain ``bool``, ``int``, ``float`` or None."""
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, ScalarBoolean):  # an anchored `&a true`: an int subclass
        return bool(value)
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        if not math.isfinite(value) or abs(value) > 10**limits.max_int_digits:
            location = doc.value_positions.get(jpath, Location(doc.path, 1, 1))
            raise LoadError(
                [
                    Diagnostic(
                        location,
                        f"number {value!r} is out of range",
                        "numbers in rulesets are small whole numbers",
                        kind="yaml",
                    )
                ]
            )
        return float(value)
    return str(value)


def _record_span(doc: Document, jpath: JsonPath, style: str | None, lines: list[str]) -> None:
    start = doc.value_positions[jpath]
    if style in ("|", ">"):
        # The content starts on the line after the indicator (blank lines included).
        header_line = lines[start.line - 1] if start.line <= len(lines) else ""
        header = header_line[start.column - 1 :].split("#")[0]
        digits = [c for c in header[1:3] if c.isdigit()]
        if digits:  # an indentation indicator: relative to the parent's indentation
            parent = len(header_line) - len(header_line.lstrip(" "))
            indent = parent + int(digits[0]) + 1
        else:
            indent = 1
            for text in lines[start.line :]:
                if text.strip():
                    indent = len(text) - len(text.lstrip(" ")) + 1
                    break
        doc.spans[jpath] = ScalarSpan(start.line + 1, indent, True, indent, style == "|")
        return
    quoted = style in ("'", '"')
    doc.spans[jpath] = ScalarSpan(start.line, start.column + (1 if quoted else 0), False, 1)


def located_error(
    path: str, line: int, col: int, message: str, hint: str | None = None
) -> LoadError:
    """A YAML error at a 1-based ``line`` and ``col`` of ``path`` (``yaml_source`` too)."""
    return LoadError([Diagnostic(Location(path, line, col), message, hint, kind="yaml")])


def error_at(path: str, event: Any, message: str, hint: str | None = None) -> LoadError:
    """A YAML error where a parsing event starts."""
    mark = event.start_mark
    return located_error(path, mark.line + 1, mark.column + 1, message, hint)


# The refusals of what must not be composed, made as each event is met: by
# ``yaml_source._scan_events`` before the pure reader composes, and by ``from_events``
# as it walks libyaml's events (the same events in the same order, so the same error).
def refuse_depth(path: str, event: Any, depth: int, limits: Limits) -> None:
    if depth > limits.max_depth:
        raise error_at(
            path, event, f"nesting deeper than {limits.max_depth} levels", "flatten the structure"
        )


def refuse_long_number(path: str, event: Any, limits: Limits) -> None:
    """A plain scalar of more digits than numbers in rules have (``int`` of a long
    text costs time quadratic in its length)."""
    digits = event.value.lstrip("+-").replace("_", "")
    if digits.isdigit() and len(digits) > limits.max_int_digits:
        raise error_at(
            path,
            event,
            f"number has more than {limits.max_int_digits} digits",
            "numbers in rulesets are small integers",
        )


def is_mapping(event: Any) -> bool:
    """Whether a collection's start event starts a mapping (the pure parser's or libyaml's)."""
    return type(event).__name__ == "MappingStartEvent"


def collection_key(path: str, event: Any) -> LoadError:
    """A mapping or list used as a key: ruamel builds one in time exponential in its
    nesting ({{{{…}}}}: 35 bytes hang the loader), so it is refused before that."""
    kind = "mapping" if is_mapping(event) else "list"
    return error_at(
        path,
        event,
        f"a {kind} cannot be a key",
        "keys are plain names: remove the braces or brackets, or quote the key",
    )
