"""Compiled rulesets kept on disk, so that a second `validate`, `play` or `replay` of
unchanged rules skips reading YAML, the schemas and compiling.

An entry is found by the request (folder, as named and where it is, the working
folder the paths are shown from, expansions, mods, rules path) and this
interpreter's own code (its version and the size and time of every file of the
package); it is used only if every file the load read still has the digest it had
(sha256 of its bytes), so editing, adding or removing a rules file rebuilds. Only
loads without errors are stored. The generated functions are stored as their code
objects (``marshal``) and made again in a fresh namespace; everything else is
pickled, with each generated function written as its name, and each effect block
compiled and written as its code (``effects.Seq``): a process that plays or replays
stored rules compiles nothing.

Entries live in ``$XDG_CACHE_HOME/tabletop-rules/rulesets/`` (or ``~/.cache/…``);
``TABLETOP_RULES_CACHE=0`` turns this cache off, like the grammar's. A missing,
unreadable, stale or broken entry is a miss, never an error: the rules are then
loaded from their files.
"""

from __future__ import annotations

import builtins
import contextlib
import functools
import io
import json
import marshal
import os
import pickle
import sys
import types
from collections.abc import Callable
from dataclasses import dataclass
from hashlib import sha256
from pathlib import Path
from typing import TYPE_CHECKING, Any

from interpreter import cache_folder
from interpreter.load.search import once_while_fixed, real_path

if TYPE_CHECKING:  # the code generator is imported only where code is read or written
    from interpreter.language.codegen import Emitter

FORMAT = 4  # bumped when the layout of an entry changes
MAX_ENTRY_BYTES = cache_folder.MAX_ENTRY_BYTES  # a larger file is not read
MAX_ENTRIES = 64  # the oldest entries beyond this are removed when one is written
_PACKAGE = Path(__file__).resolve().parents[1]


@dataclass
class Entry:
    """What is kept of one load: the files it read and its pickled parts."""

    sources: list[tuple[str, str]]  # (path, sha256 of the bytes read)
    codes: bytes  # marshal of {name: code object} of the generated functions
    core: bytes  # pickle of (namespace values, explanations, Loaded without its catalog)
    catalog: bytes  # pickle of the catalog (read only where it is asked for)
    summary: dict[str, Any]  # what `validate` asks of the catalog, without reading it


enabled = cache_folder.enabled


def folder() -> Path:
    return cache_folder.root() / "rulesets"


def request_key(folder_: Path, expansions: list[str] | None, mods: list[Path] | None) -> str:
    """The name of the entry for this request on this interpreter."""
    from interpreter import __version__
    from interpreter.load import search

    parts = [
        f"format {FORMAT}",
        __version__,
        sys.version,
        _code_stamp(),
        # where the files are, and how they were named from where: the stored
        # locations and the catalog keep the paths as shown from this folder
        str(real_path(folder_)),
        str(folder_),
        os.getcwd(),
        list(expansions or ()),
        [[str(real_path(m)), str(m)] for m in mods or ()],
        [str(p) for p in search.rules_path()],
    ]
    # JSON: two different requests never make the same text (a list joined with a
    # separator did: no expansion and the expansion "" were one key)
    return sha256(json.dumps(parts).encode()).hexdigest()[:32]


@functools.lru_cache(maxsize=1)
def _code_stamp() -> str:
    """The interpreter's own files (size and time): a changed interpreter rebuilds."""
    stamps: list[str] = []
    _stamp_folder(str(_PACKAGE), "", stamps)
    return sha256("\n".join(stamps).encode()).hexdigest()


