"""The per-user cache folder: what the interpreter derives once and every later process reads.

Two kinds of things live there: files derived from the interpreter's own texts (the
grammar's parser tables, the compiled ``__init__`` of its dataclasses, the code of the
log's checks: ``derived_file``), the same for every ruleset, and stored rulesets
(``ruleset/stored.py``, under ``rulesets/``).
``TABLETOP_RULES_CACHE=0`` (or ``off``, ``no``, ``false``) turns all of it off.
"""

from __future__ import annotations

import contextlib
import os
import sys
from pathlib import Path

from interpreter.sha256 import sha256

CACHE_ENV = "TABLETOP_RULES_CACHE"


def enabled() -> bool:
    return os.environ.get(CACHE_ENV, "").strip().lower() not in ("0", "off", "no", "false")


def root() -> Path:
    """``$XDG_CACHE_HOME/tabletop-rules`` (an absolute one), else ``~/.cache/tabletop-rules``."""
    base = os.environ.get("XDG_CACHE_HOME") or ""
    return (Path(base) if os.path.isabs(base) else Path.home() / ".cache") / "tabletop-rules"


def derived_file(kind: str, source: str, *versions: str, suffix: str = "cache") -> Path | None:
    """The file holding what is derived from ``source`` (a grammar's text) by tools of
    these ``versions``, or None for no cache (switched off, or a
    folder that cannot be made: the thing is then derived every time).

    The name is ``{kind}-{digest}.{suffix}``, the digest of the source, the versions,
    Python's and the interpreter's own, so a stale file is never read; the other files
    of the same kind (earlier sources) are removed when this one does not exist yet,
    so that edits do not pile them up."""
    if not enabled():
        return None
    from interpreter import __version__

    key = "\0".join((kind, source, *versions, __version__, sys.version.split()[0]))
    digest = sha256(key.encode()).hexdigest()[:16]
    try:
        folder = root()
        folder.mkdir(parents=True, exist_ok=True)
    except (OSError, RuntimeError):  # read-only file system, no home folder
        return None
    path = folder / f"{kind}-{digest}.{suffix}"
    if not path.exists():
        for old in folder.glob(f"{kind}-*.{suffix}"):
            if old != path:
                with contextlib.suppress(OSError):
                    old.unlink()
    return path
