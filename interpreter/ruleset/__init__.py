"""Load, check and compile a ruleset: the one entry point for every command."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from interpreter.errors import CheckError, Diagnostic
from interpreter.load.search import resolve_ruleset
from interpreter.ruleset import stored
from interpreter.ruleset.file_stamps import fingerprint

if TYPE_CHECKING:
    from interpreter.load.ruleset_files import Catalog
    from interpreter.ruleset.model import Ruleset

__all__ = ["Loaded", "Ruleset", "load", "load_or_raise", "resolve_ruleset"]


def __getattr__(name: str) -> object:
    """``Ruleset`` imported on first use: a stored verdict (`validate`) never needs it."""
    if name == "Ruleset":
        from interpreter.ruleset.model import Ruleset

        return Ruleset
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@dataclass
class Loaded:
    """The outcome of loading: a ruleset, or the diagnostics that prevent one."""

    ruleset: Ruleset | None
    diagnostics: list[Diagnostic] = field(default_factory=list)
    files: int = 0
    items: int = 0
    provisional: int = 0
    catalog: Catalog | None = None
    lint: list[Diagnostic] | None = field(default=None, repr=False)  # once computed
    stored: str | None = field(default=None, repr=False)  # its entry in the disk cache
    verdict_only: bool = field(default=False, repr=False)  # the stored verdict, no ruleset

    @property
    def valid(self) -> bool:
        """Loaded without errors: a ruleset, or the stored verdict of one."""
        return self.ruleset is not None or self.verdict_only


def load(
    folder: Path,
    expansions: list[str] | None = None,
    mods: list[Path] | None = None,
    *,
    catalog: bool = True,
    use_store: bool = True,
    verdict: bool = False,
) -> Loaded:
    """Load ``folder`` with ``expansions`` (ids it offers) and ``mods`` (overlay files).

    A load without errors is kept on disk (``stored.py``) and taken from there while
    none of the files it read changes; ``catalog=False`` skips reading the stored
    catalog (the documents), which only checks and tools that show the YAML need;
    ``use_store=False`` reads the files, as inside ``buffers.reading`` (an editor's
    unsaved texts stand in for some); ``verdict=True``: the caller asks whether the
    rules are valid, with the catalog's summary and the lint, and not for the ruleset,
    which a stored verdict then leaves unread (``Loaded.valid``, not ``ruleset``); a
    build it makes compiles each function only when called, shares its compiles with
    the process's other checked builds (``shared_compiles.py``: its ruleset is for
    its diagnostics, never for play) and is not stored (the verdict is, once the lint
    ran: ``stored.remember_lint``).
    """
    from interpreter.load import buffers

    key = None
    if use_store and stored.enabled() and not buffers.active():
        key = stored.request_key(folder, expansions, mods)
    if key is not None:
        hit = stored.fetch_verdict(key) if verdict else None
        hit = hit or stored.fetch(key, with_catalog=catalog)
        if hit is not None:
            return hit
    from interpreter.load.ruleset_files import Loader  # not needed for a stored ruleset
    from interpreter.ruleset.build import build

    loader = Loader()
    read = loader.ruleset(folder, expansions, mods)
    if not read.manifest:
        return Loaded(None, loader.diagnostics, loader.file_count, catalog=read)
    result = build(read, lazy=verdict)  # a verdict's functions are compiled if called
    # one problem found by two checks (a condition read both as a guard and in its
    # effect) is said once
    unique = {(d.location, d.message): d for d in loader.diagnostics + result.diagnostics}
    diagnostics = list(unique.values())
    ruleset = result.ruleset if not diagnostics else None
    loaded = Loaded(ruleset, diagnostics, loader.file_count, result.items, result.provisional, read)
    if key is not None and verdict:
        stored.note_sources(key, loaded, loader.paths)  # for its verdict, not its code
    elif key is not None and result.emitter is not None:
        stored.store(key, loaded, result.emitter, loader.paths)
    return loaded


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
    return load_found(folder, expansions, mods)


def load_found(
    folder: Path, expansions: list[str] | None = None, mods: list[Path] | None = None
) -> Ruleset:
    """``load_or_raise`` of a folder found to hold a ruleset (``find_ruleset``), not
    looked for again: replay finds a log's rules by id before every replay."""
    key = (
        # not followed through links (that is 5 system calls before every replay of a
        # log): a folder reached by two paths is cached twice; the inodes in the
        # fingerprint tell a link pointed elsewhere
        os.path.abspath(folder),
        tuple(sorted(expansions or ())),  # the order they are named in changes nothing
        tuple(sorted(os.path.abspath(m) for m in mods or ())),
        fingerprint(folder, mods),
    )
    if key in _cache:
        return _cache[key]
    loaded = load(folder, expansions, mods, catalog=False)
    if loaded.ruleset is None:
        raise CheckError(loaded.diagnostics)
    _cache[key] = loaded.ruleset
    return loaded.ruleset
