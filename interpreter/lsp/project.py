"""Which ruleset a file belongs to, and checking that ruleset as ``rules validate`` does.

A content file is checked with the ruleset of the folder that holds ``ruleset.yaml``
above it; an expansion file offered by that manifest with the expansions it
requires; a mod (``overlay: {base: …}``) with its base, like ``rules validate
MOD.yaml``; any other file alone. The editor's unsaved texts are read instead of the
files (``interpreter.load.buffers``).
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field
from pathlib import Path

from interpreter.errors import Diagnostic, LoadError
from interpreter.load.buffers import reading
from interpreter.load.ruleset_files import Catalog, requirement_chain, resolve_ruleset
from interpreter.load.search import MANIFEST
from interpreter.load.yaml_source import load_file, load_text
from interpreter.lsp.positions import absolute

_OVERLAY = re.compile(r"^overlay\s*:", re.MULTILINE)


@dataclass(frozen=True)
class Target:
    """What to load to check a file: a ruleset folder with expansions and mods, or
    (``folder`` None) the one file ``single``, outside any ruleset."""

    folder: Path | None
    expansions: tuple[str, ...] = ()
    mods: tuple[Path, ...] = ()
    single: Path | None = None

    def describe(self) -> str:
        if self.folder is None:
            return str(self.single)
        extra = [*self.expansions, *(m.stem for m in self.mods)]
        return "+".join([self.folder.name, *extra])


@dataclass
class Outcome:
    """One check of a target: its problems by file, and what was loaded."""

    target: Target
    diagnostics: dict[Path, list[Diagnostic]] = field(default_factory=dict)
    files: set[Path] = field(default_factory=set)
    catalog: Catalog | None = None
    seconds: float = 0.0


def target_for(path: Path, texts: dict[Path, str]) -> Target:
    """The target that checks ``path`` (its open text, if any, tells a mod's base)."""
    path = path.resolve()
    if path.name == MANIFEST:
        return Target(path.parent)
    enclosing = _enclosing_ruleset(path)
    with reading(texts):
        header = _overlay_header(path, texts.get(path))
        if header is None:
            return Target(enclosing) if enclosing else Target(None, single=path)
        base = header.get("base")
        folder = resolve_ruleset(str(base), path.parent) if base else enclosing
        if folder is None:
            return Target(None, single=path)
        folder = folder.resolve()
        offered = _offered(folder)
        for name, entry in offered.items():
            if isinstance(entry, dict) and (folder / str(entry.get("file", ""))).resolve() == path:
                return Target(folder, tuple(requirement_chain(folder, str(name), offered)))
        expansions: list[str] = []
        requires = header.get("requires")
        for need in requires if isinstance(requires, list) else []:
            for name in requirement_chain(folder, str(need), offered):
                if name not in expansions:
                    expansions.append(name)
        return Target(folder, tuple(expansions), (path,))


def check(target: Target, texts: dict[Path, str]) -> Outcome:
    """Load, schema-check and build ``target`` reading ``texts`` for the open files."""
    from interpreter.ruleset import load  # the build stage: imported when first needed

    start = time.perf_counter()
    catalog = None
    with reading(texts):
        if target.folder is None:
            diagnostics = _single(target.single)
        else:
            loaded = load(target.folder, list(target.expansions) or None, list(target.mods) or None)
            diagnostics = loaded.diagnostics
            catalog = loaded.catalog
    outcome = Outcome(target, catalog=catalog)
    if catalog is not None:
        outcome.files = {absolute(d.path) for d in catalog.documents}
        outcome.files |= {absolute(f) for f in catalog.failed}
    if target.single is not None:
        outcome.files.add(target.single)
    seen: set[tuple] = set()
    for diagnostic in diagnostics:
        key = (diagnostic.location, diagnostic.message)
        if key in seen:
            continue
        seen.add(key)
        where = absolute(diagnostic.location.path)
        outcome.files.add(where)
        outcome.diagnostics.setdefault(where, []).append(diagnostic)
    outcome.seconds = time.perf_counter() - start
    return outcome


def _single(path: Path | None) -> list[Diagnostic]:
    """A file outside any ruleset: what ``rules validate FILE`` reports."""
    from interpreter.cli.validate import Summary, validate_path

    summary = Summary()
    if path is not None:
        validate_path(str(path), summary)
    return list(summary.diagnostics.values())


def _overlay_header(path: Path, text: str | None) -> dict | None:
    """The ``overlay:`` header of an overlay file ({} if unreadable), None for others."""
    if text is None:
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            return None
    if not _OVERLAY.search(text):
        return None
    try:
        data = load_text(text, str(path)).data
    except LoadError:
        return {}
    header = data.get("overlay") if isinstance(data, dict) else None
    return header if isinstance(header, dict) else {}


def _offered(folder: Path) -> dict:
    try:
        manifest = load_file(folder / MANIFEST).data
    except LoadError:
        return {}
    offered = manifest.get("expansions") if isinstance(manifest, dict) else None
    return offered if isinstance(offered, dict) else {}


def _enclosing_ruleset(path: Path) -> Path | None:
    for parent in path.parents:
        if (parent / MANIFEST).is_file():
            return parent
    return None
