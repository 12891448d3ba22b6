"""The server's stdin/stdout loop: LSP frames in, whatever a client sends.

pygls's own loop (``pygls.io_.run_async``) trusts the stream: one header it cannot
read (``Content-Length: abc``) leaves the body in front of the next header, and
every later frame is read out of step, ``exit`` included, so the server stops
answering for good. Here a frame is read by ``Frames``, which skips what is not a
header and finds its feet again at the next ``Content-Length:``; a frame that is
not a JSON-RPC message is answered with a JSON-RPC error (``answer``); and the
messages that are go to pygls's protocol as its own loop hands them over.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, BinaryIO

from pygls.exceptions import JsonRpcException
from pygls.protocol import JsonRPCProtocol

MAX_HEADER_LINE = 1024  # bytes of one header line; a longer line is garbage
MAX_HEADERS = 16  # header lines of one frame (LSP defines two)
MAX_BODY = 64 * 1024 * 1024  # bytes of one message: a larger Content-Length is refused
PARSE_ERROR = -32700  # JSON-RPC: the body is not JSON (or the frame has no length)
INVALID_REQUEST = -32600  # JSON-RPC: JSON, but not a message
INVALID_PARAMS = -32602

# the last Content-Length in a line (a skipped body may end on the line a header starts)
_LENGTH = re.compile(rb".*content-length[ \t]*:(.*)", re.IGNORECASE | re.DOTALL)
# a header line inside a body: raw line ends are never in JSON but as blanks between
# tokens, and a header is no token
_HEADER_LINE = re.compile(rb"content-length[ \t]*:[ \t]*\d+[ \t]*\r?\n", re.IGNORECASE)
log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Malformed:
    """A frame that carries no message: why, said in the JSON-RPC error that answers it."""

    reason: str


class Frames:
    """Reads the frames of the LSP base protocol (headers, a blank line, a body of
    ``Content-Length`` bytes) from a byte stream, never out of step for long.

    Bytes before a header line (the body of a frame whose length was unreadable,
    stray lines) are skipped: a frame starts at a line that holds ``Content-Length:``,
    wherever in the line. A frame whose length is missing, not a number or over
    ``MAX_BODY`` is ``Malformed``; its body is then skipped as garbage. A body that
    holds a ``Content-Length`` header line (never valid JSON: the length said more
    than the frame held) is ``Malformed`` too, and is read again from that header."""

    def __init__(self, stream: BinaryIO) -> None:
        self.stream = stream
        self.pending = b""  # read too far (``_body``): read again before the stream

    def _readline(self, limit: int) -> bytes:
        if not self.pending:
            return self.stream.readline(limit)
        end = self.pending.find(b"\n", 0, limit)
        cut = limit if end < 0 else end + 1
        line, self.pending = self.pending[:cut], self.pending[cut:]
        if not line.endswith(b"\n") and len(line) < limit:  # the rest of it is in the stream
            line += self.stream.readline(limit - len(line))
        return line

    def _read(self, size: int) -> bytes:
        taken, self.pending = self.pending[:size], self.pending[size:]
        return taken + (self.stream.read(size - len(taken)) if len(taken) < size else b"")

    def next(self) -> bytes | Malformed | None:
        """The next frame's body, or why it has none; None at the end of the stream."""
        length: bytes | None = None  # the Content-Length value of the frame being read
        headers = 0
        tail = b""  # the end of a long line read in parts: a header may start there
        while True:
            line = self._readline(MAX_HEADER_LINE + 1)
            if not line:
                return None
            found = _LENGTH.fullmatch((tail + line).rstrip(b"\r\n"))
            tail = b"" if line.endswith(b"\n") else line[-32:]
            if found is not None:  # a frame starts here (what came before was garbage)
                length, headers = found.group(1).strip(), 1
                continue
            if length is None:
                continue  # garbage between frames
            if line.strip() == b"":
                return self._body(length)
            headers += 1
            if headers > MAX_HEADERS or b":" not in line or not line.endswith(b"\n"):
                shown = line[:40].decode("ascii", "replace")
                return Malformed(f"an unreadable header line {shown!r}")

    def _body(self, length: bytes) -> bytes | Malformed | None:
        if not (length.isdigit() and len(length) <= 12 and int(length) <= MAX_BODY):
            shown = length[:40].decode("ascii", "replace")
            return Malformed(
                f"Content-Length must be a number of bytes up to {MAX_BODY}, not {shown!r}"
            )
        size = int(length)
        body = self._read(size)
        if len(body) < size:
            return None
        inside = _HEADER_LINE.search(body)
        if inside is not None:
            self.pending = body[inside.start() :] + self.pending
            return Malformed("the body is shorter than its Content-Length: a header follows it")
        return body