def _stamp_folder(folder: str, prefix: str, stamps: list[str]) -> None:
    """``path:size:time`` of a folder's files, then of its folders' (by name, as
    ``os.walk`` from the top gives them, links to folders not followed): the entries'
    names and types as the folder's listing gives them, no path made per file."""
    try:
        with os.scandir(folder) as listing:
            entries = sorted(listing, key=lambda entry: entry.name)
    except OSError:
        return  # as os.walk: a folder that cannot be listed is left out
    folders = []
    for entry in entries:
        if entry.is_dir():
            if entry.name != "__pycache__" and not entry.is_symlink():
                folders.append(entry)
        elif entry.name.endswith((".py", ".lark", ".json")):
            stat = entry.stat()
            stamps.append(f"{prefix}{entry.name}:{stat.st_size}:{stat.st_mtime_ns}")
    for entry in folders:
        _stamp_folder(entry.path, f"{prefix}{entry.name}{os.sep}", stamps)


def digest(path: Path) -> str | None:
    """The digest of a file's bytes, None if unreadable (once per file inside
    ``search.files_fixed``, as `validate` runs)."""
    return once_while_fixed("digest", path, lambda: _digest(path))


def _digest(path: Path) -> str | None:
    try:
        return sha256(Path(path).read_bytes()).hexdigest()
    except OSError:
        return None


def _sources(paths: list[Path]) -> list[tuple[str, str]] | None:
    """(path, digest) of every file a load read, once each; None if one is unreadable."""
    sources = [(str(real_path(p)), digest(Path(p))) for p in dict.fromkeys(paths)]
    return None if any(d is None for _, d in sources) else sources  # type: ignore[misc]


def _unchanged(sources: list[tuple[str, str]]) -> bool:
    """Whether every file still has the digest it had when the entry was kept."""
    return all(digest(Path(p)) == d for p, d in sources)


# ------------------------------------------------------------------- reading
def fetch(key: str, with_catalog: bool = True) -> Any | None:
    """The stored ``Loaded`` for ``key`` if every file it read is unchanged, else None."""
    if not enabled():
        return None
    entry = _read(folder() / f"{key}.pickle")
    if entry is None or not _unchanged(entry.sources):
        return None
    try:
        codes = marshal.loads(entry.codes)
        values, explanations, loaded = pickle.loads(entry.core)
        from interpreter.language.codegen import Emitter

        emitter = Emitter.restore(values, codes, explanations)
        loaded = _Unpickler(io.BytesIO(loaded), emitter).load()
        if with_catalog:
            loaded.catalog = StoredCatalog(entry.catalog, entry.summary)
        loaded.lint = _read_lint(key, entry.sources)
    except Exception:  # a broken entry is a miss: the files are read instead
        return None
    loaded.stored = key
    loaded.stored_sources = entry.sources
    return loaded


def _read(path: Path) -> Entry | None:
    entry = _unpickle_kept(path)
    return entry if isinstance(entry, Entry) else None


def _unpickle_kept(path: Path) -> Any:
    """What this user's process pickled at ``path`` (``cache_folder.read_entry``
    checks who wrote it before anything is unpickled), or None."""
    data = cache_folder.read_entry(path, MAX_ENTRY_BYTES)
    if data is None:
        return None
    try:
        return pickle.loads(data)
    except Exception:  # of another format: a miss
        return None


class _Unpickler(pickle.Unpickler):
    def __init__(self, file: Any, emitter: Emitter):
        super().__init__(file)
        self.emitter = emitter

    def persistent_load(self, pid: Any) -> Any:
        if pid[0] == "fn":
            return self.emitter.namespace[pid[1]]
        if pid[0] == "own":  # a function with a namespace of its own (``_Pickler``)
            _, name, codes, values = pid
            namespace = {"__builtins__": builtins, **values}
            for fn_name, code in marshal.loads(codes).items():
                namespace[fn_name] = types.FunctionType(code, namespace, fn_name)
            return namespace[name]
        raise pickle.UnpicklingError(f"unknown reference {pid!r}")


