"""A leaf's value without a heuristic: the ruleset's final scoring as if the game ended."""

from __future__ import annotations

import random
from pathlib import Path

from interpreter.agents.value import final_scores
from interpreter.engine.game import Game
from interpreter.ruleset import load_or_raise

TOY = load_or_raise(Path(__file__).parents[1] / "engine" / "toy")


def _toy_after_first_round_picks() -> Game:
    game = Game(TOY, ["Ann", "Bob"], seed=1)
    game.apply("Ann", game.legal("Ann")[0])
    game.apply("Bob", game.legal("Bob")[0])
    return game


def test_final_scores_run_the_scoring_steps_on_a_copy() -> None:
    game = _toy_after_first_round_picks()
    state = game.state
    counters, zones = dict(state.counters), dict(state.zones)
    # the toy's final scoring: each claimed slot's value, then the points on the table
    expected = [
        state.counters[f"score#{s}"]
        + sum(TOY.pieces[c].properties["points"] for c in state.zones[f"table#{s}"])
        for s in (0, 1)
    ]
    assert final_scores(game) == expected
    assert expected != [state.counters[f"score#{s}"] for s in (0, 1)]  # the steps counted
    assert game.state.counters == counters and game.state.zones == zones  # untouched


def test_final_scores_of_a_finished_game_are_its_result() -> None:
    game = Game(TOY, ["Ann", "Bob"], seed=2)
    while not game.is_over():
        decision = game.pending()[0]
        game.apply(decision.player, decision.options[0])
    result = game.result()
    assert final_scores(game) == [result.scores["Ann"], result.scores["Bob"]]


def test_rococo_final_scores_count_what_the_estimate_does_not() -> None:
    """The hall majorities: late in a Rococo game the as-if-ended scoring exceeds the
    ruleset's estimate (which counts prestige, livres, markers, not majorities)."""
    game = Game(load_or_raise("rococo"), ["Ann", "Bob"], seed=4)
    rng = random.Random(4)
    while game.state.engine["round"] < 7:
        decision = game.pending()[0]
        game.apply(decision.player, rng.choice(decision.options))
    finals = final_scores(game)
    estimates = [game.estimate(s) for s in (0, 1)]
    assert all(f >= e for f, e in zip(finals, estimates, strict=True))
    assert finals != estimates
