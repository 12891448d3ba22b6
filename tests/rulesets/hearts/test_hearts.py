"""Hearts (rulesets/hearts, docs/rules/hearts.md): every rule, by the scenario file
(tricks, leads, points, the moon) and by games played here (deal, passing in rotation,
the end at 100, lowest wins, the log replayed)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from click.testing import CliRunner

from interpreter.cli.main import cli
from interpreter.engine.game import Game
from interpreter.ruleset import load_or_raise

ROOT = Path(__file__).resolve().parents[3]
HEARTS = load_or_raise("hearts")
NAMES = ["N", "E", "S", "W"]
FACES = {  # a card's face, as the pass options write it (QS), to its id (spades_12)
    "23456789TJQKA"[p.properties["rank"] - 2] + p.properties["suit"][0].upper(): p.id
    for p in HEARTS.pieces.values()
}


def test_the_scenarios_pass() -> None:
    result = CliRunner().invoke(cli, ["test", str(ROOT / "examples/scenarios/hearts.yaml")])
    assert result.exit_code == 0, result.output
    assert "8 scenarios: 8 passed, 0 failed" in result.output


def test_a_52_card_deck_is_dealt_13_each() -> None:
    game = Game(HEARTS, NAMES, seed=4)
    assert len(HEARTS.pieces) == 52
    assert {p.properties["rank"] for p in HEARTS.pieces.values()} == set(range(2, 15))
    game.pending()
    hands = [game.state.contents(f"hand#{s}") for s in range(4)]
    assert [len(h) for h in hands] == [13] * 4
    assert len(set().union(*hands)) == 52


def play_pass(game: Game, luck: random.Random) -> dict[int, set[str]]:
    """Everyone passes three cards at random; what each passed."""
    passed: dict[int, set[str]] = {s: set() for s in range(4)}
    while (pending := game.pending()) and pending[0].options[0].startswith("pass "):
        decision = pending[0]
        option = decision.options[int(luck.random() * len(decision.options))]
        passed[decision.player].add(FACES[option.split(" ", 1)[1]])
        game.apply(decision.player, option)
    return passed


def play_hand(game: Game, luck: random.Random) -> None:
    hand = game.state.counters["hand_no"]
    while not game.is_over() and game.state.counters["hand_no"] == hand:
        decision = game.pending()[0]
        game.apply(decision.player, decision.options[int(luck.random() * len(decision.options))])


@pytest.mark.parametrize(("hand", "offset"), [(1, 1), (2, 3), (3, 2), (4, None), (5, 1)])
def test_cards_pass_left_right_across_then_not_at_all(hand: int, offset: int | None) -> None:
    game = Game(HEARTS, NAMES, seed=7)
    luck = random.Random(hand)
    for _ in range(hand - 1):
        play_hand(game, luck)
    assert game.state.counters["hand_no"] == hand
    if offset is None:  # every fourth hand: the 2 of clubs is led at once
        assert [d.prompt for d in game.pending()] == ["play"]
        assert game.pending()[0].options == ("play clubs_2",)
        return
    passed = play_pass(game, luck)
    assert all(len(cards) == 3 for cards in passed.values())
    for seat, cards in passed.items():
        receiver = (seat + offset) % 4  # seat + 1 is the player to the left
        assert cards <= set(game.state.contents(f"hand#{receiver}"))
    holder = next(s for s in range(4) if "clubs_2" in game.state.contents(f"hand#{s}"))
    assert [(d.player, d.options) for d in game.pending()] == [(holder, ("play clubs_2",))]


def test_the_game_ends_after_the_hand_that_reaches_100_and_the_lowest_wins() -> None:
    game = Game(HEARTS, NAMES, seed=11)
    luck = random.Random(11)
    totals = []
    while not game.is_over():
        play_hand(game, luck)
        totals.append([game.state.counters[f"points#{s}"] for s in range(4)])
    assert max(totals[-1]) >= 100 and all(max(t) < 100 for t in totals[:-1])
    steps = zip([[0] * 4, *totals[:-1]], totals, strict=True)
    assert all(sum(b) - sum(a) in (26, 78) for a, b in steps)  # 26 a hand, 78 a moon
    result = game.result()
    best = min(result.scores.values())
    assert result.ranking[0] == [n for n in NAMES if result.scores[n] == best]


def test_a_card_passed_reads_as_its_face() -> None:
    game = Game(HEARTS, NAMES, seed=4)
    decision = game.pending()[0]
    assert decision.prompt == "c"  # the chosen item's name: no label words it
    hand = game.state.contents(f"hand#{decision.player}")
    assert sorted(FACES[o.split(" ", 1)[1]] for o in decision.options) == sorted(hand)
    assert all(o.startswith("pass ") and len(o) == 7 for o in decision.options)


@pytest.mark.parametrize("seed", [1, 2])
def test_play_plays_to_the_end_and_the_log_replays(tmp_path: Path, seed: int) -> None:
    log = tmp_path / "hearts.log"
    runner = CliRunner()
    played = runner.invoke(
        cli,
        [
            "play",
            "hearts",
            "--players",
            "4",
            "--seed",
            str(seed),
            "--log",
            str(log),
            "--json",
        ],
    )
    assert played.exit_code == 0, played.output
    data = json.loads(played.output)
    assert data["result"] == "lowest" and max(data["scores"].values()) >= 100
    replayed = runner.invoke(cli, ["replay", str(log)])
    assert replayed.exit_code == 0, replayed.output


def test_hearts_validates_clean() -> None:
    result = CliRunner().invoke(cli, ["validate", "--strict", str(ROOT / "rulesets/hearts")])
    assert result.exit_code == 0, result.output
