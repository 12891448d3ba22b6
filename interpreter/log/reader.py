"""Read a game log (rules-log/1): JSON Lines with comments, checked line by line.

Reading is lazy: ``open_log`` reads the first block of lines (``BLOCK_BYTES``) and
gives the events one at a time, each block's checked when it is read, so that a
verdict decided at line 2 never waits for the rest of the file; a bad line is raised
once the events before it were given. The whole log and each line have a size cap.
"""

from __future__ import annotations

import errno
import json
import os
import stat
from collections.abc import Iterable, Iterator
from dataclasses import field
from itertools import chain, compress, repeat
from operator import itemgetter, not_
from pathlib import Path
from typing import IO, Any, NamedTuple

try:
    import orjson
except ImportError:  # no wheel for this platform: the standard library's scanner
    orjson = None

from dataclasses import dataclass

from interpreter.log import line_checks

MAX_BYTES = 50_000_000  # a whole log
MAX_LINE_BYTES = 1_000_000  # one line of it
BOM = "\ufeff".encode()  # what "utf-8-sig" drops from the start of a first line
BLOCK_BYTES = 1 << 16  # read at a time: a block's lines are read in one loop
EVENT_KINDS = ("decision", "chance", "score_checkpoint", "digest_checkpoint")


class LogLine(NamedTuple):
    """One line of a log: its number in the file (from 1), its data and which of
    ``EVENT_KINDS`` it is (``log_line`` works it out). A tuple: the reader makes a
    block's lines at C speed (``_lines``), and its fields are read so."""

    line: int
    data: dict[str, Any]
    kind: str


def log_line(line: int, data: dict[str, Any]) -> LogLine:
    """A line whose kind is told by its data (a header's: ``digest_checkpoint``, as no
    event's)."""
    return LogLine(line, data, _definition(data) or "digest_checkpoint")


def _lines(columns: Iterable[tuple[int, dict[str, Any], str]]) -> Iterator[LogLine]:
    """``LogLine``s of (line, data, kind) rows, each made as it is taken and without a
    Python call: none outlives its use, so a block's lines never reach the collector's
    older generations (alive through a whole replayed game, they brought on its full
    collections)."""
    return map(tuple.__new__, repeat(LogLine), columns)


@dataclass
class ParsedLog:
    path: str
    header: LogLine | None = None
    events: list[LogLine] = field(default_factory=list)  # filled by ``read``, not lazily
    errors: list[tuple[int, str]] = field(default_factory=list)
    warnings: list[tuple[int, str]] = field(default_factory=list)
    mod_files: tuple = ()  # the files of the header's mods, once replay has found them


class BadLine(Exception):
    """A line of the log is malformed (the events before it were fine)."""

    def __init__(self, line: int, message: str):
        super().__init__(message)
        self.line = line
        self.message = message


_DECODER = json.JSONDecoder()


def _objects(block: list[bytes]) -> list[Any] | None:
    """The JSON value of each of a block's lines, or None unless each line is UTF-8 and
    one value from its first character to its last.

    orjson, where it is installed, parses a line in half the time of the standard
    library's scanner and means the same by it, but for an integer of 19 digits or
    more, which it makes a float (refused by the checks, as every float is) and for
    what it refuses (text that is not UTF-8, a lone surrogate, NaN): the line is then
    read line by line."""
    if orjson is not None:
        # a blank line or a comment is no JSON to orjson; the spaces it takes around a
        # value (JSON's four) are also stripped by the line path
        try:
            return list(map(orjson.loads, block))
        except orjson.JSONDecodeError:
            return None
    try:
        texts = list(map(bytes.decode, block))
    except UnicodeDecodeError:  # worded line by line
        return None
    try:
        found = list(map(_DECODER.scan_once, texts, repeat(0, len(texts))))
    except (ValueError, RecursionError):
        return None
    if len(found) != len(texts):  # a line without a value at its start: blank, …
        return None
    if list(map(itemgetter(1), found)) != list(map(len, texts)):  # more after it
        return None
    return list(map(itemgetter(0), found))


