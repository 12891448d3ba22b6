"""A whole game is bounded (issue 44, point 5): every effect stays under its own step
budget, yet a game of a thousand rounds of them played for minutes. A game now stops
at ``Limits.game_step_budget`` steps with a rule error located at the rule that spent
the most, and `validate --simulate` and `simulate` report it with its seed and go on."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from interpreter.agents import make
from interpreter.engine.game import Game
from interpreter.errors import RuleError
from interpreter.ruleset import load_or_raise
from interpreter.ruleset.tables import Limits

MANIFEST = """\
id: endless
name: Endless
version: 0.1.0
players: {min: 2, max: 3}
include: [content.yaml]
"""

# each turn of `work` spends 198,001 of its 200,000 steps; 1,000 rounds of 3 players
# are 594 million steps: about two minutes of play before the game's budget
CONTENT = """\
counters:
  score: {per: player}
  loops: {per: game}
structure:
  rounds: {count: 1000}
  phases:
    - id: work
      kind: each_player
      effect: |
        repeat 99000 { loops += 1 }
    - id: rest
      kind: once
      effect: |
        repeat 100 { loops += 1 }
scoring:
  score: score
  steps: []
"""


@pytest.fixture
def endless(tmp_path: Path) -> Path:
    folder = tmp_path / "endless"
    folder.mkdir()
    (folder / "ruleset.yaml").write_text(MANIFEST)
    (folder / "content.yaml").write_text(CONTENT)
    return folder


def rules(*args: str, timeout: float = 60) -> subprocess.CompletedProcess:
    command = [sys.executable, "-m", "interpreter", *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=timeout)


def test_a_game_of_effects_each_under_their_budget_ends_quickly_at_the_rule(endless):
    """Before: `rules play` ran for minutes (this test timed out)."""
    assert rules("validate", str(endless)).returncode == 0
    started = time.perf_counter()
    result = rules("play", str(endless), "--players", "3")
    assert time.perf_counter() - started < 30
    assert result.returncode == 1, result.stdout + result.stderr
    assert "Traceback" not in result.stderr and "internal error" not in result.stderr
    headline, hint = result.stderr.splitlines()[:2]
    place, message = headline.split(": error: ")
    assert place.endswith("content.yaml:7:7")  # the phase `work`, which spent the most
    assert message.startswith(f"the game spent more than its budget of {10_000_000:,} steps (")
    assert "the phase work spent the most" in message
    assert message.endswith(", phase work, event 1)")
    assert "hint:" in hint and "docs/format.md" in hint


def test_validate_simulate_and_simulate_report_the_game_with_its_seed_and_go_on(endless):
    result = rules("validate", str(endless), "--simulate", "1")
    assert result.returncode == 1, result.stdout + result.stderr
    out = result.stdout
    assert out.count("error: the game spent more than its budget") == 2  # 2 and 3 players
    assert "endless, 2 players, seed " in out and "endless, 3 players, seed " in out
    assert "simulated 2 random games: 2 errors" in out
    result = rules("simulate", str(endless), "--games", "2", "--players", "2", "--jobs", "1")
    assert result.returncode == 1, result.stdout + result.stderr
    errors = [x for x in result.stdout.splitlines() if "spent more than its budget" in x]
    assert len(errors) == 2 and all("(seed " in x and "content.yaml:7:7" in x for x in errors)


def test_the_rule_that_spent_the_most_is_named_not_the_last_one(endless, monkeypatch):
    """`rest` spends 201 steps a round, `work` 198,001 a turn: with a budget that `rest`
    crosses (the last step of the first round), `work` is still the rule named. The
    same seed stops at the same place."""
    monkeypatch.setattr(Limits, "game_step_budget", 2 * 198_001 + 100)
    ruleset = load_or_raise(endless)
    messages = []
    for _ in range(2):
        with pytest.raises(RuleError) as caught:
            Game(ruleset, ["Ann", "Bob"], seed=3)
        error = caught.value
        assert (Path(error.where.path).name, error.where.line) == ("content.yaml", 7)
        assert error.when == "round 1, phase rest, event 1"
        messages.append(error.message)
    assert messages[0] == messages[1]
    spent, most = f"{2 * 198_001 + 201:,}", f"{2 * 198_001:,}"
    assert f"({spent}); the phase work spent the most: {most}" in messages[0]


def test_the_course_conditions_count_in_the_game_budget(tmp_path, monkeypatch):
    """An `end` condition that scans 5,000 numbers, asked a few times a round: no
    effect spends anything, the conditions spend it all, and are named."""
    folder = tmp_path / "judged"
    folder.mkdir()
    (folder / "ruleset.yaml").write_text(MANIFEST.replace("endless", "judged"))
    content = CONTENT.replace(
        "rounds: {count: 1000}", "rounds: {count: 1000}\n  end: sum(x for x in range(0, 5000)) < 0"
    )
    content = content.replace("repeat 99000 { loops += 1 }", ";").replace(
        "repeat 100 { loops += 1 }", ";"
    )
    (folder / "content.yaml").write_text(content)
    monkeypatch.setattr(Limits, "game_step_budget", 100_000)
    with pytest.raises(RuleError) as caught:
        Game(load_or_raise(folder), ["Ann", "Bob"], seed=1)
    assert "the course's conditions (`end`, `until`, `while`, `when`…) spent the most" in (
        caught.value.message
    )
    assert (Path(caught.value.where.path).name, caught.value.where.line) == ("content.yaml", 4)


@pytest.mark.parametrize(
    ("ruleset", "expansions", "players"),
    [
        ("rococo", ["deluxe", "jewelry_box", "fancy", "festive", "haute_couture"], 5),
        ("queens-necklace", [], 4),
        ("reversi", [], 2),
    ],
)
def test_the_shipped_games_spend_far_less_than_the_budget(ruleset, expansions, players):
    """Measured over 40 seeded random games each: at most 28,039 steps (rococo at 5
    players, with any of five sets of expansions), 12,009 (queens-necklace at 2 or 4),
    85,566 (reversi);
    the budget is 10,000,000. Here a few games, checked to stay under 1 % of it."""
    definition = load_or_raise(ruleset, expansions)
    for seed in range(3):
        game = Game(definition, [f"P{i}" for i in range(players)], seed=seed)
        agents = [make("random", seat, seed) for seat in range(players)]
        while not game.is_over():
            decision = game.pending()[0]
            game.apply(decision.player, agents[decision.player].choose(game, decision))
        assert 0 < game.steps_spent < Limits.game_step_budget // 100
