"""Shared helpers for the game-log tests: real logs written by `rules play --log`.

Every test works on real logs: a session fixture plays seeded Rococo games in-process
(click's CliRunner) and writes their logs into a temporary folder; a test copies the
lines, changes what it needs and writes the result into its own ``tmp_path``.

The CLI runs in-process, so an uncaught exception does not reach
``interpreter.cli.main.main`` (which would turn it into "internal error", exit 70):
CliRunner stores it in ``result.exception``. ``Kit.run`` therefore requires that every
command ended with ``SystemExit`` (or returned normally), i.e. that the command
itself decided the outcome - never a traceback.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from interpreter.cli.main import cli

ROOT = Path(__file__).resolve().parents[2]

# " 1. P1        20          3 ..." - a row of the final score table
SCORE_ROW = re.compile(r"^\s*\d+\.\s+(\S+)\s+(-?\d+)\b")


@dataclass
class Played:
    """One game played by `rules play ... --log`: its log and the result `--json` printed."""

    path: Path
    players: int
    seed: str
    agents: str
    result: dict[str, Any]

    @property
    def lines(self) -> list[str]:
        return self.path.read_text(encoding="utf-8").splitlines()

    @property
    def scores(self) -> dict[str, int]:
        return self.result["scores"]


def events(lines: list[str]) -> list[tuple[int, dict[str, Any]]]:
    """(1-based file line, event) for every event line (not the header, comments, blanks)."""
    out = []
    header_seen = False
    for number, text in enumerate(lines, start=1):
        stripped = text.strip()
        if not stripped or stripped.startswith("#"):
            continue
        if not header_seen:
            header_seen = True
            continue
        out.append((number, json.loads(stripped)))
    return out


def renumber(lines: list[str]) -> list[str]:
    """Give the events consecutive `n` again (after deleting or moving lines)."""
    out, n, header_seen = [], 0, False
    for text in lines:
        stripped = text.strip()
        if not stripped or stripped.startswith("#"):
            out.append(text)
            continue
        if not header_seen:
            header_seen = True
            out.append(text)
            continue
        n += 1
        data = json.loads(stripped)
        data["n"] = n
        out.append(json.dumps(data, ensure_ascii=False))
    return out


def with_comments(lines: list[str], every: int = 17) -> list[str]:
    """The same log with comment and blank lines sprinkled in (line numbers != n + 1)."""
    out = [lines[0], "# a comment right after the header", ""]
    for index, text in enumerate(lines[1:], start=1):
        if index % every == 0:
            out.append(f"# comment before event {index}")
        if index % (every * 2 + 1) == 0:
            out.append("")
        out.append(text)
    return out


def scores_in_table(output: str) -> dict[str, int]:
    """The final scores of the table `render_result` prints."""
    return {
        m.group(1): int(m.group(2)) for line in output.splitlines() if (m := SCORE_ROW.match(line))
    }


class Kit:
    """Runs the CLI in-process and writes logs into a folder."""

    def __init__(self, factory: pytest.TempPathFactory):
        self.factory = factory
        self.folder = factory.mktemp("played")
        self.cache: dict[tuple[int, str, str], Played] = {}

    def run(self, *args: str) -> Result:
        result = CliRunner().invoke(cli, [str(a) for a in args])
        assert "Traceback" not in result.output, result.output
        assert result.exception is None or isinstance(result.exception, SystemExit), (
            f"`rules {' '.join(map(str, args))}` raised {result.exception!r} "
            "instead of reporting it"
        )
        return result

    def replay(self, path: Path, *options: str) -> Result:
        return self.run("replay", *options, str(path))

    def replay_json(self, path: Path, *options: str) -> tuple[Result, dict[str, Any]]:
        result = self.run("replay", "--json", *options, str(path))
        return result, json.loads(result.stdout)

    def play(self, players: int, seed: int | str, agents: str = "random") -> Played:
        key = (players, str(seed), agents)
        if key not in self.cache:
            path = self.folder / f"rococo-{players}p-{seed}-{agents}.jsonl"
            result = self.run(
                "play",
                "rococo",
                "--players",
                str(players),
                "--seed",
                str(seed),
                "--agents",
                agents,
                "--log",
                str(path),
                "--json",
            )
            assert result.exit_code == 0, result.output
            self.cache[key] = Played(path, players, str(seed), agents, json.loads(result.stdout))
        return self.cache[key]

    events = staticmethod(events)
    renumber = staticmethod(renumber)
    with_comments = staticmethod(with_comments)
    scores_in_table = staticmethod(scores_in_table)

    @staticmethod
    def write(folder: Path, name: str, lines: list[str]) -> Path:
        path = folder / name
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        return path


@pytest.fixture(scope="session")
def kit(tmp_path_factory: pytest.TempPathFactory) -> Kit:
    return Kit(tmp_path_factory)
