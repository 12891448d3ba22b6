"""An agent decides from its seat alone: games it cannot tell apart get the same choice.

The property (issue 45): take a position and a player with a decision; deal again
everything hidden from them at the start of the step under way and replay the step
(``seat.alternative``, the twin of the secrecy tests). Where the twin looks the same
to that player, every world they sample must be the same in both games (the whole
position, everyone's open decisions with their options and prompts), and every agent
given the same seed must make the same choice. Checked at positions of seeded games of
both rulesets: every few decisions, and every decision inside a simultaneous step (a
sale's secret packets, a draft) or a reaction window (a player asked out of turn),
and in Hanabi at decisions where the player's own hidden cards carry public marks
(hints): the twin deals at each marked place a card the marks fit, so the twin shows
the same marks by place.

Before worlds were dealt at the start of the step, a world replayed the step from the
real start: the others' open decisions in a simultaneous step kept the options of
their real hands, and mcts's packet changed with them.
"""

from __future__ import annotations

from collections import Counter

import pytest
from rules_test_support import ROOT

from interpreter.agents import GreedyAgent, MctsAgent, RandomAgent, make
from interpreter.agents.screen import prices
from interpreter.engine.game import Decision, Game
from interpreter.engine.marks import marks_of
from interpreter.engine.seat import Seat, alternative
from interpreter.engine.view import full_view, view
from interpreter.ruleset import load_or_raise

# decisions asked of a player out of their turn, in reaction to another's move
REACTIONS = {"cardinal", "alchemist", "queen", "cancel", "discard"}

CASES = [  # (ruleset, players, seed, every few plain decisions, positions wanted by kind)
    ("queens-necklace", 2, 2, 4, {"simultaneous": 30, "reaction": 5, "plain": 20}),
    ("queens-necklace", 3, 2, 4, {"simultaneous": 40, "reaction": 5, "plain": 20}),
    ("queens-necklace", 4, 2, 4, {"simultaneous": 40, "reaction": 5, "plain": 20}),
    ("rococo", 2, 0, 6, {"simultaneous": 20, "plain": 20}),
    ("rococo", 4, 1, 8, {"simultaneous": 20, "plain": 20}),
    ("sushi-go", 3, 1, 1, {"simultaneous": 20}),  # every decision is a secret pick
    # hidden dice: the worlds roll afresh the faces under the others' cups
    (str(ROOT / "examples" / "games" / "liars-dice"), 3, 1, 2, {"plain": 20}),
    # hands held facing the others; "marked": hints on the decider's own cards
    ("hanabi", 2, 0, 1, {"marked": 20, "plain": 4}),
    ("hanabi", 5, 2, 1, {"marked": 14, "plain": 10}),
]

ITERATIONS = 30  # enough for the search to reach the others' options in a sale


def agents(seat: int) -> list:
    return [RandomAgent(seat, 5), GreedyAgent(seat, 5), MctsAgent(seat, 5, ITERATIONS)]


def kind_of(game: Game, decision: Decision) -> str:
    if game.has_secret_decisions():
        return "simultaneous"
    if decision.prompt.split(" ")[0] in REACTIONS:
        return "reaction"
    if any(
        not game.tables.sees(game.state.where[p], decision.player) for p in marks_of(game.state)
    ):
        return "marked"  # public marks on pieces this player cannot see (Hanabi's hints)
    return "plain"


def twin_of(game: Game, decision: Decision, salt: str) -> tuple[Game, Decision] | None:
    """A game that looks the same to the decision's player, and their decision in it."""
    seat = decision.player
    twin = alternative(game, seat, salt)
    if twin is None:
        return None
    seen, seen_in_twin = view(game, seat), view(twin, seat)
    if seen != seen_in_twin:
        return None  # the deal changed what the rules showed: not a twin
    twin_decision = next(d for d in twin.pending() if d.player == seat)
    assert twin_decision == decision
    if twin.state.zones == game.state.zones:
        return None  # nothing hidden from them moved: nothing to compare
    return twin, twin_decision


def compare(ruleset: str, players: int, seed: int, every: int, wanted: dict) -> Counter:
    game = Game(load_or_raise(ruleset), [f"P{i + 1}" for i in range(players)], seed=seed)
    players_agents = {s: make("random", s, seed) for s in range(players)}
    compared: Counter = Counter()
    step = 0
    while not game.is_over() and game.state.engine["stage"] != "scoring":
        pending = game.pending()
        for decision in pending:
            kind = kind_of(game, decision)
            if len(decision.options) < 2 or compared[kind] >= wanted.get(kind, 0):
                continue  # a single option is answered at once, without a look
            if kind in ("plain", "marked") and step % every:
                continue
            twins = twin_of(game, decision, f"{seed}:{step}:{decision.player}")
            if twins is None:
                continue
            twin, twin_decision = twins
            where = (ruleset, players, seed, step, decision.player, kind)
            for k in range(2):
                worlds = [Seat(g, d).sample(k) for g, d in ((game, decision), twins)]
                assert full_view(worlds[0]) == full_view(worlds[1]), where
            # the prices the human table shows come from the seat too
            assert prices(Seat(game, decision), 7) == prices(Seat(*twins), 7), where
            for agent, twin_agent in zip(
                agents(decision.player), agents(decision.player), strict=True
            ):
                choice = agent.choose(game, decision)
                assert twin_agent.choose(twin, twin_decision) == choice, (
                    type(agent).__name__,
                    *where,
                )
            compared[kind] += 1
        decision = pending[0]
        game.apply(decision.player, players_agents[decision.player].choose(game, decision))
        step += 1
    return compared


@pytest.mark.parametrize(("ruleset", "players", "seed", "every", "wanted"), CASES)
def test_agents_choose_alike_in_games_their_player_cannot_tell_apart(
    ruleset, players, seed, every, wanted
) -> None:
    compared = compare(ruleset, players, seed, every, wanted)
    assert compared == Counter(wanted)  # the property was really put to the test


def test_a_world_in_a_sale_gives_the_others_options_of_their_dealt_hands() -> None:
    """In a simultaneous step the others' open decisions in a world are the world's."""
    game = Game(load_or_raise("queens-necklace"), ["A", "B", "C"], seed=0)
    rng = RandomAgent(0, 0)
    while not game.has_secret_decisions():
        decision = game.pending()[0]
        game.apply(decision.player, rng.choose(game, decision))
    seat = Seat(game, game.pending()[0])
    for k in range(5):
        world = seat.sample(k)
        for other in world.pending():
            hand = world.state.zones[f"hand#{other.player}"]
            shown = {o.split(" ")[-1] for o in other.options if o.startswith("show ")}
            assert shown <= set(hand), (k, other)
