"""CSV files for tools: one row per game, one row per item and group."""

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
]


def games_csv(report: dict, stream: TextIO) -> None:
    out = csv.writer(stream)
    out.writerow(GAME_COLUMNS)
    labels = [v["label"] for v in report["plan"]["variants"]]
    for game in report["games"]:
        out.writerow(
            [
                game["variant"],
                labels[game["variant"]],
                game["index"],
                game["players"],
                game["seed"],
                ",".join(game["agents"]),
                json.dumps(game.get("scores")),
                json.dumps(game.get("winners")),
                game["decisions"],
                game["rounds"],
                game["error"] or "",
                game["replay"],
            ]
        )


def items_csv(report: dict, stream: TextIO) -> None:
    out = csv.writer(stream)
    out.writerow(ITEM_COLUMNS)
    for group in report["groups"].values():
        for row in group["items"]:
            out.writerow(
                [group["variant"], group["label"], group["players"]]
                + [row[c] for c in ITEM_COLUMNS[3:]]
            )
