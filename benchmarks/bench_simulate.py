"""`rules simulate`'s speed: games/s with 1 and 2 processes, and what the statistics cost.

    .venv/bin/python benchmarks/bench_simulate.py [--ruleset rococo] [--games 60]
        [--players 2] [--jobs 2]

Prints games/s (wall clock) of ``interpreter.simulate.run`` with 1 and with ``--jobs``
processes and their ratio, then the overhead of the statistics: the same games played
bare (the loop of `rules play`, nothing recorded) against played to records and
aggregated into the full report (CPU time of this process, one process).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from interpreter.agents import make
from interpreter.engine.game import Game
from interpreter.simulate import Plan, Variant, run
from interpreter.simulate.play import play_game, ruleset_of
from interpreter.simulate.report import build


def bare(plan: Plan) -> None:
    ruleset = ruleset_of(plan.variants[0])
    for spec in plan.specs():
        names = [f"P{i + 1}" for i in range(spec.players)]
        game = Game(ruleset, names, seed=spec.seed)
        seats = [game.state.players.index(n) for n in names]
        agents = {s: make(k, s, spec.seed) for s, k in zip(seats, spec.agents, strict=True)}
        while not game.is_over():
            decision = game.pending()[0]
            game.apply(decision.player, agents[decision.player].choose(game, decision))


def recorded(plan: Plan) -> None:
    from interpreter.simulate.execute import Outcome

    outcome = Outcome()
    outcome.records = [play_game(plan.variants[s.variant], s) for s in plan.specs()]
    outcome.seconds = 1.0
    build(plan, outcome)


def cpu(work, plan: Plan, repeat: int = 3) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        work(plan)
        best = min(best, time.process_time() - start)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ruleset", default="rococo")
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    plan = Plan([Variant(args.ruleset)], args.games, [args.players])
    ruleset_of(plan.variants[0])  # loading is not timed
    speeds = {}
    for jobs in (1, args.jobs):
        outcome = run(plan, jobs=jobs)
        speeds[jobs] = len(outcome.records) / outcome.seconds
        print(
            f"{jobs} process(es): {args.games} games in {outcome.seconds:.2f} s, "
            f"{speeds[jobs]:.1f} games/s"
        )
    print(f"scaling: {speeds[args.jobs] / speeds[1]:.2f}x with {args.jobs} processes")
    plain, full = cpu(bare, plan), cpu(recorded, plan)
    print(
        f"bare play {plain:.2f} s CPU, with records and statistics {full:.2f} s CPU: "
        f"overhead {100 * (full - plain) / plain:+.1f} %"
    )


if __name__ == "__main__":
    main()
