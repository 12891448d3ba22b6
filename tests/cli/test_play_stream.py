"""Issue 44: `rules play --log` streams its log, so that a stopped or killed game
leaves it; `--resume` goes on with the same agents and gives the game that was not
interrupted; a rule failing in the setup leaves the setup's events; the log is never
written through a symbolic link. (Killed processes: ``test_play_kill.py``.)"""

from __future__ import annotations

import json
import shutil
import signal
from pathlib import Path

import pytest
from click.testing import CliRunner

import interpreter.cli.play as play_module
from interpreter.cli.main import cli
from interpreter.cli.stops import Stopped

ROOT = Path(__file__).resolve().parents[2]
RULESET = "queens-necklace"


def run(*args: str | Path, input: str | None = None):
    result = CliRunner().invoke(cli, [str(a) for a in args], input=input)
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(
        result.exception
    )
    return result


def lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()


def played(tmp_path: Path, *options: str) -> Path:
    """The log of a whole game of ``RULESET`` with ``options``."""
    log = tmp_path / "whole.jsonl"
    result = run("play", RULESET, "--log", log, *options)
    assert result.exit_code == 0, result.output
    return log


# ------------------------------------------------------------ the header's agents
def test_the_header_names_each_seat_s_agent_and_seed(tmp_path: Path) -> None:
    log = played(tmp_path, "--players", "2", "--seed", "7", "--agents", "greedy,random")
    header = json.loads(lines(log)[0])
    assert header["agents"] == [
        {"player": "P1", "agent": "greedy", "seed": "7:0"},
        {"player": "P2", "agent": "random", "seed": "7:1"},
    ]
    assert run("replay", log).exit_code == 0  # a known key: no warning
    assert "warning" not in run("replay", log).output


def test_resume_without_agents_plays_on_with_the_header_s(tmp_path: Path) -> None:
    whole = played(tmp_path, "--players", "2", "--seed", "3", "--agents", "greedy,mcts:3")
    cut = tmp_path / "cut.jsonl"
    cut.write_text("\n".join(lines(whole)[:60]) + "\n", encoding="utf-8")
    result = run("play", "--resume", cut)
    assert result.exit_code == 0, result.output
    assert lines(cut) == lines(whole)  # the same agents, caught up: the same game


def test_agents_that_joined_a_resumed_game_are_caught_up_from_there(tmp_path: Path) -> None:
    """Resumed with other agents, then cut again: those agents are asked again only
    about the positions after they joined (the header's `since`)."""
    whole = played(tmp_path, "--players", "2", "--seed", "8", "--agents", "greedy")
    second = tmp_path / "second.jsonl"
    second.write_text("\n".join(lines(whole)[:40]) + "\n", encoding="utf-8")
    assert run("play", "--resume", second, "--agents", "random").exit_code == 0
    header = json.loads(lines(second)[0])
    joined = header["agents"][0]["since"]
    assert joined == 39 and header["agents"][1] == {
        "player": "P2",
        "agent": "random",
        "seed": "8:1",
        "since": 39,
    }
    cut = tmp_path / "cut.jsonl"
    cut.write_text("\n".join(lines(second)[:150]) + "\n", encoding="utf-8")
    result = run("play", "--resume", cut)
    assert result.exit_code == 0, result.output
    assert "warning" not in result.stderr
    assert lines(cut) == lines(second)


# ------------------------------------------------- the game that was not interrupted
@pytest.mark.parametrize("agents", ["random", "greedy,random,greedy", "mcts:4,greedy,random"])
def test_a_log_cut_anywhere_resumes_to_the_uninterrupted_game(tmp_path: Path, agents) -> None:
    """Cut at line ends and inside lines (as SIGKILL may cut a write), at a decision's
    first line or among its chance outcomes: the resumed log is the whole log."""
    whole = played(tmp_path, "--players", "3", "--seed", "12", "--agents", agents)
    data = whole.read_bytes()
    cut = tmp_path / "cut.jsonl"
    for share in (0.05, 0.3, 0.55, 0.8):
        end = int(len(data) * share)
        cut.write_bytes(data[:end])
        result = run("play", "--resume", cut)
        assert result.exit_code == 0, (end, result.output)
        assert cut.read_bytes() == data, end
        if data[end - 1 : end] != b"\n":
            assert "the last line was cut short" in result.stderr


