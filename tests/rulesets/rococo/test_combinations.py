"""Rococo Deluxe with any subset of Fancy, Festive and Haute Couture: the same game
whatever order the expansions are named in, complete games, legal replays."""

from __future__ import annotations

import json
from itertools import combinations, permutations
from pathlib import Path

import pytest

from interpreter.agents import make
from interpreter.engine.game import Game
from interpreter.log import writer
from interpreter.log.replay import replay
from interpreter.ruleset import load, resolve_ruleset

EXTRAS = ("fancy", "festive", "haute_couture")
SUBSETS = [s for n in range(len(EXTRAS) + 1) for s in combinations(EXTRAS, n)]


def loaded(expansions: tuple[str, ...]):
    """Rococo with ``expansions`` named in this order, loaded afresh (not from the
    per-process cache, which already treats every order as one)."""
    result = load(resolve_ruleset("rococo"), list(expansions))
    assert result.ruleset is not None, result.diagnostics
    return result.ruleset


def play(expansions: tuple[str, ...], players: int, seed: int, ruleset=None) -> Game:
    ruleset = ruleset if ruleset is not None else loaded(expansions)
    game = Game(ruleset, [f"P{i}" for i in range(players)], seed)
    agents = {seat: make("random", seat, seed) for seat in range(len(game.state.players))}
    while not game.is_over():
        decision = game.pending()[0]
        game.apply(decision.player, agents[decision.player].choose(game, decision))
    return game


@pytest.mark.parametrize("subset", SUBSETS, ids=lambda s: "+".join(s) or "deluxe-only")
def test_the_same_seed_gives_the_same_game_in_any_order(subset: tuple[str, ...]) -> None:
    orders = [("deluxe", *order) for order in permutations(subset)]
    orders.append((*subset, "deluxe"))  # the required expansion named last
    rulesets = {order: loaded(order) for order in orders}
    assert len({r.digest for r in rulesets.values()}) == 1
    assert {r.expansions for r in rulesets.values()} == {("deluxe", *subset)}  # canonical
    first, last = orders[0], orders[-1]
    for players in (2, 3, 4, 5):
        seed = 100 + players
        games = [play(order, players, seed, rulesets[order]) for order in (first, last)]
        headers = [writer.header(g) for g in games]
        assert headers[0] == headers[1]
        assert headers[0]["options"]["expansions"] == ["deluxe", *subset]
        assert games[0].events == games[1].events
        assert games[0].result().scores == games[1].result().scores


@pytest.mark.parametrize("subset", SUBSETS, ids=lambda s: "+".join(s) or "deluxe-only")
def test_games_with_every_combination_end_and_replay_legally(
    subset: tuple[str, ...], tmp_path: Path
) -> None:
    expansions = ("deluxe", *subset)
    for players in (2 + SUBSETS.index(subset) % 4,):  # each count by some subset
        game = play(expansions, players, seed=7 * players)
        assert game.is_over()
        path = tmp_path / f"{players}.jsonl"
        with path.open("w", encoding="utf-8") as stream:
            writer.write(game, stream)
        verdict = replay(path, strict=True)
        assert verdict.kind == "legal", verdict.message
        assert verdict.game.result().scores == game.result().scores


def test_the_expansions_leave_the_2013_game_as_it_was() -> None:
    """Offering expansions changes nothing for a game without them."""
    game = play((), 3, seed=11)
    header = writer.header(game)
    assert header["options"]["expansions"] == []
    assert not any("festive" in json.dumps(e) for e in game.events)


@pytest.mark.parametrize("subset", SUBSETS, ids=lambda s: "+".join(s) or "jewelry-box-only")
def test_with_the_jewelry_box_in_any_order_and_legal(
    subset: tuple[str, ...], tmp_path: Path
) -> None:
    players = 2 + SUBSETS.index(subset) % 4  # each count by some subset
    orders = [("deluxe", "jewelry_box", *subset), (*reversed(subset), "jewelry_box", "deluxe")]
    games = [play(order, players, seed=3 * players) for order in orders]
    assert games[0].ruleset.expansions == ("deluxe", "jewelry_box", *subset)
    assert games[0].events == games[1].events
    path = tmp_path / "game.jsonl"
    with path.open("w", encoding="utf-8") as stream:
        writer.write(games[1], stream)
    verdict = replay(path, strict=True)
    assert verdict.kind == "legal", verdict.message


SOLO_SUBSETS = [(), ("jewelry_box",), ("festive", "haute_couture"), ("jewelry_box", *EXTRAS)]


@pytest.mark.parametrize("subset", SOLO_SUBSETS, ids=lambda s: "+".join(s) or "solo-only")
def test_solo_in_any_order_and_legal(subset: tuple[str, ...], tmp_path: Path) -> None:
    orders = [("deluxe", "solo", *subset), (*reversed(subset), "solo", "deluxe")]
    games = [play(order, 1, seed=17) for order in orders]
    assert games[0].state.players == ("Madame du Barry", "P0")
    assert games[0].events == games[1].events
    assert writer.header(games[0]) == writer.header(games[1])
    path = tmp_path / "solo.jsonl"
    with path.open("w", encoding="utf-8") as stream:
        writer.write(games[0], stream)
    verdict = replay(path, strict=True)
    assert verdict.kind == "legal", verdict.message
