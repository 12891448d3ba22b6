"""Merge one overlay's `extend:` into an item, keeping where every piece came from.

Mappings merge by key; lists append; lists of entries with an ``id`` (phases, steps)
merge by id and insert new entries ``before``/``after`` one; an effect written as one
text becomes the single step ``main`` so that steps can go around it. A value that
is already there is never changed (that is a ``patch:``): trying is an error at the
overlay's line. The loaded documents are never modified; items get new data.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from interpreter.errors import Diagnostic, Location
from interpreter.language.compiled import did_you_mean
from interpreter.load.yaml_source import Document, JsonPath

if TYPE_CHECKING:
    from interpreter.load.compose import Composer, Part
    from interpreter.load.ruleset_files import Item

EFFECT_KEYS = ("effect", "setup")  # values that are effects: a text or a list of steps
MAIN_STEP = "main"  # the id an effect written as one text has as a step
INSERTION_KEYS = ("before", "after")


class Merger:
    """Merges one overlay's extension into an item, keeping provenance."""

    def __init__(self, composer: Composer, part: Part, item: Item, new_only: bool = False):
        self.composer = composer
        self.part = part
        self.item = item
        self.new_only = new_only  # `add:` — entries must be new

    def here(self, where: JsonPath) -> tuple[Document, JsonPath]:
        return self.part.overlay.document, self.part.where(*where)

    def location(self, where: JsonPath, key: bool = False) -> Location:
        return self.part.location(*where, key=key)

    def merge(self, sub: JsonPath, value: Any, where: JsonPath) -> None:
        """Merge ``value`` (written at ``where`` in the overlay) into the item at ``sub``."""
        data = self.item.data
        parent = _resolve(data, sub[:-1])
        key = sub[-1]
        if not isinstance(parent, dict):
            return
        if key not in parent:
            self.item.data = _set(data, sub, value)
            self.item.sources[sub] = self.here(where)
            return
        current = parent[key]
        if key in EFFECT_KEYS:
            current = self._as_steps(sub, current)
            value = _as_step_list(value)
        if isinstance(current, dict) and isinstance(value, dict):
            for k, v in value.items():
                self.merge((*sub, k), v, (*where, k))
        elif isinstance(current, list) and isinstance(value, list):
            self._merge_list(sub, current, value, where)
        elif current != value:
            shown = _short(current)
            source = self.item.location(*sub)
            self.composer.error(
                self.location(where),
                f"`extend:` cannot change `{'.'.join(map(str, sub))}` of {self.item.id!r} "
                f"(it is {shown}, set at {source})",
                "`extend:` only adds; change a value with `patch:` (one overlay per key)",
            )

    def _as_steps(self, sub: JsonPath, current: Any) -> Any:
        """An effect written as one text becomes one step, ``main``, where it was."""
        if not isinstance(current, str):
            return current
        source = self.item.source(*sub)
        steps = [{"id": MAIN_STEP, "effect": current}]
        self.item.data = _set(self.item.data, sub, steps)
        forget(self.item.sources, sub)
        self.item.sources[(*sub, 0, "effect")] = source
        self.item.sources[(*sub, 0)] = source
        return steps

    def _merge_list(self, sub: JsonPath, current: list, value: list, where: JsonPath) -> None:
        ids = [e.get("id") if isinstance(e, dict) else None for e in current]
        keyed = any(i is not None for i in ids)
        for index, entry in enumerate(value):
            here = (*where, index)
            entry_id = entry.get("id") if isinstance(entry, dict) else None
            if keyed and entry_id is not None and entry_id in ids:
                if self.new_only:
                    self.composer.diagnostics.append(
                        Diagnostic(
                            self.location((*here, "id")),
                            f"there is already a {_entry_noun(sub)} {entry_id!r}",
                            f"defined at {self.item.location(*sub, ids.index(entry_id), 'id')}; "
                            "use `extend:` to add to it",
                            kind="duplicate-id",
                        )
                    )
                    continue
                position = ids.index(entry_id)
                for k, v in entry.items():
                    if k != "id":
                        self.merge((*sub, position, k), v, (*here, k))
                continue
            position = self._position(sub, entry, ids, here)
            if position is None:
                continue
            self._pin_sources(sub, len(ids))
            _shift(self.item.sources, sub, position)
            current = list(_resolve(self.item.data, sub))
            current.insert(position, entry)
            self.item.data = _set(self.item.data, sub, current)
            self.item.sources[(*sub, position)] = self.here(here)
            ids.insert(position, entry_id)

    def _pin_sources(self, sub: JsonPath, count: int) -> None:
        """Give every entry of the list at ``sub`` its own source, so that entries
        keep pointing where they were written when an insertion moves them."""
        for index in range(count):
            if (*sub, index) not in self.item.sources:
                self.item.sources[(*sub, index)] = self.item.source(*sub, index)

    def _position(self, sub: JsonPath, entry: Any, ids: list, here: JsonPath) -> int | None:
        if not isinstance(entry, dict):
            return len(ids)
        anchor_key = next((k for k in INSERTION_KEYS if k in entry), None)
        if anchor_key is None:
            return len(ids)
        anchor = entry[anchor_key]
        if anchor in ids:
            if anchor_key == "before":
                return ids.index(anchor)
            # after the anchor and after what earlier overlays put after it: the
            # canonical order of overlays is the order of their entries
            entries = _resolve(self.item.data, sub)
            position = ids.index(anchor) + 1
            while (
                position < len(entries)
                and isinstance(entries[position], dict)
                and entries[position].get("after") == anchor
            ):
                position += 1
            return position
        self.composer.error(
            self.location((*here, anchor_key)),
            f"there is no {_entry_noun(sub)} {anchor!r} to insert next to",
            did_you_mean(str(anchor), {str(i) for i in ids if i})
            or f"there are: {', '.join(str(i) for i in ids if i) or 'none'}",
        )
        return None


