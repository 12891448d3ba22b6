"""Writing a cache file whole or not at all: another process may read it meanwhile."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable
from pathlib import Path
from typing import IO


def write_atomically(path: Path, write: Callable[[IO[bytes]], object]) -> bool:
    """``write`` into a temporary file beside ``path``, then put it in ``path``'s place
    (its folder made first). False where it cannot be written (a read-only or full
    disk, a folder in the way): nothing is left behind, and a cache only loses speed."""
    import tempfile  # only when writing: reading a cache needs none of it

    temporary = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile("wb", dir=path.parent, delete=False) as handle:
            temporary = handle.name
            write(handle)
        os.replace(temporary, path)
    except Exception:
        if temporary is not None:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
        return False
    return True
