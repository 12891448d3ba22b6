"""A one-line progress bar on a terminal: games done, games/s and time left."""

from __future__ import annotations

import sys
import time
from typing import TextIO


class Progress:
    def __init__(self, total: int, stream: TextIO | None = None, every: float = 0.2):
        self.total = total
        self.stream = stream or sys.stderr
        self.done = 0
        self.errors = 0
        self.start = time.perf_counter()
        self.every = every
        self.shown = 0.0
        self.active = bool(getattr(self.stream, "isatty", lambda: False)())

    def __call__(self, record: dict) -> None:
        self.done += 1
        self.errors += record.get("error") is not None
        now = time.perf_counter()
        if self.active and (now - self.shown >= self.every or self.done == self.total):
            self.shown = now
            self.stream.write("\r" + self.line(now - self.start))
            self.stream.flush()

    def line(self, elapsed: float) -> str:
        speed = self.done / elapsed if elapsed > 0 else 0.0
        left = (self.total - self.done) / speed if speed > 0 else 0.0
        width = 30
        filled = int(width * self.done / self.total) if self.total else width
        errors = f", {self.errors} error(s)" if self.errors else ""
        return (
            f"[{'#' * filled}{'-' * (width - filled)}] {self.done}/{self.total} games, "
            f"{speed:.1f} games/s, {_clock(left)} left{errors}  "
        )

    def close(self) -> None:
        if self.active:
            self.stream.write("\n")
            self.stream.flush()


def _clock(seconds: float) -> str:
    seconds = int(seconds + 0.5)
    return f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"
