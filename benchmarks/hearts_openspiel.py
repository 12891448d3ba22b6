"""Differential test of Hearts (rulesets/hearts) against OpenSpiel's `hearts`.

OpenSpiel plays one hand; a game here plays hands until someone reaches 100. Each
hand of each seeded game is played in both engines from the same deal (OpenSpiel is
dealt the cards this engine dealt, in its own dealing order, and told the hand's pass
direction), the same moves are fed to both (picked at random from this engine's
options, seeded), and at every decision the two sets of legal moves are compared;
at the end of every hand, each player's points for the hand. OpenSpiel's options are
set to the rules in docs/rules/hearts.md: passing on, no points on the first trick,
only the 2 of clubs leads, hearts must be broken and only a heart breaks them (its
`qs_breaks_hearts` is true by default: a documented variant), no bonuses.

    .venv/bin/python benchmarks/hearts_openspiel.py --games 200
    (pip install open_spiel first; it is not a dependency of the project)

Prints one line per difference and a summary; exits 1 if any difference was found.
"""

from __future__ import annotations

import argparse
import random
import sys

import pyspiel

from interpreter.engine.game import Game
from interpreter.ruleset import load_or_raise

SUITS = {"clubs": 0, "diamonds": 1, "hearts": 2, "spades": 3}  # OpenSpiel's order
OPTIONS = {
    "pass_cards": True,
    "no_pts_on_first_trick": True,
    "can_lead_any_club": False,
    "jd_bonus": False,
    "avoid_all_tricks_bonus": False,
    "must_break_hearts": True,
    "qs_breaks_hearts": False,
    "can_lead_hearts_instead_of_qs": False,
}
MAX_DECISIONS = 20_000  # a game of Hearts has a few hundred


def card_action(ruleset, piece: str) -> int:
    """OpenSpiel's action for a card: rank (2 = 0) times 4 plus the suit."""
    props = ruleset.pieces[piece].properties
    return (props["rank"] - 2) * 4 + SUITS[props["suit"]]


def option_action(ruleset, option: str) -> int:
    """OpenSpiel's action for an option: `play clubs_2` names the card, `pass QS` its
    face (rank then suit, as OpenSpiel writes it)."""
    verb, what = option.split(" ", 1)
    if verb == "pass":
        return "23456789TJQKA".index(what[0]) * 4 + "CDHS".index(what[1])
    return card_action(ruleset, what)


def new_hand(spiel_game, game: Game) -> pyspiel.State:
    """An OpenSpiel hand dealt as this engine's hand is, with its pass direction."""
    ruleset, state = game.ruleset, game.state
    hand_no = state.counters["hand_no"]
    offsets = ruleset.constants["pass_offsets"]
    spiel = spiel_game.new_initial_state()
    spiel.apply_action(offsets[(hand_no - 1) % 4])  # OpenSpiel: seat + direction receives
    hands = [sorted(state.contents(f"hand#{s}")) for s in range(4)]
    for k in range(52):  # OpenSpiel deals card k to seat k % 4
        spiel.apply_action(card_action(ruleset, hands[k % 4][k // 4]))
    return spiel


def play(seed: int, spiel_game, ruleset) -> tuple[list[str], int]:
    """One seeded game in both engines: its differences and the hands compared."""
    game = Game(ruleset, ["N", "E", "S", "W"], seed=seed)
    luck = random.Random(seed)
    differences: list[str] = []
    spiel = None
    hand_no = 0
    points_before: list[int] = []
    hands = 0
    for _ in range(MAX_DECISIONS):
        counters = game.state.counters
        if spiel is not None and (game.is_over() or counters["hand_no"] != hand_no):
            hands += 1
            differences += compare_points(seed, hand_no, spiel, game, points_before)
            spiel = None
        if game.is_over():
            return differences, hands
        if spiel is None:
            hand_no = counters["hand_no"]
            points_before = [counters[f"points#{s}"] for s in range(4)]
            spiel = new_hand(spiel_game, game)
        seat = spiel.current_player()
        decision = next((d for d in game.pending() if d.player == seat), None)
        if decision is None:
            differences.append(
                f"seed {seed} hand {hand_no}: OpenSpiel asks seat {seat}, "
                f"this engine asks {[d.player for d in game.pending()]}"
            )
            return differences, hands
        ours = {option_action(ruleset, o): o for o in decision.options}
        theirs = set(spiel.legal_actions())
        if set(ours) != theirs:
            differences.append(
                f"seed {seed} hand {hand_no} ({decision.prompt}, seat {seat}): only here "
                f"{sorted(spiel.action_to_string(a) for a in set(ours) - theirs)}, only in "
                f"OpenSpiel {sorted(spiel.action_to_string(a) for a in theirs - set(ours))}"
            )
            return differences, hands
        action = sorted(ours)[int(luck.random() * len(ours))]
        game.apply(seat, ours[action])
        spiel.apply_action(action)
    differences.append(f"seed {seed}: not over after {MAX_DECISIONS} decisions")
    return differences, hands


def compare_points(seed, hand_no, spiel, game: Game, before: list[int]) -> list[str]:
    if not spiel.is_terminal():
        return [f"seed {seed} hand {hand_no}: the hand is over here, not in OpenSpiel"]
    ours = [game.state.counters[f"points#{s}"] - before[s] for s in range(4)]
    theirs = [round(26 - r) for r in spiel.returns()]
    if ours != theirs:
        return [f"seed {seed} hand {hand_no}: points {ours} here, {theirs} in OpenSpiel"]
    return []


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--first-seed", type=int, default=0)
    args = parser.parse_args(argv)
    ruleset = load_or_raise("hearts")
    spiel_game = pyspiel.load_game("hearts", OPTIONS)
    differences: list[str] = []
    hands = 0
    for seed in range(args.first_seed, args.first_seed + args.games):
        found, played = play(seed, spiel_game, ruleset)
        differences += found
        hands += played
    for line in differences:
        print(line)
    print(f"{args.games} games, {hands} hands compared: {len(differences)} difference(s)")
    return 1 if differences else 0


if __name__ == "__main__":
    sys.exit(main())
