"""Writing a cache file whole or not at all: another process may read it meanwhile."""

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
        descriptor, temporary = _new_file_beside(path)
        with os.fdopen(descriptor, "wb") as handle:
            write(handle)
        os.replace(temporary, path)
    except Exception:
        if temporary is not None:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
        return False
    return True


def _new_file_beside(path: Path) -> tuple[int, str]:
    """A file only this call created (``O_EXCL``, readable by its owner alone, as
    ``tempfile`` makes them), beside ``path``. ``tempfile`` itself is not used: its
    import (with ``shutil`` and ``random``) cost every first validate 2 ms."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
    for _ in range(MAX_NAME_TRIES):
        name = str(path.parent / f".{path.name}.{os.urandom(6).hex()}.tmp")
        try:
            return os.open(name, flags, 0o600), name
        except FileExistsError:
            continue
    raise FileExistsError(f"no free temporary name beside {path}")
