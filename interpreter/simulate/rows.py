"""One CSV row a game (``games.csv`` of ``--out``, ``--csv``), written as it finishes.

A row is appended and flushed the moment its record arrives, so the file never waits
for the run, holds no game in memory, and keeps the games that finished however the run
ends (Ctrl-C, SIGTERM, even SIGKILL). Rows come in the order the games finish: with
several workers, not game order (sort on ``variant`` and ``index``). The columns are
those of ``report_csv.GAME_COLUMNS``.
"""

from __future__ import annotations

import csv
import json
import os
from pathlib import Path
from typing import TextIO

from interpreter.atomic_file import OutputError, new_file_beside
from interpreter.simulate.aggregate import variant_name
from interpreter.simulate.plan import Plan
from interpreter.simulate.report_csv import GAME_COLUMNS


def game_row(plan: Plan, record: dict) -> list:
    """The row of ``record`` (its variant named as in the report)."""
    spec = plan.spec(record["index"], record["variant"])
    return [
        record["variant"],
        variant_name(plan.variants[record["variant"]]),
        record["index"],
        record["players"],
        record["seed"],
        ",".join(record["agents"]),
        json.dumps(record.get("scores")),
        json.dumps(record.get("winners")),
        record["decisions"],
        record["rounds"],
        record["error"] or "",
        plan.replay_command(spec),
    ]


class GameRows:
    """The per-game CSV files of a run, open while it runs; call it with each record."""

    def __init__(self, plan: Plan, paths: list[Path]):
        self.plan = plan
        self.files: list[tuple[Path, TextIO]] = []
        try:
            for path in paths:
                self.files.append((path, _fresh(path)))
        except OutputError:
            self.close()
            raise
        for path, stream in self.files:
            self._write(path, stream, GAME_COLUMNS)

    def __call__(self, record: dict) -> None:
        row = game_row(self.plan, record)
        for path, stream in self.files:
            self._write(path, stream, row)

    @staticmethod
    def _write(path: Path, stream: TextIO, row: list) -> None:
        try:
            csv.writer(stream).writerow(row)
            stream.flush()
        except OSError as exc:
            raise OutputError(path, f"cannot be written: {exc.strerror or exc}") from None

    def close(self) -> None:
        for _, stream in self.files:
            stream.close()
        self.files = []


def _fresh(path: Path) -> TextIO:
    """``path``, emptied and open for appending: made beside it and put in its place at
    once, so a symbolic link by its name is replaced, never written through (as
    ``atomic_file.write_output`` does for the files written whole)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        descriptor, temporary = new_file_beside(path, 0o666)
        os.replace(temporary, path)
    except OSError as exc:
        raise OutputError(path, f"cannot be written: {exc.strerror or exc}") from None
    return open(descriptor, "w", encoding="utf-8", newline="")  # closed by close()