def file_fact(path: Path, kind: str, compute: Any) -> Any:
    """``compute(path)``, kept on disk while the file's bytes stay the same (a small
    fact read from a file, such as the expansions an overlay requires)."""
    if not enabled():
        return compute(path)
    current = digest(path)
    name = sha256(json.dumps([FORMAT, kind, str(real_path(path))]).encode()).hexdigest()[:32]
    where = folder() / "facts" / f"{name}.pickle"
    with contextlib.suppress(Exception):
        seen, value = _unpickle_kept(where)  # written below, in the user's cache
        if current is not None and seen == current:
            return value
    value = compute(path)
    if current is not None:
        with contextlib.suppress(Exception):
            cache_folder.write_entry(where, pickle.dumps((current, value)))
    return value


# ------------------------------------------------------------------- writing
class _Pickler(pickle.Pickler):
    """Writes a generated function of the ruleset's namespace as its name, and one with
    a namespace of its own (an effect block's, ``engine/effect_code.py``) as the code
    of that namespace's functions and its other values (pickled with the rest, so the
    nodes it names are the ruleset's)."""

    def __init__(self, file: Any, namespace: dict[str, Any]):
        super().__init__(file, protocol=pickle.HIGHEST_PROTOCOL)
        self.namespace = namespace

    def persistent_id(self, obj: Any) -> Any:
        from interpreter.language.codegen import FILENAME

        if not isinstance(obj, types.FunctionType) or obj.__code__.co_filename != FILENAME:
            return None
        own = obj.__globals__
        if own is self.namespace:
            return ("fn", obj.__name__)
        codes = {k: v.__code__ for k, v in own.items() if _defined_in(v, own)}
        values = {k: v for k, v in own.items() if k not in codes and not k.startswith("__")}
        return ("own", obj.__name__, marshal.dumps(codes), values)


def _defined_in(value: Any, namespace: dict[str, Any]) -> bool:
    return isinstance(value, types.FunctionType) and value.__globals__ is namespace


def _dumps(value: Any, namespace: dict[str, Any]) -> bytes:
    """Pickle what may hold generated functions (``_Pickler``)."""
    buffer = io.BytesIO()
    _Pickler(buffer, namespace).dump(value)
    return buffer.getvalue()


def store(key: str, loaded: Any, emitter: Emitter, paths: list[Path]) -> None:
    """Keep a load without errors; silently nothing where the cache cannot be written."""
    if not enabled() or loaded.ruleset is None or loaded.diagnostics:
        return
    sources = _sources(paths)
    if sources is None:
        return
    catalog, lint = loaded.catalog, loaded.lint
    try:
        loaded.catalog = loaded.lint = None
        values = {k: v for k, v in emitter.bound_values().items() if not k.startswith("__")}
        namespace = emitter.namespace
        core = _dumps((values, emitter.explanations, _dumps(loaded, namespace)), namespace)
        entry = Entry(
            sources,
            marshal.dumps(emitter.codes),
            core,
            pickle.dumps(catalog, protocol=pickle.HIGHEST_PROTOCOL),
            _summary(catalog),
        )
    except Exception:  # something of this ruleset cannot be stored: it is rebuilt each time
        return
    finally:
        loaded.catalog, loaded.lint = catalog, lint
    _write(folder() / f"{key}.pickle", entry)
    loaded.stored = key
    loaded.stored_entry = entry


def note_sources(key: str, loaded: Any, paths: list[Path]) -> None:
    """Mark a load without errors whose code is not stored (a lazy build, for
    `validate`): its verdict can still be kept, for the files it read."""
    if not enabled() or loaded.ruleset is None or loaded.diagnostics:
        return
    sources = _sources(paths)
    if sources is not None:
        loaded.stored, loaded.stored_sources = key, sources


_SUMMARY = ("manifest", "applied", "folder", "failed")
_SUMMARY_CALLS = ("document_paths", "item_keys", "provisional_keys")


def _summary(catalog: Any) -> dict[str, Any]:
    out = {name: getattr(catalog, name) for name in _SUMMARY}
    out.update({name: getattr(catalog, name)() for name in _SUMMARY_CALLS})
    return out


