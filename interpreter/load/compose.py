"""Compose overlays onto a base catalog, so that several can change one rule.

The outcome depends on the *set* of overlays, never on the order they were named
in: they are put in one canonical order (what an overlay requires or overrides
first, then the order the manifest offers expansions in, then mods by id) and
applied operation by operation across all of them — removals, replacements,
patches, additions, then extensions.

* ``remove``, ``replace`` and ``patch`` change what is there. Two overlays that do so
  to the same item (or the same key of it) conflict: an error naming both places,
  unless one declares ``overrides: [other]`` in its header (then it wins).
* ``add`` brings new items; an id that exists is an error.
* ``extend`` only adds to existing items: mappings merge by key, lists append,
  lists of entries with an ``id`` (phases, steps) merge by id and insert new entries
  ``before``/``after`` one, and an effect grows named steps around its ``main`` one.
  Any number of overlays can extend the same rule and all of their changes hold;
  changing a value that is already there is an error (that is a ``patch``).
* ``when: [{with: [ids], …}]`` blocks apply only when those overlays are applied
  too, so content for a combination needs no glue overlay.

Every merged piece keeps the document and path it was written at (``Item.sources``),
so later stages report problems where the overlay wrote them.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from interpreter.check.schema_check import check_item_keys
from interpreter.errors import Diagnostic, Location
from interpreter.language.compiled import did_you_mean
from interpreter.load.merge import Merger, forget
from interpreter.load.yaml_source import Document, JsonPath

if TYPE_CHECKING:
    from interpreter.load.ruleset_files import Catalog, Item

OPERATIONS = ("remove", "replace", "patch", "add", "extend")
PAST = {
    "remove": "removes",
    "replace": "replaces",
    "patch": "patches",
    "extend": "extends",
    "add": "adds",
}


@dataclass
class Overlay:
    """One overlay file: an expansion the manifest offers, or a mod."""

    id: str
    document: Document
    header: dict[str, Any]
    rank: tuple  # tie-break of the canonical order

    def names(self, key: str) -> list[str]:
        value = self.header.get(key)
        return [str(v) for v in value] if isinstance(value, list) else []

    def overrides(self, other: Overlay) -> bool:
        return other.id in self.names("overrides")


@dataclass
class Part:
    """A block of operations: an overlay's top level or one of its `when` blocks."""

    overlay: Overlay
    data: dict[str, Any]
    base: JsonPath  # () or ("when", index)

    def where(self, *path: str | int) -> JsonPath:
        return (*self.base, *path)

    def location(self, *path: str | int, key: bool = False) -> Location:
        return self.overlay.document.location(self.where(*path), key=key)


@dataclass
class Claim:
    overlay: Overlay
    operation: str
    location: Location


