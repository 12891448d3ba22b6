"""`simulate.compare`: differences named by variant, with intervals, and corrected for
the number of tests."""

from __future__ import annotations

import pytest

from interpreter.simulate import Plan, Variant, run
from interpreter.simulate.aggregate import Totals
from interpreter.simulate.compare import compare
from interpreter.simulate.stats import (
    benjamini_hochberg,
    holm,
    mean_difference,
    rate_difference,
    t_quantile,
)


def group(seed: str, variant: int) -> dict:
    plan = Plan([Variant("rococo")], 150, [2], seed=seed)
    totals = Totals()
    run(plan, jobs=1, on_record=totals)
    found = totals.groups(plan)["0:2"]
    found["variant"] = variant
    return found


def test_a_variant_against_itself_flags_nothing() -> None:
    """An A/A run: the same ruleset on two sets of seeds, 150 two-player random games
    each. Hundreds of items are tested; about 1 in 20 has p < 0.05 by chance alone,
    and none may be marked once the tests are corrected."""
    (c,) = compare({"0:2": group("a", 0), "1:2": group("b", 1)})
    assert c["items_tested"] >= 300
    chance = [row for row in c["items"] if row["p"] is not None and row["p"] < 0.05]
    assert len(chance) >= 5  # what the uncorrected table used to mark
    assert c["items_significant"] == 0
    overall = [*c["means"].values(), *c["seats"], *c["agents"].values()]
    assert not any(row["significant"] for row in overall)
    assert (c["variant"], c["against"]) == ("rococo", "rococo")
    for row in c["items"]:
        if row["p"] is not None:
            assert row["low"] <= row["difference"] <= row["high"]


def test_corrections_for_multiple_tests() -> None:
    p = [0.01, 0.04, 0.03, 0.005]
    assert holm(p) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert benjamini_hochberg(p) == pytest.approx([0.02, 0.04, 0.04, 0.02])
    assert holm([]) == [] and benjamini_hochberg([]) == []


def test_differences_with_their_intervals() -> None:
    d, low, high = rate_difference(56, 70, 48, 80)  # Newcombe's example 1 (method 10)
    assert round(d, 4) == 0.2 and (round(low, 4), round(high, 4)) == (0.0524, 0.3339)
    assert round(t_quantile(10), 3) == 2.228
    d, low, high, p = mean_difference(
        {"n": 30, "mean": 11, "sd": 2}, {"n": 30, "mean": 10, "sd": 2}
    )
    assert d == 1 and round(low, 3) == -0.034 and round(high, 3) == 2.034
    assert round(p, 3) == 0.058
