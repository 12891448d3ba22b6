"""Random-agent games per second and decisions per second, by player count, and
where the time goes (a cProfile summary).

    .venv/bin/python benchmarks/bench_games.py [--ruleset rococo] [--games 50] [--profile]
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import time

from interpreter.agents import RandomAgent
from interpreter.engine.game import Game
from interpreter.load.ruleset_files import resolve_ruleset
from interpreter.ruleset import load


def play(ruleset, players: int, seed: int) -> int:
    game = Game(ruleset, [f"P{i}" for i in range(players)], seed=seed)
    agents = [RandomAgent(i, f"{seed}:{i}") for i in range(players)]
    decisions = 0
    while not game.is_over():
        decision = game.pending()[0]
        game.apply(decision.player, agents[decision.player].choose(game, decision))
        decisions += 1
    return decisions


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--ruleset", default="rococo")
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    ruleset = load(resolve_ruleset(args.ruleset)).ruleset
    low, high = ruleset.min_players, ruleset.max_players
    print("games/s and decisions/s in CPU time of this process (one core); wall clock in []")
    for players in range(max(low, 2), high + 1):
        start, cpu = time.perf_counter(), time.process_time()
        decisions = sum(play(ruleset, players, seed) for seed in range(args.games))
        elapsed, used = time.perf_counter() - start, time.process_time() - cpu
        print(
            f"{args.ruleset} {players} players: {args.games / used:6.1f} games/s "
            f"[{args.games / elapsed:5.1f}], {decisions / used:8.0f} decisions/s "
            f"[{decisions / elapsed:6.0f}], {decisions / args.games:6.0f} decisions/game"
        )
    if args.profile:
        profiler = cProfile.Profile()
        profiler.enable()
        for seed in range(10):
            play(ruleset, 4, seed)
        profiler.disable()
        pstats.Stats(profiler).sort_stats("tottime").print_stats(15)


if __name__ == "__main__":
    main()
