"""The language server: LSP messages in, checks scheduled, diagnostics and answers out.

Edits are debounced: a check starts ``debounce`` seconds after the last change
and covers only the targets (rulesets, with their expansions or mod) that hold a
changed file. Checks run one at a time in a worker, so the server keeps
answering hovers and completions meanwhile from the last index. Parsed files that
did not change come from the loader's memo, so a re-check re-reads one file.
"""

from __future__ import annotations

import asyncio
import logging
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import BinaryIO

from lsprotocol import types
from pygls.io_ import StdoutWriter
from pygls.lsp.server import LanguageServer

from interpreter import __version__
from interpreter.errors import Diagnostic
from interpreter.lsp.completion import complete
from interpreter.lsp.hover import hover_markdown
from interpreter.lsp.index import Index, Occurrence
from interpreter.lsp.navigation import definitions, references
from interpreter.lsp.positions import (
    absolute,
    character_index,
    location_range,
    path_to_uri,
    span_range,
    uri_to_path,
    utf16_column,
    word_at,
)
from interpreter.lsp.project import Outcome, Target, check, target_for
from interpreter.lsp.stdio import serve

DEBOUNCE = 0.3  # seconds after the last change before a check starts
OPENING = 0.05  # after opening a file: several files opened together make one check
log = logging.getLogger(__name__)


