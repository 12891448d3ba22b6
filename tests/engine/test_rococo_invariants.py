"""Random Rococo games checked after every decision: conservation and bounds."""

from __future__ import annotations

import pytest

from interpreter.agents import RandomAgent
from interpreter.engine.game import Game
from interpreter.ruleset import load_or_raise

RULESET = load_or_raise("rococo")
PIECES = set(RULESET.pieces)


def check_invariants(game: Game) -> None:
    state = game.state
    players = range(len(state.players))
    for seat in players:
        for counter in ("livres", "thread", "lace", "prestige"):
            assert state.counters[f"{counter}#{seat}"] >= 0, (counter, seat)
    # every component is in exactly one zone, and `where` agrees with the zones
    seen = {}
    for zone, items in state.zones.items():
        for piece in items:
            assert piece not in seen, f"{piece} in {zone} and {seen[piece]}"
            seen[piece] = zone
            assert state.where[piece] == zone
    assert set(seen) == PIECES
    # capacities hold
    for zone, items in state.zones.items():
        capacity = game.tables.zone_capacity.get(zone, 0)
        assert capacity == 0 or len(items) <= capacity, zone
    if state.engine["stage"] not in ("setup",):
        for seat in players:
            staff = sum(
                len(state.zones.get(f"{z}#{seat}", ())) for z in ("reserve", "hand", "discard")
            )
            assert staff >= 4, f"staff of seat {seat} is {staff}"
    # markers: one all-halls marker per player at most, and no more than the spaces
    all_halls = [state.owners.get(s) for s in game.tables.group_members["all_halls"]]
    owners = [o for o in all_halls if o is not None]
    assert len(owners) == len(set(owners))
    # claimed spaces exist on this side
    assert set(state.owners) <= set(game.tables.spaces)


@pytest.mark.parametrize("players,seed", [(p, s) for p in (2, 3, 4, 5) for s in (1, 2)])
def test_invariants_after_every_step(players: int, seed: int) -> None:
    game = Game(RULESET, [f"P{i}" for i in range(players)], seed=seed)
    agents = [RandomAgent(i, f"{seed}:{i}") for i in range(players)]
    steps = 0
    while not game.is_over():
        decision = game.pending()[0]
        game.apply(decision.player, agents[decision.player].choose(game, decision))
        check_invariants(game)
        steps += 1
    assert steps > 100
    result = game.result()
    for name, parts in result.breakdown.items():
        assert sum(parts.values()) == result.scores[name], (name, parts)
    assert game.state.counters["round"] == 7


def test_copy_mid_unit_continues_identically() -> None:
    game = Game(RULESET, ["A", "B", "C"], seed=5)
    agents = [RandomAgent(i, i) for i in range(3)]
    for _ in range(60):
        decision = game.pending()[0]
        game.apply(decision.player, agents[decision.player].choose(game, decision))
    twin = game.copy(same_chance=True)
    assert twin.state.to_json() == game.state.to_json()
    assert [d.options for d in twin.pending()] == [d.options for d in game.pending()]
    for _ in range(40):
        decision = game.pending()[0]
        choice = decision.options[-1]
        game.apply(decision.player, choice)
        twin.apply(decision.player, choice)
    assert twin.state.digest() == game.state.digest()


def test_illegal_choice_leaves_state_unharmed() -> None:
    game = Game(RULESET, ["A", "B"], seed=2)
    before = game.state.digest()
    decision = game.pending()[0]
    with pytest.raises(Exception) as info:
        game.apply(decision.player, "not an option")
    assert "not among" in str(info.value)
    assert game.state.digest() == before
    assert game.pending()[0].options == decision.options
