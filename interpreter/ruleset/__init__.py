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


def load(folder: Path, expansions: list[str] | None = None,
         mods: list[Path] | None = None) -> Loaded:
    """Load ``folder`` with ``expansions`` (ids it offers) and ``mods`` (overlay files)."""
    loader = Loader()
    catalog = loader.ruleset(folder, expansions, mods)
    if not catalog.manifest:
        return Loaded(None, loader.diagnostics, loader.file_count, catalog=catalog)
    result = build(catalog)
    diagnostics = loader.diagnostics + result.diagnostics
    ruleset = result.ruleset if not diagnostics else None
    return Loaded(ruleset, diagnostics, loader.file_count, result.items, result.provisional,
                  catalog)


def load_or_raise(name_or_path: str | Path, expansions: list[str] | None = None,
                  mods: list[Path] | None = None) -> Ruleset:
    folder = resolve_ruleset(str(name_or_path))
    if folder is None:
        raise FileNotFoundError(
            f"no ruleset {name_or_path!r} (neither a folder with ruleset.yaml nor an id in "
            "rulesets/)")
    loaded = load(folder, expansions, mods)
    if loaded.ruleset is None:
        raise CheckError(loaded.diagnostics)
    return loaded.ruleset
