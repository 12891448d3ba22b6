"""benchmarks/agents.py: seats alternated, win shares with ties, intervals that hold
the share, the CPU mode across trees, and agents made without the estimate."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))

import agents as bench  # noqa: E402  (benchmarks/agents.py, after its folder is on the path)

import interpreter.agents as kinds  # noqa: E402
from interpreter.agents import MctsAgent  # noqa: E402

SHARE = re.compile(
    r"^\s+[AB]\s+(\S+): win share\s+([\d.]+) % \[([\d.]+), ([\d.]+)\] \((\d+) tied games\)", re.M
)


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(BENCHMARKS / "agents.py"), *args],
        capture_output=True,
        text=True,
        check=False,
    )


def test_seats_alternate_by_the_seed_parity() -> None:
    assert bench.seat_agents(0, 2, 2) == [0, 1]
    assert bench.seat_agents(1, 2, 2) == [1, 0]
    assert bench.seat_agents(3, 4, 2) == [1, 0, 1, 0]
    assert bench.seat_agents(5, 3, 1) == [0, 0, 0]


def test_a_tie_counts_half_and_the_interval_holds_the_share() -> None:
    games = [
        {"seats": [0, 1], "share": [0.5, 0.5]},  # a tie
        {"seats": [1, 0], "share": [0.0, 1.0]},
        {"seats": [0, 1, 0, 1], "share": [0.0, 0.5, 0.5, 0.0]},  # shared by A and B
        {"seats": [1, 0], "share": [1.0, 0.0]},
    ]
    won = bench.win_share(games, 0)
    assert won["share"] == pytest.approx(0.5)
    assert won["ties"] == 2
    assert won["low"] < 0.5 < won["high"]
    assert bench.win_share(games, 1)["share"] == pytest.approx(0.5)


def test_student_quantiles() -> None:
    assert bench.t95(1) == pytest.approx(12.706, abs=2e-3)
    assert bench.t95(10) == pytest.approx(2.228, abs=2e-3)
    mean, half, sd = bench.mean_interval([1.0, 2.0, 3.0])
    assert (mean, sd) == (2.0, 1.0)
    assert half == pytest.approx(4.303 / 3**0.5, abs=1e-3)


def test_a_match_prints_shares_that_sum_to_the_games_inside_their_intervals() -> None:
    done = run("random", "greedy", "--ruleset", "queens-necklace", "--games", "4", "--jobs", "1")
    assert done.returncode == 0, done.stderr
    assert "command: " in done.stdout and "seeds 0-3" in done.stdout
    assert re.search(r"commit \w+", done.stdout)
    found = SHARE.findall(done.stdout)
    assert [f[0] for f in found] == ["random", "greedy"]
    for _, share, low, high, _ in found:
        assert float(low) <= float(share) <= float(high)
    assert sum(float(f[1]) for f in found) == pytest.approx(100.0, abs=0.2)
    # the same games played here: the printed share is theirs
    bench._init("queens-necklace")
    games = [bench.play((seed, 2, ["random", "greedy"])) for seed in range(4)]
    assert float(found[1][1]) == pytest.approx(100 * bench.win_share(games, 1)["share"])
    assert re.search(r"CPU per game [\d.]+ ± [\d.]+ s \(sd [\d.]+, max [\d.]+\)", done.stdout)


def test_the_cpu_mode_runs_each_tree_in_its_own_process_on_the_same_seeds() -> None:
    root = str(BENCHMARKS.parent)
    done = run(
        "--cpu", "random", "--players", "4", "--games", "2", "--rounds", "2", "--jobs", "1",
        "--tree", root, "--tree", root,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert len(re.findall(r"^  CPU per game [\d.]+ ±", done.stdout, re.M)) == 2  # each tree's
    assert len(re.findall(r"^  CPU per game by round: [\d.]+, [\d.]+$", done.stdout, re.M)) == 2
    assert re.search(r"÷ the first tree's: [\d.]+ ± [\d.]+", done.stdout)
    assert done.stdout.count(f"tree {root}: commit") == 2


def test_one_spec_twice_is_two_agents_whose_shares_make_the_whole() -> None:
    done = run("random", "random", "--games", "4", "--jobs", "1")
    assert done.returncode == 0, done.stderr
    found = SHARE.findall(done.stdout)
    assert len(found) == 2
    assert sum(float(f[1]) for f in found) == pytest.approx(100.0, abs=0.2)


def test_a_bad_spec_or_tree_is_said_in_one_line() -> None:
    done = run("mcts:lots", "random", "--games", "2")
    assert done.returncode == 1
    assert done.stderr.startswith("error: bad budget") and "Traceback" not in done.stderr
    done = run("--cpu", "random", "--tree", "/nonexistent")
    assert done.returncode == 2 and "no interpreter/ package" in done.stderr


class _Knows(MctsAgent):
    """An mcts that takes ``estimate`` (as issue 45's agent will)."""

    def __init__(self, seat, seed=0, iterations=None, seconds=None, estimate=True):
        super().__init__(seat, seed, iterations, seconds)
        self.estimate = estimate


class _Ignores(MctsAgent):
    def __init__(self, seat, seed=0, iterations=None, seconds=None):
        super().__init__(seat, seed, iterations, seconds)


def test_noestimate_passes_estimate_false_or_is_refused(monkeypatch) -> None:
    monkeypatch.setitem(kinds.KINDS, "mcts", _Knows)
    monkeypatch.setattr(kinds, "MctsAgent", _Knows)  # ``parse`` gives it the budget
    agent = bench.make_agent("mcts:30:noestimate", 1, 7)
    assert (agent.estimate, agent.iterations, agent.seat) == (False, 30, 1)
    assert bench.make_agent("mcts:30", 1, 7).estimate is True
    monkeypatch.setitem(kinds.KINDS, "mcts", _Ignores)
    monkeypatch.setattr(kinds, "MctsAgent", _Ignores)
    with pytest.raises(bench.BenchError, match="takes no `estimate` keyword"):
        bench.make_agent("mcts:noestimate", 0, 0)


class _Native(MctsAgent):
    """An mcts whose spec reads ``noestimate`` itself, under another keyword."""

    def __init__(self, seat, seed=0, iterations=None, seconds=None, hint=True):
        super().__init__(seat, seed, iterations, seconds)
        self.hint = hint


def test_noestimate_is_the_interpreters_where_its_specs_read_it(monkeypatch) -> None:
    def parse(spec: str):
        assert spec == "mcts:noestimate"
        return _Native, {"hint": False}

    monkeypatch.setattr(kinds, "parse", parse)
    agent = bench.make_agent("mcts:noestimate", 0, 3)
    assert type(agent) is _Native and agent.hint is False


def test_a_cooperative_ruleset_is_played_by_a_team_of_each_agent_from_the_same_deal() -> None:
    """In Hanabi every seat of a mixed team shares one score, so every game would be a
    tie (50 %): seed i is played by all-A and by all-B, and the team that scored more
    takes the seed."""
    bench._init("hanabi")
    game = bench.play((3, 2, ["random", "greedy"]))
    alone = [bench.play_game(3, 2, [spec, spec])[0] for spec in ("random", "greedy")]
    shared = [float(sum(g.result().scores.values())) for g in alone]  # the seats' sum
    assert game["teams"] and game["seats"] == [0, 1]
    assert game["scores"] == shared
    expected = 1.0 if shared[0] > shared[1] else 0.5 if shared[0] == shared[1] else 0.0
    assert game["share"] == [expected, 1.0 - expected]
    done = run("greedy", "random", "--ruleset", "hanabi", "--games", "4", "--jobs", "1")
    assert done.returncode == 0, done.stderr
    assert "a team of all A, then of all B" in done.stdout
    found = SHARE.findall(done.stdout)
    assert sum(float(f[1]) for f in found) == pytest.approx(100.0, abs=0.2)
