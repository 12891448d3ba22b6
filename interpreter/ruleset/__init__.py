"""Load, check and compile a ruleset: the one entry point for every command."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from interpreter.errors import CheckError, Diagnostic
from interpreter.load.ruleset_files import Catalog, Loader, resolve_ruleset
from interpreter.ruleset.build import build
from interpreter.ruleset.model import Ruleset

__all__ = ["Loaded", "Ruleset", "load", "load_or_raise", "resolve_ruleset"]


@dataclass
class Loaded:
    """The outcome of loading: a ruleset, or the diagnostics that prevent one."""

    ruleset: Ruleset | None
    diagnostics: list[Diagnostic] = field(default_factory=list)
    files: int = 0
    items: int = 0
    provisional: int = 0
    catalog: Catalog | None = None


def load(
    folder: Path, expansions: list[str] | None = None, mods: list[Path] | None = None
) -> Loaded:
    """Load ``folder`` with ``expansions`` (ids it offers) and ``mods`` (overlay files)."""
    loader = Loader()
    catalog = loader.ruleset(folder, expansions, mods)
    if not catalog.manifest:
        return Loaded(None, loader.diagnostics, loader.file_count, catalog=catalog)
    result = build(catalog)
    diagnostics = loader.diagnostics + result.diagnostics
    ruleset = result.ruleset if not diagnostics else None
    return Loaded(
        ruleset, diagnostics, loader.file_count, result.items, result.provisional, catalog
    )


_cache: dict[tuple, Ruleset] = {}


def load_or_raise(
    name_or_path: str | Path, expansions: list[str] | None = None, mods: list[Path] | None = None
) -> Ruleset:
    """A compiled ruleset; cached per process while none of its files change."""
    folder = resolve_ruleset(str(name_or_path))
    if folder is None:
        raise FileNotFoundError(
            f"no ruleset {name_or_path!r} (neither a folder with ruleset.yaml nor an id in "
            "rulesets/)"
        )
    key = (
        str(folder.resolve()),
        tuple(sorted(expansions or ())),  # the order they are named in changes nothing
        tuple(sorted(str(Path(m).resolve()) for m in mods or ())),
        _fingerprint(folder, mods),
    )
    if key in _cache:
        return _cache[key]
    loaded = load(folder, expansions, mods)
    if loaded.ruleset is None:
        raise CheckError(loaded.diagnostics)
    _cache[key] = loaded.ruleset
    return loaded.ruleset


def _fingerprint(folder: Path, mods: list[Path] | None) -> tuple:
    files = sorted(folder.rglob("*.yaml")) + [Path(m) for m in mods or ()]
    stamps = []
    for path in files:
        try:
            stat = path.stat()
        except OSError:
            continue
        stamps.append((str(path), stat.st_mtime_ns, stat.st_size))
    return tuple(stamps)
