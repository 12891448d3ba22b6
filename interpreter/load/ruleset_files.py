"""Find a ruleset's files, load them and merge them (with overlays) into a catalog.

A catalog is every named item of the ruleset (section → id → item), each
remembering the document and path it came from, so that later stages report
problems at the line where the item was written.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from hashlib import sha256
from pathlib import Path
from typing import TYPE_CHECKING, Any

from interpreter.errors import Diagnostic, LoadError, Location
from interpreter.load.search import MANIFEST, real_path
from interpreter.load.search import resolve_ruleset as resolve_ruleset

if TYPE_CHECKING:  # the readers (YAML, schemas, overlays) are imported where they run:
    # a stored ruleset is used without them (interpreter/ruleset/stored.py)
    from interpreter.load.compose import Overlay
    from interpreter.load.yaml_source import Document, JsonPath

SECTIONS = (
    "labels",
    "automata",
    "constants",
    "sides",
    "counters",
    "variables",
    "kinds",
    "components",
    "zones",
    "spaces",
    "functions",
    "actions",
    "events",
    "triggers",
)
SINGLETONS = ("structure", "scoring")
OVERLAY_SCHEMA = "overlay.schema.json"  # what an overlay file (expansion, mod) is checked by


@dataclass
class Item:
    """One named definition and where it was written; keys and entries that overlays
    brought keep their own place (``sources``: a path inside the item → where)."""

    id: str
    section: str
    data: Any
    document: Document
    path: JsonPath
    sources: dict[tuple, tuple[Document, JsonPath]] = field(default_factory=dict)

    def source(self, *sub: str | int) -> tuple[Document, JsonPath]:
        """The document and path where ``sub`` (a key path inside the item) was written."""
        if not self.sources:  # nothing an overlay brought: most items, asked thousands of times
            return self.document, (*self.path, *sub)
        for cut in range(len(sub), 0, -1):
            found = self.sources.get(tuple(sub[:cut]))
            if found is not None:
                document, path = found
                return document, (*path, *sub[cut:])
        return self.document, (*self.path, *sub)

    def location(self, *sub: str | int, key: bool = False) -> Location:
        document, path = self.source(*sub)
        return document.location(path, key=key)


@dataclass
class Catalog:
    """All items of a ruleset after includes and overlays, with the documents read."""

    manifest: dict[str, Any] = field(default_factory=dict)
    manifest_document: Document | None = None
    sections: dict[str, dict[str, Item]] = field(default_factory=lambda: {s: {} for s in SECTIONS})
    singletons: dict[str, Item] = field(default_factory=dict)
    documents: list[Document] = field(default_factory=list)
    applied: list[str] = field(default_factory=list)  # overlay ids, in the canonical order
    players: dict[str, Any] = field(default_factory=dict)  # from the manifest and overlays
    folder: Path | None = None
    broken: set[tuple] = field(default_factory=set)  # (file, section, id) with schema errors
    failed: list[str] = field(default_factory=list)  # files that could not be read

    def document_paths(self) -> list[str]:
        return [d.path for d in self.documents]

    def item_keys(self) -> set[tuple[str, str]]:
        """Every item as (section, id), the singletons included."""
        keys = {(section, i) for section, items in self.sections.items() for i in items}
        return keys | {(s, s) for s in self.singletons}

    def provisional_keys(self) -> set[tuple[str, str]]:
        """The designed values: provisional components and constants, and each space of
        a provisional space group."""
        keys = set()
        for section in ("components", "constants"):
            for item in self.sections[section].values():
                if isinstance(item.data, dict) and item.data.get("provisional"):
                    keys.add((section, item.id))
        for item in self.sections["spaces"].values():
            if isinstance(item.data, dict) and item.data.get("provisional"):
                keys |= {("spaces", str(space)) for space in item.data.get("items") or {}}
        return keys

    def digest(self) -> str:
        """A hash of the loaded content: the same data gives the same digest anywhere."""
        content = {
            "manifest": {k: v for k, v in self.manifest.items() if k != "expansions"},
            "applied": self.applied,
            "sections": {
                s: {i: item.data for i, item in sorted(items.items())}
                for s, items in self.sections.items()
            },
            "singletons": {s: item.data for s, item in sorted(self.singletons.items())},
        }
        import json  # only where a digest is asked for: `validate` of stored rules never does

        text = json.dumps(content, sort_keys=True, separators=(",", ":"), default=str)
        return "sha256:" + sha256(text.encode()).hexdigest()


def display_path(path: Path) -> str:
    """The path as users passed it: relative to the working folder when possible."""
    try:
        return str(real_path(path).relative_to(Path.cwd()))
    except ValueError:
        return str(path)


class Loader:
    """Loads documents, collecting every diagnostic instead of stopping at the first."""

    def __init__(self) -> None:
        self.diagnostics: list[Diagnostic] = []
        self.file_count = 0
        self.failed: list[str] = []  # files that could not be read at all
        self.broken: set[tuple] = set()  # (file, section, id) of items that broke the schema
        self.paths: list[Path] = []  # every file read, in order (what a stored build depends on)

    def document(self, path: Path, schema: str | None) -> Document | None:
        self.file_count += 1
        self.paths.append(Path(path))
        try:
            document, problems = _read_checked(path, display_path(path), schema)
        except LoadError as exc:
            self.diagnostics.extend(exc.diagnostics)
            self.failed.append(display_path(path))
            return None
        self.diagnostics.extend(document.problems)
        self.diagnostics.extend(problems)
        skip = 1 if schema == OVERLAY_SCHEMA else 0
        for problem in problems:
            key = tuple(problem.data_path[skip : skip + 2])
            if len(key) == 2:
                self.broken.add((document.path, *key))
        return document

    # ----------------------------------------------------------------- rulesets
    def ruleset(
        self, folder: Path, expansions: list[str] | None = None, mods: list[Path] | None = None
    ) -> Catalog:
        catalog = Catalog(folder=folder)
        manifest_doc = self.document(folder / MANIFEST, "manifest.schema.json")
        if manifest_doc is None or not isinstance(manifest_doc.data, dict):
            return catalog
        catalog.manifest = manifest_doc.data
        if isinstance(manifest_doc.data.get("players"), dict):
            catalog.players = dict(manifest_doc.data["players"])
        catalog.manifest_document = manifest_doc
        catalog.documents.append(manifest_doc)
        for index, name in enumerate(manifest_doc.data.get("include") or []):
            path = folder / str(name)
            if not _inside(path, folder):
                self.diagnostics.append(
                    Diagnostic(
                        manifest_doc.location(("include", index)),
                        f"included file {name!r} is outside the ruleset folder",
                        "a ruleset includes only files of its own folder",
                        kind="reference",
                    )
                )
                continue
            if not path.is_file():
                self.diagnostics.append(
                    Diagnostic(
                        manifest_doc.location(("include", index)),
                        f"included file {name!r} does not exist",
                        kind="reference",
                    )
                )
                continue
            document = self.document(path, "content.schema.json")
            if document is not None and isinstance(document.data, dict):
                catalog.documents.append(document)
                self.add_content(catalog, document, document.data)
        offered = manifest_doc.data.get("expansions") or {}
        overlays = []
        for expansion in expansions or []:
            entry = offered.get(expansion)
            if not isinstance(entry, dict):
                from interpreter.language.compiled import did_you_mean

                self.diagnostics.append(
                    Diagnostic(
                        manifest_doc.location(("expansions",))
                        if offered
                        else manifest_doc.location(()),
                        f"ruleset {catalog.manifest.get('id')!r} offers no expansion {expansion!r}",
                        did_you_mean(str(expansion), set(offered))
                        or f"it offers: {', '.join(offered) or 'none'}",
                        kind="reference",
                    )
                )
                continue
            path = folder / str(entry.get("file", ""))
            if not _inside(path, folder):
                self.diagnostics.append(
                    Diagnostic(
                        manifest_doc.location(("expansions", expansion, "file")),
                        f"expansion file {entry.get('file')!r} is outside the ruleset folder",
                        kind="reference",
                    )
                )
                continue
            rank = (0, list(offered).index(expansion), expansion)
            overlays.append(self.overlay_file(catalog, path, rank))
        for mod in mods or []:
            overlay = self.overlay_file(catalog, Path(mod), ())
            if overlay is not None:  # mods come after expansions, in the order of their ids
                overlay.rank = (1, overlay.id, str(mod))
            overlays.append(overlay)
        from interpreter.load.compose import Composer

        composer = Composer(catalog, [str(name) for name in offered])
        catalog.applied = composer.compose([o for o in overlays if o is not None])
        self.diagnostics.extend(composer.diagnostics)
        catalog.broken = self.broken
        catalog.failed = self.failed
        return catalog

    def add_content(self, catalog: Catalog, document: Document, data: dict[str, Any]) -> None:
        """A content file's items; an id defined twice is an error at both places."""
        for section, items in data.items():
            if section in SINGLETONS:
                if section in catalog.singletons:
                    first = catalog.singletons[section]
                    self.diagnostics.append(
                        Diagnostic(
                            document.location((section,), key=True),
                            f"`{section}` is defined twice",
                            f"first defined at {first.location()}",
                            kind="duplicate-id",
                        )
                    )
                    continue
                catalog.singletons[section] = Item(section, section, items, document, (section,))
                continue
            if section not in catalog.sections or not isinstance(items, dict):
                continue
            for item_id, value in items.items():
                existing = catalog.sections[section].get(item_id)
                where = (section, item_id)
                if existing is not None:
                    from interpreter.load.compose import duplicate_id

                    self.diagnostics.append(duplicate_id(document, where, existing))
                    continue
                catalog.sections[section][item_id] = Item(item_id, section, value, document, where)

    def overlay_file(self, catalog: Catalog, path: Path, rank: tuple) -> Overlay | None:
        """Read one overlay file (its operations are applied later, all together)."""
        if not path.is_file():
            self.diagnostics.append(
                Diagnostic(
                    Location(display_path(path)), "overlay file does not exist", kind="reference"
                )
            )
            return None
        document = self.document(path, OVERLAY_SCHEMA)
        if document is None or not isinstance(document.data, dict):
            return None
        catalog.documents.append(document)
        header = document.data.get("overlay")
        header = header if isinstance(header, dict) else {}
        from interpreter.load.compose import Overlay

        return Overlay(str(header.get("id", path.stem)), document, header, rank)


