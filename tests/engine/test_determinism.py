"""The same seed gives the same game, byte for byte in its log, in and across processes."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from interpreter.cli.main import cli


def play_log(tmp_path: Path, name: str, seed: str = "11") -> bytes:
    path = tmp_path / name
    result = CliRunner().invoke(
        cli, ["play", "rococo", "--players", "4", "--seed", seed, "--log", str(path)]
    )
    assert result.exit_code == 0, result.output
    return path.read_bytes()


def test_same_seed_same_log_twice(tmp_path: Path) -> None:
    assert play_log(tmp_path, "a.log") == play_log(tmp_path, "b.log")


def test_other_seed_other_game(tmp_path: Path) -> None:
    assert play_log(tmp_path, "a.log", "11") != play_log(tmp_path, "b.log", "12")


def test_same_log_across_processes(tmp_path: Path) -> None:
    here = play_log(tmp_path, "here.log")
    other = tmp_path / "other.log"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "interpreter",
            "play",
            "rococo",
            "--players",
            "4",
            "--seed",
            "11",
            "--log",
            str(other),
        ],
        check=True,
        capture_output=True,
        env={"PYTHONHASHSEED": "123", "PATH": "/usr/bin:/bin"},
    )
    assert other.read_bytes() == here