@pytest.mark.parametrize("kept", [1, 3])
def test_a_log_killed_in_its_setup_resumes(tmp_path: Path, kept: int) -> None:
    """The header is written before the setup runs: a kill then leaves it alone, or
    with some of the setup's chance outcomes; the game starts again from its seed."""
    whole = played(tmp_path, "--players", "2", "--seed", "4", "--agents", "greedy")
    cut = tmp_path / "cut.jsonl"
    cut.write_text("\n".join(lines(whole)[:kept]) + "\n", encoding="utf-8")
    result = run("play", "--resume", cut)
    assert result.exit_code == 0, result.output
    assert lines(cut) == lines(whole)


def test_without_a_cut_line_no_warning(tmp_path: Path) -> None:
    whole = played(tmp_path, "--players", "2", "--agents", "random")
    cut = tmp_path / "cut.jsonl"
    cut.write_text("\n".join(lines(whole)[:30]) + "\n", encoding="utf-8")
    result = run("play", "--resume", cut)
    assert result.exit_code == 0 and "warning" not in result.stderr
    assert lines(cut) == lines(whole)


def test_a_log_typed_by_hand_goes_on_from_its_own_events(tmp_path: Path) -> None:
    """A log whose chance outcomes are not its seed's is played on from the replay."""
    whole = played(tmp_path, "--players", "2", "--seed", "1", "--agents", "random")
    kept = lines(whole)[:40]
    header = json.loads(kept[0])
    header["seed"] = 999  # the outcomes below are seed 1's
    del header["agents"]
    kept[0] = json.dumps(header)
    cut = tmp_path / "cut.jsonl"
    cut.write_text("\n".join(kept) + "\n", encoding="utf-8")
    result = run("play", "--resume", cut)
    assert result.exit_code == 0, result.output
    assert "not those its seed gives" in result.stderr
    assert lines(cut)[1:40] == kept[1:]
    assert run("replay", cut).exit_code == 0


# ------------------------------------------------------------------ signals
@pytest.mark.parametrize(("number", "code"), [(signal.SIGTERM, 143), (signal.SIGHUP, 129)])
def test_sigterm_and_sighup_stop_like_ctrl_c(tmp_path: Path, monkeypatch, number, code):
    real = play_module.make
    count = {"made": 0}

    def make(kind, seat, seed, own_seed=None):
        agent = real(kind, seat, seed, own_seed)
        choose = agent.choose

        def stopping(game, decision):
            count["made"] += 1
            if count["made"] > 6:
                raise Stopped(number)  # as the handler raises it
            return choose(game, decision)

        agent.choose = stopping
        return agent

    log = tmp_path / "game.jsonl"
    with monkeypatch.context() as patch:
        patch.setattr(play_module, "make", make)
        result = run("play", RULESET, "--players", "2", "--seed", "5", "--log", log)
    assert result.exit_code == code, result.output
    assert f"stopped by {signal.Signals(number).name}" in result.stderr
    assert f"rules play --resume {log}" in result.stderr
    assert sum('"choice"' in line for line in lines(log)) == 6
    assert run("play", "--resume", log).exit_code == 0
    whole = played(tmp_path, "--players", "2", "--seed", "5")
    assert lines(log) == lines(whole)


# ------------------------------------------------------------ setup failure
def failing_setup(folder: Path) -> Path:
    """The toy ruleset, with a `once` phase before the first decision whose rule fails
    (after the setup's shuffles and draws)."""
    target = folder / "toy"
    shutil.copytree(ROOT / "tests" / "engine" / "toy", target)
    toy = target / "toy.yaml"
    text = toy.read_text(encoding="utf-8")
    opening = "    - {id: opening, kind: once, effect: \"fail('the opening is refused')\"}\n"
    text = text.replace("  phases:\n", "  phases:\n" + opening, 1)
    toy.write_text(text, encoding="utf-8")
    return target


