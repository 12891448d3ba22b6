"""The whole report of a run, as one JSON-ready dict, and writing it everywhere asked."""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from pathlib import Path

from interpreter.atomic_file import write_output
from interpreter.simulate.aggregate import _spec, aggregate
from interpreter.simulate.compare import compare
from interpreter.simulate.execute import Outcome
from interpreter.simulate.plan import Plan
from interpreter.simulate.play import named_items, ruleset_of


def build(plan: Plan, outcome: Outcome, records: list[dict]) -> dict:
    records = sorted(records, key=lambda rec: (rec["variant"], rec["index"]))
    kinds: dict[str, str] = {}
    for variant in plan.variants:
        kinds.update(named_items(ruleset_of(variant)))
    groups = aggregate(plan, records, kinds)
    played = len(records)
    report = {
        "format": "rules-simulate/1",
        "run": {
            "planned": plan.total,
            "played": played,
            "interrupted": outcome.interrupted,
            "seconds": round(outcome.seconds, 3),
            "games_per_second": round(played / outcome.seconds, 3) if outcome.seconds else 0.0,
            "workers": outcome.workers,
            "seed": plan.seed,
            "agents": plan.agents,
        },
        "plan": plan.describe(),
        "groups": groups,
        "games": [
            {
                key: rec.get(key)
                for key in (
                    "variant",
                    "index",
                    "players",
                    "seed",
                    "agents",
                    "scores",
                    "winners",
                    "decisions",
                    "rounds",
                    "error",
                )
            }
            | {"replay": plan.replay_command(_spec(rec))}
            for rec in records
        ],
    }
    for v, variant in enumerate(plan.variants):
        report["plan"]["variants"][v]["label"] = variant.label
    if len(plan.variants) > 1:
        report["versus"] = compare(groups)
    return report


def statistics(report: dict) -> dict:
    """What does not depend on how the games were run (no times, no worker count)."""
    return {"groups": report["groups"], "versus": report.get("versus"), "games": report["games"]}


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