def read(path: Path, strict: bool = False) -> ParsedLog:
    """The whole log at once: every event in ``events``, the first error in ``errors``."""
    parsed, events = open_log(path, strict)
    try:
        parsed.events.extend(events)
    except BadLine as exc:
        parsed.errors.append((exc.line, exc.message))
    return parsed


def open_log(
    path: Path, strict: bool = False, cut_tail: bool = False
) -> tuple[ParsedLog, Iterator[LogLine]]:
    """The log's header (or the errors that stop it being read) and an iterator of its
    events, read and checked as they are taken; it raises ``BadLine`` at a bad line.
    Warnings of later lines are added to the ParsedLog's ``warnings`` as they are read.

    ``cut_tail``: a last line with no newline that is no JSON was cut short as it was
    written (``rules play`` killed, ``log/stream.py``): it is left out, with a warning,
    rather than an error (``--resume``)."""
    parsed = ParsedLog(str(path))
    try:
        stream = _File.open(path)
    except OSError as exc:
        parsed.errors.append((0, f"cannot read the log: {exc.strerror or exc}"))
        return parsed, iter(())
    if stream.size > MAX_BYTES:
        stream.close()
        parsed.errors.append((1, f"the log is larger than {MAX_BYTES:,} bytes"))
        return parsed, iter(())
    reader = _Reader(parsed, stream, strict, stream.size)
    reader.cut_tail = cut_tail
    try:
        reader.read_header()
    except BadLine as exc:
        parsed.errors.append((exc.line, exc.message))
    except OSError as exc:
        parsed.errors.append((0, f"cannot read the log: {exc.strerror or exc}"))
    if parsed.errors:
        stream.close()
        return parsed, iter(())
    return parsed, reader.events()


class _File:
    """A log file read by its descriptor: ``open`` asks the system for its status (its
    size, for the cap) once, where ``Path.stat`` and ``FileIO`` asked twice. Closed
    once however often ``close`` is called: a descriptor number is reused."""

    __slots__ = ("fd", "size")

    def __init__(self, fd: int, size: int):
        self.fd, self.size = fd, size

    @classmethod
    def open(cls, path: Path) -> _File:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_BINARY", 0))  # no newline translated
        try:
            status = os.fstat(fd)
            if stat.S_ISDIR(status.st_mode):  # opens, where ``open()`` refuses it
                raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR))
        except OSError:
            os.close(fd)
            raise
        return cls(fd, status.st_size)

    def read(self, size: int) -> bytes:
        return os.read(self.fd, size)

    def close(self) -> None:
        fd, self.fd = self.fd, -1
        if fd >= 0:
            os.close(fd)


