"""Worlds sampled from a seat: the same seed, the same world; a world keeps what its
player sees, deals the rest, and stays itself when copied or when a move in it fails.

Whether two games a player cannot tell apart give the same worlds and the same
choices: ``tests/agents/test_fairness.py``.
"""

from __future__ import annotations

import pytest

from interpreter.agents import RandomAgent
from interpreter.engine import seat as seat_module
from interpreter.engine.game import Game, IllegalMove
from interpreter.engine.seat import Seat
from interpreter.engine.view import full_view, view
from interpreter.ruleset import load_or_raise


def position(ruleset: str, players: int, seed: int, sale: bool) -> Game:
    """A seeded random game at its first simultaneous step (``sale``) or its 40th move."""
    game = Game(load_or_raise(ruleset), [f"P{i + 1}" for i in range(players)], seed=seed)
    agent = RandomAgent(0, seed)
    moves = 0
    while not (game.has_secret_decisions() if sale else moves == 40):
        decision = game.pending()[0]
        game.apply(decision.player, agent.choose(game, decision))
        moves += 1
    return game


@pytest.mark.parametrize(
    ("ruleset", "players", "sale"),
    [("queens-necklace", 3, True), ("queens-necklace", 4, False), ("rococo", 4, False)],
)
def test_a_world_deals_what_its_player_cannot_know_and_stays_itself(ruleset, players, sale) -> None:
    game = position(ruleset, players, 3, sale)
    decision = game.pending()[-1]
    seat = Seat(game, decision)
    world = seat.sample(1)
    assert full_view(world) == full_view(Seat(game, decision).sample(1))  # same seed
    assert full_view(world) != full_view(seat.sample(2))
    assert full_view(world) != full_view(game)  # something hidden was dealt again
    assert view(world, decision.player) == view(game, decision.player)
    # a copy, and a move the rules refuse, replay the step from the world's own start
    assert full_view(world.copy(same_chance=True)) == full_view(world)
    with pytest.raises(IllegalMove):
        world.apply(decision.player, "no such option")
    assert full_view(world) == full_view(seat.sample(1))


def test_a_world_whose_step_replays_with_no_deal_is_dealt_in_place(monkeypatch) -> None:
    """The last resort (never reached in the shipped games): the position copied, its
    hidden pieces dealt again where they are now."""
    monkeypatch.setattr(seat_module, "MAX_DEALS", 0)
    game = position("queens-necklace", 3, 3, True)
    decision = game.pending()[0]
    world = Seat(game, decision).sample(1)
    assert view(world, decision.player) == view(game, decision.player)
    assert world.state.zones["deck"] != game.state.zones["deck"]
    assert decision.options == next(d for d in world.pending() if d.player == decision.player)[2]
