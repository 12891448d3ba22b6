"""Agent strength: seeded 2-player games between two agents, seats alternating.

    .venv/bin/python benchmarks/agents.py mcts random [--ruleset rococo] [--games 200]
        [--jobs 2] [--first 0]

Game i has seed i, and agent A sits in seat i % 2 (so each agent moves first in half
the games). Prints each agent's win share (a tie counts half), mean final score, and
the CPU time per game (of the whole game, and of each agent's decisions).
"""

from __future__ import annotations

import argparse
import multiprocessing
import time

from interpreter.agents import make, parse
from interpreter.engine.game import Game
from interpreter.load.ruleset_files import resolve_ruleset
from interpreter.ruleset import load

_RULESET = None


def _init(ruleset_id: str) -> None:
    global _RULESET
    _RULESET = load(resolve_ruleset(ruleset_id)).ruleset


def play(task: tuple[int, str, str]) -> tuple[int, list[float], list[int], list[float], float]:
    """One game: (seed, win share of A and B, their scores, their CPU seconds, game's)."""
    seed, spec_a, spec_b = task
    start = time.process_time()
    game = Game(_RULESET, ["P1", "P2"], seed=seed)
    specs = [spec_a, spec_b] if seed % 2 == 0 else [spec_b, spec_a]
    agents = [make(spec, seat, seed) for seat, spec in enumerate(specs)]
    thinking = [0.0, 0.0]
    while not game.is_over():
        decision = game.pending()[0]
        before = time.process_time()
        option = agents[decision.player].choose(game, decision)
        thinking[decision.player] += time.process_time() - before
        game.apply(decision.player, option)
    result = game.result()
    top = result.ranking[0]
    names = game.state.players
    share = [1 / len(top) if names[s] in top else 0.0 for s in (0, 1)]
    scores = [result.scores[names[s]] for s in (0, 1)]
    order = [0, 1] if seed % 2 == 0 else [1, 0]  # seat of A, seat of B
    return (
        seed,
        [share[s] for s in order],
        [scores[s] for s in order],
        [thinking[s] for s in order],
        time.process_time() - start,
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("a", help="agent A (random, greedy, mcts, mcts:N, mcts:Xs)")
    parser.add_argument("b", help="agent B")
    parser.add_argument("--ruleset", default="rococo")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--first", type=int, default=0, help="seed of the first game")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    for spec in (args.a, args.b):
        parse(spec)
    tasks = [(seed, args.a, args.b) for seed in range(args.first, args.first + args.games)]
    wall = time.perf_counter()
    if args.jobs > 1:
        with multiprocessing.Pool(args.jobs, _init, (args.ruleset,)) as pool:
            games = list(pool.imap_unordered(play, tasks))
    else:
        _init(args.ruleset)
        games = [play(task) for task in tasks]
    wall = time.perf_counter() - wall
    n = len(games)
    print(
        f"{args.ruleset}, {n} games (seeds {args.first}-{args.first + n - 1}), "
        f"{args.jobs} jobs, {wall:.0f} s wall clock"
    )
    for k, spec in enumerate((args.a, args.b)):
        wins = sum(g[1][k] for g in games)
        score = sum(g[2][k] for g in games) / n
        thought = sum(g[3][k] for g in games) / n
        print(
            f"  {spec:>10}: wins {wins:5.1f}/{n} = {100 * wins / n:5.1f} %, "
            f"mean score {score:6.1f}, {thought:6.2f} s/game deciding"
        )
    per_game = [g[4] for g in games]
    print(f"  CPU time per game: mean {sum(per_game) / n:.2f} s, max {max(per_game):.2f} s")


if __name__ == "__main__":
    main()
