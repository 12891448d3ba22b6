"""Issue 44: a `rules play --log` process killed at any moment (SIGKILL: it is told
nothing) leaves a log that `--resume` takes up, and the resumed game is, event for
event, the game that was not interrupted; SIGTERM and SIGHUP stop it like Ctrl-C.

Real processes, killed when their log reaches a line chosen at random (seeded), plus
a few milliseconds: a handful of points, so that the file stays a few seconds long."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from interpreter.cli.main import cli

pytestmark = pytest.mark.skipif(os.name != "posix", reason="POSIX signals")

RULESET = "queens-necklace"
GAME = ["--players", "2", "--seed", "21", "--agents", "mcts:3,random"]
WAIT = 30.0  # seconds a process may take to reach a line (a loaded machine)


def rules(*args: str | Path):
    result = CliRunner().invoke(cli, [str(a) for a in args])
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(
        result.exception
    )
    return result


def start(log: Path, *args: str, stdin=subprocess.DEVNULL) -> subprocess.Popen:
    command = [sys.executable, "-m", "interpreter", "play", RULESET, *GAME, "--log", str(log)]
    return subprocess.Popen(
        [*command, *args],
        stdin=stdin,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )


def wait_for_lines(process: subprocess.Popen, log: Path, count: int) -> bool:
    """Whether the log reached ``count`` lines while the process ran."""
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        if log.exists() and log.read_bytes().count(b"\n") >= count:
            return True
        if process.poll() is not None:
            return False
        time.sleep(0.001)
    process.kill()
    raise AssertionError(f"the game did not reach line {count} in {WAIT} s")


@pytest.fixture(scope="module")
def whole(tmp_path_factory) -> bytes:
    """The game played without interruption (in this process: the same game)."""
    log = tmp_path_factory.mktemp("whole") / "game.jsonl"
    assert rules("play", RULESET, *GAME, "--log", log).exit_code == 0
    return log.read_bytes()


def test_killed_at_random_points_the_resumed_game_is_the_whole_game(tmp_path, whole):
    rng = random.Random(44)
    total = whole.count(b"\n")
    resumed = 0
    for attempt in range(4):
        log = tmp_path / f"killed{attempt}.jsonl"
        process = start(log)
        reached = wait_for_lines(process, log, rng.randrange(1, total - 2))
        time.sleep(rng.random() * 0.02)
        process.kill()
        process.communicate()
        if not reached or log.read_bytes() == whole:  # it ended first: nothing to resume
            continue
        result = rules("play", "--resume", log)
        assert result.exit_code == 0, (attempt, result.output)
        assert log.read_bytes() == whole, attempt
        resumed += 1
    assert resumed >= 2  # most kills come before the end (the game takes ~0.5 s)


@pytest.mark.parametrize("name", ["SIGTERM", "SIGHUP"])
def test_sigterm_and_sighup_leave_a_resumable_log(tmp_path, whole, name):
    number = getattr(signal, name)
    log = tmp_path / "game.jsonl"
    process = start(log)
    assert wait_for_lines(process, log, 20)
    process.send_signal(number)
    _, stderr = process.communicate(timeout=WAIT)
    if process.returncode == 0:  # it ended first
        return
    assert process.returncode == 128 + number, stderr
    assert f"stopped by {name}" in stderr and f"rules play --resume {log}" in stderr
    assert "Traceback" not in stderr
    assert rules("play", "--resume", log).exit_code == 0
    assert log.read_bytes() == whole


def test_sigterm_at_a_person_s_prompt(tmp_path):
    log = tmp_path / "game.jsonl"
    process = start(log, "--agents", "human", stdin=subprocess.PIPE)
    process.stdin.write("1\n" * 3)
    process.stdin.flush()
    assert wait_for_lines(process, log, 2)
    deadline = time.monotonic() + WAIT
    while log.read_bytes().count(b'"choice"') < 3 and time.monotonic() < deadline:
        time.sleep(0.005)
    process.send_signal(signal.SIGTERM)
    _, stderr = process.communicate(timeout=WAIT)
    assert process.returncode == 143, stderr
    assert "stopped by SIGTERM" in stderr and "Traceback" not in stderr
    assert log.read_bytes().count(b'"choice"') == 3  # all that the input answered
    assert rules("replay", log).exit_code == 3  # a legal game so far
