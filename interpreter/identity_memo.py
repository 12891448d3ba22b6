"""A per-process memo of a pure function of an object that is only read, by identity.

Checking every combination of a ruleset's expansions meets the same parse trees (the
parser keeps one tree per text) and the same items of the base's files (a document is
read once per process) in each build. What is worked out from one of them alone is
kept against the object itself: the memo holds it, so its identity is never reused
by another object while the entry lives. Hashing a tree by value would cost more
than the work saved.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar

R = TypeVar("R")
MAX_ENTRIES = 20_000  # then the memo starts again (a ruleset has a few thousand)


def by_identity(fn: Callable[..., R]) -> Callable[..., R]:
    """``fn`` memoised on the identity of its first argument, and on the values of the
    others (hashable, and few: a flag, a type's name)."""
    kept: dict[Any, tuple[Any, R]] = {}

    @wraps(fn)
    def memo(value: Any, *rest: Any) -> R:
        key = (id(value), *rest) if rest else id(value)
        hit = kept.get(key)
        if hit is not None and hit[0] is value:
            return hit[1]
        result = fn(value, *rest)
        if len(kept) >= MAX_ENTRIES:
            kept.clear()
        kept[key] = (value, result)
        return result

    return memo
