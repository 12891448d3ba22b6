"""Agents choose only among the legal options; the human agent reads a terminal."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from interpreter.agents import GreedyAgent, HumanAgent, RandomAgent
from interpreter.cli.main import cli
from interpreter.engine.game import Game
from interpreter.ruleset import load_or_raise

TOY = load_or_raise(Path(__file__).parents[1] / "engine" / "toy")


def test_random_agent_is_seeded_and_legal() -> None:
    game = Game(TOY, ["Ann", "Bob"], seed=1)
    decision = game.pending()[0]
    first = [RandomAgent(0, "s").choose(game, decision) for _ in range(3)]
    assert len(set(first)) == 1 and first[0] in decision.options


def test_greedy_agent_takes_the_best_estimate() -> None:
    game = Game(TOY, ["Ann", "Bob"], seed=1)
    game.apply("Ann", game.legal("Ann")[0])
    game.apply("Bob", game.legal("Bob")[0])
    decision = game.pending()[0]
    # the toy ruleset has no estimate: the score counter is the estimate, and the
    # `played` trigger scores the played card's points, so the best card wins
    choice = GreedyAgent(decision.player, 0).choose(game, decision)
    best = max(decision.options, key=lambda o: TOY.pieces[o.split()[-1]].properties["points"])
    assert choice == best


def test_human_agent_accepts_number_text_and_prefix(monkeypatch) -> None:
    game = Game(TOY, ["Ann", "Bob"], seed=1)
    decision = next(d for d in game.pending() if d.player == 0)
    answers = iter(["9", "nonsense", decision.options[1]])
    monkeypatch.setattr("click.prompt", lambda *a, **k: next(answers))
    assert HumanAgent(0).choose(game, decision) == decision.options[1]
    answers = iter(["1"])
    assert HumanAgent(0).choose(game, decision) == decision.options[0]


def test_play_with_a_human_at_the_terminal() -> None:
    result = CliRunner().invoke(
        cli,
        [
            "play",
            str(Path(__file__).parents[1] / "engine" / "toy"),
            "--players",
            "2",
            "--seed",
            "3",
            "--agents",
            "human,random",
        ],
        input="1\n" * 50,
    )
    assert result.exit_code == 0, result.output
    assert "choose" in result.output and "1. " in result.output
    assert "score" in result.output.splitlines()[-3] or "score" in result.output


def test_human_agent_describes_ids_and_says_why_an_option_is_refused(monkeypatch, capsys) -> None:
    rococo = load_or_raise("rococo")
    game = Game(rococo, ["Ann", "Bob"], seed=4)
    for seat, picks in (
        (0, ("take S1-1", "take S2-1", "take S3-1")),
        (1, ("take S1-2", "take S2-2", "take S3-2")),
    ):
        for pick in picks:
            game.apply(seat, pick)
    game.apply(0, "play S1-1")
    decision = game.pending()[0]
    answers = iter(["?D12", "sew", "no action"])
    monkeypatch.setattr("click.prompt", lambda *a, **k: next(answers))
    assert HumanAgent(0).choose(game, decision) == "no action"
    out = capsys.readouterr().out
    assert "dress: colour yellow" in out
    assert "not an option: no dress in the workshop can be paid for" in out


def test_why_not_explains_in_the_rules_terms() -> None:
    rococo = load_or_raise("rococo")
    game = Game(rococo, ["Ann", "Bob"], seed=3)
    for seat, picks in (
        (0, ("take S1-1", "take S4-1", "take S5-1")),
        (1, ("take S1-2", "take S2-2", "take S3-2")),
    ):
        for pick in picks:
            game.apply(seat, pick)
    game.apply(0, "play S4-1")
    assert game.why_not(0, "sew") == "the apprentice S4-1 may not sew (only masters and journeymen)"
    assert game.why_not(1, "sew") == "Bob has no decision to make now"
