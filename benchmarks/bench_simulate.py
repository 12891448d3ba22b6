"""`rules simulate`'s speed and memory: games/s with 1 and 2 processes and on Dask, the
cost of the statistics, and the peak memory of a run against its number of games.

    .venv/bin/python benchmarks/bench_simulate.py [--ruleset rococo] [--games 600]
        [--players 2] [--jobs 2] [--dask] [--overhead]
    .venv/bin/python benchmarks/bench_simulate.py --memory 1000,100000 [--jobs 2]

Speed: games/s (wall clock) of ``interpreter.simulate.run`` with 1 and with ``--jobs``
processes, measured in turn in one call, and their ratio; with ``--dask``, also on a
local Dask cluster of ``--jobs`` worker processes (one thread each, started before the
clock runs), and its overhead a game against the local pool of as many processes.
``--overhead``: the CPU cost of the records and statistics (the same games played bare,
the loop of `rules play`, against played to records and aggregated into the report).

Memory: one run of the largest number of games whose ``on_record`` folds each record
into the report's ``Totals`` (as `rules simulate` does) and counts; when the count
reaches each number given, the peak resident memory so far of this process
(``getrusage``) and of its largest worker (``VmHWM`` in /proc: Linux): the runner's and
the aggregation's memory, without the report's files (measure the whole command with
``/usr/bin/time -v rules simulate …``). Stopped early (Ctrl-C), it has printed the marks
it reached.
"""

from __future__ import annotations

import argparse
import multiprocessing
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from interpreter.agents import make
from interpreter.engine.game import Game
from interpreter.simulate import Plan, Totals, Variant, run
from interpreter.simulate.play import play, ruleset_of
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

    totals = Totals()
    for spec in plan.specs():
        totals.add(play(plan, spec))
    build(plan, Outcome(played=totals.played, seconds=1.0), totals)


def cpu(work, plan: Plan, repeat: int = 3) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        work(plan)
        best = min(best, time.process_time() - start)
    return best


def speed(plan: Plan, **where) -> float:
    """Games/s of one run (each record only counted)."""
    outcome = run(plan, **where)
    assert outcome.played == plan.total and not outcome.interrupted, outcome
    return outcome.played / outcome.seconds


def on_dask(plan: Plan, jobs: int) -> float:
    from distributed import Client, LocalCluster

    with (
        LocalCluster(
            n_workers=jobs, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        Client(cluster) as client,
    ):
        client.run(ruleset_of, plan.variants[0])  # loaded before the clock runs
        return speed(plan, scheduler=cluster.scheduler_address)


def worker_peak() -> int:
    """The largest peak resident memory (KiB) of this process's live workers (Linux)."""
    peaks = [0]
    for child in multiprocessing.active_children():
        status = Path(f"/proc/{child.pid}/status").read_text()
        peaks += [int(line.split()[1]) for line in status.splitlines() if line[:6] == "VmHWM:"]
    return max(peaks)


def memory(marks: list[int], args) -> None:
    """One run of the largest number of games; at each mark, the peaks so far."""
    plan = Plan([Variant(args.ruleset)], max(marks), [args.players])
    start = time.perf_counter()
    seen = {"games": 0, "errors": 0}
    rows = []
    totals = Totals()

    def counted(record: dict) -> None:
        totals.add(record)
        seen["games"] += 1
        seen["errors"] += record["error"] is not None
        if seen["games"] in marks:
            rows.append(
                {
                    "games": seen["games"],
                    "parent": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
                    "worker": worker_peak(),
                }
            )
            print(
                f"{seen['games']:>7} games, {args.jobs} job(s), "
                f"{time.perf_counter() - start:.0f} s: peak {rows[-1]['parent'] / 1024:.1f} MiB "
                f"in the runner, {rows[-1]['worker'] / 1024:.1f} MiB in its largest worker, "
                f"{seen['errors']} errors",
                flush=True,
            )

    run(plan, jobs=args.jobs, on_record=counted)
    first, last = rows[0], rows[-1]
    for key in ("parent", "worker"):
        if first[key]:
            print(f"{key}: {last[key] / first[key]:.2f}x from {first['games']} to {last['games']}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ruleset", default="rococo")
    parser.add_argument("--games", type=int, default=600)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--dask", action="store_true", help="also on a local Dask cluster")
    parser.add_argument("--overhead", action="store_true", help="the statistics' CPU cost")
    parser.add_argument("--memory", default=None, help="marks, e.g. 1000,10000,100000")
    args = parser.parse_args()
    if args.memory:
        memory([int(n) for n in args.memory.split(",")], args)
        return
    plan = Plan([Variant(args.ruleset)], args.games, [args.players])
    ruleset_of(plan.variants[0])  # loading is not timed
    speeds = {jobs: speed(plan, jobs=jobs) for jobs in (1, args.jobs)}
    if args.dask:
        speeds["dask"] = on_dask(plan, args.jobs)
    for where, games_per_second in speeds.items():
        label = f"Dask, {args.jobs} workers" if where == "dask" else f"{where} process(es)"
        print(f"{label}: {args.games} games, {games_per_second:.1f} games/s")
    print(f"scaling: {speeds[args.jobs] / speeds[1]:.2f}x with {args.jobs} processes")
    if args.dask:
        extra = 1 / speeds["dask"] - 1 / speeds[args.jobs]
        print(f"Dask overhead: {1000 * extra:+.2f} ms a game against {args.jobs} local processes")
    if args.overhead:
        plain, full = cpu(bare, plan), cpu(recorded, plan)
        print(
            f"bare play {plain:.2f} s CPU, with records and statistics {full:.2f} s CPU: "
            f"overhead {100 * (full - plain) / plain:+.1f} %"
        )


if __name__ == "__main__":
    main()
