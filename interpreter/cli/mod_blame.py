"""Report a base ruleset that a mod breaks at the mod's own line as well.

A mod that `remove:`s an item the base still uses, or `patch:`es a function's
parameters that base calls rely on, makes the *base* files fail to check. Those
errors are true but point into files the mod's author does not own; on its own the
output does not say which line of the mod caused them. This module compares the
errors with the base loaded without the mods and, for every error the mods brought
into the base, adds one error at the `remove:`/`patch:` entry that caused it (the
entry whose id the base error names; the mod's `overlay:` header when none does).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from interpreter.errors import Diagnostic, LoadError, Location
from interpreter.load.ruleset_files import SINGLETONS, display_path
from interpreter.load.yaml_source import Document, load_file


@dataclass(frozen=True)
class Entry:
    """One `remove:` or `patch:` entry of a mod: what it changes and where it says so."""

    operation: str  # remove | patch
    section: str
    id: str
    location: Location


def blame(
    loaded_diagnostics: list[Diagnostic],
    mods: list[Path],
    base_diagnostics: list[Diagnostic],
) -> list[Diagnostic]:
    """Errors at the mods' lines for the base errors that only the mods cause."""
    shown = {display_path(m) for m in mods}
    known = {(d.location, d.message) for d in base_diagnostics}
    caused = [
        d
        for d in loaded_diagnostics
        if d.severity == "error"
        and d.location.path not in shown
        and (d.location, d.message) not in known
    ]
    if not caused:
        return []
    entries, headers = [], []
    for mod in mods:
        document = _read(mod)
        if document is not None:
            entries += _entries(document)
            headers.append(document)
    found: dict[Location, tuple[Entry | None, list[Diagnostic]]] = {}
    for error in caused:
        named = [e for e in entries if _names(error.message, e.id)]
        if named:
            for entry in named:
                found.setdefault(entry.location, (entry, []))[1].append(error)
        else:
            for document in headers:
                where = document.location(("overlay",), key=True)
                found.setdefault(where, (None, []))[1].append(error)
    return [_diagnostic(where, entry, errors) for where, (entry, errors) in found.items()]


def _diagnostic(where: Location, entry: Entry | None, errors: list[Diagnostic]) -> Diagnostic:
    first = errors[0]
    more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
    if entry is None:
        message = f"with this mod applied, the base ruleset breaks at {first.location}{more}"
    elif entry.operation == "remove":
        message = (
            f"removing {entry.id!r} from `{entry.section}` breaks the base ruleset at "
            f"{first.location}{more}"
        )
    else:
        message = f"this patch of {entry.id!r} breaks the base ruleset at {first.location}{more}"
    return Diagnostic(
        where,
        message,
        f"there: {first.message}; the base still relies on what this changes: change those "
        "uses too (`patch:`/`replace:`), or leave the item as it is",
        kind="mod-breaks-base",
    )


def _names(message: str, item_id: str) -> bool:
    return re.search(rf"(?<![A-Za-z0-9_]){re.escape(item_id)}(?![A-Za-z0-9_])", message) is not None


def _read(path: Path) -> Document | None:
    try:
        return load_file(path, display=display_path(path))
    except LoadError:
        return None


def _entries(document: Document) -> list[Entry]:
    """The `remove:` and `patch:` entries of a mod, top-level and in `when:` blocks."""
    data = document.data if isinstance(document.data, dict) else {}
    blocks: list[tuple[tuple, dict]] = [((), data)]
    conditional = data.get("when")
    for index, block in enumerate(conditional if isinstance(conditional, list) else []):
        if isinstance(block, dict):
            blocks.append((("when", index), block))
    out = []
    for prefix, block in blocks:
        removed = block.get("remove")
        for section, ids in removed.items() if isinstance(removed, dict) else ():
            for index, item_id in enumerate(ids if isinstance(ids, list) else []):
                where = document.location((*prefix, "remove", section, index))
                out.append(Entry("remove", str(section), str(item_id), where))
        patched = block.get("patch")
        for section, items in patched.items() if isinstance(patched, dict) else ():
            if section in SINGLETONS:
                where = document.location((*prefix, "patch", section), key=True)
                out.append(Entry("patch", str(section), str(section), where))
                continue
            for item_id in items if isinstance(items, dict) else ():
                where = document.location((*prefix, "patch", section, item_id), key=True)
                out.append(Entry("patch", str(section), str(item_id), where))
    return out
