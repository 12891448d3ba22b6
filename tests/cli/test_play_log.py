"""Issue 11: `rules play` always writes the log so far (a run-time error, the end of
input at a person's prompt, Ctrl-C), a game goes on from it with `--resume`, and
`--log` into a folder that does not exist is refused before the game starts."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

import interpreter.cli.play as play_module
from interpreter.cli.main import cli
from interpreter.log.reader import read

RULESET = "queens-necklace"  # a short game


def run(*args: str, input: str | None = None):
    result = CliRunner().invoke(cli, [str(a) for a in args], input=input)
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(
        result.exception
    )
    return result


def decisions(path: Path) -> list[dict]:
    return [e.data for e in read(path).events if e.kind == "decision"]


def replayed(path: Path) -> int:
    return run("replay", str(path)).exit_code


class Stopping:
    """Wraps the real agents: after ``after`` decisions in all, ``act`` happens."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, after: int, act):
        self.count = 0
        real = play_module.make

        def make(kind, seat, seed, own_seed=None):
            agent = real(kind, seat, seed, own_seed)
            choose = agent.choose

            def stopping(game, decision):
                if self.count >= after:
                    return act()
                self.count += 1
                return choose(game, decision)

            agent.choose = stopping
            return agent

        monkeypatch.setattr(play_module, "make", make)


def _interrupt():
    raise KeyboardInterrupt


# ------------------------------------------------------------------- --log folder
def test_log_into_a_missing_folder_is_a_usage_error(tmp_path: Path) -> None:
    target = tmp_path / "no" / "such" / "game.jsonl"
    result = run("play", RULESET, "--players", "2", "--log", str(target))
    assert result.exit_code == 2, result.output
    assert "does not exist" in result.output
    assert "players" not in result.stdout.lower()  # no game was played
    assert not (tmp_path / "no").exists()


# ------------------------------------------------------------- the log so far
def test_end_of_input_at_a_prompt_writes_the_log_so_far(tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    result = run(
        "play", RULESET, "--players", "2", "--agents", "human", "--log", str(log), input="1\n" * 5
    )
    assert result.exit_code == 1, result.output
    assert "rules play --resume" in result.stderr
    assert len(decisions(log)) == 5
    assert replayed(log) == 3  # incomplete: a legal game so far


def test_ctrl_c_writes_the_log_so_far(tmp_path: Path, monkeypatch) -> None:
    Stopping(monkeypatch, 7, _interrupt)
    log = tmp_path / "game.jsonl"
    result = run("play", RULESET, "--players", "2", "--log", str(log))
    assert result.exit_code == 130, result.output
    assert "interrupted" in result.stderr
    assert len(decisions(log)) == 7
    assert replayed(log) == 3


def test_a_run_time_error_writes_the_log_so_far(tmp_path: Path, monkeypatch) -> None:
    Stopping(monkeypatch, 4, lambda: "no such option")
    log = tmp_path / "game.jsonl"
    result = run("play", RULESET, "--players", "2", "--log", str(log))
    assert result.exit_code == 1, result.output
    assert "error:" in result.stderr
    assert len(decisions(log)) == 4
    assert replayed(log) == 3


# ------------------------------------------------------------------- --resume
def test_resume_plays_the_game_to_its_end_in_the_same_file(tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    run("play", RULESET, "--players", "2", "--agents", "human", "--log", str(log), input="2\n" * 6)
    before = log.read_text(encoding="utf-8").splitlines()
    result = run("play", "--resume", str(log), "--json", "--agents", "random")
    assert result.exit_code == 0, result.output
    after = log.read_text(encoding="utf-8").splitlines()
    assert after[1 : len(before)] == before[1:]  # the game so far, then the rest
    assert json.loads(after[0])["agents"][0]["agent"] == "random"  # who played on
    assert len(after) > len(before)
    assert replayed(log) == 0  # legal and complete
    assert json.loads(result.stdout)["players"] == ["P1", "P2"]


def test_resume_after_ctrl_c_into_another_file(tmp_path: Path, monkeypatch) -> None:
    with monkeypatch.context() as patch:
        Stopping(patch, 9, _interrupt)
        first = tmp_path / "first.jsonl"
        assert run("play", RULESET, "--players", "3", "--seed", "11", "--log", str(first)).exit_code
    second = tmp_path / "second.jsonl"
    result = run("play", "--resume", str(first), "--log", str(second), "--agents", "greedy")
    assert result.exit_code == 0, result.output
    assert ", 3 players, seed 11" in result.stdout
    assert replayed(second) == 0
    assert decisions(second)[:9] == decisions(first)


def test_resume_keeps_the_header(tmp_path: Path, monkeypatch) -> None:
    with monkeypatch.context() as patch:
        Stopping(patch, 3, _interrupt)
        log = tmp_path / "game.jsonl"
        run("play", RULESET, "--players", "2", "--seed", "abc", "--names", "Ann,Bo", "--log", log)
    header = json.loads(log.read_text(encoding="utf-8").splitlines()[0])
    assert run("play", "--resume", str(log)).exit_code == 0
    assert json.loads(log.read_text(encoding="utf-8").splitlines()[0]) == header


def test_resume_of_a_finished_game_says_there_is_nothing_to_do(tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    assert run("play", RULESET, "--players", "2", "--log", str(log)).exit_code == 0
    result = run("play", "--resume", str(log))
    assert result.exit_code == 1
    assert "nothing to resume" in result.stderr


def test_resume_of_an_illegal_log_says_where(tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    run("play", RULESET, "--players", "2", "--agents", "human", "--log", str(log), input="1\n" * 3)
    lines = log.read_text(encoding="utf-8").splitlines()
    index = max(i for i, t in enumerate(lines) if '"choice"' in t)
    data = json.loads(lines[index])
    data["choice"] = "nonsense"
    lines[index] = json.dumps(data)
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = run("play", "--resume", str(log))
    assert result.exit_code == 1
    assert result.stderr.startswith(f"{log}:{index + 1}: error: cannot resume")


@pytest.mark.parametrize("option", [["--players", "2"], ["--seed", "4"], ["--names", "A,B"]])
def test_resume_takes_players_seed_and_names_from_the_log(tmp_path: Path, option) -> None:
    log = tmp_path / "game.jsonl"
    run("play", RULESET, "--players", "2", "--agents", "human", "--log", str(log), input="1\n")
    result = run("play", "--resume", str(log), *option)
    assert result.exit_code == 2
    assert "cannot be used with --resume" in result.output


def test_play_without_ruleset_or_players_is_a_usage_error() -> None:
    assert run("play", "--players", "2").exit_code == 2
    assert run("play", RULESET).exit_code == 2
