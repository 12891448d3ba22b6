"""`interpreter.simulate`: seeded, reproducible, the same however it is run."""

from __future__ import annotations

import json
import re

import pytest

from interpreter.simulate import Plan, Variant, game_seed, run
from interpreter.simulate.report import build, statistics, write_all
from interpreter.simulate.report_html import html
from interpreter.simulate.stats import student_p, two_proportions, welch, wilson

SMALL = Plan([Variant("rococo")], games=6, counts=[2, 3], agents=["random"], seed="7")

# E02's bonus becomes 20 prestige: far above any other card's (scores average ~20).
OVERPOWERED = """\
overlay:
  id: overpowered
  name: Overpowered
  description: The bonus of E02 is worth 20 prestige.
  base: rococo
replace:
  actions:
    dismiss_use_bonus:
      label: Gain 20 prestige
      params: {card: piece}
      effect: gain(prestige, 20)
"""


def played(plan: Plan, **options) -> dict:
    """The report of a run (its records kept here: the runner keeps none)."""
    records: list[dict] = []
    return build(plan, run(plan, on_record=records.append, **options), records)


@pytest.fixture(scope="module")
def serial():
    return played(SMALL, jobs=1)


def test_the_statistics_are_the_same_with_one_and_two_processes(serial) -> None:
    assert serial["run"]["played"] == 6
    pooled = played(SMALL, jobs=2)
    assert pooled["run"]["workers"] == 2
    assert statistics(pooled) == statistics(serial)


def test_the_statistics_are_the_same_on_a_dask_cluster(serial) -> None:
    distributed = pytest.importorskip(
        "distributed", reason="Dask distributed is not installed (the `cluster` extra)"
    )
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None
    ) as cluster:
        report = played(SMALL, scheduler=cluster.scheduler_address)
    assert not report["run"]["interrupted"]
    assert statistics(report) == statistics(serial)


def test_each_game_is_the_game_rules_play_plays_with_its_seed(serial) -> None:
    from rules_test_support import invoke

    game = serial["games"][3]
    assert game["seed"] == game_seed("7", 3)
    assert game["replay"] == (
        f"rules play rococo --players {game['players']} --seed {game['seed']} --agents random"
    )
    result = invoke(*game["replay"].split()[1:], "--json")
    assert result.exit_code == 0, result.output
    scores = json.loads(result.output)["scores"]
    assert [scores[f"P{i + 1}"] for i in range(game["players"])] == game["scores"]


def test_agents_take_every_seat_in_turn() -> None:
    plan = Plan([Variant("rococo")], 4, [2], ["greedy", "random"])
    assert [s.agents for s in plan.specs()] == [
        ("greedy", "random"),
        ("random", "greedy"),
        ("greedy", "random"),
        ("random", "greedy"),
    ]
    assert "--agents random,greedy" in plan.replay_command(plan.spec(1))


@pytest.mark.parametrize("jobs", [1, 2])
def test_an_interrupted_run_keeps_a_readable_partial_report(jobs, tmp_path) -> None:
    seen = []

    def stop_after_three(record: dict) -> None:
        seen.append(record)
        if len(seen) == 3:
            raise KeyboardInterrupt

    outcome = run(SMALL, jobs=jobs, on_record=stop_after_three)
    assert outcome.interrupted and outcome.played == 3
    report = build(SMALL, outcome, seen)
    assert report["run"]["interrupted"] and report["run"]["played"] == 3
    write_all(report, tmp_path)
    again = json.loads((tmp_path / "report.json").read_text())
    assert again["run"]["interrupted"] is True
    assert sum(g["games"] for g in again["groups"].values()) == 3
    assert "INTERRUPTED" in (tmp_path / "summary.txt").read_text()
    assert "Interrupted" in (tmp_path / "report.html").read_text()


def test_an_overpowered_card_tops_the_table(tmp_path) -> None:
    mod = tmp_path / "overpowered.yaml"
    mod.write_text(OVERPOWERED)
    # 60 two-player random games of each: the modded game and, as a control, the
    # plain one on the same seeds (a versus run).
    plan = Plan([Variant("rococo", (), (str(mod),)), Variant("rococo")], 60, [2], seed="1")
    report = played(plan, jobs=1)
    modded, plain = report["groups"]["0:2"], report["groups"]["1:2"]
    assert modded["items"][0]["item"] == "E02"
    assert modded["items"][0]["low"] > 0.7
    assert plain["items"][0]["item"] != "E02"
    assert modded["breakdown"]["play"]["max"] >= 20
    (versus,) = report["versus"]
    assert versus["means"]["scores"]["difference"] < 0  # plain minus modded
    e02 = next(row for row in versus["items"] if row["item"] == "E02")
    assert e02["difference"] < 0


def test_the_html_report_is_self_contained_with_its_plots(serial) -> None:
    page = html(serial)
    assert not re.search(r"https?:|//[a-z]|<script|<link|src=|@import|url\(", page, re.I)
    assert page.count("<svg") >= 2 * 3  # per player count: scores, seats, items
    for title in ("score distribution", "win rate by seat", "win rate of the players"):
        assert title in page
    assert "<rect" in page and "<line" in page


def test_statistics() -> None:
    low, high = wilson(5, 10)
    assert (round(low, 4), round(high, 4)) == (0.2366, 0.7634)
    assert wilson(0, 0) == (0.0, 1.0)
    assert round(student_p(2.0, 10), 4) == 0.0734  # tables: t(10) two-sided
    assert round(student_p(1.96, 1e6), 3) == 0.050
    z, p = two_proportions(30, 100, 45, 100)
    assert round(z, 3) == 2.191 and round(p, 3) == 0.028
    t, df, p = welch({"n": 30, "mean": 10, "sd": 2}, {"n": 30, "mean": 11, "sd": 2})
    assert round(t, 3) == 1.936 and df == pytest.approx(58) and round(p, 3) == 0.058
