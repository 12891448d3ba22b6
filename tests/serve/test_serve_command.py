"""`rules serve` as a command: its errors, what it prints, a game resumed from its log.

The server itself runs in a child process (it serves until stopped); the usage errors
are found before it starts, so they run in-process.
"""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from rules_test_support import ROOT, invoke

pytest.importorskip("uvicorn", reason="the serve extra is not installed")


def test_without_the_extra_it_says_how_to_install_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "uvicorn", None)  # import uvicorn: ImportError
    monkeypatch.delitem(sys.modules, "interpreter.serve.app", raising=False)  # imported afresh
    result = invoke("serve", "queens-necklace", "--players", "3")
    assert result.exit_code == 1
    assert "pip install 'tabletop-rules[serve]'" in result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--seats", "human,robot,human"], "unknown agent 'robot'"),
        (["--seats", "human,human"], "give 1 or 3 seats"),
        (["--players", "9"], "--players"),
    ],
)
def test_bad_seats_and_counts_are_usage_errors(args, said):
    command = ["serve", "queens-necklace", "--players", "3", *args]
    result = invoke(*command)
    assert result.exit_code == 2, result.output
    assert said in result.output


def test_a_port_in_use_is_said_in_words():
    taken = socket.create_server(("127.0.0.1", 0))
    try:
        port = str(taken.getsockname()[1])
        result = invoke("serve", "queens-necklace", "--players", "3", "--port", port)
    finally:
        taken.close()
    assert result.exit_code == 2
    assert f"cannot listen on 127.0.0.1 port {port}" in result.output


def serve(*args: str) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "interpreter", "serve", *args, "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )


def links(process: subprocess.Popen) -> list[str]:
    lines = []
    for line in process.stdout:
        lines.append(line.rstrip("\n"))
        if line.startswith("Send each person"):
            return lines
    raise AssertionError(process.stderr.read())


def stopped(process: subprocess.Popen) -> str:
    process.terminate()
    return process.communicate(timeout=30)[1]


def test_it_prints_a_link_per_person_and_warns_of_a_network_address(tmp_path):
    process = serve("queens-necklace", "--players", "3", "--seats", "human,mcts:2,human")
    try:
        shown = links(process)
    finally:
        err = stopped(process)
    assert [line.split(":")[0].strip() for line in shown[1:5]] == ["P1", "P2", "P3", "spectators"]
    tokens = [line.rsplit("#", 1)[1] for line in shown if "/#" in line]
    assert len(tokens) == 3 and len(set(tokens)) == 3 and all(len(t) >= 24 for t in tokens)
    assert "agent mcts:2" in shown[2]
    assert "warning" not in err  # 127.0.0.1: nothing exposed
    process = serve("queens-necklace", "--players", "3", "--host", "0.0.0.0")
    try:
        links(process)
    finally:
        err = stopped(process)
    assert "warning: listening on 0.0.0.0" in err and "unencrypted" in err


def wait_over(log: Path, seconds: float = 120) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        lines = log.read_text(encoding="utf-8").splitlines()
        if lines and "scores" in json.loads(lines[-1]):
            return
        time.sleep(0.2)
    raise AssertionError("the game did not end")


def test_a_served_game_resumes_from_its_log(tmp_path):
    log = tmp_path / "served.jsonl"
    process = serve(
        "queens-necklace", "--players", "3", "--seats", "random,random,human", "--log", str(log)
    )
    try:
        links(process)
        time.sleep(1.0)  # the agents move until P3 must decide
    finally:
        err = stopped(process)
    assert "go on with: rules serve --resume" in err, err
    header = json.loads(log.read_text(encoding="utf-8").splitlines()[0])
    assert [a["agent"] for a in header["agents"]] == ["random", "random", "human"]
    assert invoke("replay", str(log)).exit_code == 3  # ended before the game did
    process = serve("--resume", str(log), "--seats", "random")  # agents finish it
    try:
        links(process)
        wait_over(log)
    finally:
        stopped(process)
    replayed = invoke("replay", str(log))
    assert replayed.exit_code == 0, replayed.output
