"""The board-topology functions of the effect language: cells of a grid, their
neighbours, and rays and lines through them (declared once, registered on import).

A grid is a space group declared with ``grid:`` (``ruleset/grid.py``); its cells carry
the number properties ``row`` and ``col``. Directions are texts: ``n``, ``ne``, ``e``,
``se``, ``s``, ``sw``, ``w``, ``nw``; north is row 1, east the last column. Every
result is bounded by the grid's size (at most 26 × 26 cells).
"""

from __future__ import annotations

from typing import Any

from interpreter.errors import RuleError
from interpreter.identity_memo import by_identity
from interpreter.language.registry import Param, fn
from interpreter.language.runtime import Context
from interpreter.language.values import NUMBER, TEXT, ZONE, ZoneRef, list_of

# (row step, column step) of each direction, clockwise from north
STEPS: dict[str, tuple[int, int]] = {
    "n": (-1, 0),
    "ne": (-1, 1),
    "e": (0, 1),
    "se": (1, 1),
    "s": (1, 0),
    "sw": (1, -1),
    "w": (0, -1),
    "nw": (-1, -1),
}
ORTHOGONAL = ("n", "e", "s", "w")

Cells = dict[tuple[str, int, int], ZoneRef]


@by_identity
def _cells(rules: Any) -> Cells:
    """Every grid cell of a game's tables by (group, row, column), worked out once."""
    found: Cells = {}
    for sid, space in rules.spaces.items():
        row, col = space.properties.get("row"), space.properties.get("col")
        if type(row) is int and type(col) is int:
            found[(space.group, row, col)] = ZoneRef(sid)
    return found


def _place(ctx: Context, cell: Any, what: str) -> tuple[str, int, int]:
    space = ctx.rules.spaces.get(str(cell)) if cell is not None else None
    props = space.properties if space is not None else {}
    if space is None or type(props.get("row")) is not int or type(props.get("col")) is not int:
        raise RuleError(
            f"{what} needs a cell of a grid, not {cell!r}",
            "declare the space group with `grid: {rows: …, columns: …}`",
        )
    return space.group, props["row"], props["col"]


def _step(direction: Any, what: str) -> tuple[int, int]:
    step = STEPS.get(direction) if isinstance(direction, str) else None
    if step is None:
        raise RuleError(
            f"{what}: {direction!r} is not a direction",
            f"directions are {', '.join(STEPS)} (see `directions()`)",
        )
    return step


def _walk(ctx: Context, cell: Any, direction: Any, limit: int, what: str) -> list[ZoneRef]:
    group, row, col = _place(ctx, cell, what)
    dr, dc = _step(direction, what)
    cells = _cells(ctx.rules)
    out: list[ZoneRef] = []
    while limit <= 0 or len(out) < limit:  # ends at the grid's edge: at most 25 steps
        row, col = row + dr, col + dc
        found = cells.get((group, row, col))
        if found is None:
            break
        out.append(found)
    ctx.tick(len(out))
    return out


@fn(
    "directions",
    [Param("count", NUMBER, "8 for every direction, 4 for the orthogonal ones", 8)],
    list_of(TEXT),
    "The directions of a grid as texts, clockwise from north (`n`, `ne`, `e`, `se`, `s`, "
    "`sw`, `w`, `nw`; with 4: `n`, `e`, `s`, `w`). North is row 1.",
    "any(d in directions() where flips(c, d, p) > 0)",
    "grids",
    quoted=True,
)
def _directions(ctx: Context, count: Any = 8) -> tuple:
    if count not in (4, 8):
        raise RuleError(
            f"directions() takes 4 or 8, not {count!r}",
            "8 for every direction, 4 for the orthogonal ones (n, e, s, w)",
        )
    return tuple(STEPS) if count == 8 else ORTHOGONAL


@fn(
    "cell",
    [
        Param("grid", list_of(ZONE), "the grid's space group"),
        Param("row", NUMBER, "the row, from 1"),
        Param("col", NUMBER, "the column, from 1"),
    ],
    ZONE,
    "The cell of the grid at a row and column, or none off the grid.",
    "claim(cell(board, 4, 4), by: players[1])",
    "grids",
    quoted=True,
)
def _cell(ctx: Context, grid: Any, row: Any, col: Any) -> Any:
    if not grid:
        return None
    group, _, _ = _place(ctx, grid[0], "cell()")
    return _cells(ctx.rules).get((group, row, col))


@fn(
    "ray",
    [
        Param("cell", ZONE, "a cell of a grid"),
        Param("direction", TEXT, "a direction (see `directions()`)"),
        Param("length", NUMBER, "at most this many cells (0: up to the edge)", 0),
    ],
    list_of(ZONE),
    "The cells from the one next to `cell` outwards in a direction, nearest first, up "
    "to the grid's edge (`cell` itself left out).",
    "first(s in ray(c, d) where s.owner != p.next)",
    "grids",
    quoted=True,
)
def _ray(ctx: Context, cell: Any, direction: Any, length: Any = 0) -> tuple:
    return tuple(_walk(ctx, cell, direction, length, "ray()"))


@fn(
    "line",
    [
        Param("cell", ZONE, "a cell of a grid"),
        Param("direction", TEXT, "a direction (see `directions()`)"),
    ],
    list_of(ZONE),
    "The whole line of the grid through `cell` in a direction, from edge to edge, "
    "`cell` included: the opposite ray reversed, `cell`, then the ray.",
    "any(d in axes where in_a_row(line(c, d), p))",
    "grids",
    quoted=True,
)
def _line(ctx: Context, cell: Any, direction: Any) -> tuple:
    dr, dc = _step(direction, "line()")
    back = next(d for d, step in STEPS.items() if step == (-dr, -dc))
    behind = _walk(ctx, cell, back, 0, "line()")
    ahead = _walk(ctx, cell, direction, 0, "line()")
    return (*reversed(behind), ZoneRef(str(cell)), *ahead)


@fn(
    "neighbours",
    [
        Param("cell", ZONE, "a cell of a grid"),
        Param("count", NUMBER, "8 for every direction, 4 for the orthogonal ones", 8),
    ],
    list_of(ZONE),
    "The cells next to `cell`, clockwise from north, those off the grid left out.",
    "any(s in neighbours(c) where s.owner == p.next)",
    "grids",
    quoted=True,
)
def _neighbours(ctx: Context, cell: Any, count: Any = 8) -> tuple:
    return tuple(
        found for d in _directions(ctx, count) for found in _walk(ctx, cell, d, 1, "neighbours()")
    )


@fn(
    "distance",
    [Param("a", ZONE, "a cell of a grid"), Param("b", ZONE, "a cell of the same grid")],
    NUMBER,
    "How many steps apart two cells are, diagonal steps allowed: the larger of the row "
    "and column differences (a neighbour is 1 away).",
    "distance(c, blocker(c, d, p)) - 1",
    "grids",
    quoted=True,
)
def _distance(ctx: Context, a: Any, b: Any) -> int:
    group_a, row_a, col_a = _place(ctx, a, "distance()")
    group_b, row_b, col_b = _place(ctx, b, "distance()")
    if group_a != group_b:
        raise RuleError(f"distance(): {a} and {b} are cells of different grids")
    return max(abs(row_a - row_b), abs(col_a - col_b))