class _Reader:
    """One pass over a log: the header, then the events, each checked as it is read.

    The file is read a block of lines at a time (``BLOCK_BYTES``) and every line of a
    block decoded, parsed and checked in one loop (``_parse``): reading its lines is a
    tenth of replaying a game, and a call or a generator per line was a good part of
    that."""

    def __init__(
        self, parsed: ParsedLog, stream: IO[bytes] | _File, strict: bool, size: int | None = None
    ):
        self.parsed = parsed
        self.stream = stream
        self.size = size  # the file's, when it was opened
        self.strict = strict
        self.number = 0  # lines read
        self.count = 0  # events read
        self._header_due = True
        self.cut_tail = False  # a last line cut short is left out (``open_log``)
        self._lines = _Events.from_iterable(self._read())

    def _blocks(self) -> Iterator[list[bytes]]:
        """The file's lines (bytes, without their "\\n"), a block at a time, in order;
        the caps are checked as the bytes come: the lines before one over a cap are
        given, then ``BadLine`` is raised at it.

        A block is read ahead of the one given: a log of one block is read to its end
        and closed with its first read, not after its game is replayed, where the
        system calls came after the game and cost several times more (their kernel
        code and data no longer in the processor's caches)."""
        read, rest, given = self.stream.read, b"", 0  # given: bytes of the lines given
        chunk = read(BLOCK_BYTES)
        done = 0  # bytes read
        while chunk:
            done += len(chunk)
            # a read short of the block that reaches the size the file was opened with
            # ended at the file's end (a log still growing would have given more)
            at_end = done == self.size and len(chunk) < BLOCK_BYTES
            ahead = b"" if at_end else read(BLOCK_BYTES)
            if not ahead:
                self.stream.close()
            lines = (rest + chunk).split(b"\n") if rest else chunk.split(b"\n")
            rest = lines.pop()  # the line the next block ends (b"" after a "\n")
            size = sum(map(len, lines)) + len(lines)  # each with its "\n"
            if given + size + len(rest) > MAX_BYTES:
                yield _within(lines, given)
                raise BadLine(self.number + 1, f"the log is larger than {MAX_BYTES:,} bytes")
            if len(rest) > MAX_LINE_BYTES or max(map(len, lines), default=0) > MAX_LINE_BYTES:
                yield list(_until_long(lines))
                raise BadLine(self.number + 1, f"the line is longer than {MAX_LINE_BYTES:,} bytes")
            given += size
            yield lines
            chunk = ahead
        if rest and not (self.cut_tail and _cut_short(rest)):
            yield [rest]
        elif rest:
            self.parsed.warnings.append(
                (self.number + 1, "the last line was cut short (no newline, no JSON): left out")
            )

    def _read(self) -> Iterator[Iterator[LogLine]]:
        """The header, then every event, a block's at a time: each line that holds a
        JSON object (not blank, not a comment), checked. A block's lines are all
        parsed before the first of them is given (replay runs the game between two
        blocks, not between two lines: in turn line by line, the two ran 4 % slower),
        and a bad line is raised once the lines before it were given: when the next
        block is asked for (``_Events`` takes them)."""
        try:
            for block in self._blocks():
                if self.number == 0 and block and block[0].startswith(BOM):
                    block[0] = block[0][len(BOM) :]  # as "utf-8-sig" reads a first line
                if self._header_due:  # given before the rest of its block is parsed: a
                    # replay finds its rules then, next to the system calls of the read
                    header: list[LogLine] = []
                    done, error = self._parse_lines(block, header, until_header=True)
                    yield iter(header)
                    if error is not None:
                        raise error
                    block = block[done:]
                entries, error = self._parse(block)
                yield entries
                if error is not None:
                    raise error
        except OSError as exc:
            raise BadLine(self.number, f"cannot read the log: {exc.strerror or exc}") from None
        finally:
            self.stream.close()

    def _parse(self, block: list[bytes]) -> tuple[Iterator[LogLine], BadLine | None]:
        """The JSON objects of a block's lines, checked; the first bad line's error.

        The lines after the header go through ``_parse_regular`` first: a block of
        well-formed events, as the writer writes them, parsed and checked a column at
        a time; a block it does not take is read line by line (``_parse_lines``), which
        finds and words what is wrong, and gives the same events for the others."""
        regular = self._parse_regular(block)
        if regular is not None:
            return regular, None
        entries: list[LogLine] = []
        error = self._parse_lines(block, entries)[1]
        return iter(entries), error

    def _parse_regular(self, block: list[bytes]) -> Iterator[LogLine] | None:
        """The block's events, or None unless every line is one compact JSON object,
        an event of a known kind that its checks take, numbered in sequence. Nothing
        is changed unless it gives the events (a warning, too, is the other path's)."""
        many = _objects(block)
        if many is None or (many and set(map(type, many)) != {dict}):
            return None
        columns = line_checks.checks(_DEFINITIONS)[1]
        # the first kind (a decision: most of a log's lines) told at C speed by its
        # mark, the others line by line
        first, mark = _MARK_ITEMS[0]
        marked = list(map(dict.__contains__, many, repeat(mark)))
        kinds = [first] * len(many)
        by_kind = {first: list(compress(many, marked))}
        for index in compress(range(len(many)), map(not_, marked)):
            data = many[index]
            definition = _definition(data)
            if definition is None:
                return None
            kinds[index] = definition
            by_kind.setdefault(definition, []).append(data)
        for definition, group in by_kind.items():
            if not columns[definition](group):
                return None
        count = self.count
        if list(map(itemgetter("n"), many)) != list(range(count + 1, count + 1 + len(many))):
            return None
        number = self.number
        self.number, self.count = number + len(many), count + len(many)
        numbers = range(number + 1, number + 1 + len(many))
        many.append(_TAKEN)
        many.reverse()  # each line's data let go of as its line is taken
        return _lines(zip(numbers, iter(many.pop, _TAKEN), kinds, strict=True))

    def _parse_lines(
        self, block: list[bytes], entries: list[LogLine], until_header: bool = False
    ) -> tuple[int, BadLine | None]:
        """The block's lines one by one into ``entries``: how many were read (all of
        them, or up to the header with ``until_header``) and the first bad line's
        error."""
        decode = _DECODER.raw_decode
        checks = line_checks.checks(_DEFINITIONS)[0]
        number, count = self.number, self.count
        done = 0
        try:
            for raw in block:
                number += 1
                done += 1
                try:
                    # JSON Lines end lines with "\n" only: U+2028 and friends may stand
                    # in strings
                    line = raw.decode()
                except UnicodeDecodeError:
                    raise BadLine(number, "the log is not UTF-8 text") from None
                stripped = line.strip()
                if not stripped or stripped[0] == "#":
                    continue
                try:
                    data, end = decode(stripped)  # json.loads less its checks of the text
                    if end != len(stripped):
                        json.loads(stripped)  # raises "Extra data" at its column
                except (ValueError, RecursionError) as exc:
                    raise _bad_json(number, line, exc) from None
                if type(data) is not dict:
                    raise BadLine(number, "each line must be a JSON object")
                if self._header_due:  # the first object of the log
                    entry = log_line(number, data)
                    self._check(entry, "header")
                    self._header_due = False
                    entries.append(entry)
                    if until_header:
                        break
                    continue
                definition = _definition(data)
                if definition is None:
                    raise BadLine(number, _describe_event_error(data))
                entry = LogLine(number, data, definition)
                if not checks[definition](data):
                    self._check(entry, definition)  # the error's words, or a warning
                count += 1
                if data["n"] != count:
                    raise BadLine(
                        number,
                        f"event number n={data['n']} where n={count} "
                        "was expected (events are numbered 1, 2, 3, …)",
                    )
                entries.append(entry)
        except BadLine as error:
            self.number, self.count = number, count
            return done, error
        self.number, self.count = number, count
        return done, None

    def read_header(self) -> None:
        entry = next(self._lines, None)
        if entry is None:
            raise BadLine(1, "the log is empty: line 1 must be the header")
        self.parsed.header = entry

    def events(self) -> Iterator[LogLine]:
        """The events after the header (the same pass over the file)."""
        return self._lines

    def _check(self, entry: LogLine, definition: str) -> None:
        if not line_checks.surely_valid(entry.data, definition):
            self._check_slowly(entry, definition)
        known = line_checks.known_keys(definition)
        if not entry.data.keys() <= known:
            self._unknown_keys(entry, known)

    def _unknown_keys(self, entry: LogLine, known: frozenset[str]) -> None:
        """Keys the schema does not name: an error with ``--strict``, else a warning."""
        unknown = sorted(set(entry.data) - known)
        if unknown:
            message = (
                f"unknown key{'s' if len(unknown) > 1 else ''} {', '.join(map(repr, unknown))}"
            )
            if self.strict:
                raise BadLine(entry.line, message + " (not allowed with --strict)")
            self.parsed.warnings.append((entry.line, message + " (ignored)"))

    def _check_slowly(self, entry: LogLine, definition: str) -> None:
        """The full validator's verdict on a line the fast one refused, in its words."""
        errors = sorted(
            line_checks.full_validator(definition).iter_errors(entry.data),
            key=lambda e: list(e.path),
        )
        if errors:
            error = _meant(errors[0])
            where = "/".join(str(p) for p in error.absolute_path)
            what = "the header" if definition == "header" else f"a {definition.replace('_', ' ')}"
            said = error.schema.get("x-message") if isinstance(error.schema, dict) else None
            shown = repr(error.instance)
            shown = shown if len(shown) <= 60 else shown[:59] + "…"
            problem = f"{shown}: {said}" if said else error.message
            raise BadLine(
                entry.line, f"{what} is invalid: {problem}" + (f" (at {where})" if where else "")
            )


