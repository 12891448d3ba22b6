"""`rules validate FOLDER` for a folder of mods: each on its base, then all together.

A mod repository is a folder of overlay files, not a ruleset. Each mod is checked
on its own base (with the expansions it requires); then the mods that share a base
are checked as one combination, because two mods that are each fine can still
conflict (both `patch:` one key, one removes what the other extends).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from interpreter.errors import LoadError
from interpreter.load.ruleset_files import MANIFEST, requirement_chain, resolve_ruleset

YAML_SUFFIXES = (".yaml", ".yml")


def yaml_files(folder: Path) -> list[Path]:
    """The YAML files of a folder (not of its sub-folders), in name order."""
    return sorted(p for p in folder.iterdir() if p.is_file() and p.suffix in YAML_SUFFIXES)


def overlay_header(path: Path) -> dict | None:
    """The `overlay:` header of a file, or None when it is not an overlay (or unreadable:
    checking it on its own reports why)."""
    try:
        from interpreter.load.yaml_source import load_file

        data = load_file(path).data
    except LoadError:
        return None
    if isinstance(data, dict) and isinstance(data.get("overlay"), dict):
        return data["overlay"]
    return None


def base_folder(path: Path, header: dict) -> Path | None:
    """The ruleset folder a mod applies to: `base:` is an id on the rules path or a
    folder relative to the mod file."""
    base = header.get("base")
    return resolve_ruleset(str(base), path.parent) if base else None


def needed_expansions(folder: Path, headers: list[dict]) -> list[str]:
    """The expansions the overlays `require`, with what those require in turn (a mod
    of the same combination is applied already, not an expansion to add)."""
    mods = {str(h.get("id")) for h in headers if h.get("id")}
    offered = {}
    try:
        from interpreter.load.yaml_source import load_file

        manifest = load_file(folder / MANIFEST).data
        offered = manifest.get("expansions") or {} if isinstance(manifest, dict) else {}
    except LoadError:
        pass
    expansions: list[str] = []
    for header in headers:
        requires = header.get("requires")
        for need in requires if isinstance(requires, list) else []:
            if str(need) in mods:
                continue
            for name in requirement_chain(folder, str(need), offered):
                if name not in expansions:
                    expansions.append(name)
    return expansions


def validate_folder(
    folder: Path,
    check_file: Callable[[Path], None],
    check_together: Callable[[Path, list[Path], list[dict]], None],
) -> bool:
    """Check every YAML file of ``folder`` alone, then each group of two or more mods
    with one base together. False when the folder holds no YAML file at all."""
    files = yaml_files(folder)
    if not files:
        return False
    groups: dict[Path, list[tuple[Path, dict]]] = {}
    for path in files:
        check_file(path)
        header = overlay_header(path)
        base = base_folder(path, header) if header is not None else None
        if base is not None:
            groups.setdefault(base.resolve(), []).append((path, header))
    for base, mods in sorted(groups.items()):
        if len(mods) > 1:
            check_together(base, [p for p, _ in mods], [h for _, h in mods])
    return True