class StoredCatalog:
    """A stored catalog: what `validate` asks at once, the rest (the documents, the
    items) unpickled on first use (``blob``: its pickle, or what reads it)."""

    def __init__(self, blob: bytes | Callable[[], bytes], summary: dict[str, Any]):
        self._blob = blob
        self._summary = summary
        self._catalog: Any = None
        for name in _SUMMARY:
            setattr(self, name, summary[name])

    def __getattr__(self, name: str) -> Any:
        if name in _SUMMARY_CALLS:
            value = self._summary[name]
            return lambda: value
        if self._catalog is None:
            blob = self._blob() if callable(self._blob) else self._blob
            self._catalog = pickle.loads(blob)  # our own file
        return getattr(self._catalog, name)


def remember_lint(loaded: Any, warnings: list) -> None:
    """Keep the verdict of `validate` beside the stored entry of ``loaded`` (the lint
    runs after the load, in `validate` only): the lint's warnings and what `validate`
    asks of the catalog, for the same files only, so that a second `validate` reads
    this small file instead of the entry (``fetch_verdict``)."""
    entry = getattr(loaded, "stored_entry", None)
    key = getattr(loaded, "stored", None)
    if not enabled() or key is None:
        return
    sources = entry.sources if entry is not None else getattr(loaded, "stored_sources", None)
    if sources is None:
        return
    catalog = loaded.catalog
    summary = catalog._summary if isinstance(catalog, StoredCatalog) else _summary(catalog)
    with contextlib.suppress(Exception):
        _write(folder() / f"{key}.lint", (sources, warnings, summary))


def _read_verdict(key: str) -> tuple[list, list, dict] | None:
    try:
        sources, warnings, summary = _unpickle_kept(folder() / f"{key}.lint")
    except Exception:  # none kept (by remember_lint), or not ours
        return None
    return sources, warnings, summary


def _read_lint(key: str, sources: list) -> list | None:
    verdict = _read_verdict(key)
    return verdict[1] if verdict is not None and verdict[0] == sources else None


def fetch_verdict(key: str) -> Any | None:
    """What `validate` needs of a stored load, from its verdict file alone (no code,
    no ruleset read): a ``Loaded`` without its ruleset, or None where the verdict is
    missing or any file it was reached from changed."""
    if not enabled():
        return None
    verdict = _read_verdict(key)
    if verdict is None:
        return None
    sources, warnings, summary = verdict
    if not _unchanged(sources):
        return None
    from interpreter.ruleset import Loaded

    def catalog_blob() -> bytes:  # only if something asks more than the summary
        entry = _read(folder() / f"{key}.pickle")
        if entry is None or entry.sources != sources:
            raise LookupError(f"the stored entry {key} is gone or changed: validate again")
        return entry.catalog

    loaded = Loaded(
        None,
        catalog=StoredCatalog(catalog_blob, summary),
        lint=warnings,
        stored=key,
        verdict_only=True,
    )
    loaded.stored_sources = sources
    return loaded


def _write(path: Path, entry: Any) -> None:
    """Write atomically, with its MAC; on a read-only or full disk, or in a cache
    folder that is not this user's alone, the rules are simply not kept."""
    if cache_folder.write_entry(path, pickle.dumps(entry, protocol=pickle.HIGHEST_PROTOCOL)):
        with contextlib.suppress(Exception):
            _prune(path.parent)


def _prune(where: Path) -> None:
    """Keep the ``MAX_ENTRIES`` requests used last: an entry's code (``.pickle``), its
    verdict (``.lint``) or both."""
    latest: dict[str, float] = {}
    for path in (*where.glob("*.pickle"), *where.glob("*.lint")):
        with contextlib.suppress(OSError):
            latest[path.stem] = max(latest.get(path.stem, 0.0), path.stat().st_mtime)
    for stem in sorted(latest, key=latest.__getitem__, reverse=True)[MAX_ENTRIES:]:
        for suffix in (".pickle", ".lint"):
            with contextlib.suppress(OSError):
                (where / f"{stem}{suffix}").unlink(missing_ok=True)
