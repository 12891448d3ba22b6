"""What each player knows, worked out only when first asked (``engine/knowledge.py``).

A game follows nothing until a view, a world, a copy or a digest asks; then its record
is played again with knowledge followed. The property: at any moment, what the late
game works out is what a game that followed knowledge from its first move knows, in
its position and at its step's start, and it keeps following from then on.
"""

from __future__ import annotations

import pytest

from interpreter.agents import make
from interpreter.engine.game import Game
from interpreter.engine.state import UNFOLLOWED, PendingKnowledge, knowledge
from interpreter.engine.view import view
from interpreter.ruleset import load_or_raise

CASES = [
    ("queens-necklace", 4, 0),
    ("queens-necklace", 3, 5),
    ("queens-necklace", 2, 7),
    ("rococo", 3, 1),
]


def following_from_the_start(rules, players: int, seed: int) -> Game:
    game = Game(rules, [f"P{i + 1}" for i in range(players)], seed=seed, start=False)
    game.follow_knowledge()  # not started: nothing to work out, followed from the setup
    assert knowledge(game.state) == {}
    game.start()
    return game


def random_moves(rules, players: int, seed: int) -> list[tuple[int, str]]:
    """The decisions of one seeded random game, to the end."""
    game = Game(rules, [f"P{i + 1}" for i in range(players)], seed=seed)
    agents = {s: make("random", s, seed) for s in range(players)}
    moves = []
    while not game.is_over():
        decision = game.pending()[0]
        moves.append((decision.player, agents[decision.player].choose(game, decision)))
        game.apply(*moves[-1])
    return moves


@pytest.mark.parametrize(("ruleset", "players", "seed"), CASES)
def test_knowledge_worked_out_late_is_what_following_it_all_along_gives(ruleset, players, seed):
    rules = load_or_raise(ruleset)
    moves = random_moves(rules, players, seed)
    asked_at = range(0, len(moves), max(1, len(moves) // 6))
    known_somewhere = False
    for moment in asked_at:
        eager = following_from_the_start(rules, players, seed)
        late = Game(rules, [f"P{i + 1}" for i in range(players)], seed=seed)
        for move in moves[:moment]:
            eager.apply(*move)
            late.apply(*move)
        assert type(late.state.engine["known"]) is PendingKnowledge
        assert late.state.digest() == eager.state.digest(), (ruleset, seed, moment)
        assert knowledge(late._snapshot) == knowledge(eager._snapshot)
        known_somewhere |= bool(knowledge(eager.state))
        # from then on the late game follows knowledge move by move
        for move in moves[moment : moment + 40]:
            eager.apply(*move)
            late.apply(*move)
            assert type(late.state.engine["known"]) is dict
        for seat in range(players):
            assert view(late, seat) == view(eager, seat), (ruleset, seed, moment, seat)
        assert late.state.digest() == eager.state.digest()
    assert known_somewhere, "no position had a known hidden component: the test shows nothing"


def test_a_game_nobody_asks_never_follows_knowledge() -> None:
    rules = load_or_raise("queens-necklace")
    game = Game(rules, ["P1", "P2", "P3"], seed=3)
    agents = {s: make("random", s, 3) for s in range(3)}
    while not game.is_over():
        decision = game.pending()[0]
        game.apply(decision.player, agents[decision.player].choose(game, decision))
        assert type(game.state.engine["known"]) is PendingKnowledge
    eager = following_from_the_start(rules, 3, 3)
    for player, text in [(e["player"], e["choice"]) for e in game.events if "choice" in e]:
        eager.apply(player, text)
    assert game.state.digest() == eager.state.digest()  # asked at last: worked out


def test_a_copy_works_knowledge_out_first() -> None:
    """A copy has no record to work it out from: the game it is taken from does it."""
    game = Game(load_or_raise("queens-necklace"), ["P1", "P2"], seed=1)
    game.apply(game.pending()[0].player, game.pending()[0].options[0])
    copy = game.copy()
    assert type(game.state.engine["known"]) is dict
    assert knowledge(copy.state) == knowledge(game.state)


def test_a_state_copied_before_anyone_asked_cannot_be_digested_later() -> None:
    game = Game(load_or_raise("queens-necklace"), ["P1", "P2"], seed=1)
    before = game.state.copy()
    game.apply(game.pending()[0].player, game.pending()[0].options[0])
    with pytest.raises(RuntimeError, match="follow_knowledge"):
        before.digest()
    assert game.state.digest().startswith("sha256:")


def test_a_position_arranged_by_hand_is_known_to_nobody() -> None:
    """Edited state is not what the record gives: nobody is taken to know a hidden
    component (less than a table might show, never more), and knowledge is followed
    from there on."""
    rules = load_or_raise("queens-necklace")
    moves = random_moves(rules, 2, 7)[:40]
    eager = following_from_the_start(rules, 2, 7)
    game = Game(rules, ["P1", "P2"], seed=7)
    for move in moves:
        eager.apply(*move)
        game.apply(*move)
    assert knowledge(eager.state)  # what the record would have given
    zone, items = next((z, items) for z, items in game.state.zones.items() if len(items) > 1)
    game.state.put(items[-1], zone, 0)  # its last component to the front, by hand
    game.follow_knowledge()
    assert knowledge(game.state) == {}
    assert knowledge(game._snapshot) == {}


def test_a_replay_without_views_still_refuses_to_show_knowledge() -> None:
    game = Game(load_or_raise("queens-necklace"), ["P1", "P2"], seed=1, start=False)
    game.state.engine["known"] = UNFOLLOWED
    game.start()
    game.follow_knowledge()  # nothing to do: this game never follows it
    with pytest.raises(RuntimeError, match="replay it with views"):
        knowledge(game.state)