@dataclass
class Composer:
    catalog: Catalog
    offered: list[str]  # expansion ids the ruleset offers, in the manifest's order
    diagnostics: list[Diagnostic] = field(default_factory=list)
    claims: dict[tuple[str, str], dict[str | None, Claim]] = field(default_factory=dict)

    def error(self, location: Location, message: str, hint: str | None = None) -> None:
        self.diagnostics.append(Diagnostic(location, message, hint, kind="reference"))

    # ------------------------------------------------------------ the order
    def compose(self, overlays: list[Overlay]) -> list[str]:
        """Apply ``overlays``; return their ids in the canonical order."""
        overlays = self._unique(overlays)
        present = {o.id for o in overlays}
        for overlay in overlays:
            for index, needed in enumerate(overlay.names("requires")):
                if needed not in present:
                    self.error(
                        overlay.document.location(("overlay", "requires", index)),
                        f"{overlay.id!r} requires {needed!r}, which is not applied",
                        f"apply it too (`--with {needed}`); the order they are named in does "
                        "not matter",
                    )
        known = set(self.offered) | present
        for overlay in overlays:
            for index, name in enumerate(overlay.names("overrides")):
                if name not in known:
                    self.error(
                        overlay.document.location(("overlay", "overrides", index)),
                        f"{overlay.id!r} overrides {name!r}, which is no expansion or mod here",
                        did_you_mean(name, known) or f"known: {', '.join(sorted(known))}",
                    )
        ordered = self._canonical(overlays)
        parts = [Part(o, o.document.data, ()) for o in ordered]
        for part in parts:
            players = part.overlay.header.get("players")
            if isinstance(players, dict) and self._claim(
                part, "replace", "overlay", "players", None, ("overlay", "players")
            ):
                self.catalog.players = {**self.catalog.players, **players}
        for overlay in ordered:
            parts.extend(self._conditional_parts(overlay, present))
        for operation in OPERATIONS:
            for part in parts:
                block = part.data.get(operation)
                if isinstance(block, dict):
                    getattr(self, f"_{operation}")(part, block)
        return [o.id for o in ordered]

    def _unique(self, overlays: list[Overlay]) -> list[Overlay]:
        seen: dict[str, Overlay] = {}
        for overlay in overlays:
            first = seen.get(overlay.id)
            if first is None:
                seen[overlay.id] = overlay
            elif first.document.path != overlay.document.path:
                self.error(
                    overlay.document.location(("overlay", "id")),
                    f"two overlays have the id {overlay.id!r}",
                    f"the other is {first.document.location(('overlay', 'id'))}; give each "
                    "overlay its own id",
                )
        return list(seen.values())

    def _canonical(self, overlays: list[Overlay]) -> list[Overlay]:
        """Dependencies first (requires, overrides), otherwise by rank."""
        by_id = {o.id: o for o in overlays}
        before = {
            o.id: {n for n in o.names("requires") + o.names("overrides") if n in by_id}
            for o in overlays
        }
        waiting = {i: len(b) for i, b in before.items()}
        ready = [(o.rank, o.id) for o in overlays if not waiting[o.id]]
        heapq.heapify(ready)
        ordered: list[Overlay] = []
        while ready:
            _, current = heapq.heappop(ready)
            ordered.append(by_id[current])
            for other, needs in before.items():
                if current in needs:
                    waiting[other] -= 1
                    if waiting[other] == 0:
                        heapq.heappush(ready, (by_id[other].rank, other))
        stuck = sorted((o for o in overlays if o not in ordered), key=lambda o: o.rank)
        for overlay in stuck:
            self.error(
                overlay.document.location(("overlay",), key=True),
                f"{overlay.id!r} is part of a cycle of `requires`/`overrides`",
                "an overlay cannot come both before and after another",
            )
        return ordered + stuck

    def _conditional_parts(self, overlay: Overlay, present: set[str]) -> list[Part]:
        blocks = overlay.document.data.get("when")
        known = set(self.offered) | present
        parts = []
        for index, block in enumerate(blocks if isinstance(blocks, list) else []):
            if not isinstance(block, dict):
                continue
            needed = [str(n) for n in block.get("with") or []]
            for position, name in enumerate(needed):
                if name not in known:
                    self.error(
                        overlay.document.location(("when", index, "with", position)),
                        f"no expansion or mod {name!r} to apply this block with",
                        did_you_mean(name, known) or f"known: {', '.join(sorted(known))}",
                    )
            if needed and all(n in present for n in needed):
                parts.append(Part(overlay, block, ("when", index)))
        return parts

    # ---------------------------------------------------------- conflicts
    def _claim(
        self, part: Part, operation: str, section: str, item_id: str, key: str | None, where
    ) -> bool:
        """Record that ``part`` changes an item (or one key of it); False to skip it
        because another overlay changes the same and one of them must win."""
        location = part.location(*where, key=True)
        claims = self.claims.setdefault((section, item_id), {})
        for claimed_key, claim in claims.items():
            if claim.overlay.id == part.overlay.id:
                continue
            if not (claimed_key is None or key is None or claimed_key == key):
                continue
            if operation == claim.operation == "remove":
                continue
            if part.overlay.overrides(claim.overlay):
                continue
            if claim.overlay.overrides(part.overlay):
                return False
            what = f"{section} {item_id!r}" + (f" (key {key!r})" if key else "")
            if section == "overlay":
                what = f"the {item_id}"
            self.error(
                location,
                f"{part.overlay.id!r} {PAST[operation]} {what}, which {claim.overlay.id!r} "
                f"{PAST[claim.operation]} too",
                f"{claim.overlay.id!r} does at {claim.location}; one of them must give way: "
                f"add to the rule with `extend:` instead, or declare `overrides: "
                f"[{claim.overlay.id}]` in one overlay's header to make it win",
            )
            return False
        claims.setdefault(key, Claim(part.overlay, operation, location))
        return True

    # ---------------------------------------------------------- operations
    def _remove(self, part: Part, block: dict[str, Any]) -> None:
        for section, ids in block.items():
            items = self.catalog.sections.get(section)
            for index, item_id in enumerate(ids if isinstance(ids, list) else []):
                where = ("remove", section, index)
                item_id = str(item_id)
                if not self._claim(part, "remove", section, item_id, None, where):
                    continue
                if items is not None and items.pop(item_id, None) is not None:
                    continue
                claim = self.claims[(section, item_id)].get(None)
                if claim is not None and claim.overlay is not part.overlay:
                    continue  # another overlay removed it already
                self.error(
                    part.location(*where),
                    f"cannot remove {item_id!r}: `{section}` has no such item",
                )

    def _replace(self, part: Part, block: dict[str, Any]) -> None:
        from interpreter.load.ruleset_files import SINGLETONS, Item

        document = part.overlay.document
        for section, items in block.items():
            if section in SINGLETONS:
                if self._claim(part, "replace", section, section, None, ("replace", section)):
                    where = part.where("replace", section)
                    item = Item(section, section, items, document, where)
                    self.catalog.singletons[section] = item
                continue
            if section not in self.catalog.sections or not isinstance(items, dict):
                continue
            for item_id, value in items.items():
                where = ("replace", section, item_id)
                if item_id not in self.catalog.sections[section]:
                    self.error(
                        part.location(*where, key=True),
                        f"cannot replace {item_id!r}: `{section}` has no such item",
                        "use `add:` for new items",
                    )
                    continue
                if self._claim(part, "replace", section, item_id, None, where):
                    self.catalog.sections[section][item_id] = Item(
                        item_id, section, value, document, part.where(*where)
                    )

    def _patch(self, part: Part, block: dict[str, Any]) -> None:
        from interpreter.load.ruleset_files import SINGLETONS

        for section, items in block.items():
            if section in SINGLETONS:
                existing = self.catalog.singletons.get(section)
                if existing is not None and isinstance(items, dict):
                    self._patch_item(part, existing, items, ("patch", section), section)
                continue
            for item_id, changes in (items or {}).items() if isinstance(items, dict) else ():
                where = ("patch", section, item_id)
                existing = self.catalog.sections.get(section, {}).get(item_id)
                removal = self.claims.get((section, item_id), {}).get(None)
                if existing is None and removal is not None and removal.operation == "remove":
                    self._claim(part, "patch", section, item_id, None, where)  # the conflict
                    continue
                if existing is None or not isinstance(changes, dict):
                    self.error(
                        part.location(*where, key=True),
                        f"cannot patch {item_id!r}: `{section}` has no such item",
                    )
                    continue
                self._patch_item(part, existing, changes, where, item_id)

    def _patch_item(
        self, part: Part, item: Item, changes: dict, where: JsonPath, item_id: str
    ) -> None:
        accepted = {
            key: value
            for key, value in changes.items()
            if self._claim(part, "patch", item.section, item_id, str(key), (*where, key))
        }
        if not accepted:
            return
        document = part.overlay.document
        before = (item.data, dict(item.sources))
        shape = _constant_shape(part, item, accepted, where)
        if shape is not None:
            self.diagnostics.append(shape)
            return
        item.data = {**item.data, **accepted}
        for key in accepted:
            forget(item.sources, (key,))
            item.sources[(key,)] = (document, part.where(*where, key))
        changed = {k: item.data[k] for k in accepted}
        problems = self._check(item, document, changed, part.where(*where))
        if problems:
            self.diagnostics.extend(problems)
            item.data, item.sources = before

    def _add(self, part: Part, block: dict[str, Any]) -> None:
        from interpreter.load.ruleset_files import SINGLETONS, Item

        document = part.overlay.document
        for section, items in block.items():
            if section in SINGLETONS:
                existing = self.catalog.singletons.get(section)
                if existing is None:
                    where = part.where("add", section)
                    item = Item(section, section, items, document, where)
                    self.catalog.singletons[section] = item
                elif isinstance(items, dict):
                    self._insert_new(part, existing, items)
                continue
            if section not in self.catalog.sections or not isinstance(items, dict):
                continue
            for item_id, value in items.items():
                where = part.where("add", section, item_id)
                existing = self.catalog.sections[section].get(item_id)
                if existing is not None:
                    self.diagnostics.append(duplicate_id(document, where, existing))
                    continue
                self.catalog.sections[section][item_id] = Item(
                    item_id, section, value, document, where
                )

    def _insert_new(self, part: Part, item: Item, added: dict[str, Any]) -> None:
        """`add:` to `structure`/`scoring`: new phases or steps only."""
        lists = {"structure": "phases", "scoring": "steps"}
        key = lists[item.section]
        for extra in added:
            if extra != key:
                self.error(
                    part.location("add", item.section, extra, key=True),
                    f"`add:` can only insert {key} into `{item.section}`",
                    f"use `extend: {item.section}: {{{extra}: …}}` to add to `{extra}`, or "
                    f"`patch:` to change it",
                )
        entries = added.get(key)
        if isinstance(entries, list):
            merger = Merger(self, part, item, new_only=True)
            merger.merge((key,), entries, ("add", item.section, key))

    def _extend(self, part: Part, block: dict[str, Any]) -> None:
        from interpreter.load.ruleset_files import SINGLETONS

        for section, items in block.items():
            if section in SINGLETONS:
                existing = self.catalog.singletons.get(section)
                if existing is not None and isinstance(items, dict):
                    self._extend_item(part, existing, items, ("extend", section))
                continue
            for item_id, extension in (items or {}).items() if isinstance(items, dict) else ():
                where = ("extend", section, item_id)
                existing = self.catalog.sections.get(section, {}).get(item_id)
                if existing is None:
                    self.error(
                        part.location(*where, key=True),
                        f"cannot extend {item_id!r}: `{section}` has no such item",
                        did_you_mean(str(item_id), set(self.catalog.sections.get(section, {})))
                        or "use `add:` for new items",
                    )
                    continue
                if isinstance(extension, dict):
                    self._extend_item(part, existing, extension, where)

    def _extend_item(self, part: Part, item: Item, extension: dict, where: JsonPath) -> None:
        document = part.overlay.document
        problems = self._check(item, document, extension, part.where(*where))
        if problems:
            self.diagnostics.extend(problems)
            return
        merger = Merger(self, part, item)
        for key, value in extension.items():
            merger.merge((key,), value, (*where, key))

    def _check(self, item: Item, document: Document, data: dict, at: JsonPath) -> list:
        """Schema-check keys an overlay brings to an item, located in the overlay.
        Keys an extension leaves out are the base's: a missing key is no error."""
        from interpreter.load.ruleset_files import SINGLETONS

        if item.section in SINGLETONS:
            return []  # the overlay schema checks them
        return check_item_keys(document, data, item.section, at)


