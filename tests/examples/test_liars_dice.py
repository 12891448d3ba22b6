"""The Liar's Dice example (examples/games/liars-dice, docs/rules/liars-dice.md): its
rules, its scenario file, and whole games at every player count, logged and replayed.

Most rules are checked by the scenario file (a position, moves, the outcome); these
tests add what a scenario cannot say: the bids offered at every decision of whole
games, what each player sees of the dice, and the logs.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from rules_test_support import ROOT, invoke

from interpreter.agents import make
from interpreter.engine.game import Game
from interpreter.engine.view import view
from interpreter.language.runtime import Context
from interpreter.ruleset import load_or_raise

LIARS_DICE = ROOT / "examples" / "games" / "liars-dice"
WORDS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"]


def started(players: int, seed: int = 0) -> Game:
    return Game(load_or_raise(str(LIARS_DICE)), [f"P{i + 1}" for i in range(players)], seed=seed)


def in_play(game: Game) -> int:
    return sum(len(game.state.zones.get(f"cup#{s}", ())) for s in range(len(game.state.players)))


def said(quantity: int, face: int) -> str:
    word = WORDS[quantity] if quantity < len(WORDS) else None
    return f"bid {word} {face}" + ("" if quantity == 1 else "s")


def test_it_validates_without_a_warning_and_its_scenarios_pass() -> None:
    result = invoke("validate", "--strict", str(LIARS_DICE))
    assert result.exit_code == 0, result.output
    result = invoke("test", str(LIARS_DICE / "scenarios.yaml"))
    assert result.exit_code == 0, result.output
    assert "9 scenarios: 9 passed, 0 failed" in result.output


def test_the_opening_bids_are_every_quantity_in_play_of_every_face_but_one() -> None:
    game = started(2)
    decision = game.pending()[0]
    assert decision.player_name == "P1"
    expected = [said(q, f) for q in range(1, 11) for f in range(2, 7)]
    assert list(decision.options) == expected  # fewest dice first, then the face


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_every_decision_of_a_game_offers_exactly_the_bids_that_beat_the_last(seed: int):
    """Rule 2.4 and 2.5, checked at every decision of random games of 4 players."""
    game = started(4, seed)
    agents = {s: make("random", s, seed) for s in range(4)}
    decisions = 0
    while not game.is_over():
        decision = game.pending()[0]
        count, face = game.state.counters["bid_count"], game.state.counters["bid_face"]
        beats = [
            said(q, f)
            for q in range(max(count, 1), in_play(game) + 1)
            for f in range(2, 7)
            if q > count or f > face
        ]
        if in_play(game) <= 10:  # the quantities we can spell here
            assert list(decision.options) == (["challenge"] if count else []) + beats
        game.apply(decision.player, agents[decision.player].choose(game, decision))
        decisions += 1
    assert decisions > 20


def test_a_challenge_counts_the_face_and_the_wild_ones_under_every_cup() -> None:
    game = started(3, seed=5)
    showing = game.ruleset.functions["showing"][1]

    ctx = Context(game.state, game.tables)
    every = [
        game.tables.face(game.state, d) for s in range(3) for d in game.state.zones[f"cup#{s}"]
    ]
    for face in range(2, 7):
        assert showing(ctx, face) == sum(1 for f in every if f in (face, 1))


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_a_game_of_each_count_ends_with_one_player_holding_dice_and_replays(
    players: int, tmp_path: Path
) -> None:
    log = tmp_path / "game.jsonl"
    result = invoke(
        "play", str(LIARS_DICE), "--players", str(players), "--seed", "11", "--log", str(log)
    )
    assert result.exit_code == 0, result.output
    events = [json.loads(line) for line in log.read_text().splitlines()[1:]]
    rolls = [e for e in events if "chance" in e]
    assert rolls and all(e["chance"].startswith("roll cup#") for e in rolls)
    # the first round: every player rolls their five dice, one outcome a cup
    assert [e["chance"] for e in rolls[:players]] == [f"roll cup#{s}" for s in range(players)]
    assert all(len(e["outcome"]) == 5 for e in rolls[:players])
    replayed = invoke("replay", "--ruleset", str(LIARS_DICE), str(log))
    assert replayed.exit_code == 0, replayed.output
    game = started(players, 11)
    agents = {s: make("random", s, "11") for s in range(players)}
    while not game.is_over():
        decision = game.pending()[0]
        game.apply(decision.player, agents[decision.player].choose(game, decision))
    holding = [s for s in range(players) if game.state.zones.get(f"cup#{s}")]
    assert len(holding) == 1
    scores = game.result().scores
    assert sorted(scores.values()) == list(range(players))  # a place for everyone
    assert scores[f"P{holding[0] + 1}"] == players - 1  # the last with dice wins


def test_a_player_sees_their_own_faces_and_only_the_number_of_the_others_dice() -> None:
    game = started(3, seed=2)
    agents = {s: make("random", s, 2) for s in range(3)}
    checked = 0
    while not game.is_over():
        decision = game.pending()[0]
        for seat in range(3):
            shown = view(game, seat)
            others = {
                d for s in range(3) if s != seat for d in game.state.zones.get(f"cup#{s}", ())
            }
            assert not others & set(shown["faces"]), (seat, decision)
            own = game.state.zones.get(f"cup#{seat}", ())
            assert all(shown["faces"][d] == game.tables.face(game.state, d) for d in own)
            checked += 1
        game.apply(decision.player, agents[decision.player].choose(game, decision))
    assert checked > 30
