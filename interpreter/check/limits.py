"""Caps on what a ruleset declares, checked before anything is expanded.

A file within the loading limits can still declare more than a game can hold: a
thousand components with ``count: 1000`` each would be expanded into a million
pieces (tens of seconds and hundreds of MB) before any other check speaks. These
checks run on the catalog, before the build expands anything, and report at the
item that crosses a cap.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from interpreter.errors import Diagnostic
from interpreter.ruleset import generated

if TYPE_CHECKING:
    from interpreter.load.ruleset_files import Catalog


@dataclass(frozen=True)
class Limits:
    """What one ruleset (with its expansions and mods) may declare."""

    max_pieces: int = 20_000  # pieces after expanding `count` (a big box has a few hundred)


DEFAULT_LIMITS = Limits()


def check(catalog: Catalog, limits: Limits = DEFAULT_LIMITS) -> list[Diagnostic]:
    """The caps ``catalog`` breaks, each reported where it is crossed (empty if none)."""
    total = 0
    for item in catalog.sections.get("components", {}).values():
        if not isinstance(item.data, dict):
            continue
        copies = generated.pieces(item.data)
        total += copies
        if total > limits.max_pieces:
            where = "each" if "each" in item.data else "count" if "count" in item.data else None
            return [
                Diagnostic(
                    item.location(where) if where else item.location(key=True),
                    f"more than {limits.max_pieces:,} pieces: with component {item.id!r} "
                    f"({copies:,} {'copy' if copies == 1 else 'copies'}) the ruleset "
                    f"declares {total:,}",
                    f"a ruleset may declare at most {limits.max_pieces:,} pieces (the "
                    "copies of `count` and the designs of `each` included); see Limits in "
                    "docs/format.md",
                    kind="limit",
                )
            ]
    return []
