"""``rotate`` (interpreter/language/primitive_rotate.py): every zone's contents go, all
at once, ``by`` places on around the circle, so no hand is passed twice or mixed."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.engine.game import Game
from interpreter.errors import GameError, RuleError
from interpreter.ruleset import load_or_raise

MANIFEST = """id: ring
name: Ring
version: 1.0.0
players: {min: 3, max: 3}
include: [core.yaml]
"""
CORE = """kinds:
  chip: {properties: {}}
components:
  a: {kind: chip, count: 2}
  b: {kind: chip}
  c: {kind: chip, count: 3}
counters:
  points: {per: player}
zones:
  hand: {per: player, visibility: private}
structure:
  setup: |
    for x in chip { move(x, players[index_of(['a', 'b', 'c'], x.design)].hand) }
    ROTATE
  rounds: {count: 1}
  phases: []
scoring: {score: points, steps: []}
"""


def hands_after(tmp_path: Path, statement: str) -> list[list[str]]:
    (tmp_path / "ruleset.yaml").write_text(MANIFEST, encoding="utf-8")
    (tmp_path / "core.yaml").write_text(CORE.replace("ROTATE", statement), encoding="utf-8")
    game = Game(load_or_raise(str(tmp_path)), ["A", "B", "C"], seed=1)
    return [list(game.state.contents(f"hand#{seat}")) for seat in range(3)]


def test_each_hand_goes_to_the_next_zone_and_the_last_to_the_first(tmp_path: Path) -> None:
    hands = hands_after(tmp_path, "rotate(p.hand for p in players)")
    assert hands == [["c-1", "c-2", "c-3"], ["a-1", "a-2"], ["b"]]


def test_by_counts_places_and_a_negative_one_passes_back(tmp_path: Path) -> None:
    assert hands_after(tmp_path, "rotate(p.hand for p in players, by: 2)") == [
        ["b"],
        ["c-1", "c-2", "c-3"],
        ["a-1", "a-2"],
    ]
    assert hands_after(tmp_path, "rotate(p.hand for p in players, by: -1)") == [
        ["b"],
        ["c-1", "c-2", "c-3"],
        ["a-1", "a-2"],
    ]
    assert hands_after(tmp_path, "rotate(p.hand for p in players, by: 3)")[1] == ["b"]


def test_the_same_zone_twice_is_refused(tmp_path: Path) -> None:
    with pytest.raises((RuleError, GameError), match="same zone twice"):
        hands_after(tmp_path, "rotate([players[0].hand, players[0].hand])")
