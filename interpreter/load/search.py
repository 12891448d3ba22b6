"""Where rulesets and mods are found: paths relative to the file that names them, and
ruleset ids and mod ids on the *rules path*.

The rules path, in order: the folders given with ``--rules-path`` (``set_rules_path``),
the folders in the ``RULES_PATH`` environment variable (separated like ``PATH``),
``./rulesets`` of the working folder, and the rulesets bundled with the package. A
folder on it holds ruleset folders (``<id>/ruleset.yaml``) and mod files (``*.yaml``
with an ``overlay:`` header, directly in it or in its ``mods/`` folder); it may also
be a ruleset folder itself.
"""

from __future__ import annotations

import contextlib
import functools
import os
from collections.abc import Callable, Iterator
from hashlib import sha256
from pathlib import Path
from typing import Any, TypeVar

from interpreter.errors import LoadError

MANIFEST = "ruleset.yaml"
ENVIRONMENT = "RULES_PATH"
PROJECT_ROOT = Path(__file__).resolve().parents[2]
MAX_MOD_FILES = 2000  # files looked at when searching the rules path for a mod id

_given: list[Path] = []
_FIXED: dict[tuple[str, str], Any] | None = None  # inside ``files_fixed``
T = TypeVar("T")


@contextlib.contextmanager
def files_fixed() -> Iterator[None]:
    """Inside it, the files and links do not change, so what is worked out of a file
    is worked out once (``once_while_fixed``): `validate` checks every combination of a
    ruleset's expansions, resolving the same paths some 500 times (a system call per
    part of each) and reading each file's digest about a hundred times."""
    global _FIXED
    outer = _FIXED
    _FIXED = {} if outer is None else outer
    try:
        yield
    finally:
        _FIXED = outer


def once_while_fixed(kind: str, path: Path | str, work: Callable[[], T]) -> T:
    """``work()``, a ``kind`` of fact of the file at ``path``: once per path inside
    ``files_fixed``, every time outside it."""
    known = _FIXED
    if known is None:
        return work()
    key = (kind, str(path))
    if key not in known:
        known[key] = work()
    return known[key]


def real_path(path: Path | str) -> Path:
    """``Path(path).resolve()``: absolute, links followed (once, in ``files_fixed``)."""
    return once_while_fixed("real path", path, lambda: Path(path).resolve())


def set_rules_path(folders: list[Path]) -> None:
    """The folders given on the command line (``--rules-path``), searched first."""
    _given[:] = [Path(f) for f in folders]


def bundled() -> Path | None:
    """The folder of the rulesets installed with the package."""
    folder = _bundled()
    return None if folder is None else Path(folder)


@functools.cache
def _bundled() -> str | None:
    try:
        import tabletop_rulesets
    except ImportError:
        folder = PROJECT_ROOT / "rulesets"
        return str(folder) if folder.is_dir() else None
    return os.path.dirname(tabletop_rulesets.__file__)


def rules_path() -> list[Path]:
    return [Path(folder) for folder in _rules_folders()]


def _rules_folders() -> list[str]:
    """``rules_path`` as texts: it is searched before every replay of a log, and a
    ``Path`` made is a few microseconds."""
    folders = [str(folder) for folder in _given]
    folders += [p for p in os.environ.get(ENVIRONMENT, "").split(os.pathsep) if p]
    folders.append(os.path.join(os.getcwd(), "rulesets"))
    installed = _bundled()
    if installed is not None:
        folders.append(installed)
    return folders


def resolve_ruleset(name_or_path: str, relative_to: Path | None = None) -> Path | None:
    """A ruleset folder from a path (relative to ``relative_to``, the folder of the
    file that names it, or else to the working folder) or an id on the rules path."""
    try:
        return _resolve(name_or_path, relative_to)
    except (OSError, ValueError):  # a name too long or malformed for the file system
        return None


def find_ruleset(ruleset_id: str) -> Path | None:
    """A ruleset folder by id only, on the rules path: never a path (a log's header
    names its ruleset; replay must not open a file because a log says so)."""
    if not ruleset_id or "/" in ruleset_id or "\\" in ruleset_id or ruleset_id.startswith("."):
        return None
    try:
        return _on_rules_path(ruleset_id)
    except (OSError, ValueError):
        return None


def _resolve(name_or_path: str, relative_to: Path | None) -> Path | None:
    candidates = [Path(name_or_path)]
    if relative_to is not None and not Path(name_or_path).is_absolute():
        candidates.insert(0, relative_to / name_or_path)
    for candidate in candidates:
        if (candidate / MANIFEST).is_file():  # a ruleset's folder (one system call)
            return candidate
        if candidate.name == MANIFEST and candidate.is_file():
            return candidate.parent
    if "/" in name_or_path or "\\" in name_or_path or name_or_path in (".", ".."):
        return None  # a path that is not there: not an id
    return _on_rules_path(name_or_path)


def _on_rules_path(name_or_path: str) -> Path | None:
    for root in _rules_folders():
        folder = os.path.join(root, name_or_path)
        if os.path.isfile(os.path.join(folder, MANIFEST)):
            return Path(folder)
        if os.path.basename(os.path.normpath(root)) == name_or_path and os.path.isfile(
            os.path.join(root, MANIFEST)
        ):
            return Path(root)
    return None


def ruleset_ids() -> set[str]:
    """Every ruleset id on the rules path (for "did you mean")."""
    ids = set()
    for root in rules_path():
        if root.is_dir():
            ids |= {p.parent.name for p in root.glob(f"*/{MANIFEST}")}
    return ids


def file_digest(path: Path) -> str:
    return "sha256:" + sha256(path.read_bytes()).hexdigest()


def overlay_id(path: Path) -> str | None:
    """The ``overlay.id`` of a mod file, or None if it is not one."""
    from interpreter.load.yaml_source import load_file

    try:
        data = load_file(path).data
    except (LoadError, OSError):
        return None
    header = data.get("overlay") if isinstance(data, dict) else None
    mod_id = header.get("id") if isinstance(header, dict) else None
    return str(mod_id) if mod_id is not None else None


def find_mod(mod_id: str) -> Path | None:
    """The mod file with this overlay id on the rules path, or None."""
    looked = 0
    for root in rules_path():
        if not root.is_dir():
            continue
        for pattern in ("*.yaml", "mods/*.yaml", "*/mods/*.yaml"):
            for path in sorted(root.glob(pattern)):
                looked += 1
                if looked > MAX_MOD_FILES:
                    return None
                if path.name != MANIFEST and overlay_id(path) == mod_id:
                    return path
    return None