class RulesServer(LanguageServer):
    """Keeps, per target, the last check's diagnostics and the index of its names."""

    def __init__(self, debounce: float = DEBOUNCE) -> None:
        super().__init__(
            "rules-lsp", __version__, text_document_sync_kind=types.TextDocumentSyncKind.Incremental
        )
        self.debounce = debounce
        self.targets: dict[Path, Target] = {}  # file -> the target that checks it
        self.outcomes: dict[Target, Outcome] = {}
        self.indexes: dict[Target, Index] = {}
        self.lsp_diagnostics: dict[Target, dict[Path, list[types.Diagnostic]]] = {}
        self.published: set[Path] = set()  # files shown with problems
        self.changed: set[Path] = set()
        self.timer: asyncio.TimerHandle | None = None
        self.running: asyncio.Future | None = None
        self.worker = ThreadPoolExecutor(max_workers=1)
        self.shut_down = False  # the client asked ``shutdown``: ``exit`` then ends with 0

    def start_io(self, stdin: BinaryIO | None = None, stdout: BinaryIO | None = None) -> int:
        """Serve over stdin/stdout until ``exit`` or the end of stdin; the exit code LSP
        asks for: 0 after ``shutdown``, else 1. pygls's own ``start_io`` reads with a
        loop that one malformed frame puts out of step for good (``stdio.py``) and
        drops the exit code."""
        self.protocol.set_writer(StdoutWriter(stdout or sys.stdout.buffer))
        code = None
        try:
            asyncio.run(serve(stdin or sys.stdin.buffer, self.protocol))
        except SystemExit as done:  # pygls's ``exit`` handler: 0 after shutdown, else 1
            code = done.code
        except BrokenPipeError:
            log.error("the client closed its end: the server stops")
        finally:
            self.worker.shutdown(wait=False, cancel_futures=True)
            self.shutdown()
        if not isinstance(code, int):
            code = 0 if self.shut_down else 1
        return code

    # ------------------------------------------------------------ scheduling
    def changed_file(self, path: Path, delay: float) -> None:
        """Check the targets holding ``path`` once no change came for ``delay`` s."""
        self.changed.add(path)
        if self.timer is not None:
            self.timer.cancel()
        self.timer = asyncio.get_running_loop().call_later(delay, self._launch)

    def _launch(self) -> None:
        self.timer = None
        paths, self.changed = self.changed, set()
        texts = {
            uri_to_path(uri): document.source
            for uri, document in self.workspace.text_documents.items()
            if uri.startswith("file:")
        }
        known = {target: outcome.files for target, outcome in self.outcomes.items()}
        future = asyncio.get_running_loop().run_in_executor(
            self.worker, self._work, paths, texts, known
        )
        self.running = future
        future.add_done_callback(self._publish)

    def _work(
        self, paths: set[Path], texts: dict[Path, str], known: dict[Target, set[Path]]
    ) -> list[tuple[Outcome, Index | None, dict[Path, list[types.Diagnostic]]]]:
        """In the worker: find the targets to check, check them, convert."""
        unsaved = {path: text for path, text in texts.items() if _unsaved(path, text)}
        targets: set[Target] = set()
        for path in paths:
            target = target_for(path, unsaved)
            self.targets[path] = target
            targets.add(target)
            targets |= {t for t, files in known.items() if path in files}
        results = []
        for target in sorted(targets, key=Target.describe):
            outcome = check(target, unsaved)
            catalog = outcome.catalog
            index = Index(catalog) if catalog is not None and catalog.manifest else None
            results.append((outcome, index, _convert(outcome, index)))
            log.info("checked %s in %.0f ms", target.describe(), outcome.seconds * 1000)
        return results

    def _publish(self, future: asyncio.Future) -> None:
        """In the event loop: keep the results and send every file's diagnostics."""
        if future.cancelled():
            return
        try:
            results = future.result()
        except Exception as exc:  # a bug must not stop the server: say it, go on
            log.exception("check failed")
            self.window_log_message(
                types.LogMessageParams(types.MessageType.Error, f"rules: check failed: {exc}")
            )
            return
        affected: set[Path] = set()
        for outcome, index, converted in results:
            affected |= set(self.lsp_diagnostics.get(outcome.target, {})) | set(converted)
            self.outcomes[outcome.target] = outcome
            self.lsp_diagnostics[outcome.target] = converted
            if index is not None:
                self.indexes[outcome.target] = index
            self.window_log_message(
                types.LogMessageParams(
                    types.MessageType.Log,
                    f"rules: checked {outcome.target.describe()} in "
                    f"{outcome.seconds * 1000:.0f} ms",
                )
            )
        for path in sorted(affected | (self.published & _files(results))):
            self.publish(path)

    def publish(self, path: Path) -> None:
        """Send ``path``'s problems from every target that checks it (once each)."""
        merged: dict[tuple, types.Diagnostic] = {}
        for by_file in self.lsp_diagnostics.values():
            for d in by_file.get(path, []):
                merged.setdefault((d.range.start.line, d.range.start.character, d.message), d)
        shown = sorted(merged.values(), key=lambda d: (d.range.start.line, d.range.start.character))
        uri = path_to_uri(path)
        if shown or path in self.published or uri in self.workspace.text_documents:
            self.text_document_publish_diagnostics(
                types.PublishDiagnosticsParams(uri=uri, diagnostics=shown)
            )
        if shown:
            self.published.add(path)
        else:
            self.published.discard(path)

    # --------------------------------------------------------------- lookups
    async def index_for(self, path: Path, wait: float = 30.0) -> Index | None:
        """The index of the target that checks ``path``; waits for its first check."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + wait
        while True:
            target = self.targets.get(path)
            if target is not None and target in self.indexes:
                return self.indexes[target]
            for target, outcome in self.outcomes.items():
                if path in outcome.files and target in self.indexes:
                    return self.indexes[target]
            busy = self.timer is not None or (self.running is not None and not self.running.done())
            if not busy or loop.time() > deadline:
                return None
            await asyncio.sleep(0.02)

    def lines(self, path: Path, index: Index | None) -> list[str]:
        """A file's lines as last checked (positions in the index refer to them)."""
        document = index.documents.get(path) if index is not None else None
        if document is not None:
            return document.text.splitlines()
        uri = path_to_uri(path)
        if uri in self.workspace.text_documents:
            return self.workspace.get_text_document(uri).source.splitlines()
        try:
            return path.read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError):
            return []

    def to_location(self, occurrence: Occurrence, index: Index) -> types.Location:
        path = absolute(occurrence.location.path)
        lines = self.lines(path, index)
        where = occurrence.location
        return types.Location(
            path_to_uri(path), span_range(lines, where.line, where.column, occurrence.length)
        )

    def cursor(self, uri: str, position: types.Position) -> tuple[Path, list[str], str, int]:
        """The file, its open text's lines, the cursor's line and character index."""
        lines = self.workspace.get_text_document(uri).source.splitlines()
        text = lines[position.line] if position.line < len(lines) else ""
        return uri_to_path(uri), lines, text, character_index(text, position.character)


def _unsaved(path: Path, text: str) -> bool:
    try:
        return path.read_text(encoding="utf-8") != text
    except (OSError, UnicodeDecodeError):
        return True


def _files(results: list) -> set[Path]:
    return {path for outcome, _, _ in results for path in outcome.files}


