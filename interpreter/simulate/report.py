"""The whole report of a run, as one JSON-ready dict, and writing it everywhere asked."""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from pathlib import Path

from interpreter.atomic_file import write_output
from interpreter.simulate.aggregate import Totals, variant_name
from interpreter.simulate.compare import compare
from interpreter.simulate.execute import Outcome
from interpreter.simulate.focus import Target, has, judge, same_seeds, targets
from interpreter.simulate.plan import Plan
from interpreter.simulate.play import named_items, ruleset_of

RANDOM_NOTE = (
    "random agents say little about balance: they show what the rules allow, not what "
    "good play makes of it; use greedy or mcts agents (--agents greedy)"
)


def build(plan: Plan, outcome: Outcome, totals: Totals, found: list[Target] | None = None) -> dict:
    """The report of a run from ``totals`` (its records folded as the games finished,
    never held) and the ``found`` items to open on (else what the mods add or change)."""
    if found is None:
        found = targets(plan)
    kinds: dict[str, str] = {}
    for variant in plan.variants:
        kinds.update(named_items(ruleset_of(variant)))
    groups = totals.groups(plan, kinds)
    played = totals.played
    randoms = sorted({a for a in plan.agents if a.split(":")[0] == "random"})
    report = {
        "format": "rules-simulate/2",
        "run": {
            "planned": plan.total,
            "played": played,
            "errors": totals.failed,
            "interrupted": outcome.interrupted,
            "seconds": round(outcome.seconds, 3),
            "games_per_second": round(played / outcome.seconds, 3) if outcome.seconds else 0.0,
            "workers": outcome.workers,
            "seed": plan.seed,
            "agents": plan.agents,
            "agents_note": RANDOM_NOTE if randoms else None,
        },
        "focus": {
            key: judge(
                [t for t in found if has(ruleset_of(plan.variants[group["variant"]]), t.item)],
                group,
                totals.by_group[group["variant"], group["players"]].focus,
            )
            for key, group in groups.items()
            if found
        },
        "plan": plan.describe(),
        "groups": groups,
    }
    same_seeds(report["focus"], groups)
    for v, variant in enumerate(plan.variants):
        report["plan"]["variants"][v]["label"] = variant_name(variant)
    if len(plan.variants) > 1:
        report["versus"] = compare(groups)
    return report


def statistics(report: dict) -> dict:
    """What does not depend on how the games were run (no times, no worker count)."""
    return {key: report.get(key) for key in ("groups", "focus", "versus")}


def write_json(report: dict, path: Path) -> None:
    write_output(path, json.dumps(report, indent=2, ensure_ascii=False) + "\n")


def written(make: Callable[[io.StringIO], object]) -> str:
    """What ``make`` writes into a stream (the csv module writes to one)."""
    stream = io.StringIO(newline="")
    make(stream)
    return stream.getvalue()


def write_all(report: dict, folder: Path) -> list[Path]:
    """summary.txt, report.json, items.csv and report.html in ``folder`` (its games.csv
    is written as the games finish: ``rows.py``)."""
    from interpreter.simulate.report_csv import items_csv
    from interpreter.simulate.report_html import html
    from interpreter.simulate.report_text import text

    paths = []
    for name, make in (
        ("summary.txt", lambda stream: stream.write(text(report) + "\n")),
        ("items.csv", lambda stream: items_csv(report, stream)),
        ("report.html", lambda stream: stream.write(html(report))),
    ):
        path = folder / name
        write_output(path, written(make))
        paths.append(path)
    write_json(report, folder / "report.json")
    paths.append(folder / "report.json")
    return paths
