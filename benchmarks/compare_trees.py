"""Random-agent games/s of two or more versions of the interpreter, in turn on one
machine: the CPU-time ratio of a later version to the first, robust to a busy machine.

On a shared virtual machine the CPU time of the same games moves by a third from one
run to the next; a ratio is only worth something when both sides are measured close
together. Each round runs every tree once, in a fresh process of its own (its
interpreter on ``PYTHONPATH``: a ``git worktree`` of the version), which loads the
rules, plays a warm-up of ``WARM_UP`` games (the effect blocks compile on their first
run), then ``--games`` seeded games (seeds 0 … N-1, random agents) and reports their
CPU time. The result is, per tree, the median games/s over the rounds and the median
of each round's ratio to the first tree, with its range.

    .venv/bin/python benchmarks/compare_trees.py --tree /tmp/before --tree . \\
        [--ruleset queens-necklace] [--players 4] [--games 30] [--rounds 8] [--chess 300]

``--chess N`` adds, to every round, a fresh process playing N python-chess random
playouts (a random legal move until the game is over or 200 plies, after 30 of
warm-up): the yardstick the issue's targets were set against (30 k decisions/s on the
machine of issue 13). Each tree's games/s is then also given *at that yardstick*:
its games/s × 30 000 ÷ the round's chess decisions/s, the median over the rounds, a
figure to hold against the issue's absolute targets on any machine.

Every tree must offer the interpreter's playing API (``Game``, ``RandomAgent``,
``load``, ``resolve_ruleset``), as every version since the first release does.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
from pathlib import Path

HERE = str(Path(__file__).resolve().parent)
WARM_UP = 10  # games before the measured ones (seeds 1000 …), not counted
CHESS_AT_ISSUE = 30_000  # python-chess random-playout decisions/s on issue 13's machine
CHESS = """
import random, sys, time
import chess

def playouts(rng, games):
    decisions = 0
    for _ in range(games):
        board = chess.Board()
        while not board.is_game_over() and board.ply() < 200:
            board.push(rng.choice(list(board.legal_moves)))
            decisions += 1
    return decisions

rng = random.Random(13)
playouts(rng, 30)
start = time.process_time()
decisions = playouts(rng, int(sys.argv[1]))
print(decisions / (time.process_time() - start))
"""
PLAY = """
import sys, time
sys.path.insert(0, sys.argv[5])  # this checkout's benchmarks: ``bench_games.play``
from bench_games import play
from interpreter.load.ruleset_files import resolve_ruleset
from interpreter.ruleset import load

name, players, games, warm_up = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
ruleset = load(resolve_ruleset(name)).ruleset
for seed in range(1000, 1000 + warm_up):
    play(ruleset, players, seed)
start = time.process_time()
decisions = sum(play(ruleset, players, seed) for seed in range(games))
used = time.process_time() - start
print(games / used, decisions / used)
"""


def games_per_second(tree: Path, ruleset: str, players: int, games: int) -> tuple[float, float]:
    """(games/s, decisions/s) in CPU time of one fresh process running ``tree``."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    done = subprocess.run(
        [sys.executable, "-c", PLAY, ruleset, str(players), str(games), str(WARM_UP), HERE],
        env=env,
        capture_output=True,
        text=True,
        cwd=tree,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"{tree}: the games failed:\n{done.stderr[-2000:]}")
    rate, decisions = done.stdout.split()
    return float(rate), float(decisions)


def chess_rate(games: int) -> float:
    """python-chess random-playout decisions/s in CPU time of one fresh process."""
    done = subprocess.run(
        [sys.executable, "-c", CHESS, str(games)], capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        raise SystemExit(f"python-chess playouts failed:\n{done.stderr[-2000:]}")
    return float(done.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tree", type=Path, action="append", required=True)
    parser.add_argument("--ruleset", default="queens-necklace")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--chess", type=int, default=0, help="python-chess playouts a round")
    args = parser.parse_args()
    trees = [tree.resolve() for tree in args.tree]
    rounds: list[list[float]] = []
    chess: list[float] = []
    print(f"{args.ruleset}, {args.players} players, {args.games} games a run; games/s in CPU time")
    for number in range(1, args.rounds + 1):
        rates = [games_per_second(t, args.ruleset, args.players, args.games)[0] for t in trees]
        rounds.append(rates)
        shown = "  ".join(f"{rate:6.1f}" for rate in rates)
        if args.chess:
            chess.append(chess_rate(args.chess))
            shown += f"  python-chess {chess[-1]:,.0f} decisions/s"
        print(
            f"round {number}: {shown}  (÷ first: "
            + ", ".join(f"{rate / rates[0]:.2f}" for rate in rates[1:])
            + ")",
            flush=True,
        )
    for index, tree in enumerate(trees):
        median = statistics.median(r[index] for r in rounds)
        ratios = [r[index] / r[0] for r in rounds]
        line = f"{tree}: median {median:.1f} games/s"
        if index:
            line += (
                f", {statistics.median(ratios):.2f}× the first (per round "
                f"{min(ratios):.2f}–{max(ratios):.2f})"
            )
        if chess:
            scaled = [r[index] * CHESS_AT_ISSUE / c for r, c in zip(rounds, chess, strict=True)]
            line += (
                f"; at python-chess {CHESS_AT_ISSUE:,} decisions/s: "
                f"{statistics.median(scaled):.1f} games/s ({min(scaled):.1f}–{max(scaled):.1f})"
            )
        print(line)
    if chess:
        print(f"python-chess: median {statistics.median(chess):,.0f} decisions/s")


if __name__ == "__main__":
    main()
