"""`simulate.aggregate.Totals`: one record at a time, in any order, mergeable."""

from __future__ import annotations

import random
import statistics
from collections import Counter

from interpreter.simulate import Plan, Variant, run
from interpreter.simulate.aggregate import Totals
from interpreter.simulate.focus import references, targets
from interpreter.simulate.stats import counted_summary

PLAN = Plan([Variant("rococo")], games=12, counts=[2, 3], agents=["random"], seed="agg")


def test_the_same_statistics_in_any_order_and_from_merged_parts() -> None:
    records: list[dict] = []
    run(PLAN, jobs=1, on_record=records.append)
    found = targets(PLAN, ("E02",))
    in_order = Totals(references(found))
    for record in records:
        in_order.add(record)
    shuffled = records[:]
    random.Random(3).shuffle(shuffled)
    first, second = Totals(references(found)), Totals(references(found))
    for i, record in enumerate(shuffled):
        (first if i % 2 else second).add(record)
    first.merge(second)
    assert first.played == in_order.played == 12
    assert first.groups(PLAN) == in_order.groups(PLAN)
    assert first.by_group[0, 2].focus == in_order.by_group[0, 2].focus


def test_counts_of_values_give_the_summary_of_the_values() -> None:
    luck = random.Random(5)
    values = [luck.randint(-3, 40) for _ in range(302)]
    got = counted_summary(Counter(values))
    q1, median, q3 = statistics.quantiles(values, n=4, method="inclusive")
    assert got["n"] == 302 and (got["min"], got["max"]) == (min(values), max(values))
    assert (got["q1"], got["median"], got["q3"]) == (round(q1, 6), round(median, 6), round(q3, 6))
    assert got["mean"] == round(statistics.mean(values), 6)
    assert got["sd"] == round(statistics.stdev(values), 6)
