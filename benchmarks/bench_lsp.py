"""How long `rules lsp` takes from an edit to its diagnostics, on a copy of a ruleset.

Starts the server over stdio with pygls' own client, opens the ruleset's
actions.yaml, then alternates a typo in an expression and its fix (each a
textDocument/didChange of the whole unsaved text) and times each one until the
matching textDocument/publishDiagnostics arrives. The time includes the server's
debounce (300 ms by default); the check alone is what the server logs.

    .venv/bin/python benchmarks/bench_lsp.py [--ruleset rococo] [--edits 10] [--debounce 300]
"""

from __future__ import annotations

import argparse
import asyncio
import re
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from lsprotocol import types
from pygls.lsp.client import LanguageClient

from interpreter.load.ruleset_files import resolve_ruleset

TYPOS = {"rococo": ("may_do_main('favour'", "may_do_mian('favour'")}


async def run(folder: Path, edits: int, debounce: int, typo: tuple[str, str]) -> None:
    client = LanguageClient("bench", "1")
    published: asyncio.Queue = asyncio.Queue()
    checks: list[float] = []

    @client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def diagnostics(params: types.PublishDiagnosticsParams) -> None:
        published.put_nowait((time.perf_counter(), params))

    @client.feature(types.WINDOW_LOG_MESSAGE)
    def logged(params: types.LogMessageParams) -> None:
        found = re.search(r"checked \S+ in (\d+) ms", params.message)
        if found:
            checks.append(float(found.group(1)))

    command = [sys.executable, "-m", "interpreter", "lsp", "--debounce", str(debounce)]
    await client.start_io(*command, cwd=folder.parent)
    await client.initialize_async(
        types.InitializeParams(
            capabilities=types.ClientCapabilities(), root_uri=folder.parent.as_uri()
        )
    )
    client.initialized(types.InitializedParams())
    path = folder / "actions.yaml"
    uri = path.resolve().as_uri()
    text = path.read_text(encoding="utf-8")
    broken = text.replace(*typo, 1)
    start = time.perf_counter()
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(types.TextDocumentItem(uri, "yaml", 1, text))
    )
    await _until(published, uri, clean=True)
    print(f"first check (server start-up, cold): {time.perf_counter() - start:.2f} s")
    times = []
    for version in range(2, edits + 2):
        bad = version % 2 == 0
        sent = time.perf_counter()
        client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                types.VersionedTextDocumentIdentifier(version=version, uri=uri),
                [types.TextDocumentContentChangeWholeDocument(broken if bad else text)],
            )
        )
        arrived = await _until(published, uri, clean=not bad)
        times.append(arrived - sent)
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()
    checked = checks[1:]  # the first is the cold one
    print(
        f"didChange -> publishDiagnostics over {edits} edits: median "
        f"{statistics.median(times) * 1000:.0f} ms (min {min(times) * 1000:.0f}, max "
        f"{max(times) * 1000:.0f}), of which the debounce is {debounce} ms"
    )
    if checked:
        print(
            f"the check itself (load, schema, build, as logged by the server): median "
            f"{statistics.median(checked):.0f} ms over {len(checked)} checks"
        )


async def _until(queue: asyncio.Queue, uri: str, clean: bool) -> float:
    while True:
        arrived, params = await asyncio.wait_for(queue.get(), timeout=60)
        if params.uri == uri and bool(params.diagnostics) != clean:
            return arrived


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--ruleset", default="rococo")
    parser.add_argument("--edits", type=int, default=10)
    parser.add_argument("--debounce", type=int, default=300, help="milliseconds")
    args = parser.parse_args()
    source = resolve_ruleset(args.ruleset)
    assert source is not None, args.ruleset
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch) / source.name
        shutil.copytree(source, folder)  # the real files are never touched
        asyncio.run(run(folder, args.edits, args.debounce, TYPOS[args.ruleset]))


if __name__ == "__main__":
    main()