def _entry_noun(sub: JsonPath) -> str:
    """What the entries of the list at ``sub`` are called in messages."""
    name = sub[-1] if sub and isinstance(sub[-1], str) else ""
    return {"phases": "phase", "steps": "step", "setup": "step", "effect": "step"}.get(
        name, "entry"
    )


def _as_step_list(value: Any) -> Any:
    return [{"id": MAIN_STEP, "effect": value}] if isinstance(value, str) else value


def _resolve(data: Any, path: JsonPath) -> Any:
    for key in path:
        if isinstance(data, dict):
            data = data.get(key)
        elif isinstance(data, list) and isinstance(key, int) and 0 <= key < len(data):
            data = data[key]
        else:
            return None
    return data


def _set(data: Any, path: JsonPath, value: Any) -> Any:
    """``data`` with ``value`` at ``path`` (copying along the path, never in place:
    the loaded documents keep their own data)."""
    if not path:
        return value
    key, rest = path[0], path[1:]
    if isinstance(data, dict):
        return {**data, key: _set(data.get(key), rest, value)}
    if isinstance(data, list) and isinstance(key, int):
        copy = list(data)
        copy[key] = _set(copy[key], rest, value)
        return copy
    return data


def forget(sources: dict, prefix: JsonPath) -> None:
    for path in [p for p in sources if p[: len(prefix)] == prefix]:
        del sources[path]


def _shift(sources: dict, sub: JsonPath, position: int) -> None:
    """Entries of the list at ``sub`` from ``position`` on move one down."""
    depth = len(sub)
    moved = {}
    for path in list(sources):
        if (
            len(path) > depth
            and path[:depth] == sub
            and isinstance(path[depth], int)
            and path[depth] >= position
        ):
            moved[(*sub, path[depth] + 1, *path[depth + 1 :])] = sources.pop(path)
    sources.update(moved)


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "…"
