"""Hanabi (rulesets/hanabi, docs/rules/hanabi.md): every rule, by the scenario file
(play, misplay, a 5's token, discard, hints, the three ends) and by games played here
(the deck, the deal by player count, hands seen by everyone but their owner, hints
as public marks that follow their cards, play to the end and replay at every count)."""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner

from interpreter.cli.main import cli
from interpreter.engine.game import Game
from interpreter.engine.view import view
from interpreter.ruleset import load_or_raise

ROOT = Path(__file__).resolve().parents[3]
HANABI = load_or_raise("hanabi")


def new_game(players: int, seed: int = 0) -> Game:
    return Game(HANABI, [f"P{i + 1}" for i in range(players)], seed=seed)


def test_the_scenarios_pass() -> None:
    result = CliRunner().invoke(cli, ["test", str(ROOT / "examples/scenarios/hanabi.yaml")])
    assert result.exit_code == 0, result.output
    assert "9 scenarios: 9 passed, 0 failed" in result.output


def test_the_deck_has_fifty_cards_three_ones_to_one_five_per_colour() -> None:
    cards = [p.properties for p in HANABI.pieces.values()]
    assert len(cards) == 50
    per_rank = Counter(c["rank"] for c in cards)
    assert per_rank == {1: 15, 2: 10, 3: 10, 4: 10, 5: 5}
    assert Counter(c["colour"] for c in cards) == {
        c: 10 for c in ("red", "yellow", "green", "white", "blue")
    }


@pytest.mark.parametrize(("players", "size"), [(2, 5), (3, 5), (4, 4), (5, 4)])
def test_hands_of_five_with_two_or_three_players_four_with_four_or_five(players, size) -> None:
    game = new_game(players)
    counters = game.state.counters
    assert [len(game.state.zones[f"hand#{s}"]) for s in range(players)] == [size] * players
    assert len(game.state.zones["deck"]) == 50 - size * players
    assert (counters["info"], counters.get("fuses", 0)) == (8, 0)


def test_each_player_sees_every_hand_but_their_own() -> None:
    game = new_game(3)
    for seat in range(3):
        hands = [p["zones"]["hand"] for p in view(game, seat)["players"]]
        for other, hand in enumerate(hands):
            if other == seat:
                assert hand == {"count": 5}
            else:
                assert hand == list(game.state.zones[f"hand#{other}"])


def answer(game: Game, *options: str) -> None:
    for option in options:
        game.apply(game.pending()[0].player, option)


def test_a_hint_is_a_public_mark_its_receiver_sees_and_it_follows_the_card() -> None:
    game = new_game(2, seed=3)
    hand = list(game.state.zones["hand#1"])
    colour = HANABI.pieces[hand[1]].properties["colour"]
    answer(game, "tell P2", f"name {colour}")
    marked = [
        {"colour": colour}
        if HANABI.pieces[c].properties["colour"] == colour
        else {"colour": {"not": [colour]}}
        for c in hand
    ]
    for seat in (0, 1):  # the receiver sees it too, by the places of their cards
        assert view(game, seat)["marks"] == {"P2.hand": marked}
    assert game.state.counters["info"] == 7
    answer(game, "discard" if game.state.counters["info"] < 8 else "play", "card 0")
    answer(game, "play", "card 0")  # P2 plays their first card: the marks move up
    assert view(game, 1)["marks"]["P2.hand"] == [*marked[1:5], {}]


def test_a_hint_names_only_what_the_other_hand_holds() -> None:
    game = new_game(2, seed=5)
    held = {
        HANABI.pieces[c].properties[k]
        for c in game.state.zones["hand#1"]
        for k in ("colour", "rank")
    }
    answer(game, "tell P2")
    offered = {o.split(" ", 1)[1] for o in game.pending()[0].options}
    assert offered == {str(v) for v in held}


def test_the_owner_is_never_offered_their_cards_by_name() -> None:
    game = new_game(2)
    answer(game, "play")
    assert game.pending()[0].options == tuple(f"card {n}" for n in range(5))


def play_randomly(game: Game, seed: int) -> None:
    luck = random.Random(seed)
    while not game.is_over():
        decision = game.pending()[0]
        game.apply(decision.player, decision.options[int(luck.random() * len(decision.options))])


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_play_plays_to_the_end_and_the_log_replays(tmp_path: Path, players: int) -> None:
    log = tmp_path / "hanabi.log"
    runner = CliRunner()
    played = runner.invoke(
        cli,
        ["play", "hanabi", "--players", str(players), "--seed", "2", "--log", str(log), "--json"],
    )
    assert played.exit_code == 0, played.output
    data = json.loads(played.output)
    assert data["result"] == "cooperative"
    replayed = runner.invoke(cli, ["replay", str(log)])
    assert replayed.exit_code == 0, replayed.output


def test_a_game_lost_on_the_third_fuse_scores_zero_for_everyone() -> None:
    for seed in range(40):
        game = new_game(2, seed)
        play_randomly(game, seed)
        if game.state.counters["fuses"] == 3:
            assert set(game.result().scores.values()) == {0}
            return
    pytest.fail("no random game burnt its third fuse")


def test_hanabi_validates_clean() -> None:
    result = CliRunner().invoke(cli, ["validate", "--strict", str(ROOT / "rulesets/hanabi")])
    assert result.exit_code == 0, result.output


def test_a_transcript_read_as_a_player_names_the_others_cards_not_their_own(tmp_path) -> None:
    log = tmp_path / "hanabi.log"
    runner = CliRunner()
    played = runner.invoke(cli, ["play", "hanabi", "--players", "2", "--log", str(log)])
    assert played.exit_code == 0, played.output
    lines = runner.invoke(cli, ["replay", str(log), "--transcript", "--as", "P1"]).output
    deal = [line for line in lines.splitlines() if "draw deck" in line][:2]
    assert deal[0].endswith("5 pieces → P1's hand")
    assert deal[1].count("→ P2's hand") == 5 and "pieces" not in deal[1]