def test_a_rule_failing_in_the_setup_leaves_its_log(tmp_path: Path) -> None:
    ruleset = failing_setup(tmp_path)
    log = tmp_path / "game.jsonl"
    result = run("play", ruleset, "--players", "2", "--seed", "3", "--log", log)
    assert result.exit_code == 1, result.output
    assert "the opening is refused" in result.stderr
    assert "toy.yaml:" in result.stderr  # the rule, located
    written = lines(log)
    assert json.loads(written[0])["ruleset"] == "toy"
    events = [json.loads(line) for line in written[1:]]
    assert events and all("chance" in e for e in events)  # the setup's draws
    verdict = run("replay", log, "--ruleset", ruleset)
    assert verdict.exit_code == 1 and "the opening is refused" in verdict.output


# ------------------------------------------------------------ symbolic links
def test_a_log_that_is_a_symbolic_link_is_refused(tmp_path: Path) -> None:
    target = tmp_path / "elsewhere.txt"
    target.write_text("keep me\n", encoding="utf-8")
    link = tmp_path / "game.jsonl"
    link.symlink_to(target)
    result = run("play", RULESET, "--players", "2", "--log", link)
    assert result.exit_code == 2, result.output
    assert "is a symbolic link" in result.output
    assert target.read_text(encoding="utf-8") == "keep me\n"
    assert link.is_symlink()


def test_a_link_at_the_old_temporary_name_is_not_written_through(tmp_path: Path) -> None:
    """The log used to be written to `.NAME.part` first, following a link there."""
    target = tmp_path / "elsewhere.txt"
    target.write_text("keep me\n", encoding="utf-8")
    (tmp_path / ".game.jsonl.part").symlink_to(target)
    log = tmp_path / "game.jsonl"
    assert run("play", RULESET, "--players", "2", "--log", log).exit_code == 0
    assert target.read_text(encoding="utf-8") == "keep me\n"
    assert run("replay", log).exit_code == 0


def test_resume_into_a_linked_log_is_refused(tmp_path: Path, monkeypatch) -> None:
    whole = played(tmp_path, "--players", "2", "--agents", "random")
    real = tmp_path / "real.jsonl"
    real.write_text("\n".join(lines(whole)[:20]) + "\n", encoding="utf-8")
    link = tmp_path / "link.jsonl"
    link.symlink_to(real)
    before = real.read_text(encoding="utf-8")
    result = run("play", "--resume", link)
    assert result.exit_code == 2 and "is a symbolic link" in result.output
    assert real.read_text(encoding="utf-8") == before
    other = tmp_path / "other.jsonl"
    assert run("play", "--resume", link, "--log", other).exit_code == 0  # read through it
    assert lines(other) == lines(whole)


def test_replay_of_a_log_cut_inside_its_last_line_judges_what_came_before(tmp_path: Path) -> None:
    """A game stopped as its log was written leaves a last line cut short: replay leaves
    it out with a warning and judges the events before it (here: the log ends before the
    game does, exit 3), not 'malformed log'; --strict still refuses the cut line."""
    whole = played(tmp_path, "--players", "2", "--seed", "3", "--agents", "random")
    data = whole.read_bytes()
    cut = tmp_path / "cut.jsonl"
    cut.write_bytes(data[: data.index(b"\n", len(data) // 2) + 12])
    result = run("replay", cut)
    assert result.exit_code == 3, result.output
    assert "the last line was cut short" in result.stderr
    assert "malformed" not in result.output + result.stderr
    assert "the log ends before the game does" in result.output
    strict = run("replay", "--strict", cut)
    assert strict.exit_code == 1
    assert "malformed log" in strict.output + strict.stderr
