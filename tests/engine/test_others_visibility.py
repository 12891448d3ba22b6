"""Hands seen by everyone but their owner (`visibility: others`, Hanabi's hands).

The fixture ``blind/`` deals two cards to each player into such a hand; a turn plays
a card by its place in the hand (the owner cannot name it) and draws another. Each
reader of a visibility must honour it: the views, who follows a hidden piece, the
worlds dealt for a seat (the secrecy property), the logs' readings and the build.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from interpreter.agents import make
from interpreter.engine.game import Game
from interpreter.engine.seat import alternative
from interpreter.engine.state import knowledge
from interpreter.engine.view import view
from interpreter.ruleset import load, load_or_raise
from interpreter.ruleset.visibility import seen_by

BLIND = Path(__file__).parent / "blind"


def started(players: int = 2, seed: int = 0) -> Game:
    return Game(load_or_raise(str(BLIND)), [f"P{i + 1}" for i in range(players)], seed=seed)


@pytest.mark.parametrize(
    ("visibility", "owner", "seat", "seen"),
    [
        ("others", 0, 1, True),
        ("others", 0, 0, False),
        ("others", 0, None, False),  # a spectator during play sees no hand
        ("private", 0, 0, True),
        ("private", 0, 1, False),
        ("public", None, None, True),
        ("secret", 0, 0, False),
    ],
)
def test_seen_by_reads_each_visibility(visibility, owner, seat, seen):
    assert seen_by(visibility, owner, seat) is seen


def test_a_player_sees_the_others_hands_and_only_the_size_of_their_own():
    game = started(3)
    hands = [game.state.zones["hand#0"], game.state.zones["hand#1"], game.state.zones["hand#2"]]
    shown = view(game, 0)["players"]
    assert shown[0]["zones"]["hand"] == {"count": 2}
    assert shown[1]["zones"]["hand"] == list(hands[1])
    assert shown[2]["zones"]["hand"] == list(hands[2])
    assert view(game, 1)["players"][0]["zones"]["hand"] == list(hands[0])
    assert view(game, None)["players"][0]["zones"]["hand"] == {"count": 2}


def test_a_card_drawn_into_a_hand_is_known_to_the_others_not_to_its_owner():
    game = started(2)
    game.apply(0, game.pending()[0].options[0])  # P1 plays a card and draws one
    drawn = game.state.zones["hand#0"][-1]
    assert drawn not in view(game, 0)["players"][0]["zones"]["hand"].get("known", [])
    assert drawn in view(game, 1)["players"][0]["zones"]["hand"]
    # what P2 knows of it is what they see, not a fact kept about a hidden piece
    assert 1 not in knowledge(game.state).get(drawn, ())


def test_the_options_of_a_hand_played_by_place_tell_its_owner_nothing():
    game = started(2)
    assert game.pending()[0].options == ("slot 0", "slot 1")


def test_the_secrecy_property_holds_when_cards_are_played_by_place():
    compared = 0
    for seed in range(3):
        compared += compare_twins(load_or_raise(str(BLIND)), seed)
    assert compared > 10


def test_the_secrecy_property_catches_a_hand_offered_by_card(tmp_path):
    folder = tmp_path / "blind"
    shutil.copytree(BLIND, folder)
    rules = folder / "blind.yaml"
    rules.write_text(
        rules.read_text()
        .replace(
            'choose n in range(0, my.hand.size - 1) as "slot" {', 'choose c in my.hand as "play" {'
        )
        .replace("let c = my.hand.pieces[n]\n", "")
    )
    with pytest.raises(AssertionError, match="own options"):
        compare_twins(load_or_raise(str(folder)), 0)


def compare_twins(rules, seed: int) -> int:
    """The view of every seat in a world dealt again for it equals its real view."""
    game = Game(rules, ["P1", "P2"], seed=seed)
    agents = {s: make("random", s, seed) for s in range(2)}
    compared = step = 0
    while not game.is_over() and game.state.engine["stage"] != "scoring":
        for seat in range(2):
            twin = alternative(game, seat, f"{seed}:{step}:{seat}")
            if twin is None:
                continue
            seen, seen_in_twin = view(game, seat), view(twin, seat)
            if strip(seen) == strip(seen_in_twin):
                assert seen_in_twin == seen, "own options or known pieces differ"
                compared += 1
        decision = game.pending()[0]
        game.apply(decision.player, agents[decision.player].choose(game, decision))
        step += 1
    return compared


def strip(shown: dict) -> dict:
    return {k: v for k, v in shown.items() if k != "pending"}


def test_a_game_zone_seen_by_everyone_but_its_owner_is_refused(tmp_path):
    folder = tmp_path / "blind"
    shutil.copytree(BLIND, folder)
    rules = folder / "blind.yaml"
    rules.write_text(
        rules.read_text().replace(
            "  table: {per: player, visibility: public}",
            "  table: {per: player, visibility: public}\n  pile: {per: game, visibility: others}",
        )
    )
    [problem] = load(folder).diagnostics
    assert "'others'" in problem.message and "per: player" in (problem.hint or "")
    assert (
        problem.location.line
        == rules.read_text().splitlines().index("  pile: {per: game, visibility: others}") + 1
    )


def test_a_decision_asked_because_of_a_hand_its_owner_cannot_see_is_refused(tmp_path):
    folder = tmp_path / "blind"
    shutil.copytree(BLIND, folder)
    rules = folder / "blind.yaml"
    rules.write_text(
        rules.read_text()
        .replace(
            'choose n in range(0, my.hand.size - 1) as "slot" {',
            "if count(c in my.hand where c.points == 4) > 0 {\n"
            '        choose n in range(0, my.hand.size - 1) as "slot" {',
        )
        .replace("scoring:", "        }\nscoring:")
    )
    [leak] = [d for d in load(folder).diagnostics if d.kind == "secrecy"]
    assert "hand" in leak.message
    assert (
        leak.location.line
        == rules.read_text()
        .splitlines()
        .index("        if count(c in my.hand where c.points == 4) > 0 {")
        + 1
    )
