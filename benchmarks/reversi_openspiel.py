"""Reversi against OpenSpiel's ``othello``: the same random games in both engines.

    .venv/bin/python benchmarks/reversi_openspiel.py [--games 200] [--first 0]

Game i is seeded with i: at every decision the legal moves of both engines are
compared (our ``place d3`` against OpenSpiel's ``d3``, the player to move too), one of
them is drawn with ``random.Random(i)`` and fed to both. OpenSpiel asks a player who
cannot place for an explicit ``pass``; our rules skip that player's turn, so a lone
``pass`` is fed to OpenSpiel only, and ours must then be asking the other player (or
be over). At the end the disc counts of both boards are compared. Any difference is
printed with the game, the move number and both sides, and the exit code is 1.

Needs ``pip install open_spiel`` in the venv (not a dependency of the package).
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import pyspiel

from interpreter.engine.game import Game
from interpreter.ruleset import load_or_raise

MAX_MOVES = 200  # a game of Reversi has at most 60 placements and the passes between


def discs(state: pyspiel.State) -> tuple[int, int]:
    """Black's and white's discs on OpenSpiel's board (``x`` black, ``o`` white)."""
    board = [line[2:17] for line in str(state).splitlines()[2:10]]
    text = "".join(board)
    return text.count("x"), text.count("o")


def one_game(ruleset, othello, seed: int, passes: list[int]) -> list[str]:
    """The differences found in game ``seed`` (none: the engines agree); each forced pass
    is counted in ``passes``."""
    rng = random.Random(seed)
    ours = Game(ruleset, ["black", "white"], seed=seed)
    theirs = othello.new_initial_state()
    for move in range(MAX_MOVES):
        if theirs.is_terminal():
            break
        seat = theirs.current_player()
        actions = theirs.legal_actions()
        texts = {theirs.action_to_string(seat, a): a for a in actions}
        if list(texts) == ["pass"]:
            theirs.apply_action(actions[0])
            passes[0] += 1
            if not ours.is_over() and ours.pending()[0].player == seat:
                return [f"game {seed} move {move}: OpenSpiel passes seat {seat}, ours asks it"]
            continue
        pending = ours.pending()
        if ours.is_over() or not pending:
            return [f"game {seed} move {move}: ours is over, OpenSpiel offers {sorted(texts)}"]
        if pending[0].player != seat:
            return [f"game {seed} move {move}: ours asks seat {pending[0].player}, not {seat}"]
        mine = sorted(t.removeprefix("place ") for t in pending[0].options)
        if mine != sorted(texts):
            return [f"game {seed} move {move}: ours {mine}, OpenSpiel {sorted(texts)}"]
        pick = rng.choice(mine)
        ours.apply(seat, f"place {pick}")
        theirs.apply_action(texts[pick])
    if not (theirs.is_terminal() and ours.is_over()):
        return [f"game {seed}: over in OpenSpiel {theirs.is_terminal()}, ours {ours.is_over()}"]
    scores = ours.result().scores
    if (scores["black"], scores["white"]) != discs(theirs):
        return [f"game {seed}: discs ours {scores}, OpenSpiel {discs(theirs)}"]
    return []


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--first", type=int, default=0)
    args = parser.parse_args()
    ruleset, othello = load_or_raise("reversi"), pyspiel.load_game("othello")
    problems: list[str] = []
    passes = [0]
    for seed in range(args.first, args.first + args.games):
        problems += one_game(ruleset, othello, seed, passes)
    for line in problems:
        print(line)
    print(f"{args.games} games ({passes[0]} forced passes), {len(problems)} with a difference")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
