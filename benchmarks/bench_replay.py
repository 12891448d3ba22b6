"""Replay speed (events per second) on long logs written by `rules play`.

.venv/bin/python benchmarks/bench_replay.py [--games 10] [--players 5]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from interpreter.agents import RandomAgent
from interpreter.engine.game import Game
from interpreter.log import writer
from interpreter.log.replay import replay
from interpreter.ruleset import load_or_raise


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--ruleset", default="rococo")
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--players", type=int, default=5)
    args = parser.parse_args()
    ruleset = load_or_raise(args.ruleset)
    folder = Path(tempfile.mkdtemp())
    logs = []
    for seed in range(args.games):
        game = Game(ruleset, [f"P{i}" for i in range(args.players)], seed=seed)
        agents = [RandomAgent(i, f"{seed}:{i}") for i in range(args.players)]
        while not game.is_over():
            decision = game.pending()[0]
            game.apply(decision.player, agents[decision.player].choose(game, decision))
        path = folder / f"{seed}.jsonl"
        with path.open("w") as stream:
            writer.write(game, stream)
        logs.append(path)
    replay(logs[0], views=False)  # warm the ruleset cache
    start = time.perf_counter()
    events = 0
    for path in logs:
        verdict = replay(path, views=False)  # as `rules replay LOG` checks it
        assert verdict.kind == "legal", verdict.message
        events += verdict.events_applied
    elapsed = time.perf_counter() - start
    print(
        f"replayed {len(logs)} {args.players}-player {args.ruleset} logs, {events} events "
        f"({events // len(logs)} per log) in {elapsed:.2f} s: {events / elapsed:,.0f} "
        f"events/s (ruleset loaded once and cached)"
    )


if __name__ == "__main__":
    main()
