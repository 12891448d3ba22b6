"""Comprehensions over the product of collections: `VALUE for a in A for b in B where …`.

Before, a comprehension took one `for`: a value computed for every pair of two
collections (every bid of a quantity and a face) could not be written at all, since
no function flattens a list of lists. Each clause pays one step per item it walks,
so a product too large for the step budget stops with the budget's located error.
"""

from __future__ import annotations

from typing import Any

import pytest
from rules_test_support import write_tiny

from interpreter.engine.game import Game
from interpreter.engine.state import State
from interpreter.errors import RuleError
from interpreter.language.compiled import Problem
from interpreter.language.compiler import Compiler
from interpreter.language.parser import parse
from interpreter.language.runtime import Context, StepBudgetExceeded
from interpreter.language.unparse import unparse
from interpreter.language.values import Player
from interpreter.ruleset import load, load_or_raise
from interpreter.ruleset.build import Builder
from interpreter.ruleset.tables import Tables


class World:
    """The tiny ruleset of rules_test_support (`nums` is [3, 1, 4, 1, 5]; the cards
    c1, c2, c3 are worth 2, 5, 1), compiled against and evaluated on an empty state."""

    def __init__(self, folder: Any):
        loaded = load(write_tiny(folder))
        assert loaded.ruleset is not None
        self.symbols = Builder(loaded.catalog).symbols()
        self.tables = Tables(loaded.ruleset, 2)

    def compile(self, text: str) -> tuple[Any, list[Problem]]:
        return Compiler(self.symbols).expression(text, {})

    def value(self, text: str, budget: int = 100_000) -> Any:
        compiled, problems = self.compile(text)
        assert problems == [], problems
        return compiled.fn(self.context(budget))

    def context(self, budget: int) -> Context:
        return Context(State(("ann", "bob")), self.tables, Player(0), {}, budget=[budget])


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> World:
    return World(tmp_path_factory.mktemp("nested") / "tiny")


@pytest.mark.parametrize(
    "text, expected",
    [
        # the product, first clause slowest, as the rule books list bids
        ("count([a, b] for a in range(1, 3) for b in range(1, 2))", 6),
        (
            "distinct([a, b] for a in range(1, 2) for b in range(5, 6))",
            ((1, 5), (1, 6), (2, 5), (2, 6)),
        ),
        # a `where` after a clause sees the names bound so far; the last sees all
        ("count([a, b] for a in nums where a > 3 for b in nums where b < a)", 7),
        ("sum(a * b for a in range(1, 3) for b in range(1, 3) where a != b)", 22),
        # a later clause's collection may read an earlier clause's name
        ("sum(1 for a in range(1, 4) for b in range(a, 4))", 10),
        ("count(c for c in card for n in nums where n == c.points)", 3),  # 1 is twice in nums
        # three clauses
        ("count(1 for a in range(1, 2) for b in range(1, 3) for c in range(1, 4))", 24),
        # `any` and `all` stop at the deciding pair, and read each value's truth
        ("any(a + b == 9 for a in nums for b in nums)", True),
        ("any(a + b == 11 for a in nums for b in nums)", False),
        ("all(a * b > 0 for a in nums for b in nums)", True),
        ("max(a - b for a in nums for b in nums)", 4),
        # with constants: the `sum` of whole numbers written as Python's own
        ("sum(a for a in [1, 2] for b in [1, 2, 3])", 9),
    ],
)
def test_a_product_computes_every_combination(world: World, text: str, expected) -> None:
    assert world.value(text) == expected


def test_a_product_with_an_empty_collection_is_empty(world: World) -> None:
    assert world.value("count(1 for a in nums for b in range(1, 0))") == 0
    assert world.value("any(true for a in range(1, 0) for b in nums)") is False


@pytest.mark.parametrize(
    "text, message",
    [
        ("sum(1 for a in nums for b in a)", "expected a collection"),
        ("sum(b for a in nums for b in nums where c > 1)", "`c` is not defined"),
        # a name bound by a later clause is not in scope in an earlier one
        ("sum(1 for a in nums where b > 1 for b in nums)", "`b` is not defined"),
    ],
)
def test_each_clause_is_checked_in_its_own_scope(world: World, text: str, message: str) -> None:
    _, problems = world.compile(text)
    assert any(message in p.message for p in problems), problems


def test_every_pair_walked_pays_a_step(world: World) -> None:
    compiled, problems = world.compile("count(1 for a in range(1, 40) for b in range(1, 40))")
    assert problems == []
    ctx = world.context(10_000)
    assert compiled.fn(ctx) == 1600
    assert ctx.budget[0] == 10_000 - 40 - 40 * 40  # the outer walk, and each inner one
    with pytest.raises(StepBudgetExceeded, match="step budget"):
        compiled.fn(world.context(1_000))


def test_a_product_is_written_back_as_it_was_read() -> None:
    text = "sum(a * b for a in xs where a > 1 for b in ys where b != a)"
    tree = parse(text, "expr")
    assert unparse(tree) == text


PRODUCT_GAME = """\
counters:
  score: {per: player}
functions:
  pairs:
    returns: number
    value: "count(1 for x in range(0, 9000) for y in range(0, 9000) where y > x)"
structure:
  rounds: {count: 1}
  phases:
    - id: work
      kind: once
      effect: |
        for p in players { gain(score, pairs(), to: p) }
scoring:
  score: score
  steps: []
"""


def test_a_product_too_large_for_the_budget_is_named_at_its_function(tmp_path) -> None:
    """81 million pairs: the step budget stops it at the function that scans them, with
    the message of a search too large, not of a loop without end."""
    folder = tmp_path / "product"
    folder.mkdir()
    (folder / "ruleset.yaml").write_text(
        "id: product\nname: Product\nversion: 0.1.0\nplayers: {min: 2, max: 2}\n"
        "include: [content.yaml]\n"
    )
    (folder / "content.yaml").write_text(PRODUCT_GAME)
    with pytest.raises(RuleError) as caught:
        Game(load_or_raise(folder), ["Ann", "Bob"], seed=1)
    error = caught.value
    assert error.where is not None and error.where.line == 4  # `pairs:`
    assert error.message.startswith("this step of play spent its whole step budget")
    assert "a search or loop too large for it" in error.message
    assert "may never end" not in error.message