def allowed_combinations(folder: Path, offered: dict) -> list[tuple[str, ...]]:
    """Every subset of the offered expansions whose requirements it contains, in the
    manifest's order (the empty set, the base alone, first)."""
    names = list(offered)
    needs = {name: set(requirement_chain(folder, name, offered)) - {name} for name in names}
    subsets = []
    for mask in range(1 << len(names)):
        subset = [n for i, n in enumerate(names) if mask >> i & 1]
        if all(needs[n] <= set(subset) for n in subset):
            subsets.append(tuple(subset))
    return sorted(subsets, key=lambda s: (len(s), [names.index(n) for n in s]))


def requirement_chain(folder: Path, expansion: str, offered: dict) -> list[str]:
    """The expansion and the expansions it requires, in the order to apply them (an
    entry of ``offered`` that is no mapping names no file: its schema error says so)."""
    order: list[str] = []

    def visit(name: str, depth: int = 0) -> None:
        if name in order or depth > 20 or not isinstance(offered.get(name), dict):
            return
        from interpreter.ruleset import stored

        path = folder / str(offered[name].get("file", ""))
        for need in stored.file_fact(path, "overlay-requires", _overlay_requires):
            visit(str(need), depth + 1)
        order.append(name)

    visit(expansion)
    return order


def load_file(path: Path, *args: Any, **kwargs: Any) -> Document:
    """A YAML file read (``yaml_source.load_file``, imported when first needed)."""
    from interpreter.load import yaml_source

    return yaml_source.load_file(path, *args, **kwargs)


