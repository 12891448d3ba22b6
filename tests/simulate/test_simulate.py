"""`interpreter.simulate`: seeded, reproducible, the same however it is run."""

from __future__ import annotations

import json
import re

import pytest

from interpreter.simulate import Plan, Variant, game_seed, run
from interpreter.simulate.aggregate import Totals
from interpreter.simulate.focus import references, targets
from interpreter.simulate.report import build, statistics, write_all
from interpreter.simulate.report_html import html
from interpreter.simulate.stats import student_p, two_proportions, welch, wilson

SMALL = Plan([Variant("rococo")], games=6, counts=[2, 3], agents=["random"], seed="7")


def report_of(plan: Plan, **options) -> dict:
    """A run's report, folded as the games finish (as `rules simulate` does)."""
    found = targets(plan)
    totals = Totals(references(found))
    return build(plan, run(plan, on_record=totals, **options), totals, found)


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


@pytest.fixture(scope="module")
def serial():
    return report_of(SMALL, jobs=1)


def test_the_statistics_are_the_same_with_one_and_two_processes(serial) -> None:
    assert serial["run"]["played"] == 6
    pooled = report_of(SMALL, jobs=2)
    assert pooled["run"]["workers"] == 2
    assert statistics(pooled) == statistics(serial)


def test_the_statistics_are_the_same_on_a_dask_cluster(serial) -> None:
    distributed = pytest.importorskip(
        "distributed", reason="Dask distributed is not installed (the `cluster` extra)"
    )
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None
    ) as cluster:
        totals = Totals()
        outcome = run(SMALL, scheduler=cluster.scheduler_address, on_record=totals)
    assert not outcome.interrupted
    assert statistics(build(SMALL, outcome, totals)) == statistics(serial)


def test_each_game_is_the_game_rules_play_plays_with_its_seed() -> None:
    from rules_test_support import invoke

    records: list[dict] = []
    run(SMALL, jobs=1, on_record=records.append)
    game = next(rec for rec in records if rec["index"] == 3)
    assert game["seed"] == game_seed("7", 3)
    replay = SMALL.replay_command(SMALL.spec(3))
    assert replay == (
        f"rules play rococo --players {game['players']} --seed {game['seed']} --agents random"
    )
    result = invoke(*replay.split()[1:], "--json")
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

    totals = Totals()

    def fold_then_stop(record: dict) -> None:
        totals.add(record)
        stop_after_three(record)

    outcome = run(SMALL, jobs=jobs, on_record=fold_then_stop)
    assert outcome.interrupted and outcome.played == 3
    report = build(SMALL, outcome, totals)
    assert report["run"]["interrupted"] and report["run"]["played"] == 3
    write_all(report, tmp_path)
    again = json.loads((tmp_path / "report.json").read_text())
    assert again["run"]["interrupted"] is True
    assert sum(g["games"] for g in again["groups"].values()) == 3
    assert "INTERRUPTED" in (tmp_path / "summary.txt").read_text()
    assert "Interrupted" in (tmp_path / "report.html").read_text()


def test_a_changed_card_is_judged_against_its_kind_on_the_same_seeds(tmp_path) -> None:
    mod = tmp_path / "overpowered.yaml"
    mod.write_text(OVERPOWERED)
    # 150 two-player random games of each: the modded game and, as a control, the
    # plain one on the same seeds (a versus run).
    plan = Plan([Variant("rococo", (), (str(mod),)), Variant("rococo")], 150, [2], seed="1")
    report = report_of(plan, jobs=1)
    (e02,) = report["focus"]["0:2"]
    assert e02["item"] == "E02" and e02["change"] == "changed"
    assert "bonus (dismiss_use_bonus) changed" in e02["what"]
    assert e02["reference"]["items"] == ["E05"]  # the other level 1 master
    assert e02["verdict"] == "likely too strong", e02["sentence"]
    fired = next(a for a in e02["abilities"] if a["item"] == "bonus E02")
    assert fired["gain"] == {"prestige": 20.0}
    (plain,) = report["focus"]["1:2"]  # E02 as it was, on the same seeds
    assert plain["verdict"] != "likely too strong", plain["sentence"]
    (twin,) = e02["same_seeds"]  # with the change against without it
    assert twin["variant"] == "rococo" and twin["players"] == plain["had"]["players"]
    assert twin["difference"] == round(e02["had"]["rate"] - plain["had"]["rate"], 6)
    (versus,) = report["versus"]
    assert (versus["variant"], versus["against"]) == ("rococo + overpowered", "rococo")
    assert versus["means"]["scores"]["difference"] > 0  # modded minus plain


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