def _convert(outcome: Outcome, index: Index | None) -> dict[Path, list[types.Diagnostic]]:
    """The outcome's diagnostics as LSP ones, ranged in the texts that were checked."""
    texts = {}
    if outcome.catalog is not None:
        texts = {absolute(d.path): d.text for d in outcome.catalog.documents}
    out: dict[Path, list[types.Diagnostic]] = {}
    for path, found in outcome.diagnostics.items():
        text = texts.get(path)
        if text is None:
            try:
                text = path.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError):
                text = ""
        lines = text.splitlines()
        out[path] = [_diagnostic(lines, d) for d in found]
    for path in outcome.files:
        out.setdefault(path, [])
    return out


def _diagnostic(lines: list[str], diagnostic: Diagnostic) -> types.Diagnostic:
    message = diagnostic.message
    if diagnostic.hint:
        message += f"\nhint: {diagnostic.hint}"
    severity = {
        "error": types.DiagnosticSeverity.Error,
        "warning": types.DiagnosticSeverity.Warning,
    }.get(diagnostic.severity, types.DiagnosticSeverity.Information)
    return types.Diagnostic(
        range=location_range(lines, diagnostic.location),
        message=message,
        severity=severity,
        code=diagnostic.kind,
        source="rules",
    )


def create_server(debounce: float = DEBOUNCE) -> RulesServer:
    """A server with every feature registered (``rules lsp`` starts it over stdio)."""
    server = RulesServer(debounce)

    @server.feature(types.SHUTDOWN)
    def shutdown(params: None) -> None:
        server.shut_down = True

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(params: types.DidOpenTextDocumentParams) -> None:
        path = uri_to_path(params.text_document.uri)
        target = server.targets.get(path) or target_for(path, {})
        index = server.indexes.get(target)
        document = index.documents.get(path) if index is not None else None
        if document is not None and document.text == params.text_document.text:
            server.targets[path] = target
            server.publish(path)  # checked already, as it is: nothing to wait for
        else:
            server.changed_file(path, OPENING)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(params: types.DidChangeTextDocumentParams) -> None:
        server.changed_file(uri_to_path(params.text_document.uri), server.debounce)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    def did_save(params: types.DidSaveTextDocumentParams) -> None:
        server.changed_file(uri_to_path(params.text_document.uri), server.debounce)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(params: types.DidCloseTextDocumentParams) -> None:
        # the file is read from disk again: what was unsaved is gone
        server.changed_file(uri_to_path(params.text_document.uri), server.debounce)

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    async def hover(params: types.HoverParams) -> types.Hover | None:
        path, _, text, character = server.cursor(params.text_document.uri, params.position)
        index = await server.index_for(path)
        markdown = hover_markdown(index, text, character)
        found = word_at(text, character)
        if markdown is None or found is None:
            return None
        word, begin = found
        line = params.position.line
        return types.Hover(
            contents=types.MarkupContent(types.MarkupKind.Markdown, markdown),
            range=types.Range(
                types.Position(line, utf16_column(text, begin)),
                types.Position(line, utf16_column(text, begin + len(word))),
            ),
        )

    @server.feature(
        types.TEXT_DOCUMENT_COMPLETION,
        types.CompletionOptions(trigger_characters=[".", " "]),
    )
    async def completion(params: types.CompletionParams) -> types.CompletionList:
        path, lines, text, character = server.cursor(params.text_document.uri, params.position)
        index = await server.index_for(path)
        context = params.context
        items = complete(index, path, lines, params.position.line, character)
        if (
            context is not None
            and context.trigger_kind == types.CompletionTriggerKind.TriggerCharacter
            and context.trigger_character == " "
            and not text[:character].rstrip().endswith(("do", "can"))
        ):
            items = []  # a space starts a completion only after `do` and `can`
        return types.CompletionList(is_incomplete=False, items=items)

    @server.feature(types.TEXT_DOCUMENT_DEFINITION)
    async def definition(params: types.DefinitionParams) -> list[types.Location]:
        path, _, text, character = server.cursor(params.text_document.uri, params.position)
        index = await server.index_for(path)
        if index is None:
            return []
        return [server.to_location(o, index) for o in definitions(index, text, character)]

    @server.feature(types.TEXT_DOCUMENT_REFERENCES)
    async def find_references(params: types.ReferenceParams) -> list[types.Location]:
        path, _, text, character = server.cursor(params.text_document.uri, params.position)
        index = await server.index_for(path)
        if index is None:
            return []
        include = params.context.include_declaration if params.context else True
        found = references(index, text, character, include)
        return [server.to_location(o, index) for o in found]

    return server
