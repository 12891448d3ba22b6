"""Random Queen's Necklace games checked after every decision, and log round trips."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from interpreter.agents import RandomAgent
from interpreter.cli.main import cli
from interpreter.engine.game import Game
from interpreter.engine.view import view
from interpreter.ruleset import load_or_raise

RULESET = load_or_raise("queens-necklace")
PIECES = set(RULESET.pieces)
ROWS = ("show[ruby]", "show[emerald]", "show[diamond]", "show[amber]")
MERCHANTS = {"merchant-1", "merchant-2", "merchant-3"}


def check_invariants(game: Game) -> None:
    state = game.state
    seats = range(len(state.players))
    # every component in exactly one zone, and `where` agrees with the zones
    seen: dict[str, str] = {}
    for zone, items in state.zones.items():
        for piece in items:
            assert piece not in seen, f"{piece} in {zone} and {seen[piece]}"
            seen[piece] = zone
            assert state.where[piece] == zone
    assert set(seen) == PIECES
    assert 0 <= state.counters["sales_done"] <= 3
    # the display: at most one card per slot, each on a price (not the discard step)
    for i in range(1, 6):
        cards = state.zones.get(f"slot{i}", ())
        assert len(cards) <= 1
        if cards:
            assert state.where[f"marker{i}"] != "ring_step4", (i, cards)
            assert state.where[cards[0]] == f"slot{i}"
    for seat in seats:
        assert state.counters[f"ducats#{seat}"] >= 0
    # the necklace is worn by whoever holds its card (in hand or in a sale packet)
    card_zone = state.where["queens_necklace"]
    holder = None
    if "#" in card_zone and card_zone.split("#")[0] in ("hand", *ROWS):
        holder = card_zone.split("#")[1]
    expected = "box" if holder is None else f"worn#{holder}"
    assert state.where["the_necklace"] == expected, card_zone
    # views: each player sees their own hand, the others only its size
    secret = game.has_secret_decisions()
    over = game.is_over()  # at the end everything is visible
    for seat in seats:
        shown = view(game, seat)
        for other, entry in enumerate(shown["players"]):
            hand = state.zones.get(f"hand#{other}", ())
            if other == seat or over:
                assert entry["zones"]["hand"] == list(hand)
            else:
                assert isinstance(entry["zones"]["hand"], dict)
                assert set(entry["zones"]["hand"].get("known", ())) <= PIECES
                if not secret:
                    assert entry["zones"]["hand"]["count"] == len(hand)
            assert "money" in entry["counters"]  # money is public


GAMES = [(2, 1), (2, 2), (3, 3), (3, 4), (4, 5), (4, 6)]


@pytest.mark.parametrize("players,seed", GAMES)
def test_random_game_invariants_after_every_decision(players, seed) -> None:
    game = Game(RULESET, [f"P{i + 1}" for i in range(players)], seed=seed)
    agents = [RandomAgent(i, f"{seed}:{i}") for i in range(players)]
    check_invariants(game)
    decisions = 0
    simultaneous = 0
    while not game.is_over():
        pending = game.pending()
        simultaneous += len(pending) > 1
        decision = pending[0]
        game.apply(decision.player, agents[decision.player].choose(game, decision))
        check_invariants(game)
        decisions += 1
    assert decisions > 20
    assert simultaneous > 0  # the sale packets were open at the same time
    state = game.state
    assert state.counters["sales_done"] == 3
    assert {p for p in state.zones["merchants_done"]} == MERCHANTS
    result = game.result()
    for name, parts in result.breakdown.items():
        assert sum(parts.values()) == result.scores[name], (name, parts)
    # at the end everything is visible
    final = view(game, 0)
    assert final["players"][1]["zones"]["hand"] == list(state.zones.get("hand#1", ()))


# --- log round trip ----------------------------------------------------------------
def run(args: list[str]):
    result = CliRunner().invoke(cli, args, catch_exceptions=False)
    return result.exit_code, result.output


@pytest.fixture(scope="module")
def logged(tmp_path_factory) -> tuple[Path, dict]:
    path = tmp_path_factory.mktemp("qn") / "game.jsonl"
    code, out = run(
        [
            "play",
            "queens-necklace",
            "--players",
            "3",
            "--seed",
            "11",
            "--agents",
            "greedy,random,random",
            "--log",
            str(path),
            "--json",
        ]
    )
    assert code == 0, out
    return path, json.loads(out)


def test_log_replays_to_the_same_scores(logged) -> None:
    path, played = logged
    code, out = run(["replay", str(path), "--json"])
    assert code == 0, out
    data = json.loads(out)
    assert data["verdict"] == "legal"
    assert data["result"]["scores"] == played["scores"]
    assert data["result"]["breakdown"] == played["breakdown"]
    kinds = {json.loads(line).get("chance") for line in path.read_text().splitlines()[1:]}
    assert {"choose start player", "shuffle deck", "shuffle fashion_gems"} <= kinds


@pytest.mark.parametrize("prefix,bad", [("buy slot", "buy slot9"), ("show ", "show ruby3-9")])
def test_a_mutated_decision_is_refused_at_its_line(logged, tmp_path, prefix, bad) -> None:
    path, _ = logged
    lines = path.read_text().splitlines()
    for index, line in enumerate(lines):
        event = json.loads(line)
        if event.get("choice", "").startswith(prefix):
            event["choice"] = bad
            lines[index] = json.dumps(event)
            break
    else:
        pytest.skip(f"no {prefix!r} decision in this game")
    mutated = tmp_path / "bad.jsonl"
    mutated.write_text("\n".join(lines) + "\n")
    code, out = run(["replay", str(mutated), "--json"])
    assert code == 1
    data = json.loads(out)
    assert data["verdict"] == "illegal"
    assert data["line"] == index + 1
    assert data["event"]["choice"] == bad
    assert bad not in data["options"] and data["options"]


def test_simultaneous_decisions_interleaved_replay_the_same(tmp_path) -> None:
    """Sale packets answered in a random order among the open decisions (not the
    first branch first) still make a log that replays to the same scores."""
    import random

    from interpreter.log import writer

    game = Game(RULESET, ["P1", "P2", "P3"], seed=21)
    agents = [RandomAgent(i, i) for i in range(3)]
    pick = random.Random(5)
    interleaved = 0
    while not game.is_over():
        pending = game.pending()
        decision = pending[pick.randrange(len(pending))]
        interleaved += decision is not pending[0]
        game.apply(decision.player, agents[decision.player].choose(game, decision))
    assert interleaved > 5
    path = tmp_path / "interleaved.jsonl"
    with path.open("w", encoding="utf-8") as stream:
        writer.write(game, stream, [])
    code, out = run(["replay", str(path), "--json"])
    assert code == 0, out
    assert json.loads(out)["result"]["scores"] == game.result().scores


def test_a_truncated_log_is_incomplete(logged, tmp_path) -> None:
    path, _ = logged
    lines = path.read_text().splitlines()
    short = tmp_path / "short.jsonl"
    short.write_text("\n".join(lines[: len(lines) // 2]) + "\n")
    code, _ = run(["replay", str(short)])
    assert code == 3