def _overlay_requires(path: Path) -> list[str]:
    """The expansions an overlay file names under `overlay: requires:` (none if
    unreadable); read as the loader reads the overlay, so that the process reads the
    file once (``_read_checked``)."""
    try:
        data = _read_checked(path, display_path(path), OVERLAY_SCHEMA)[0].data
        return [str(n) for n in (data.get("overlay") or {}).get("requires") or []]
    except (LoadError, AttributeError, TypeError):
        return []


def overlay_block_names(path: Path) -> list[list[str]]:
    """The names under `with:` of each `when:` block of an overlay file (none if
    unreadable), read as the loader reads the overlay (``_read_checked``)."""
    try:
        data = _read_checked(path, display_path(path), OVERLAY_SCHEMA)[0].data
    except LoadError:
        return []
    blocks = data.get("when") if isinstance(data, dict) else None
    names = []
    for block in blocks if isinstance(blocks, list) else []:
        needed = block.get("with") if isinstance(block, dict) else None
        names.append([str(n) for n in needed] if isinstance(needed, list) else [])
    return names


_READ_CACHE: dict[tuple, tuple[Document, list[Diagnostic]]] = {}
_READ_CACHE_SIZE = 256  # documents kept: a ruleset's files with every overlay, many times


def _read_checked(
    path: Path, display: str, schema: str | None
) -> tuple[Document, list[Diagnostic]]:
    """A file read and schema-checked, with its schema problems (the offending keys
    removed from its data). Checking several combinations of a ruleset's overlays
    reads each file once per process while it is unchanged; nothing downstream
    modifies a document, so one can be shared."""
    try:
        stat = path.stat()
        key = (str(real_path(path)), display, schema, stat.st_mtime_ns, stat.st_size)
    except (OSError, ValueError):
        key = None
    if key is not None and key in _READ_CACHE:
        return _READ_CACHE[key]
    from interpreter.check.schema_check import check

    document = load_file(path, display=display)
    problems = check(document, schema) if schema else []
    if problems:
        document.data = _without_invalid(document, schema, problems)
    if key is not None:
        if len(_READ_CACHE) >= _READ_CACHE_SIZE:
            _READ_CACHE.pop(next(iter(_READ_CACHE)))
        _READ_CACHE[key] = (document, problems)
    return document, problems


