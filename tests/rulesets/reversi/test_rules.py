"""Reversi, rule by rule (docs/rules/reversi.md): the start, placing and flipping,
passing, the end and the score; games played to the end and replayed; the scenario
file; a few games against OpenSpiel's `othello` when it is installed."""

from __future__ import annotations

import random
import sys
from functools import lru_cache
from pathlib import Path

import pytest
from rules_test_support import ROOT, invoke

from interpreter.engine.game import Game
from interpreter.language.values import Player
from interpreter.ruleset import load_or_raise

START = {"d4": 1, "e5": 1, "e4": 0, "d5": 0}


@lru_cache(maxsize=1)
def reversi():
    return load_or_raise("reversi")


def new_game(seed: int = 0) -> Game:
    return Game(reversi(), ["black", "white"], seed=seed)


def arranged(owners: dict[str, int], mover: int = 0) -> Game:
    """A game whose board holds exactly ``owners``, with ``mover``'s turn started on it."""
    game = new_game()
    game.pause()
    game.state.owners.clear()
    game.state.owners.update(owners)
    game.run_step("play", mover)
    return game


def board(game: Game) -> dict[str, int]:
    return dict(game.state.owners)


def test_rule_2_the_standard_start_black_first() -> None:
    game = new_game()
    assert board(game) == START
    (decision,) = game.pending()
    assert decision.player == 0  # black: the first seat
    assert sorted(decision.options) == ["place c4", "place d3", "place e6", "place f5"]


def test_rule_3_a_placement_flips_what_it_flanks() -> None:
    game = new_game()
    game.apply(0, "place d3")
    assert board(game) == {**START, "d3": 0, "d4": 0}
    assert game.pending()[0].player == 1


def test_rule_3_every_flanking_direction_flips_at_once_and_only_those() -> None:
    owners = {"a1": 0, "b2": 1, "c3": 1, "d1": 0, "d2": 1, "d3": 1, "e4": 1, "f4": 1}
    owners |= {"b4": 1, "c4": 1}  # west: no black disc before the edge
    game = arranged(owners)
    game.apply(0, "place d4")
    after = board(game)
    assert [after[s] for s in ("b2", "c3", "d2", "d3", "d4")] == [0] * 5
    assert [after[s] for s in ("e4", "f4", "b4", "c4")] == [1] * 4  # not flanked


def test_rule_3_flipped_discs_flip_nothing_further() -> None:
    # black on c1 flanks d1 against e1; the flipped d1 then lines up with d3 across
    # white d2, but that line was not made by the placement: d2 stays white
    game = arranged({"d1": 1, "e1": 0, "d2": 1, "d3": 0})
    game.apply(0, "place c1")
    assert board(game) == {"c1": 0, "d1": 0, "e1": 0, "d2": 1, "d3": 0}


def test_rule_3_a_square_that_flanks_nothing_is_refused() -> None:
    game = new_game()
    assert "place c3" not in game.legal(0)
    assert "place d4" not in game.legal(0)  # taken
    assert game.why_not(0, "place c3")


def test_rule_4_who_moves_next_in_random_games() -> None:
    """Each player in turn; one without a legal placement is passed over, and the game
    goes on as long as someone can place (seen over seeded random games)."""
    passes = 0
    for seed in range(6):
        game, rng, last = new_game(seed), random.Random(seed), 1
        while not game.is_over():
            (decision,) = game.pending()
            opponent = 1 - last
            if game.evaluate("can_move(p)", p=Player(opponent)):
                assert decision.player == opponent
            else:
                assert decision.player == last
                passes += 1
            game.apply(decision.player, rng.choice(decision.options))
            last = decision.player
        assert not game.evaluate("can_move(players[0]) or can_move(players[1])")
    assert passes > 0  # the property was met on passes too


def test_rule_5_most_discs_wins() -> None:
    game = arranged({"a1": 0, "b1": 1, "h8": 0})
    game.apply(0, "place c1")  # white has no disc left: nobody can place
    game.resume()  # the arranged turn was a sandbox step: the course goes on from it
    assert game.is_over()
    result = game.result()
    assert result.scores == {"black": 4, "white": 0}
    assert result.ranking == [["black"], ["white"]]


def test_rule_5_equal_counts_share_the_win() -> None:
    # black's c1 flips b1 (3 black discs); white's 3 on row 8 flank nothing, nor can
    # black flank them: the game ends 3 to 3
    game = arranged({"a1": 0, "b1": 1, "a8": 1, "b8": 1, "c8": 1})
    game.apply(0, "place c1")
    game.resume()
    assert game.is_over()
    assert game.result().scores == {"black": 3, "white": 3}
    assert game.result().ranking == [["black", "white"]]


def test_play_to_the_end_and_replay_the_log(tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    played = invoke("play", "reversi", "--players", "2", "--seed", "5", "--log", str(log))
    assert played.exit_code == 0, played.output
    replayed = invoke("replay", str(log))
    assert replayed.exit_code == 0, replayed.output
    assert "legal and complete" in replayed.output


def test_the_scenario_file_passes() -> None:
    result = invoke("test", str(ROOT / "rulesets" / "reversi" / "scenarios.yaml"))
    assert result.exit_code == 0, result.output
    assert "6 scenarios: 6 passed, 0 failed" in result.output


def test_the_same_games_as_openspiel() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        import reversi_openspiel
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    othello, passes = pyspiel.load_game("othello"), [0]
    for seed in range(3):
        assert reversi_openspiel.one_game(reversi(), othello, seed, passes) == []


def test_the_html_viewer_gets_the_board_as_rows(tmp_path: Path) -> None:
    import json
    import re

    log, page = tmp_path / "game.jsonl", tmp_path / "view.html"
    assert invoke("play", "reversi", "--players", "2", "--log", str(log)).exit_code == 0
    assert invoke("replay", str(log), "--html", str(page)).exit_code == 0
    text = page.read_text(encoding="utf-8")
    found = re.search(r'<script type="application/json" id="data">(.*?)</script>', text, re.S)
    ((label, ids, rows),) = json.loads(found.group(1))["board"]
    assert label == "board" and len(ids) == 64
    assert rows[0] == ["a1", "b1", "c1", "d1", "e1", "f1", "g1", "h1"] and len(rows) == 8
    assert "function gridOf" in text
