"""Result modes (`scoring.result`): highest, lowest, cooperative and teams read by the
ranking, the result table, the JSON result and the agents alike
(``engine/result_mode.py``)."""

from __future__ import annotations

import dataclasses
import shutil
from pathlib import Path

import pytest

from interpreter.agents.greedy import margin
from interpreter.agents.mcts import _shares
from interpreter.cli.results import result_json
from interpreter.engine.game import Game
from interpreter.engine.result_mode import ResultMode
from interpreter.engine.words import render_result
from interpreter.ruleset import load, load_or_raise

TOY_FOLDER = Path(__file__).parent / "toy"
TOY = load_or_raise(TOY_FOLDER)
NAMES = ["Ann", "Bob", "Cy"]


def game_with(mode: ResultMode, scores: list[int], coins: list[int] | None = None) -> Game:
    game = Game(dataclasses.replace(TOY, result_mode=mode), NAMES[: len(scores)], seed=1)
    for seat, value in enumerate(scores):
        game.state.counters[f"score#{seat}"] = value
        game.state.counters[f"coins#{seat}"] = (coins or [0] * len(scores))[seat]
    return game


def test_highest_wins_by_default() -> None:
    assert TOY.result_mode == ResultMode()
    assert game_with(ResultMode(), [3, 9, 5]).result().ranking == [["Bob"], ["Cy"], ["Ann"]]


def test_lowest_wins_and_the_tiebreak_reads_the_same_way() -> None:
    result = game_with(ResultMode("lowest"), [3, 9, 3], coins=[4, 0, 1]).result()
    assert result.ranking == [["Cy"], ["Ann"], ["Bob"]]  # 3 (1 coin), 3 (4 coins), 9
    assert result.scores == {"Ann": 3, "Bob": 9, "Cy": 3}  # the scores as counted
    assert result.tiebreak == {"Ann": [4], "Bob": [0], "Cy": [1]}


def test_cooperative_everyone_wins_or_loses_together() -> None:
    result = game_with(ResultMode("cooperative"), [3, 9, 5], coins=[1, 2, 3]).result()
    assert result.ranking == [["Ann", "Bob", "Cy"]]


def test_teams_rank_by_the_sum_of_partners() -> None:
    mode = ResultMode("teams", 2)  # Ann and Cy (seats 0 and 2) against Bob
    result = game_with(mode, [3, 9, 7]).result()
    assert result.ranking == [["Ann", "Cy"], ["Bob"]]  # 10 against 9
    assert mode.team_of(3) == [[0, 2]]


def test_the_agents_judge_by_the_mode() -> None:
    lowest = ResultMode("lowest")
    low, high = _shares([10.0, 20.0], lowest)
    assert low > 0.5 > high  # the lower score is the better share
    assert _shares([10.0, 20.0])[0] < 0.5  # highest wins: the same scores the other way
    together = _shares([10.0, 20.0], ResultMode("cooperative"))
    assert together[0] == together[1] > 0.5  # one shared score, nobody to beat
    assert _shares([10.0, 1.0, 10.0], ResultMode("teams", 2))[1] < 0.5  # 1 against 20
    game = game_with(lowest, [10, 20])
    assert margin(game, 0) == 10 and margin(game, 1) == -10  # the estimate is the score


def test_the_result_table_and_json_name_the_mode() -> None:
    game = game_with(ResultMode("teams", 2), [3, 9, 7])
    table = render_result(game.result(), game.ruleset)
    assert "result: 2 teams" in table and ": Ann + Cy 10" in table
    data = result_json(game, game.result())
    assert data["result"] == "teams" and data["teams"] == [["Ann", "Cy"]]
    plain = game_with(ResultMode(), [3, 9])
    assert "result:" not in render_result(plain.result(), plain.ruleset)
    assert result_json(plain, plain.result())["teams"] == []


def toy_with(tmp_path: Path, scoring_lines: str) -> Path:
    folder = tmp_path / "toy"
    shutil.copytree(TOY_FOLDER, folder)
    path = folder / "toy.yaml"
    text = path.read_text()
    path.write_text(text.replace("  tiebreak: [coins]\n", f"  tiebreak: [coins]\n{scoring_lines}"))
    return folder


def test_a_ruleset_declares_the_mode(tmp_path: Path) -> None:
    loaded = load(toy_with(tmp_path, "  result: teams\n  teams: 2\n"), use_store=False)
    assert loaded.ruleset is not None, loaded.diagnostics
    assert loaded.ruleset.result_mode == ResultMode("teams", 2)


@pytest.mark.parametrize(
    ("lines", "message"),
    [
        ("  result: teams\n", "`result: teams` needs `teams`"),
        ("  result: lowest\n  teams: 2\n", "`teams` is given but `result` is 'lowest'"),
        ("  result: teams\n  teams: 3\n", "3 teams, but a game may have 2 player(s)"),
        ("  result: fewest\n", "fewest"),
    ],
)
def test_a_wrong_mode_is_refused_at_its_line(tmp_path: Path, lines: str, message: str) -> None:
    folder = toy_with(tmp_path, lines)
    loaded = load(folder, use_store=False)
    assert loaded.ruleset is None
    found = [d for d in loaded.diagnostics if message in d.message]
    assert found, [d.message for d in loaded.diagnostics]
    text = (folder / "toy.yaml").read_text()
    first = text.count("\n", 0, text.index(lines)) + 1  # the added lines, where it is said
    assert first <= found[0].location.line < first + lines.count("\n")
