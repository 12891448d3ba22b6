"""What a player sees never depends on what they cannot know.

The property: take any position of a game and any seat; deal everything hidden from
that seat again at the start of the step under way and replay the step
(``seat.alternative``). Where the step replays to the same public position (the
same public zones, counters and counts: the rules made no hidden fact public in a
way the deal changed), the two games differ only in what that player cannot know,
so their whole view must be identical: who is deciding, their own options and
prompts, and which hidden pieces they know. Checked at every few decisions of
seeded random games of every shipped ruleset and of the Liar's Dice example, for every seat.
"""

from __future__ import annotations

import pytest
from rules_test_support import ROOT

from interpreter.agents import make
from interpreter.engine.game import Game
from interpreter.engine.seat import alternative
from interpreter.engine.view import view
from interpreter.ruleset import load_or_raise

LIARS_DICE = ROOT / "examples" / "games" / "liars-dice"

CASES = [
    ("queens-necklace", 3, 0),
    ("queens-necklace", 4, 1),
    ("queens-necklace", 2, 2),
    ("rococo", 2, 0),
    ("rococo", 4, 1),
    # hidden dice: a world rolls afresh the faces under the others' cups
    (str(LIARS_DICE), 4, 1),
    (str(LIARS_DICE), 6, 2),
]


def compare_views(ruleset: str, players: int, seed: int, every: int = 3) -> int:
    rules = load_or_raise(ruleset)
    game = Game(rules, [f"P{i + 1}" for i in range(players)], seed=seed)
    agents = {s: make("random", s, seed) for s in range(players)}
    compared = step = 0
    while not game.is_over() and game.state.engine["stage"] != "scoring":
        if step % every == 0:
            for seat in range(players):
                twin = alternative(game, seat, f"{seed}:{step}:{seat}")
                if twin is None:
                    continue
                seen, seen_in_twin = view(game, seat), view(twin, seat)
                if public_part(seen) != public_part(seen_in_twin):
                    continue  # the deal changed what the rules showed: not a twin
                assert seen_in_twin == seen, (ruleset, seed, step, seat)
                compared += 1
        decision = game.pending()[0]
        game.apply(decision.player, agents[decision.player].choose(game, decision))
        step += 1
    return compared


def public_part(shown: dict) -> dict:
    """A view without who is deciding and without the known hidden pieces."""

    def strip(value):
        if isinstance(value, dict):
            return {k: strip(v) for k, v in value.items() if k not in ("known", "pending")}
        return value

    return strip(shown)


@pytest.mark.parametrize(("ruleset", "players", "seed"), CASES)
def test_a_players_view_does_not_depend_on_what_they_cannot_know(ruleset, players, seed):
    compared = compare_views(ruleset, players, seed)
    assert compared >= 100  # the property was really put to the test


@pytest.mark.parametrize("players", [2, 4])
def test_no_hanabi_player_learns_their_own_hand(players):
    """Hands seen by everyone but their owner (`visibility: others`): a random game of
    Hanabi is short (three fuses burn fast), so several seeds, every decision."""
    compared = sum(compare_views("hanabi", players, seed, every=1) for seed in range(6))
    assert compared >= 100


@pytest.mark.parametrize(("players", "seed"), [(2, 0), (3, 1), (5, 2)])
def test_a_simultaneous_pick_shows_nothing_of_the_others_picks(players, seed):
    """Sushi Go's games are short: every decision is compared, each pick taken in secret
    while the others' hands and picks stay hidden until the reveal."""
    assert compare_views("sushi-go", players, seed, every=1) >= 40


@pytest.mark.parametrize("seed", [0, 1])
def test_no_hearts_player_learns_a_hand_from_the_passing_or_the_tricks(seed):
    """Hearts' hands are private, the three cards passed are chosen at once in secret,
    and who holds the 2 of clubs is announced: every few decisions of a whole game."""
    assert compare_views("hearts", 4, seed) >= 100


def test_reversi_hides_nothing():
    """Reversi has no hidden information: every twin is the game itself, and so is every
    view of it (the property holds trivially, and must go on holding)."""
    assert compare_views("reversi", 2, 0, every=1) >= 100
