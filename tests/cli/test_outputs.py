"""Files the commands write for the user (issue 44, point 3): a symbolic link by the
name of an output is replaced, never written through (the file it points to stays as
it was), `rules new` refuses any name that exists, a dangling link included, and an
output that cannot be written is an error (exit 1), never a traceback (exit 70)."""

from __future__ import annotations

from pathlib import Path

import pytest
from rules_test_support import ROOT, invoke


def a_log() -> Path:
    """A log to replay: the first one in examples/."""
    logs = sorted(ROOT.glob("examples/**/*.jsonl"))
    assert logs
    return logs[0]


COMMANDS = {
    "schema": (["schema", "--write", "{dir}"], "game-log.schema.json"),
    "reference": (["reference", "--write", "{out}"], "language.md"),
    "cards": (["cards", "rococo", "--write", "{out}"], "cards.md"),
    "replay-html": (["replay", "{log}", "--html", "{out}"], "game.html"),
    "simulate-csv": (
        ["simulate", "rococo", "--games", "1", "--players", "2", "--csv", "{out}"],
        "games.csv",
    ),
    "simulate-html": (
        ["simulate", "rococo", "--games", "1", "--players", "2", "--html", "{out}"],
        "report.html",
    ),
    "simulate-out": (
        ["simulate", "rococo", "--games", "1", "--players", "2", "--out", "{dir}"],
        "items.csv",
    ),
}


def run(name: str, folder: Path) -> object:
    args, file = COMMANDS[name]
    values = {"dir": str(folder), "out": str(folder / file), "log": str(a_log())}
    return invoke(*(a.format(**values) for a in args))


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_an_output_replaces_a_link_and_leaves_its_target_alone(tmp_path: Path, name: str) -> None:
    folder = tmp_path / "out"
    folder.mkdir()
    target = tmp_path / "theirs.txt"
    target.write_text("theirs", encoding="utf-8")
    link = folder / COMMANDS[name][1]
    link.symlink_to(target)
    result = run(name, folder)
    assert result.exit_code in (0, 3), result.output  # 3: the replayed log may end early
    assert target.read_text(encoding="utf-8") == "theirs"
    assert not link.is_symlink() and link.stat().st_size > 0


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_an_output_that_cannot_be_written_is_an_error(tmp_path: Path, name: str) -> None:
    folder = tmp_path / "out"
    folder.write_text("a file where the folder should be", encoding="utf-8")
    result = run(name, folder)
    assert "internal error" not in result.output
    if result.exit_code == 2:  # a usage error: the command looked at the folder first
        assert "Error: Invalid value for" in result.output, result.output
    else:
        assert result.exit_code == 1, result.output
        assert ": error: cannot be written: " in result.output, result.output


@pytest.mark.parametrize("dangling", [True, False])
@pytest.mark.parametrize(
    "command, name",
    [
        (["new", "ruleset", "fresh", "--dir", "{dir}"], "fresh/content.yaml"),
        (["new", "mod", "gift", "--base", "rococo", "--dir", "{dir}"], "gift.scenarios.yaml"),
    ],
)
def test_new_refuses_a_link_and_writes_nothing(
    tmp_path: Path, command: list[str], name: str, dangling: bool
) -> None:
    target = tmp_path / "theirs.txt"
    if not dangling:
        target.write_text("theirs", encoding="utf-8")
    link = tmp_path / "out" / name
    link.parent.mkdir(parents=True)
    link.symlink_to(target)
    result = invoke(*(a.format(dir=tmp_path / "out") for a in command))
    assert result.exit_code == 1, result.output
    assert "already exists" in result.output
    assert target.exists() is not dangling
    assert [p for p in (tmp_path / "out").rglob("*") if p.is_file() and not p.is_symlink()] == []
