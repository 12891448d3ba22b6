"""Writing a file whole or not at all: a cache file (another process may read it
meanwhile), or a file the user asked for, never written through a link."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable
from pathlib import Path
from typing import IO

MAX_NAME_TRIES = 100  # names taken by other writers before giving up (each is random)


def write_atomically(path: Path, write: Callable[[IO[bytes]], object]) -> bool:
    """``write`` into a temporary file beside ``path``, then put it in ``path``'s place
    (its folder made first). False where it cannot be written (a read-only or full
    disk, a folder in the way): nothing is left behind, and a cache only loses speed."""
    temporary = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        descriptor, temporary = new_file_beside(path)
        with os.fdopen(descriptor, "wb") as handle:
            write(handle)
        os.replace(temporary, path)
    except Exception:
        if temporary is not None:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
        return False
    return True


class OutputError(Exception):
    """A file the user asked for was not written: which, why, and what to do (the
    command group prints it as ``path: error: …`` and exits with 1)."""

    def __init__(self, path: Path, reason: str, hint: str | None = None) -> None:
        super().__init__(f"{path}: {reason}")
        self.path, self.reason, self.hint = path, reason, hint


def write_output(path: Path, data: str | bytes, new: bool = False) -> None:
    """Write a file the user asked for (a scaffold, a report, a schema, a page) whole,
    and never through a symbolic link by its name, which someone else may have put
    there pointing anywhere.

    ``new``: the file must not exist: it is created with ``O_CREAT | O_EXCL``, which
    fails on any name that exists, a link (dangling or not) included. Otherwise it is
    written into a new file beside ``path`` and put in its place with ``os.replace``,
    which replaces a link itself and leaves the file it pointed to as it was. Text is
    written as UTF-8, ``\n`` as it is. ``OutputError`` where it cannot be written."""
    raw = data.encode("utf-8") if isinstance(data, str) else data
    temporary = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        if new:
            descriptor = _create(path)
            temporary = str(path)  # removed if the writing fails
        else:
            descriptor, temporary = new_file_beside(path, 0o666)
        with os.fdopen(descriptor, "wb") as handle:
            handle.write(raw)
        if not new:
            os.replace(temporary, path)
    except OutputError:
        raise
    except OSError as exc:
        if temporary is not None:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
        reason = exc.strerror or str(exc)
        raise OutputError(path, f"cannot be written: {reason}") from None


def _create(path: Path) -> int:
    """``path`` opened for writing, made by this call (the umask applies, as for
    ``open``)."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
    try:
        return os.open(path, flags, 0o666)
    except FileExistsError:
        raise OutputError(
            path,
            "already exists (a file, folder or link by that name) and is never overwritten",
            "choose another name, or move it away",
        ) from None


def new_file_beside(path: Path, mode: int = 0o600, suffix: str = "tmp") -> tuple[int, str]:
    """A file only this call created (``O_EXCL``, which never follows a link; ``mode``:
    by default readable by its owner alone, as ``tempfile`` makes them), beside
    ``path``, named ``.NAME.RANDOM.suffix``. ``tempfile`` itself is not used: its
    import (with ``shutil`` and ``random``) cost every first validate 2 ms."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
    for _ in range(MAX_NAME_TRIES):
        name = str(path.parent / f".{path.name}.{os.urandom(6).hex()}.{suffix}")
        try:
            return os.open(name, flags, mode), name
        except FileExistsError:
            continue
    raise FileExistsError(f"no free temporary name beside {path}")