def _meant(error: Any) -> Any:
    """In a ``oneOf``, the error of the one branch whose type fits the value (a text
    where a text or an object may stand is checked as a text); else ``error``."""
    while error.validator == "oneOf" and error.context:
        misfits = {e.schema_path[0] for e in error.context if e.validator == "type" and not e.path}
        fitting = [e for e in error.context if e.schema_path[0] not in misfits]
        if len({e.schema_path[0] for e in fitting}) != 1:
            break
        error = fitting[0]
    return error


_MARKS = {  # the key that tells each kind of event
    "decision": "choice",
    "chance": "chance",
    "score_checkpoint": "scores",
    "digest_checkpoint": "state_digest",
}


def _definition(data: dict[str, Any]) -> str | None:
    """The kind of event a line is, by the key that tells it (``_MARKS``)."""
    for definition, mark in _MARK_ITEMS:
        if mark in data:
            return definition
    return None


_MARK_ITEMS = tuple(_MARKS.items())  # what ``_definition`` walks, for every line read
_DEFINITIONS = tuple(_MARKS)  # every kind of event, as the schema names them
_TAKEN = object()  # after a block's last line (``_Reader._parse_regular``)


class _Events(chain):
    """A log's lines, one block's after another (``_Reader._read``), taken without a
    Python frame a line; ``close`` closes the file when replay stops before its end."""

    __slots__ = ("_blocks",)

    @classmethod
    def from_iterable(cls, blocks: Iterator[Iterator[LogLine]]) -> _Events:
        events = super().from_iterable(blocks)
        events._blocks = blocks
        return events

    def close(self) -> None:
        self._blocks.close()


