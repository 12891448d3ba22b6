"""Read one YAML file safely into plain data, keeping the position of every node.

Only data is loaded: no tag builds an object. Before the document is composed, its
event stream is scanned once so that alias bombs, deep nesting and foreign tags are
refused with a located error instead of exhausting memory or the stack.

Parsing goes through libyaml when it is installed (``fast_yaml``: the same
Document, a tenth of the CPU); ``TABLETOP_RULES_PURE_YAML=1`` forces the
pure-Python reader, which also reads whatever libyaml refuses.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.error import MarkedYAMLError, YAMLError
from ruamel.yaml.events import (
    AliasEvent,
    CollectionEndEvent,
    CollectionStartEvent,
    NodeEvent,
    ScalarEvent,
)

from interpreter.errors import Diagnostic, LoadError, Location
from interpreter.load import buffers, fast_yaml, plain
from interpreter.load.plain import ScalarSpan

JsonPath = tuple[str | int, ...]


@dataclass(frozen=True)
class Limits:
    """Bounds that keep a hostile file from exhausting the machine."""

    max_bytes: int = 2_000_000
    max_aliases: int = 64
    max_depth: int = 48
    max_nodes: int = 200_000
    max_int_digits: int = 12


DEFAULT_LIMITS = Limits()

_CORE_TAGS = {
    None,
    "!",
    "tag:yaml.org,2002:str",
    "tag:yaml.org,2002:int",
    "tag:yaml.org,2002:float",
    "tag:yaml.org,2002:bool",
    "tag:yaml.org,2002:null",
    "tag:yaml.org,2002:map",
    "tag:yaml.org,2002:seq",
}


@dataclass
class Document:
    """A loaded YAML file: plain data plus positions keyed by JSON path."""

    path: str
    text: str
    data: Any
    key_positions: dict[JsonPath, Location] = field(default_factory=dict)
    value_positions: dict[JsonPath, Location] = field(default_factory=dict)
    spans: dict[JsonPath, ScalarSpan] = field(default_factory=dict)
    problems: list[Diagnostic] = field(default_factory=list)  # found, but not fatal

    @property
    def lines(self) -> list[str]:
        return self.text.splitlines()

    def location(self, path: JsonPath, *, key: bool = False) -> Location:
        """The best location for ``path``: the node itself, else its nearest parent."""
        table = self.key_positions if key else self.value_positions
        probe = tuple(path)
        while probe:
            if probe in table:
                return table[probe]
            if probe in self.key_positions:
                return self.key_positions[probe]
            probe = probe[:-1]
        return self.value_positions.get((), Location(self.path, 1, 1))

    def expression_location(self, path: JsonPath, line: int, column: int) -> Location:
        """Map a 1-based (line, column) inside the string at ``path`` to the file.

        The string's characters are aligned with the source text, so positions stay
        exact in folded, multi-line plain and quoted scalars (escapes included).
        """
        span = self.spans.get(tuple(path))
        if span is None:
            return self.location(path)
        if span.block and span.literal:
            return Location(self.path, span.line + line - 1, span.indent + column - 1)
        value = value_at(self.data, path)
        if not isinstance(value, str):
            return Location(self.path, span.line, span.column + column - 1)
        lines = value.split("\n")
        index = sum(len(text) + 1 for text in lines[: line - 1]) + column - 1
        positions = _align(
            value, self.lines, span.line, span.column, span.indent - 1 if span.block else None
        )
        if 0 <= index < len(positions):
            row, col = positions[index]
            return Location(self.path, row, col)
        if positions:
            row, col = positions[-1]
            return Location(self.path, row, col + 1)
        return Location(self.path, span.line, span.column)


def value_at(data: Any, path: JsonPath) -> Any:
    """The value at ``path`` inside plain data, or None if there is none."""
    for key in path:
        try:
            data = data[key]
        except (KeyError, IndexError, TypeError):
            return None
    return data


def _align(
    value: str, lines: list[str], line: int, column: int, indent: int | None = None
) -> list[tuple[int, int]]:
    """For each character of ``value``, the (line, column) it was read from.

    Walks the value and the source together from the scalar's start; source
    characters that are not in the value (quotes, escapes' backslashes, indentation,
    folded line breaks) are skipped.
    """
    out: list[tuple[int, int]] = []
    row, col = line, column
    if indent is not None and row <= len(lines):
        col = min(indent + 1, len(lines[row - 1]) + 1)
    limit = len(value) * 4 + 200
    steps = 0
    i = 0
    while i < len(value) and row <= len(lines) and steps < limit:
        steps += 1
        text = lines[row - 1]
        if col > len(text):
            if value[i] in " \n":  # a folded line break
                out.append((row, col))
                i += 1
            row, col = row + 1, 1
            while (
                row <= len(lines)
                and col <= len(lines[row - 1])
                and lines[row - 1][col - 1] == " "
                and (indent is None or col <= indent)
            ):
                col += 1
            continue
        if text[col - 1] == value[i]:
            out.append((row, col))
            i += 1
        col += 1
    return out


def load_file(
    path: str | Path, limits: Limits = DEFAULT_LIMITS, display: str | None = None
) -> Document:
    """Read ``path`` and load it; every problem becomes a located ``LoadError``."""
    shown = display or str(path)
    if (unsaved := buffers.text_for(path)) is not None:  # an editor's text (lsp)
        return load_bytes(unsaved.encode("utf-8"), shown, limits)
    try:
        size = Path(path).stat().st_size
        if size > limits.max_bytes:
            raise _error(
                shown,
                1,
                1,
                f"file is {size:,} bytes; the limit is {limits.max_bytes:,}",
                "split the content into several files listed under `include`",
            )
        raw = Path(path).read_bytes()
    except OSError as exc:
        raise _error(shown, 0, 0, f"cannot read file: {exc.strerror or exc}") from None
    return load_bytes(raw, shown, limits)


def load_bytes(raw: bytes, path: str, limits: Limits = DEFAULT_LIMITS) -> Document:
    if len(raw) > limits.max_bytes:
        raise _error(path, 1, 1, f"file is {len(raw):,} bytes; the limit is {limits.max_bytes:,}")
    if b"\x00" in raw:
        raise _error(
            path, 1, 1, "this is a binary file, not YAML text", "ruleset files are UTF-8 text"
        )
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise _error(
            path, line, 1, "file is not valid UTF-8 text", "save the file as UTF-8"
        ) from None
    return load_text(text, path, limits)


def load_text(text: str, path: str, limits: Limits = DEFAULT_LIMITS) -> Document:
    if not text.strip():
        raise _error(path, 1, 1, "file is empty", "a ruleset file is a YAML mapping")
    document = Document(path=path, text=text, data=None)

    def from_events(events: list[Any], scalar: Any) -> Any:
        return plain.from_events(events, document, limits, scalar)

    loaded = fast_yaml.read(text, from_events)
    if loaded is not None:
        (document.data,) = loaded  # a text libyaml reads has no duplicate keys (plain.py)
        empty = document.data is None
    else:  # the pure reader, on a fresh document (from_events may have begun one)
        document = Document(path=path, text=text, data=None)
        document.problems, root = _load_pure(text, path, limits)
        empty = root is None
        if not empty:
            document.data = plain.from_round_trip(root, document, limits)
    if empty:
        raise _error(
            path, 1, 1, "file is empty (it holds only comments)", "a ruleset file is a YAML mapping"
        )
    return document


def _load_pure(text: str, path: str, limits: Limits) -> tuple[list[Diagnostic], Any]:
    yaml = YAML(typ="rt", pure=True)
    yaml.preserve_quotes = True
    yaml.allow_duplicate_keys = True  # reported by _scan_events, without losing the file
    try:
        problems = _scan_events(YAML(typ="safe", pure=True).parse(text), path, limits)
        root = yaml.load(text)
    except LoadError:
        raise
    except MarkedYAMLError as exc:
        raise _from_marked(exc, path) from None
    except YAMLError as exc:
        raise _error(path, 1, 1, f"YAML error: {exc}") from None
    except RecursionError:
        raise _error(path, 1, 1, "nesting is too deep to load") from None
    except (ValueError, IndexError, KeyError, TypeError, OverflowError, AttributeError):
        raise _bad_scalar(YAML(typ="rt", pure=True), text, path) from None
    except (AssertionError, NotImplementedError):  # ruamel's comment keeping fails on
        # `a:  # c\n  value\n\n` and `# c\n  | # x`; libyaml (fast_yaml) reads them
        raise _error(
            path,
            1,
            1,
            "the YAML reader fails on a comment next to a value",
            "move comments after `key:` or `|` to a line of their own",
        ) from None
    return problems, root


def _scan_events(events: Iterable[Any], path: str, limits: Limits) -> list[Diagnostic]:
    """Refuse what must not be composed; return duplicate keys as located problems.

    A duplicate key does not stop loading (the first value is kept), so one slip
    does not hide the rest of the file from the other checks. The events come from
    the pure parser or from libyaml (whose plain scalars have style ``''``).
    """
    depth = aliases = documents = 0
    problems: list[Diagnostic] = []
    # per open collection: None for a sequence, else (keys seen, expecting a key?)
    stack: list[list | None] = []
    for event in events:
        name = type(event).__name__
        if name == "DocumentStartEvent":
            documents += 1
            if documents > 1:
                raise _at(
                    path,
                    event,
                    "a ruleset file holds one YAML document",
                    "remove the `---` separator or split the file",
                )
        is_key = bool(stack) and stack[-1] is not None and stack[-1][1]
        if isinstance(event, NodeEvent) and stack and stack[-1] is not None:
            stack[-1][1] = not stack[-1][1]
        if isinstance(event, AliasEvent):
            aliases += 1
            if aliases > limits.max_aliases:
                raise _at(
                    path,
                    event,
                    f"more than {limits.max_aliases} aliases",
                    "aliases are limited to stop alias bombs; write the values out",
                )
        elif isinstance(event, NodeEvent):
            tag = getattr(event, "tag", None)
            tag = (
                getattr(tag, "value", tag) if tag is not None and not isinstance(tag, str) else tag
            )
            if tag not in _CORE_TAGS:
                raise _at(
                    path,
                    event,
                    f"tag {tag!r} is not allowed",
                    "ruleset files hold plain data: remove the tag",
                )
        if is_key and isinstance(event, ScalarEvent):
            keys = stack[-1][0]
            if event.value in keys:
                mark = event.start_mark
                problems.append(
                    Diagnostic(
                        Location(path, mark.line + 1, mark.column + 1),
                        f"YAML syntax: duplicate key {event.value!r}",
                        "each key may appear once in a mapping; remove or rename one "
                        f"(the first is at line {keys[event.value]})",
                        kind="yaml",
                    )
                )
            else:
                keys[event.value] = event.start_mark.line + 1
        if is_key and isinstance(event, CollectionStartEvent):
            raise plain.collection_key(path, event)
        if isinstance(event, CollectionStartEvent):
            depth += 1
            plain.refuse_depth(path, event, depth, limits)
            stack.append([{}, True] if plain.is_mapping(event) else None)
        elif isinstance(event, CollectionEndEvent):
            depth -= 1
            if stack:
                stack.pop()
        elif isinstance(event, ScalarEvent) and not event.style:  # plain
            plain.refuse_long_number(path, event, limits)
    return problems


def _bad_scalar(yaml: YAML, text: str, path: str) -> LoadError:
    """Find the scalar the YAML reader could not turn into a value, and say where."""
    try:
        root = yaml.compose(text)
    except Exception:
        root = None
    pending = [root] if root is not None else []
    while pending:
        node = pending.pop()
        value = getattr(node, "value", None)
        if isinstance(value, list):
            for item in reversed(value):
                pending.extend(reversed(item) if isinstance(item, tuple) else [item])
            continue
        try:
            yaml.constructor.construct_object(node, deep=True)
        except Exception:
            mark = node.start_mark
            return _error(
                path,
                mark.line + 1,
                mark.column + 1,
                f"cannot read {value!r} as a value of type {node.tag.split(':')[-1]}",
                "write it as a plain number, or quote it to make it a text",
            )
    return _error(
        path,
        1,
        1,
        "the YAML reader cannot read this file",
        "check the values' forms; quote texts that look like numbers or dates",
    )


# what the scanner and parser call the things they read, in the words of the docs
_THINGS = {
    "quoted scalar": "quoted text",
    "plain scalar": "text",
    "block scalar": "block text (`|` or `>`)",
    "simple key": "key",
    "block collection": "block list",
    "block mapping": "block mapping",
    "flow sequence": "flow list",
    "flow mapping": "flow mapping",
    "anchor": "anchor (`&`)",
    "alias": "alias (`*`)",
    "tag": "tag (`!`)",
    "directive": "directive (`%`)",
}


def _thing(context: str) -> tuple[str, bool]:
    """What a parser context (``while scanning a quoted scalar``) is about, in words,
    and whether it is a collection (which can be left open)."""
    name = context.removeprefix("while parsing ").removeprefix("while scanning ")
    name = name.removeprefix("a ").removeprefix("an ").strip()
    return _THINGS.get(name, name), context.startswith("while parsing") and (
        "collection" in name or "mapping" in name or "sequence" in name or "node" in name
    )


def _from_marked(exc: MarkedYAMLError, path: str) -> LoadError:
    mark = exc.problem_mark or exc.context_mark
    line, col = (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)
    problem = exc.problem or exc.context or "invalid YAML"
    hint = None
    context_mark = exc.context_mark
    context = exc.context or ""
    if "quoted scalar" in context and context_mark is not None:
        quote = _char_at(exc, context_mark) or '"'
        return _error(
            path,
            context_mark.line + 1,
            context_mark.column + 1,
            "YAML syntax: a quoted text is not closed",
            f"add the closing {quote} where the text ends (without it, the text runs on to "
            f"{line}:{col}{', the end of the file' if 'end of stream' in problem else ''})",
        )
    if context and context_mark is not None and exc.problem:
        thing, collection = _thing(context)
        start = f"{context_mark.line + 1}:{context_mark.column + 1}"
        if thing == "key":
            hint = (
                f"the line at {start} is read as a key, but no `:` follows it; "
                "give it a value (`key: value`) or make it part of the text above"
            )
        elif (context_mark.line, context_mark.column) == (line - 1, col - 1):
            hint = None
        elif collection:
            hint = f"the {thing} that starts at {start} is not closed properly"
        else:
            hint = f"in the {thing} that starts at {start}"
    if "duplicate key" in problem:
        hint = "each key may appear once in a mapping; remove or rename one"
        key = _duplicate_key_name(str(exc))
        problem = f"duplicate key {key!r}" if key else "duplicate key"
    elif "tab" in problem or "\t" in problem or "'\\t'" in problem:
        hint = "indent with spaces, not tabs"
    elif "mapping values are not allowed" in problem:
        hint = "a value containing ': ' must be quoted" + (f"; {hint}" if hint else "")
    return _error(path, line, col, f"YAML syntax: {problem}", hint)


def _char_at(exc: MarkedYAMLError, mark: Any) -> str | None:
    buffer = getattr(mark, "buffer", None)
    index = getattr(mark, "index", None)
    if isinstance(buffer, str) and isinstance(index, int) and 0 <= index < len(buffer):
        return buffer[index]
    return None


def _duplicate_key_name(text: str) -> str | None:
    marker = 'found duplicate key "'
    if marker in text:
        return text.split(marker, 1)[1].split('"', 1)[0]
    return None


_at = plain.error_at


_error = plain.located_error
