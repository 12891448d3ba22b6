"""Texts an editor holds but has not saved, read by the loader instead of the files.

The language server (``interpreter/lsp``) checks a ruleset as it is being typed: it
runs the pipeline of ``rules validate`` inside ``reading({path: text})``, and
``yaml_source.load_file`` asks ``text_for(path)`` before it opens a file. Outside
that block nothing changes. The texts live in a context variable, so a check
running in the server's worker does not change what other callers read.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path

_open: ContextVar[dict[str, str] | None] = ContextVar("open_buffers", default=None)


def _key(path: str | Path) -> str | None:
    try:
        return str(Path(path).resolve())
    except (OSError, ValueError):
        return None


def text_for(path: str | Path) -> str | None:
    """The unsaved text of ``path`` while ``reading`` is active, else None."""
    texts = _open.get()
    if not texts:
        return None
    key = _key(path)
    return texts.get(key) if key is not None else None


def active() -> bool:
    """Whether unsaved texts stand in for files now (a stored ruleset cannot be used)."""
    return bool(_open.get())


@contextmanager
def reading(texts: Mapping[str | Path, str]) -> Iterator[None]:
    """Within the block, the loader reads ``texts`` (path → text) instead of the files."""
    resolved = {key: text for path, text in texts.items() if (key := _key(path)) is not None}
    _forget(resolved)
    token = _open.set(resolved)
    try:
        yield
    finally:
        _open.reset(token)
        _forget(resolved)


def _forget(paths: Mapping[str, str]) -> None:
    """The loader keeps each file it read, keyed by its size and time on disk; a text
    read from a buffer must neither come from that memo nor stay in it."""
    if not paths:
        return
    from interpreter.load import ruleset_files  # imported late: it imports the loader

    memo = getattr(ruleset_files, "_READ_CACHE", None)
    if not isinstance(memo, dict):
        return
    for key in [k for k in memo if isinstance(k, tuple) and k and k[0] in paths]:
        memo.pop(key, None)
