"""Scans narrowed by an index of a static property (selection.py): the same values as
the full scan, in the same order, fewer members walked and fewer steps paid."""

from __future__ import annotations

import ast

import pytest
from rules_test_support import write_tiny

from interpreter.engine.state import State
from interpreter.language.compiler import Compiler
from interpreter.language.runtime import Context
from interpreter.language.selection import select
from interpreter.language.values import Player
from interpreter.ruleset import load
from interpreter.ruleset.build import Builder
from interpreter.ruleset.tables import Tables


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory):
    loaded = load(write_tiny(tmp_path_factory.mktemp("selection") / "tiny"))
    assert loaded.ruleset is not None
    return Builder(loaded.catalog).symbols(), Tables(loaded.ruleset, 2)


def compiled(world, text: str):
    symbols, _ = world
    result, problems = Compiler(symbols).expression(text, {})
    assert problems == [] and result is not None
    return result


def evaluate(world, text: str) -> tuple[object, int]:
    """The value of ``text`` and the steps of the budget it paid."""
    _, tables = world
    ctx = Context(State(("ann", "bob")), tables, Player(0), {})
    before = ctx.budget[0]
    value = compiled(world, text).fn(ctx)
    return value, before - ctx.budget[0]


def cards(world, test) -> list[str]:
    _, tables = world
    return [c for c in tables.kind_members["card"] if test(tables.piece_props[c])]


@pytest.mark.parametrize(
    ("text", "narrowed"),
    [
        ("count(c in card where c.suit == 'red')", True),
        ("count(c in card where 'red' == c.suit and c.points > 1)", True),
        ("count(x in [0, 2, 5] where any(c in card where c.points == x))", True),
        ("count(c in card where c.suit == c.suit)", False),  # the value reads the member
        ("count(c in card where c.points > 1)", False),  # not an equality
        ("count(c in card where c.suit == 'red' or c.points > 1)", False),  # not an `and`
    ],
)
def test_which_scans_are_narrowed(world, text: str, narrowed: bool) -> None:
    assert ("select" in ast.unparse(compiled(world, text).code)) is narrowed


def test_a_narrowed_scan_gives_the_full_scan_s_values_in_order(world) -> None:
    red = cards(world, lambda p: p.get("suit") == "red")
    assert evaluate(world, "filter(c in card where c.suit == 'red')")[0] == tuple(red)
    assert evaluate(world, "count(c in card where c.suit == 'black')")[0] == len(
        cards(world, lambda p: p.get("suit") == "black")
    )
    assert evaluate(world, "count(c in card where c.suit == 'green')")[0] == 0
    found = evaluate(world, "count(x in [0, 2, 5, 9] where any(c in card where c.points == x))")
    assert found[0] == 3


def test_a_narrowed_scan_pays_a_step_for_each_member_it_walks(world) -> None:
    _, tables = world
    red = cards(world, lambda p: p.get("suit") == "red")
    _, steps = evaluate(world, "count(c in card where c.suit == 'red')")
    _, every = evaluate(world, "count(c in card where c.points >= 0)")
    assert steps == len(red) < every == len(tables.kind_members["card"])


def test_an_unhashable_value_walks_every_member(world) -> None:
    _, tables = world
    ctx = Context(State(("ann", "bob")), tables, Player(0), {})
    every = tables.kind_members["card"]
    assert select(ctx, "kind_members", "card", "suit", ["red"]) == every
    assert select(ctx, "kind_members", "card", "suit", "red") == tuple(
        cards(world, lambda p: p.get("suit") == "red")
    )
