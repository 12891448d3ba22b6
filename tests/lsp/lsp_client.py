"""A small LSP client for the tests: `rules lsp` as a subprocess, JSON-RPC over its
stdin/stdout with Content-Length framing, as editors speak it.

A reader thread collects responses by id and notifications in order; the tests
wait on them with timeouts, so a server that hangs fails a test instead of
blocking the run.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


class LspClient:
    def __init__(self, cwd: Path, log: Path, *args: str) -> None:
        self._log = open(log, "wb")  # noqa: SIM115 - closed in close()
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "interpreter", "lsp", *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._log,
            cwd=cwd,
            env=env,
        )
        self._next_id = 0
        self._responses: dict[int, dict] = {}
        self.notifications: list[dict] = []
        self._changed = threading.Condition()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    # ------------------------------------------------------------- transport
    def _send(self, message: dict) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode("utf-8")
        self.send_bytes(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    def send_bytes(self, data: bytes) -> None:
        """Write ``data`` as it is (a malformed frame, say)."""
        assert self.process.stdin is not None
        self.process.stdin.write(data)
        self.process.stdin.flush()

    def _read(self) -> None:
        stream = self.process.stdout
        assert stream is not None
        while True:
            length = None
            while True:
                line = stream.readline()
                if not line:
                    return
                line = line.strip()
                if not line:
                    break
                name, _, value = line.decode("ascii").partition(":")
                if name.lower() == "content-length":
                    length = int(value)
            if length is None:
                continue
            message = json.loads(stream.read(length))
            with self._changed:
                if "id" in message and "method" not in message:
                    self._responses[message["id"]] = message
                elif "id" in message:  # a request from the server: accept it
                    self._send({"id": message["id"], "result": None})
                else:
                    self.notifications.append(message)
                self._changed.notify_all()

    def _wait(self, ready, timeout: float):
        deadline = time.monotonic() + timeout
        with self._changed:
            while True:
                found = ready()
                if found is not None:
                    return found
                left = deadline - time.monotonic()
                if left <= 0 or self.process.poll() is not None:
                    raise TimeoutError("no answer from the language server")
                self._changed.wait(left)

    # ------------------------------------------------------------------- API
    def request(self, method: str, params: Any, timeout: float = 30.0) -> Any:
        self._next_id += 1
        ident = self._next_id
        self._send({"id": ident, "method": method, "params": params})
        response = self._wait(lambda: self._responses.pop(ident, None), timeout)
        assert "error" not in response, response["error"]
        return response["result"]

    def response(self, ident: int | str | None, timeout: float = 30.0) -> dict:
        """The whole response with id ``ident`` (None: to a frame that had no id)."""
        return self._wait(lambda: self._responses.pop(ident, None), timeout)

    def notify(self, method: str, params: Any) -> None:
        self._send({"method": method, "params": params})

    def mark(self) -> int:
        """A point in the stream of notifications to wait from."""
        with self._changed:
            return len(self.notifications)

    def diagnostics(
        self, uri: str, since: int = 0, until=lambda found: True, timeout: float = 30.0
    ) -> list[dict]:
        """The first diagnostics published for ``uri`` after ``since`` that ``until``
        accepts."""

        def ready():
            for message in self.notifications[since:]:
                params = message.get("params") or {}
                if (
                    message["method"] == "textDocument/publishDiagnostics"
                    and params.get("uri") == uri
                    and until(params["diagnostics"])
                ):
                    return params["diagnostics"]
            return None

        return self._wait(ready, timeout)

    def initialize(self, root: Path) -> dict:
        result = self.request(
            "initialize",
            {"processId": os.getpid(), "rootUri": root.as_uri(), "capabilities": {}},
        )
        self.notify("initialized", {})
        return result

    def open(self, path: Path) -> str:
        uri = path.resolve().as_uri()
        text = path.read_text(encoding="utf-8")
        self.notify(
            "textDocument/didOpen",
            {"textDocument": {"uri": uri, "languageId": "yaml", "version": 1, "text": text}},
        )
        return uri

    def change(self, uri: str, text: str, version: int) -> None:
        """Send the whole new text (what simple editors do)."""
        self.notify(
            "textDocument/didChange",
            {"textDocument": {"uri": uri, "version": version}, "contentChanges": [{"text": text}]},
        )

    def at(self, method: str, uri: str, line: int, character: int, **extra: Any) -> Any:
        """A request about a position (0-based line and character)."""
        params = {
            "textDocument": {"uri": uri},
            "position": {"line": line, "character": character},
            **extra,
        }
        return self.request(method, params)

    def close(self) -> None:
        try:
            self.request("shutdown", None, timeout=10)
            self.notify("exit", None)
            self.process.wait(timeout=10)
        except (TimeoutError, OSError, subprocess.TimeoutExpired):
            self.process.kill()
            self.process.wait()
        finally:
            self._log.close()
