"""CSV files for tools: one row per game (written as each game finishes, so a run of
any length never holds them), one row per item and group."""

from __future__ import annotations

import contextlib
import csv
import json
import os
from pathlib import Path
from typing import TextIO

from interpreter.atomic_file import OutputError, new_file_beside
from interpreter.simulate.aggregate import spec_of, variant_name
from interpreter.simulate.plan import Plan

GAME_COLUMNS = [
    "variant",
    "label",
    "index",
    "players",
    "seed",
    "agents",
    "scores",
    "winners",
    "decisions",
    "rounds",
    "error",
    "replay",
]
ITEM_COLUMNS = [
    "variant",
    "label",
    "players",
    "item",
    "kind",
    "uses",
    "games",
    "n",
    "wins",
    "rate",
    "low",
    "high",
    "mean_score",
    "sd_score",
    "offered",
    "measured",
    "gain",
]


class GamesCsv:
    """games.csv, a row per game in the order the games finish (sort by variant and
    index for game order): written into a file beside ``path``, put in its place by
    ``close`` (``abort`` removes it), as every report file is."""

    def __init__(self, plan: Plan, path: Path):
        self.plan, self.path = plan, path
        self.labels = [variant_name(v) for v in plan.variants]
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            descriptor, self.temporary = new_file_beside(path, 0o666)
        except OSError as exc:
            raise OutputError(path, f"cannot be written: {exc.strerror or exc}") from None
        self.stream: TextIO = os.fdopen(descriptor, "w", encoding="utf-8", newline="")
        self.out = csv.writer(self.stream)
        self.out.writerow(GAME_COLUMNS)

    def __call__(self, rec: dict) -> None:
        self.out.writerow(
            [
                rec["variant"],
                self.labels[rec["variant"]],
                rec["index"],
                rec["players"],
                rec["seed"],
                ",".join(rec["agents"]),
                json.dumps(rec.get("scores")),
                json.dumps(rec.get("winners")),
                rec["decisions"],
                rec["rounds"],
                rec["error"] or "",
                self.plan.replay_command(spec_of(rec)),
            ]
        )

    def close(self) -> None:
        try:
            self.stream.close()
            os.replace(self.temporary, self.path)
        except OSError as exc:
            self.abort()
            raise OutputError(self.path, f"cannot be written: {exc.strerror or exc}") from None

    def abort(self) -> None:
        with contextlib.suppress(OSError):
            self.stream.close()
        with contextlib.suppress(OSError):
            os.unlink(self.temporary)


def items_csv(report: dict, stream: TextIO) -> None:
    """Every item row of every group, at full precision."""
    out = csv.writer(stream)
    out.writerow(ITEM_COLUMNS)
    for group in report["groups"].values():
        for row in group["items"]:
            out.writerow(
                [group["variant"], group["label"], group["players"]]
                + [row.get(c, "") for c in ITEM_COLUMNS[3:-1]]
                + [json.dumps(row["gain"]) if "gain" in row else ""]
            )
