"""The run-time tables: who knows what after a move, found either way round."""

from __future__ import annotations

import copy
import random

from rules_test_support import ROCOCO

from interpreter.engine.game import Game
from interpreter.engine.state import State
from interpreter.ruleset import load_or_raise
from interpreter.ruleset.tables import _known_there


def test_the_pieces_known_there_are_the_same_either_way_round() -> None:
    rng = random.Random(7)
    for _ in range(300):
        state = State(("a", "b", "c"))
        pieces = [f"p{i}" for i in range(rng.randint(1, 12))]
        for p in pieces:
            state.put(p, rng.choice(["deck", "hand#0", "hand#1"]))
        known = {p: tuple(s for s in range(3) if rng.random() < 0.3) for p in pieces}
        known = {p: seats for p, seats in known.items() if seats}
        moved = rng.choice(pieces)
        source = state.where[moved]
        state.put(moved, "hand#2")
        seat = rng.randrange(3)
        there = (moved, *state.zones.get(source, ()))
        expected = sorted(p for p in there if seat in known.get(p, ()))
        assert sorted(_known_there(state, known, seat, moved, source)) == expected


def test_games_of_one_ruleset_at_one_table_share_their_tables() -> None:
    """Built once per ruleset and table, not per game; a copy of a ruleset, another
    player count or another ruleset gets tables of its own."""
    rules = load_or_raise(ROCOCO)
    first, second = Game(rules, ["A", "B", "C"], seed=1), Game(rules, ["D", "E", "F"], seed=2)
    assert first.tables is second.tables
    assert Game(rules, ["A", "B"], seed=1).tables is not first.tables
    other = copy.copy(rules)
    assert Game(other, ["A", "B", "C"], seed=1).tables.ruleset is other
