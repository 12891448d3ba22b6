"""Issue 46: running `rules simulate`. In real processes: a worker killed with SIGKILL
costs no game; SIGTERM and SIGINT to the command write the games finished so far and
exit cleanly; no worker outlives the command, however it ends (SIGKILL included). And
a game past `--game-timeout` is an error with its seed.

The tests wait for rows of games.csv (written as each game finishes) before they
strike; the waits are generous (a loaded machine), nothing is timed."""

from __future__ import annotations

import csv
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(
    not Path("/proc/self/task").is_dir(), reason="Linux processes (/proc) and signals"
)

WAIT = 60.0  # seconds the command may take to reach a point (a loaded machine)


def start(out: Path, games: int) -> subprocess.Popen:
    command = [sys.executable, "-m", "interpreter", "simulate", "rococo", "--players", "2"]
    return subprocess.Popen(
        [*command, "--games", str(games), "--jobs", "2", "--seed", "46", "--out", str(out)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def rows(out: Path) -> list[dict]:
    path = out / "games.csv"
    return list(csv.DictReader(path.open())) if path.exists() else []


def wait_for_rows(process: subprocess.Popen, out: Path, count: int) -> None:
    deadline = time.monotonic() + WAIT
    while len(rows(out)) < count:
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            raise AssertionError(f"no {count} games finished: {process.communicate()}")
        time.sleep(0.01)


def children(pid: int) -> list[int]:
    """The processes whose parent is ``pid``."""
    found = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        found += [int(c) for c in (task / "children").read_text().split()]
    return found


def alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie, dead and not yet reaped, does not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state != "Z"


def left_alive(pids: list[int]) -> list[int]:
    """The processes of ``pids`` still running once they had time to die."""
    deadline = time.monotonic() + WAIT
    while any(alive(p) for p in pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    return [p for p in pids if alive(p)]


def test_a_worker_killed_mid_run_costs_no_game(tmp_path) -> None:
    out = tmp_path / "out"
    process = start(out, 300)
    wait_for_rows(process, out, 10)
    workers = children(process.pid)
    assert len(workers) == 2
    os.kill(workers[0], signal.SIGKILL)
    _, stderr = process.communicate(timeout=WAIT * 5)
    assert process.returncode == 0, stderr  # never 70: no game was lost
    assert "1 worker process(es) died and were replaced" in stderr
    games = rows(out)
    assert sorted(int(g["index"]) for g in games) == list(range(300))
    assert not any(g["error"] for g in games)
    assert json.loads((out / "report.json").read_text())["run"]["played"] == 300


@pytest.mark.parametrize("name", ["SIGTERM", "SIGINT"])
def test_a_signal_writes_the_games_so_far_and_ends_the_workers(tmp_path, name) -> None:
    out = tmp_path / "out"
    number = getattr(signal, name)
    process = start(out, 100_000)
    wait_for_rows(process, out, 10)
    workers = children(process.pid)
    assert len(workers) == 2
    process.send_signal(number)
    stdout, stderr = process.communicate(timeout=WAIT)
    assert process.returncode == 128 + number, stderr
    assert "INTERRUPTED" in stdout and "the report covers the games played so far" in stderr
    report = json.loads((out / "report.json").read_text())
    games = rows(out)
    assert report["run"]["interrupted"] and report["run"]["played"] == len(games) >= 10
    assert len({g["index"] for g in games}) == len(games)
    assert left_alive(workers) == []


def test_the_workers_die_with_a_killed_command(tmp_path) -> None:
    out = tmp_path / "out"
    process = start(out, 100_000)
    wait_for_rows(process, out, 10)
    workers = children(process.pid)
    assert len(workers) == 2
    process.kill()  # SIGKILL: the command is told nothing
    process.communicate()
    assert left_alive(workers) == []
    assert len(rows(out)) >= 10  # the rows written stay


def test_a_game_past_game_timeout_is_an_error_with_its_seed_and_the_run_goes_on() -> None:
    from rules_test_support import invoke

    result = invoke(
        "simulate", "rococo", "--games", "2", "--players", "2", "--jobs", "1",
        "--game-timeout", "0.000001", "--seed", "46",
    )  # fmt: skip
    assert result.exit_code == 1, result.output
    assert result.output.count("the game did not end within 1e-06 s (--game-timeout)") == 2
    assert "reproduce: rules play rococo --players 2 --seed " in result.output