def _cut_short(line: bytes) -> bool:
    """Whether a last line without its newline is no JSON object: a write cut short."""
    try:
        return type(json.loads(line)) is not dict
    except (ValueError, RecursionError):  # UnicodeDecodeError too: a character cut
        return True


def _bad_json(number: int, line: str, exc: Exception) -> BadLine:
    if isinstance(exc, json.JSONDecodeError):
        column = exc.colno + len(line) - len(line.lstrip())
        return BadLine(number, f"bad JSON: {exc.msg} (column {column})")
    message = "nesting too deep" if isinstance(exc, RecursionError) else str(exc)
    return BadLine(number, f"bad JSON: {message}")  # huge numbers, deep nesting


def _within(lines: list[bytes], before: int) -> list[bytes]:
    """The lines that end within ``MAX_BYTES``, ``before`` bytes having come before."""
    kept = []
    for line in lines:
        before += len(line) + 1
        if before > MAX_BYTES:
            break
        kept.append(line)
    return kept


def _until_long(lines: list[bytes]) -> Iterator[bytes]:
    """The lines before the first one longer than ``MAX_LINE_BYTES``."""
    for line in lines:
        if len(line) > MAX_LINE_BYTES:
            return
        yield line


def _describe_event_error(data: dict[str, Any]) -> str:
    if "n" not in data:
        return "an event needs `n` (its sequence number)"
    return (
        "an event is a decision (`player` and `choice`), a chance outcome (`chance` and "
        "`outcome`) or a checkpoint (`scores` or `state_digest`)"
    )
