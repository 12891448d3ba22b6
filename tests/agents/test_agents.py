"""Agents choose only among the legal options; the human agent reads a terminal."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from click.testing import CliRunner

from interpreter.agents import GreedyAgent, MctsAgent, RandomAgent, make, parse
from interpreter.agents.mcts import _choice, _Node
from interpreter.cli.main import cli
from interpreter.engine.game import Game
from interpreter.engine.seat import Seat
from interpreter.engine.view import full_view, view
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


# the human agent's answers and screen: tests/agents/test_human.py


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


def _decision_of_first_player(ruleset: str, seed: int, moves: int) -> Game:
    """A game after ``moves`` random moves and then until the first player has a
    decision of several options of their own (no simultaneous step under way)."""
    game = Game(load_or_raise(ruleset), ["Ann", "Bob"], seed=seed)
    rng = random.Random(seed)
    done = 0
    while not game.is_over():
        pending = game.pending()
        decision = pending[0]
        if (
            done >= moves
            and len(pending) == 1
            and decision.player == 0
            and len(decision.options) > 1
        ):
            return game
        game.apply(decision.player, decision.options[int(rng.random() * len(decision.options))])
        done += 1
    raise AssertionError("the game ended first")


def _with_hidden_pieces_swapped(game: Game, seat: int) -> Game:
    """A copy of ``game`` in which the two last pieces of a zone ``seat`` cannot see
    (and does not know) trade places, in the position and in its step's start."""
    twin = game.copy(same_chance=True)
    twin._snapshot = twin._snapshot.copy()  # the original's step start stays as it was
    known = game.state.engine["known"]
    for zone, items in sorted(game.state.zones.items()):
        hidden = [p for p in items[-2:] if seat not in known.get(p, ())]
        if len(items) >= 2 and len(hidden) == 2 and not game.tables.sees(zone, seat):
            for state in (twin.state, twin._snapshot):
                pieces = state.zones[zone]
                state.zones[zone] = (*pieces[:-2], pieces[-1], pieces[-2])
            return twin
    raise AssertionError("no zone is hidden from the player")


@pytest.mark.parametrize("estimate", [True, False])
@pytest.mark.parametrize(
    ("ruleset", "seed", "moves"), [("rococo", 2, 12), ("queens-necklace", 2, 6)]
)
def test_mcts_is_legal_reproducible_and_blind_to_what_it_cannot_know(
    ruleset, seed, moves, estimate
) -> None:
    game = _decision_of_first_player(ruleset, seed, moves)
    decision = game.pending()[0]
    choice = MctsAgent(0, "s", iterations=25, estimate=estimate).choose(game, decision)
    assert choice in decision.options
    assert MctsAgent(0, "s", iterations=25, estimate=estimate).choose(game, decision) == choice
    twin = _with_hidden_pieces_swapped(game, 0)
    assert twin.state.zones != game.state.zones
    assert view(twin, 0) == view(game, 0)
    # the worlds it searches are dealt alike, so the real order cannot show through
    worlds = [Seat(g, g.pending()[0]).sample(7) for g in (game, twin)]
    assert full_view(worlds[0]) == full_view(worlds[1])
    again = MctsAgent(0, "s", iterations=25, estimate=estimate)
    assert again.choose(twin, twin.pending()[0]) == choice


def test_mcts_without_an_estimate_claims_the_best_space() -> None:
    """The toy ruleset has no estimate: a position is judged by its final scoring as if
    the game ended (a claimed slot scores its value)."""
    game = Game(TOY, ["Ann", "Bob"], seed=1)
    game.apply("Ann", game.legal("Ann")[0])
    game.apply("Bob", game.legal("Bob")[0])
    game.apply("Ann", "play c3")
    decision = game.pending()[0]
    assert decision.options == ("claim slot1", "claim slot2", "pass")  # worth 5, 3, 0
    choices = [
        MctsAgent(0, seed, iterations=48, estimate=False).choose(game, decision)
        for seed in range(4)
    ]
    assert choices == ["claim slot1"] * 4


def test_mcts_breaks_a_visit_tie_by_the_best_mean() -> None:
    """With a few iterations each option may be visited once: the most visited then
    tie, and the best mean reward decides (the tie was broken at random)."""
    root = _Node()
    for option, total in (("a", 0.2), ("b", 0.9), ("c", 0.5)):
        child = root.children[(0, option)] = _Node()
        child.visits, child.total = 1, total
    rng = random.Random(0)
    assert {_choice(root, 0, ("a", "b", "c"), rng) for _ in range(20)} == {"b"}
    root.children[(0, "a")].visits = 2  # more visits win over a better mean
    assert _choice(root, 0, ("a", "b", "c"), rng) == "a"
    assert _choice(_Node(), 0, ("a", "b"), rng) == "a"  # nothing tried: the first


def test_mcts_answers_a_single_option_at_once() -> None:
    game = Game(TOY, ["Ann", "Bob"], seed=1)
    decision = game.pending()[0]
    only = type(decision)(decision.player, decision.player_name, decision.options[:1], "x")
    assert MctsAgent(decision.player, 0, iterations=1).choose(game, only) == decision.options[0]


def test_agent_specs() -> None:
    assert isinstance(make("mcts", 0, 1), MctsAgent)
    assert make("mcts:7", 1, 1).iterations == 7
    assert make("mcts:0.5s", 1, 1).seconds == 0.5
    assert make("mcts", 0, 1).estimate and not make("mcts:noestimate", 0, 1).estimate
    both = make("mcts:7:noestimate", 0, 1)
    assert both.iterations == 7 and not both.estimate and both.reproducible
    assert make("mcts:2s:noestimate", 0, 1).seconds == 2
    assert isinstance(make("greedy", 0, 1), GreedyAgent)
    for bad in ("mcts:0", "mcts:x", "greedy:5", "alphazero", "mcts:3:4", "mcts:", "mcts:1:x"):
        with pytest.raises(ValueError):
            parse(bad)


def test_play_with_mcts_from_the_command_line() -> None:
    runner = CliRunner()
    result = runner.invoke(
        cli,
        ["play", "queens-necklace", "--players", "2", "--agents", "mcts:20,random", "--seed", "1"],
    )
    assert result.exit_code == 0, result.output
    assert "P1" in result.output and "P2" in result.output
    result = runner.invoke(
        cli, ["play", "queens-necklace", "--players", "2", "--agents", "mcts:lots,random"]
    )
    assert result.exit_code != 0
    assert "bad budget in 'mcts:lots'" in result.output


def test_play_with_mcts_is_the_same_game_for_the_same_seeds(tmp_path: Path) -> None:
    """The search's own state (its generator, lent iterations, MAST means) is seeded:
    two runs write the same log, with and without the estimate."""
    logs = []
    for run in range(2):
        log = tmp_path / f"{run}.log"
        result = CliRunner().invoke(
            cli,
            [
                "play",
                "queens-necklace",
                "--players",
                "2",
                "--seed",
                "4",
                "--agents",
                "mcts:3,mcts:3:noestimate",
                "--log",
                str(log),
            ],
        )
        assert result.exit_code == 0, result.output
        logs.append(log.read_text())
    assert logs[0] == logs[1]
    assert '"agent": "mcts:3:noestimate"' in logs[0].splitlines()[0]
