"""CSV files for tools: one row per game (written by ``rows.py`` as games finish), one row
per item and group."""

from __future__ import annotations

import csv
import json
from typing import TextIO

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
