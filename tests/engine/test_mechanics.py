"""Engine mechanisms on a toy ruleset, apart from any real game."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.engine.game import Game, IllegalMove
from interpreter.engine.view import view
from interpreter.ruleset import load_or_raise

TOY = load_or_raise(Path(__file__).parent / "toy")


def new_game(seed: int = 1) -> Game:
    return Game(TOY, ["Ann", "Bob"], seed=seed)


def test_setup_draws_from_bag_and_records_chance() -> None:
    game = new_game()
    chance = [e for e in game.events if "chance" in e]
    assert [e["chance"] for e in chance] == ["draw bag", "draw bag"]
    assert chance[0]["outcome"] == list(game.state.zones["hand#0"])
    assert len(game.state.zones["bag"]) == 2


def test_simultaneous_phase_offers_both_players_at_once() -> None:
    game = new_game()
    pending = game.pending()
    assert {d.player_name for d in pending} == {"Ann", "Bob"}
    bob = game.legal("Bob")
    game.apply("Bob", bob[0])  # either player may answer first
    assert [d.player_name for d in game.pending()] == ["Ann"]


def test_views_hide_private_and_secret_zones() -> None:
    game = new_game()
    ann = view(game, 0)
    assert ann["players"][0]["zones"]["hand"] == list(game.state.zones["hand#0"])
    assert ann["players"][1]["zones"]["hand"] == {"count": 2}
    assert ann["zones"]["bag"] == {"count": 2}
    assert "score" in ann["players"][0]["counters"]
    assert "score" not in ann["players"][1]["counters"]
    assert "options" not in ann["pending"][1]  # nothing of Bob's options


def play_out(game: Game) -> None:
    while not game.is_over():
        decision = game.pending()[0]
        game.apply(decision.player, decision.options[0])


def test_event_trigger_and_when_trigger_fire() -> None:
    game = new_game()
    game.state.counters["coins#1"] = 9  # Bob is rich: fires once
    play_out(game)
    result = game.result()
    table_points = {
        name: sum(TOY.pieces[c].properties["points"] for c in game.state.zones[f"table#{seat}"])
        for seat, name in enumerate(game.state.players)
    }
    # played cards scored by the `played` trigger (1 card each round), then again at the end
    assert result.breakdown["Bob"]["play"] >= 100
    assert result.breakdown["Bob"]["play"] < 200  # once per player
    assert result.breakdown["Ann"]["tables"] == table_points["Ann"]
    assert sum(result.breakdown["Ann"].values()) == result.scores["Ann"]


def test_may_choose_offers_pass_and_claims() -> None:
    game = new_game()
    game.apply("Ann", game.legal("Ann")[0])
    game.apply("Bob", game.legal("Bob")[0])
    game.apply("Ann", game.legal("Ann")[0])  # play
    assert game.legal("Ann") == ("claim slot1", "claim slot2", "pass")
    game.apply("Ann", "claim slot2")
    assert game.state.owners["slot2"] == 0


def test_requires_and_can() -> None:
    game = new_game()
    game.state.counters["coins#0"] = 0
    assert game.evaluate("can buy(price: 1)", "Ann") is False
    assert game.evaluate("can buy(price: 0)", "Ann") is True
    with pytest.raises(IllegalMove, match="not enough coins"):
        game.run_action("buy", "Ann", price=1)


def test_stop_ends_the_effect() -> None:
    game = new_game()
    game.run_action("halt", "Ann")
    assert game.state.counters["coins#0"] == 3


def test_step_budget_stops_an_endless_effect() -> None:
    game = new_game()
    with pytest.raises(Exception, match="step budget"):
        game.run_action("spin", "Ann")


def test_rounds_and_result_ranking_with_tiebreak() -> None:
    game = new_game(seed=3)
    play_out(game)
    assert game.state.counters["round"] == 2
    result = game.result()
    flat = [name for group in result.ranking for name in group]
    assert sorted(flat) == ["Ann", "Bob"]
    best = flat[0]
    assert result.scores[best] == max(result.scores.values())


def sandbox(seed: int = 1) -> Game:
    game = new_game(seed)
    return game


def test_simultaneous_for_opens_every_branch_and_hides_others_choices() -> None:
    game = sandbox()
    game.run_action("secret_pick", "Ann")
    assert {d.player_name for d in game.pending()} == {"Ann", "Bob"}
    bob_card = game.legal("Bob")[0]
    game.apply("Bob", bob_card)
    assert [d.player_name for d in game.pending()] == ["Ann"]
    # Bob's hidden card is in his vault; Ann's view does not show even its count yet
    ann = view(game, 0)
    assert ann["players"][1]["zones"]["vault"] == {"count": 0}
    assert ann["players"][1]["zones"]["hand"] == {"count": 2}
    bob = view(game, 1)
    assert bob["players"][1]["zones"]["hand"] == [c for c in game.state.zones["hand#1"]]
    game.apply("Ann", game.legal("Ann")[0])
    assert game.paused
    assert game.state.counters["coins#0"] == 3 and game.state.counters["coins#1"] == 3
    assert view(game, 0)["players"][1]["zones"]["vault"] == {"count": 1}


def test_simultaneous_branches_survive_copy_and_failed_moves() -> None:
    game = sandbox()
    game.run_action("secret_pick", "Ann")
    game.apply("Ann", game.legal("Ann")[1])
    twin = game.copy(same_chance=True)
    assert [d.options for d in twin.pending()] == [d.options for d in game.pending()]
    with pytest.raises(IllegalMove):
        game.apply("Bob", "hide nothing")
    assert [d.player_name for d in game.pending()] == ["Bob"]
    game.apply("Bob", game.legal("Bob")[0])
    twin.apply("Bob", twin.legal("Bob")[0])
    assert twin.state.digest() == game.state.digest()


def test_choose_by_chance_is_a_recorded_chance_outcome() -> None:
    game = sandbox(seed=4)
    game.events.clear()
    game.run_action("lottery", "Ann")
    (event,) = game.events
    assert event["chance"] == "choose winner"
    assert event["outcome"][0].startswith("winner ")
    winner = event["outcome"][0].removeprefix("winner ")
    seat = game.state.players.index(winner)
    assert game.state.counters[f"score#{seat}"] == 10


def test_typed_let_holds_a_player_later() -> None:
    game = sandbox()
    game.state.counters["coins#1"] = 4
    game.run_action("typed", "Ann")
    assert game.state.counters["score#1"] == 1