async def serve(stdin: BinaryIO, protocol: JsonRPCProtocol) -> None:
    """Hand every message read from ``stdin`` to ``protocol`` until the stream ends
    (``exit`` ends it sooner: pygls raises ``SystemExit``)."""
    loop = asyncio.get_running_loop()
    frames = Frames(stdin)
    reader = ThreadPoolExecutor(max_workers=1)  # stdin is read in a worker of its own
    try:
        while True:
            frame = await loop.run_in_executor(reader, frames.next)
            if frame is None:
                return
            try:
                handle(protocol, frame)
            except Exception:  # a bug must not stop the server (pygls's loop does the same)
                log.exception("a message could not be handled")
    finally:
        reader.shutdown(wait=False)


def handle(protocol: JsonRPCProtocol, frame: bytes | Malformed) -> None:
    """Give one frame to ``protocol``, or answer it with a JSON-RPC error."""
    if isinstance(frame, Malformed):
        return answer(protocol, None, PARSE_ERROR, frame.reason)
    try:
        data = json.loads(frame)
    except (ValueError, RecursionError) as exc:  # UnicodeDecodeError is a ValueError
        return answer(protocol, None, PARSE_ERROR, f"the body is not JSON: {exc}")
    if isinstance(data, dict) and data.get("method") == "exit":
        data = {"jsonrpc": "2.0", "method": "exit"}  # whatever else it holds: it ends the server
    problem = _not_a_message(data)
    if problem is not None:
        if isinstance(data, dict) and "method" not in data and data.keys() & {"result", "error"}:
            log.warning("ignored a malformed response: %s", problem)  # never answered
            return None
        ident = data.get("id") if isinstance(data, dict) else None
        return answer(protocol, ident if _is_id(ident) else None, INVALID_REQUEST, problem)
    try:
        message = protocol.structure_message(data)
    except JsonRpcException as exc:
        if "method" in data and "id" in data:
            answer(protocol, data["id"], INVALID_PARAMS, f"{data['method']}: {exc}")
        else:
            log.warning("ignored a message that does not fit its method: %s", exc)
        return None
    protocol.handle_message(message)
    return None


def _not_a_message(data: Any) -> str | None:
    """What keeps ``data`` from being a JSON-RPC 2.0 request, notification or
    response; None when nothing does."""
    if not isinstance(data, dict):
        return f"a message is a JSON object, not {type(data).__name__}"
    if data.get("jsonrpc") != "2.0":
        return 'a message has "jsonrpc": "2.0"'
    if "id" in data and not _is_id(data["id"]):
        return "an id is a number or a text"
    if "method" in data:
        if not isinstance(data["method"], str):
            return "a method is a text"
        if not isinstance(data.get("params", {}), dict | list | None):
            return "params are an object or an array"
    elif "id" not in data or not ("result" in data or "error" in data):
        return "a message has a method, or is a response with an id"
    return None


def _is_id(value: Any) -> bool:
    return isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool))


def answer(protocol: JsonRPCProtocol, ident: Any, code: int, message: str) -> None:
    """Send the JSON-RPC error response ``code`` (id null where the frame had none)."""
    log.warning("answered a malformed message: %s", message)
    body = json.dumps(
        {"jsonrpc": "2.0", "id": ident, "error": {"code": code, "message": message}}
    ).encode()
    # framed on the writer pygls writes its own messages to, between them
    protocol.writer.write(b"Content-Length: %d\r\n\r\n%s" % (len(body), body))
