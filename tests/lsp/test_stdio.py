"""`rules lsp` survives garbage on its stdin: a malformed frame is answered with a
JSON-RPC error (or skipped), the server goes on serving, and `exit` ends it with the
code LSP asks for. The server runs as a real subprocess over pipes; ``Frames`` (the
reader) is also tested alone on byte streams."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from lsp_client import LspClient

from interpreter.lsp.stdio import MAX_BODY, Frames, Malformed


def frame(message: dict) -> bytes:
    body = json.dumps(message).encode("utf-8")
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


INITIALIZE = {"processId": None, "rootUri": None, "capabilities": {}}


@pytest.fixture
def client(tmp_path: Path) -> Iterator[LspClient]:
    """A server of its own (each test ends it its own way)."""
    server = LspClient(tmp_path, tmp_path / "server.log")
    try:
        yield server
    finally:
        if server.process.poll() is None:
            server.process.kill()
            server.process.wait()
        server._log.close()


def ended(client: LspClient) -> int:
    """The exit code of the server, which must end within seconds."""
    return client.process.wait(timeout=20)


# ----------------------------------------------------------- over real pipes
@pytest.mark.parametrize(
    "garbage, code, ident",
    [
        # the length is not a number: pygls's loop read every later frame out of step
        (b"Content-Length: abc\r\n\r\n{}", -32700, None),
        (b"Content-Length: -5\r\n\r\n{}", -32700, None),
        (b"Content-Length: 99999999999999999999\r\n\r\n{}", -32700, None),  # over MAX_BODY
        (b"Content-Length: 5\r\n\r\n{abc}", -32700, None),  # not JSON
        (b"Content-Length: 2\r\n\r\n\xff\xfe", -32700, None),  # not UTF-8
        (b"Content-Length: 2\r\n\r\n[]", -32600, None),  # JSON, not a message
        (b"Content-Length: 1\r\n\r\n7", -32600, None),
        (frame({"id": 9, "method": "initialize"}), -32600, 9),  # no "jsonrpc": "2.0"
        (frame({"jsonrpc": "2.0", "id": "a", "method": 5}), -32600, "a"),
        (b"no header at all\r\n\r\n", None, None),  # skipped: nothing to answer
        # the length says more than the frame holds: the next frame is read again
        (b"Content-Length: 60\r\n\r\n{}", -32700, None),
    ],
)
def test_a_malformed_frame_is_answered_and_the_server_goes_on(
    client: LspClient, garbage: bytes, code: int | None, ident: int | str | None
) -> None:
    client.send_bytes(garbage)
    result = client.request("initialize", INITIALIZE)
    assert result["serverInfo"]["name"] == "rules-lsp"
    if code is not None:
        answer = client.response(ident)
        assert answer["error"]["code"] == code, answer
    client.request("shutdown", None)
    client.notify("exit", None)
    assert ended(client) == 0


def test_a_request_with_an_id_gets_its_error_under_that_id(client: LspClient) -> None:
    client.send_bytes(frame({"jsonrpc": "2.0", "id": 9, "method": "initialize", "params": 5}))
    assert client.response(9)["error"]["code"] == -32600
    client.send_bytes(
        frame({"jsonrpc": "2.0", "id": 10, "method": "initialize", "params": {"processId": "x"}})
    )
    assert client.response(10)["error"]["code"] == -32602
    assert client.request("initialize", INITIALIZE)["serverInfo"]["name"] == "rules-lsp"


def test_exit_after_shutdown_ends_the_server_with_0(client: LspClient) -> None:
    client.initialize(Path.cwd())
    client.request("shutdown", None)
    client.notify("exit", None)
    assert ended(client) == 0


def test_exit_without_shutdown_ends_the_server_with_1(client: LspClient) -> None:
    client.initialize(Path.cwd())
    client.notify("exit", None)
    assert ended(client) == 1


def test_exit_ends_the_server_after_garbage_and_whatever_its_params(client: LspClient) -> None:
    client.send_bytes(b'Content-Length: x\r\n\r\n{"jsonrpc": "2.0"}')
    client.send_bytes(frame({"jsonrpc": "2.0", "method": "exit", "params": 5}))
    assert ended(client) == 1


def test_the_end_of_stdin_ends_the_server(client: LspClient) -> None:
    client.initialize(Path.cwd())
    assert client.process.stdin is not None
    client.process.stdin.close()
    assert ended(client) == 1


# --------------------------------------------------------------- the reader
def frames(data: bytes) -> list[bytes | Malformed]:
    reader = Frames(io.BufferedReader(io.BytesIO(data)))
    out = []
    while (found := reader.next()) is not None:
        out.append(found)
    return out


def test_frames_find_their_feet_again_after_a_body_of_unknown_length() -> None:
    good = b'{"a": 1}'
    data = b"Content-Length: ?\r\n\r\n{garbage}" + b"Content-Length: 8\r\n\r\n" + good
    found = frames(data)
    assert isinstance(found[0], Malformed) and found[1:] == [good]


def test_a_body_that_mentions_content_length_does_not_mislead_the_reader() -> None:
    body = b'{"text": "Content-Length: 3"}'
    data = b"Content-Length: %d\r\nContent-Type: x\r\n\r\n" % len(body) + body
    assert frames(data + data) == [body, body]


def test_a_header_after_a_long_garbage_line_is_found() -> None:
    good = b"{}"
    data = b"x" * 5000 + b"Content-Length: 2\r\n\r\n" + good
    assert frames(data) == [good]


def test_a_length_over_the_cap_is_refused_unread() -> None:
    (found,) = frames(b"Content-Length: %d\r\n\r\n{}" % (MAX_BODY + 1))
    assert isinstance(found, Malformed) and "Content-Length" in found.reason


def test_too_many_headers_make_a_frame_malformed() -> None:
    data = b"Content-Length: 2\r\n" + b"X-A: b\r\n" * 20 + b"\r\n{}"
    assert isinstance(frames(data)[0], Malformed)


def test_a_body_cut_short_by_the_end_of_the_stream_is_no_frame() -> None:
    assert frames(b"Content-Length: 10\r\n\r\n{}") == []


def test_a_length_too_large_gives_back_the_frames_it_swallowed() -> None:
    good = b'{"a": 1}'
    data = b"Content-Length: 40\r\n\r\n{}" + b"Content-Length: 8\r\n\r\n" + good
    data += b"Content-Length: 8\r\n\r\n" + good
    found = frames(data)
    assert isinstance(found[0], Malformed) and found[1:] == [good, good]


def test_a_malformed_response_is_not_answered(client: LspClient) -> None:
    """Answering a response could start an endless exchange with a client that
    answers errors too."""
    client.send_bytes(frame({"jsonrpc": "2.0", "id": None, "error": {"code": 1, "message": "x"}}))
    client.send_bytes(frame({"jsonrpc": "2.0", "id": [1], "result": None}))
    assert client.request("initialize", INITIALIZE)["serverInfo"]["name"] == "rules-lsp"
    assert None not in client._responses  # the answers come in order: none came before
