"""Counts written as constants (``ruleset/counts.py``): `rounds.count`, capacities,
`count` and `counts` of components, a grid's rows and columns, a counter's `initial`,
`min` and `max` take a constant's name or arithmetic on constants, checked when the
rules are; before issue 49 `rounds.count` (and the others) took a literal only."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.ruleset import load, load_or_raise

MANIFEST = """id: counted
name: Counted
version: 1.0.0
players: {min: 2, max: 2}
include: [core.yaml]
"""
CORE = """sides:
  table: {players: [2]}
constants:
  rounds_played: {value: 3}
  sizes: {value: [2, 3, 5]}
  sided: {per_side: {table: 4}}
kinds:
  chip: {properties: {value: {type: number}}}
components:
  chip: {kind: chip, value: 1, count: "sizes[1] * 2"}
  tile:
    kind: chip
    each: {value: {from: 1, to: 2}}
    count: {by: value, counts: [sizes[0], 1]}
counters:
  points: {per: player, initial: rounds_played, max: "rounds_played * 10"}
zones:
  bag: {per: game, capacity: CAPACITY}
spaces:
  board:
    grid: {rows: "sizes[0]", columns: rounds_played}
structure:
  rounds: {count: rounds_played}
  phases: []
scoring: {score: points, steps: []}
"""


def write(folder: Path, capacity: str = '"sizes[2] + 1"') -> Path:
    (folder / "ruleset.yaml").write_text(MANIFEST, encoding="utf-8")
    core = CORE.replace("CAPACITY", capacity).replace("[sizes[0], 1]", '["sizes[0]", 1]')
    (folder / "core.yaml").write_text(core, encoding="utf-8")
    return folder


def test_every_count_takes_a_constant_or_arithmetic_on_constants(tmp_path: Path) -> None:
    rules = load_or_raise(str(write(tmp_path)))
    assert rules.rounds == 3
    assert rules.zones["bag"].capacity == 6
    assert sum(1 for p in rules.pieces.values() if p.design == "chip") == 6
    assert sum(1 for p in rules.pieces.values() if p.design == "tile_1") == 2
    assert (rules.counters["points"].initial, rules.counters["points"].maximum) == (3, 30)
    assert len(rules.groups["board"]) == 2 * 3


@pytest.mark.parametrize(
    "capacity, message, hint",
    [
        ("sizez", "got 'sizez': it is no constant either", "did you mean `sizes`?"),
        ("sided", "the constant `sided` differs by board side", "give it one `value`"),
        ('"sizes[7]"', "`sizes` has no item 7", "items count from 0"),
        ('"rounds_played - 4"', "`rounds_played - 4` is -1: this count is at least 0", None),
        ("'rounds_played and 2'", "a count is a whole number, a constant's name", None),
        ('"2 //"', "this count does not read", None),
    ],
)
def test_a_count_that_is_no_count_is_a_located_error(
    tmp_path: Path, capacity: str, message: str, hint: str | None
) -> None:
    loaded = load(write(tmp_path, capacity), use_store=False)
    (found,) = [d for d in loaded.diagnostics if d.severity == "error"]
    assert (found.location.line, found.location.column) == (18, 30)
    assert message in found.message
    if hint:
        assert hint in (found.hint or "")
