"""Space groups declared as a grid: the cells are generated, not written by hand.

``grid: {rows: 8, columns: 8}`` makes the cells ``a1`` … ``h8`` (column letter, row
number, as board games name them), each with the number properties ``row`` and
``col`` (1-based); ``prefix`` goes before every id so two grids can share a ruleset.
Entries under ``items`` then only add property values to named cells. The language
finds a cell's neighbours by these two properties (``primitive_grid.py``).
"""

from __future__ import annotations

import string
from dataclasses import replace
from typing import Any

from interpreter.identity_memo import by_identity
from interpreter.load.ruleset_files import Item

MAX_SIDE = 26  # rows and columns of a grid: one letter per column (also in the schema)
COORDINATES = {"row": {"type": "number"}, "col": {"type": "number"}}


def cell_id(prefix: str, row: int, col: int) -> str:
    """The id of the cell at 1-based ``row`` and ``col``: ``c4`` is column 3, row 4."""
    return f"{prefix}{string.ascii_lowercase[col - 1]}{row}"


@by_identity
def expanded(item: Item) -> Item:
    """The space group ``item`` with its grid's cells generated (the item itself when it
    declares no grid, or a grid the schema refused). Kept per item, so a build sees the
    same generated item every time and keeps what it checked of it."""
    grid = item.data.get("grid")
    if not isinstance(grid, dict):
        return item
    rows, columns = grid.get("rows"), grid.get("columns")
    if not all(type(n) is int and 1 <= n <= MAX_SIDE for n in (rows, columns)):
        return item  # the schema has reported it
    prefix = grid.get("prefix", "")
    written: dict[str, Any] = item.data.get("items") or {}
    cells: dict[str, Any] = {}
    for row in range(1, rows + 1):
        for col in range(1, columns + 1):
            cid = cell_id(prefix, row, col)
            cells[cid] = {"row": row, "col": col, **(written.get(cid) or {})}
    for cid, data in written.items():  # a written cell off the grid stays, to be reported
        cells.setdefault(cid, data)
    properties = {**COORDINATES, **(item.data.get("properties") or {})}
    return replace(item, data={**item.data, "properties": properties, "items": cells})


def with_grids(items: dict[str, Item]) -> dict[str, Item]:
    """The space groups of a catalog, each grid's cells generated."""
    return {
        key: expanded(item) if isinstance(item.data, dict) else item for key, item in items.items()
    }


GRID_HINT = (
    "declare the group with `grid: {rows: …, columns: …}`, or give each space `row` and `col`"
)


def grid_problems(group: Item) -> list[str]:
    """Why the group cannot be drawn as a grid (``layout: grid``): a space without
    whole-number `row` and `col`, or two spaces on one square."""
    seen: dict[tuple, str] = {}
    for sid, data in (group.data.get("items") or {}).items():
        data = data if isinstance(data, dict) else {}
        row, col = data.get("row"), data.get("col")
        if type(row) is not int or type(col) is not int:
            return [
                f"space {sid!r} has no whole-number `row` and `col`, so {group.id!r} "
                "cannot be drawn as a grid"
            ]
        sides = data.get("side")
        key = (row, col, str(sides))
        if key in seen:
            return [f"spaces {seen[key]!r} and {sid!r} are both at row {row}, column {col}"]
        seen[key] = sid
    return []


def grid_rows(tables: Any, group: str) -> tuple[tuple[str | None, ...], ...]:
    """The group's spaces on the game's side as rows of ids, north first (None where
    no space is), by their `row` and `col`."""
    at: dict[tuple[int, int], str] = {}
    for sid in tables.group_members.get(group, ()):
        props = tables.zone_props.get(str(sid), {})
        at[(props.get("row"), props.get("col"))] = str(sid)
    if not at:
        return ()
    rows = [r for r, _ in at]
    cols = [c for _, c in at]
    return tuple(
        tuple(at.get((r, c)) for c in range(min(cols), max(cols) + 1))
        for r in range(min(rows), max(rows) + 1)
    )


def drawn_grids(ruleset: Any, tables: Any) -> tuple[tuple[str, tuple], ...]:
    """Every space group with ``layout: grid``, as (group, rows of ids)."""
    return tuple(
        (group, grid_rows(tables, group))
        for group, layout in ruleset.layouts.items()
        if layout == "grid"
    )