def _constant_shape(part: Part, item: Item, changes: dict, where: JsonPath) -> Diagnostic | None:
    """A constant has no declared type unless it says one: a `patch:` of its value must
    keep the value's shape (a number stays a number, a list a list of the same kind of
    items, a mapping a mapping of the same kind of values), or the error would surface
    only where the base uses it."""
    if item.section != "constants" or not isinstance(item.data, dict) or "value" not in changes:
        return None
    if "type" in item.data or "type" in changes or "value" not in item.data:
        return None
    wrong = _shape_mismatch(item.data["value"], changes["value"], ())
    if wrong is None:
        return None
    inner, expected, got = wrong
    at = (*where, "value", *inner)
    what = "".join(f"[{k}]" if isinstance(k, int) else f".{k}" for k in inner)
    return Diagnostic(
        part.location(*at),
        f"`patch:` makes constant {item.id!r}{' value' + what if what else ''} {got}; "
        f"the value it replaces is {expected}",
        f"the base sets it at {item.location('value')}; keep the shape of the value, or "
        "declare the constant's `type` in the base",
        kind="schema",
    )


def _shape(value: Any) -> str:
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a text"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return "empty"


def _shape_mismatch(old: Any, new: Any, path: JsonPath) -> tuple[JsonPath, str, str] | None:
    """Where ``new`` stops having the shape of ``old``: (path inside, expected, got)."""
    if old is None or new is None:
        return None
    if _shape(old) != _shape(new):
        return path, _shape(old), _shape(new)
    if isinstance(old, list):
        pairs = list(enumerate(new))
        models = [v for v in old if v is not None]
    elif isinstance(old, dict):
        pairs = list(new.items())
        models = [v for v in old.values() if v is not None]
    else:
        return None
    if not models or len({_shape(m) for m in models}) > 1:
        return None  # no single shape of item to keep
    for key, value in pairs:
        found = _shape_mismatch(models[0], value, (*path, key))
        if found is not None:
            return found
    return None


def duplicate_id(document: Document, where: JsonPath, existing: Item) -> Diagnostic:
    """An item defined where one with its id already is."""
    return Diagnostic(
        document.location(where, key=True),
        f"duplicate id {existing.id!r} in `{existing.section}`",
        f"first defined at {existing.location(key=True)}; use `extend:` in an overlay to add "
        "to it, or `replace:`/`patch:` to change it",
        kind="duplicate-id",
    )
