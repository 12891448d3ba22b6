"""The names a loaded ruleset defines, where, and where its texts use them.

Built from the catalog of the last check, which exists even when the ruleset has
errors (a built ``Ruleset`` does not), so hover, completion and navigation keep
working while a file is being fixed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from interpreter.errors import Location
from interpreter.load.ruleset_files import Catalog, Item
from interpreter.load.yaml_source import Document, value_at
from interpreter.lsp.positions import absolute
from interpreter.ruleset import counts
from interpreter.ruleset.grid import expanded

KINDS = {
    "actions": "action",
    "functions": "function",
    "counters": "counter",
    "constants": "constant",
    "components": "component",
    "spaces": "space group",
    "zones": "zone",
    "kinds": "kind",
    "variables": "variable",
    "events": "event",
    "triggers": "trigger",
    "automata": "automaton",
    "sides": "side",
}
# Keys whose texts are prose for people: a name in them is not a reference.
PROSE = {"description", "label", "name", "note", "docs"}


@dataclass(frozen=True)
class Definition:
    """One name the ruleset defines: its kind, where, and its YAML data."""

    name: str
    kind: str  # action, function, counter, …, space (an id inside a space group)
    location: Location
    data: Any
    item: Item

    @property
    def per(self) -> str | None:
        return self.data.get("per") if isinstance(self.data, dict) else None


@dataclass(frozen=True)
class Occurrence:
    location: Location
    length: int


class Index:
    """Definitions by name, and the documents they were read from."""

    def __init__(self, catalog: Catalog) -> None:
        catalog, _ = counts.resolved(catalog)  # a grid's rows may be a constant
        self.catalog = catalog
        self.documents: dict[Path, Document] = {absolute(d.path): d for d in catalog.documents}
        self.definitions: dict[str, list[Definition]] = {}
        self.labels = {i.id: str(i.data) for i in catalog.sections.get("labels", {}).values()}
        for section, items in catalog.sections.items():
            kind = KINDS.get(section)
            if kind is None:
                continue
            for item in items.values():
                self._add(Definition(item.id, kind, item.location(key=True), item.data, item))
                written = item.data.get("items") if isinstance(item.data, dict) else None
                if section == "spaces" and isinstance(item.data, dict):
                    item = expanded(item)  # a grid's generated cells are defined at `grid`
                spaces = item.data.get("items") if isinstance(item.data, dict) else None
                if section == "spaces" and isinstance(spaces, dict):
                    for space, data in spaces.items():
                        at = ("items", space) if space in (written or {}) else ("grid",)
                        where = item.location(*at, key=True)
                        self._add(Definition(str(space), "space", where, data, item))

    def _add(self, definition: Definition) -> None:
        self.definitions.setdefault(definition.name, []).append(definition)

    # -------------------------------------------------------------- queries
    def of_kind(self, *kinds: str, per: str | None = None) -> list[Definition]:
        """Every definition of these kinds (and, if given, kept ``per`` player/game)."""
        return [
            d
            for found in self.definitions.values()
            for d in found
            if d.kind in kinds and (per is None or d.per == per)
        ]

    def label(self, definition: Definition) -> str | None:
        data = definition.data if isinstance(definition.data, dict) else {}
        text = data.get("label") or self.labels.get(definition.name) or data.get("name")
        return str(text) if text else None

    def item(self, section: str, item_id: str) -> Item | None:
        return self.catalog.sections.get(section, {}).get(item_id)

    def occurrences(self, name: str) -> list[Occurrence]:
        """Where ``name`` is written as a whole word: keys, expressions, property values
        and the `{…}` parts of messages (prose such as descriptions is skipped)."""
        pattern = re.compile(rf"(?<![A-Za-z0-9_]){re.escape(name)}(?![A-Za-z0-9_])")
        found: set[Occurrence] = set()
        for document in self.documents.values():
            for jpath, where in document.key_positions.items():
                if jpath and str(jpath[-1]) == name:
                    found.add(Occurrence(where, len(name)))
            for jpath in document.spans:
                key = jpath[-1] if jpath else None
                if isinstance(key, str) and key in PROSE:
                    continue
                value = value_at(document.data, jpath)
                if not isinstance(value, str) or name not in value:
                    continue
                for match in pattern.finditer(value):
                    if key == "message" and not _in_braces(value, match.start()):
                        continue
                    line = value.count("\n", 0, match.start()) + 1
                    column = match.start() - (value.rfind("\n", 0, match.start()) + 1) + 1
                    where = document.expression_location(jpath, line, column)
                    found.add(Occurrence(where, len(name)))
        return sorted(found, key=lambda o: (o.location.path, o.location.line, o.location.column))


def _in_braces(text: str, index: int) -> bool:
    """Whether ``text[index]`` is inside a `{…}` part of a message template."""
    return text.rfind("{", 0, index) > text.rfind("}", 0, index)
