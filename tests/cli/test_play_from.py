"""`rules play --from LOG --at N`: fork a logged game at a position and play on.

Issue 47: a modder who sees a strange turn could not go on from it with another move.
"""

from __future__ import annotations

import json
from pathlib import Path

from rules_test_support import invoke

from interpreter.load.search import file_digest
from interpreter.log.reader import read

RULESET = "queens-necklace"  # a short game


def events(path: Path) -> list[dict]:
    return [e.data for e in read(path).events]


def played(tmp_path: Path) -> Path:
    log = tmp_path / "game.jsonl"
    result = invoke("play", RULESET, "--players", "3", "--seed", "4", "--log", str(log))
    assert result.exit_code == 0, result.output
    return log


def test_a_game_goes_on_from_a_position_of_a_log(tmp_path):
    log = played(tmp_path)
    fork_folder = tmp_path / "forks"
    fork_folder.mkdir()
    fork = fork_folder / "fork.jsonl"
    result = invoke(
        "play", "--from", str(log), "--at", "30", "--agents", "greedy", "--log", str(fork)
    )
    assert result.exit_code == 0, result.output
    header = json.loads(fork.read_text().splitlines()[0])
    assert header["from"] == {"log": "../game.jsonl", "digest": file_digest(log), "at": 30}
    assert [a["agent"] for a in header["agents"]] == ["greedy"] * 3
    assert all(a["since"] == 30 for a in header["agents"])
    assert events(fork)[:30] == events(log)[:30]  # the log's first 30 events, then its own
    assert invoke("replay", str(fork)).exit_code == 0
    assert log.read_text() != fork.read_text()


def test_the_log_s_own_agents_play_the_same_game_again(tmp_path):
    """Without --agents the log's agents go on, as if the game had never stopped."""
    log = played(tmp_path)
    fork = tmp_path / "again.jsonl"
    result = invoke("play", "--from", str(log), "--at", "12", "--log", str(fork))
    assert result.exit_code == 0, result.output
    assert events(fork) == events(log)


def test_from_and_its_usage_errors(tmp_path):
    log = played(tmp_path)
    assert invoke("play", "--from", str(log)).exit_code == 2  # no --at
    assert invoke("play", RULESET, "--players", "3", "--at", "3").exit_code == 2  # no --from
    over = invoke("play", "--from", str(log), "--at", "3", "--log", str(log))
    assert over.exit_code == 2 and "never written over it" in over.output
    both = invoke("play", "--from", str(log), "--at", "3", "--resume", str(log))
    assert both.exit_code == 2
    seeded = invoke("play", "--from", str(log), "--at", "3", "--seed", "9")
    assert seeded.exit_code == 2 and "--seed cannot be used with --from" in seeded.output


def test_a_position_past_the_end_or_after_the_game(tmp_path):
    log = played(tmp_path)
    count = len(events(log))
    past = invoke("play", "--from", str(log), "--at", str(count + 5))
    assert past.exit_code == 1
    assert "error: the game is over" in past.output or "past the log's end" in past.output
    assert "Traceback" not in past.output