def _inside(path: Path, folder: Path) -> bool:
    try:
        return real_path(path).is_relative_to(real_path(folder))
    except (OSError, ValueError):
        return False


def _without_invalid(document: Document, schema: str, problems: list[Diagnostic]) -> Any:
    """The document's data without the keys and values that broke the schema, so
    later stages see only well-formed data. The items they belong to are kept (and
    marked broken by the loader), so that names still resolve elsewhere."""
    return _prune(document.data, [p.data_path for p in problems], None)


def _prune(data: Any, paths: list[tuple], depth: int | None) -> Any:
    """Drop the items (or sections) that broke the schema, so later stages see only
    well-formed data; the rest of the file is still checked."""
    if not isinstance(data, dict):
        return {}
    for path in paths:
        cut = tuple(path if depth is None else path[:depth])
        if not cut:
            return {}
        data = _without(data, cut)
    return data


def _without(node: Any, cut: tuple) -> Any:
    """``node`` without the entry at ``cut`` (copying only along the way)."""
    key, rest = cut[0], cut[1:]
    if isinstance(node, dict) and key in node:
        if not rest:
            return {k: v for k, v in node.items() if k != key}
        return {**node, key: _without(node[key], rest)}
    if isinstance(node, list) and isinstance(key, int) and 0 <= key < len(node):
        if not rest:
            return node[:key] + node[key + 1 :]
        return [*node[:key], _without(node[key], rest), *node[key + 1 :]]
    return node
