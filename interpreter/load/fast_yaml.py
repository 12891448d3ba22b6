"""Read YAML through libyaml (ruamel.yaml.clib) when it is there: same result, a tenth of the CPU.

The pure-Python reader of ruamel.yaml costs most of a cold ``rules validate``
(~550 ms for the 18 files of a full ruleset); libyaml's C parser gives the same
events, with the same marks, in a few milliseconds. Only the *parsing* moves to C:
the events become plain data in ``plain.from_events``, composed as ruamel's composer
would compose them; a plain scalar's tag is still resolved by ruamel's YAML 1.2
resolver (``yes`` stays a text, ``0o10`` is 8) and a scalar that is not a text still
becomes a value through the round-trip constructor. The loaded data, its types and
every position are those of the pure reader (tests/load/test_fast_yaml.py compares
them on every bundled file).

libyaml reads YAML 1.1 and refuses some YAML 1.2 (``{tiles: list:piece}``): any
text it refuses, or that holds what it could read or place differently (a ``%``
directive, a tab, a Unicode line separator or byte order mark, an explicit tag, an empty value: see
``suitable`` and ``same_reading``), goes to the pure reader, which also gives the
located error. Set ``TABLETOP_RULES_PURE_YAML=1`` to always use the pure reader (to rule
libyaml out when something looks wrong).
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from functools import partial
from typing import Any, TypeVar

from ruamel.yaml.constructor import RoundTripConstructor
from ruamel.yaml.events import CollectionStartEvent, ScalarEvent
from ruamel.yaml.nodes import ScalarNode
from ruamel.yaml.resolver import VersionedResolver

from interpreter.errors import LoadError
from interpreter.load.plain import Unusual

try:  # ruamel.yaml.clib, as ruamel.yaml offers it: absent on PyPy and where no wheel was installed
    from ruamel.yaml.cyaml import CParser
except ImportError:  # pragma: no cover - depends on the environment
    CParser = None

PURE_SWITCH = "TABLETOP_RULES_PURE_YAML"
U = TypeVar("U")

_BREAK = re.compile("\r\n|\r|\n")  # libyaml's line breaks, once _MISREAD are set aside
# line breaks in YAML 1.1 (libyaml) but not in YAML 1.2 (the pure reader), and a byte
# order mark inside the text, which libyaml skips without counting a column
_MISREAD = ("\x85", "\u2028", "\u2029", "\ufeff")


def enabled() -> bool:
    """Whether libyaml is importable and not switched off by the environment."""
    return CParser is not None and os.environ.get(PURE_SWITCH, "").strip() in ("", "0")


def suitable(text: str) -> bool:
    """Whether libyaml can read ``text`` with the pure reader's meaning.

    A ``%YAML``/``%TAG`` directive changes how the pure reader resolves scalars,
    YAML 1.1's extra line breaks and a byte order mark inside the text move
    positions, and libyaml takes tabs where the pure reader refuses them
    (``a:<tab>1``): all go to the pure reader.
    """
    if text.startswith("%") or "\n%" in text or "\r%" in text or "\t" in text:
        return False
    return not any(mark in text for mark in _MISREAD)


def same_reading(parsed: list[Any], text: str) -> bool:
    """Whether the nodes of these events load as the pure reader loads them.

    Not so for an empty value (``key:``, ``- ``), which the pure reader places at
    the next token; an explicit tag (``!!str 10`` is a ``TaggedScalar`` there, kept
    without its text span); an anchor (libyaml's nodes lose it, and the pure reader
    makes ``&a true`` a ``ScalarBoolean``; libyaml also ends names sooner: ``&a:b``);
    a block header libyaml takes and the pure reader refuses (``|#``, a blank line
    with spaces before the text, a comment after a ``|`` that starts its line); a
    bare scalar as the whole file. Such texts go to the pure reader.
    """
    if len(parsed) > 2 and not isinstance(parsed[2], CollectionStartEvent):
        return False
    lines: list[str] = []
    for event in parsed:
        # ``ctag``: what an event's ``tag`` is made from (None alike), without the call
        if type(event) is not ScalarEvent:
            if (
                getattr(event, "ctag", None) is not None
                or getattr(event, "anchor", None) is not None
            ):
                return False
            continue
        if event.ctag is not None or event.anchor is not None:
            return False
        style = event.style
        if style == "|" or style == ">":
            lines = lines or _BREAK.split(text)
            if not _plain_block_header(lines, event.start_mark.line, event.start_mark.column):
                return False
        elif not style and event.value == "":
            return False
    return True


def _plain_block_header(lines: list[str], row: int, column: int) -> bool:
    """Whether a block scalar's header (``|``, ``>-``, ``|2  # note``…) and its first
    lines read alike in libyaml and the pure reader."""
    header = lines[row][column:]
    indicators = header[1:3].rstrip(" #")
    after = header[1 + len(indicators) :]
    if indicators.strip("+-0123456789") != "" or after[:1] not in ("", " "):
        return False
    if after.strip(" ") and not lines[row][:column].strip(" "):
        return False  # a comment after a `|` that starts its line: the pure reader fails
    if any(c.isdigit() for c in indicators):
        return True
    for line in lines[row + 1 :]:  # leading blank lines: spaces are read differently
        if line.strip(" "):
            return True
        if line:
            return False
    return True


def events(text: str) -> list[Any]:
    """Every parsing event of ``text``; raises ``YAMLError`` if libyaml refuses it."""
    parser = CParser(text)
    try:
        out = []
        while parser.check_event():
            out.append(parser.get_event())
        return out
    finally:
        parser.dispose()


if CParser is not None:

    class _Loader(CParser, RoundTripConstructor, VersionedResolver):  # type: ignore[misc]
        """The 1.2 resolver and the round-trip constructor that a scalar's value needs,
        assembled the way ruamel.yaml assembles its own C loaders (the parser's part
        is not used: the events were read already)."""

        comment_handling = None  # libyaml keeps no comments; nor do the plain data
        # what ruamel's resolver works out again for every scalar: the YAML version of
        # the text, which is 1.2 here (``suitable`` sends a `%YAML` directive elsewhere)
        processing_version = (1, 2)

        def __init__(self, text: str) -> None:
            CParser.__init__(self, text)
            self._parser = self._composer = self
            RoundTripConstructor.__init__(self, preserve_quotes=True, loader=self)
            self.allow_duplicate_keys = True  # reported by the event scan; the first value counts
            VersionedResolver.__init__(self, version=None, loadumper=self)


def read(text: str, convert: Callable[[list[Any], Callable], U]) -> tuple[U] | None:
    """``(convert(events, scalar),)`` of the events of ``text``, or None to read it with
    the pure reader: no libyaml, switched off, or a text libyaml refuses or may read
    otherwise.

    ``convert(events, scalar)`` gets ``scalar``, which gives a scalar event's value
    as ruamel's composer and round-trip constructor would (``plain.from_events``); it
    raises ``plain.Unusual`` to leave the text to the pure reader, and refuses what
    must not be composed (bombs, deep nesting) as it meets it, raising ``LoadError``,
    which passes through. The whole text is parsed first, so it sees only text
    libyaml reads. Anything else is left to the pure reader and its located errors.
    """
    if not enabled() or not suitable(text):
        return None
    try:
        parsed = events(text)
    except Exception:  # YAMLError mostly: the pure reader says where, in its words
        return None
    if not same_reading(parsed, text):
        return None
    loader = _Loader(text)
    try:
        return (convert(parsed, partial(_scalar_value, loader)),)
    except LoadError:
        raise
    except Exception:  # plain.Unusual, or a value it cannot hold: the pure reader says where
        return None
    finally:
        loader.dispose()


TEXT_TAG = "tag:yaml.org,2002:str"
MERGE_TAG = "tag:yaml.org,2002:merge"  # `<<`: the round-trip constructor merges mappings
_PLAIN: dict[str, Any] = {}  # a plain scalar's text -> its value, where one is immutable
_PLAIN_KEPT = 65_536  # distinct texts remembered (a ruleset has a few thousand)
_AS_TEXT = object()  # in _PLAIN: the text resolves to a text


def _scalar_value(loader: Any, event: ScalarEvent) -> Any:
    """A scalar event's value, as ruamel's composer resolves its tag (a quoted or block
    scalar is a text; a plain one by the YAML 1.2 patterns) and its round-trip
    constructor makes the value. Both depend on a plain scalar's text alone, so a text
    met again (`true`, `0`, every key) is looked up in ``_PLAIN`` where its value is
    a text, a number, a truth value or null (``plain._scalar`` copies a number into a
    plain one; a timestamp is made each time)."""
    text = event.value
    if not event.implicit[0]:
        return text
    value = _PLAIN.get(text, _PLAIN)
    if value is _AS_TEXT:
        return text
    if value is not _PLAIN:
        return value
    tag = loader.resolve(ScalarNode, text, event.implicit)
    tag = str(getattr(tag, "value", tag))
    if tag == TEXT_TAG:
        value = _AS_TEXT
    elif tag == MERGE_TAG:
        raise Unusual
    else:
        node = ScalarNode(tag, text, event.start_mark, event.end_mark, style=event.style)
        value = loader.construct_object(node, deep=True)  # a number, truth value, null, …
    if value is _AS_TEXT or value is None or isinstance(value, int | float):  # plain._scalar
        if len(_PLAIN) >= _PLAIN_KEPT:
            _PLAIN.clear()
        _PLAIN[text] = value
    return text if value is _AS_TEXT else value
