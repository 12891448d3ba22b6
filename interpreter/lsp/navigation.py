"""Go to definition and find references, across a ruleset's files and overlays.

Definitions come from the catalog (an id's key, wherever a file or an overlay
wrote it). References are found by text: every whole-word use of the name in the
expressions, property values, keys and message `{…}` parts of the loaded files
(descriptions and labels are prose and skipped). A local variable or a property
that happens to share a name with a definition is listed too: that is the price of
not type-checking every use, and good enough to find where something is used.
"""

from __future__ import annotations

from interpreter.errors import Location
from interpreter.lsp.index import Index, Occurrence
from interpreter.lsp.positions import word_at


def definitions(index: Index, line_text: str, character: int) -> list[Occurrence]:
    """Where the name at ``character`` of ``line_text`` is defined."""
    found = word_at(line_text, character)
    if found is None:
        return []
    word = found[0]
    return [Occurrence(d.location, len(word)) for d in index.definitions.get(word, [])]


def references(
    index: Index, line_text: str, character: int, include_declaration: bool = True
) -> list[Occurrence]:
    """Every use of the name at ``character`` of ``line_text`` in the ruleset."""
    found = word_at(line_text, character)
    if found is None:
        return []
    word = found[0]
    declared: set[Location] = {d.location for d in index.definitions.get(word, [])}
    return [o for o in index.occurrences(word) if include_declaration or o.location not in declared]
