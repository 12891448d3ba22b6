"""What compiling produces and reports: compiled values and located problems."""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

Fn = Callable[[Any], Any]
_IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


@dataclass
class Problem:
    """A problem at a 1-based (line, column) of the compiled text."""

    line: int
    column: int
    message: str
    hint: str | None = None
    kind: str = "type"
    related: tuple[int, int] | None = None  # a position the hint names as {at}


@dataclass
class Compiled:
    type: str
    fn: Fn


class _Abort(Exception):
    """Raised inside the walk after a problem was recorded, to skip a subtree."""


def did_you_mean(name: str, candidates: set[str] | list[str]) -> str | None:
    """Close names that can be written where ``name`` was (identifiers only)."""
    writable = sorted(c for c in candidates if _IDENTIFIER.match(str(c)))
    close = difflib.get_close_matches(name, writable, n=3, cutoff=0.7)
    if not close:
        return None
    return "did you mean " + " or ".join(f"`{c}`" for c in close) + "?"
