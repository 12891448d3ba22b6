"""Run a plan: in this process, in a pool of processes, or on a Dask cluster.

Each record goes to ``on_record`` as its game finishes, in whatever order the games
finish; nothing here keeps it, so a run of any length takes the same memory (the
statistics are folded as records come, by the caller). The games are made as they are
sent (``Plan.specs``), with a bounded number out at once. A KeyboardInterrupt (Ctrl-C,
or SIGTERM and SIGHUP turned into one by the command, or raised by ``on_record``) stops
the run; what finished was passed on, and the Outcome says it was interrupted.

Faults cost games, never the run: a worker that dies has the game it was playing
played once more, then reported as an error with its seed (``pool.py``; on a cluster
Dask moves the tasks of a dead worker itself, and a task that fails anyway has its
games played once more, one a task, then reported as errors).
"""

from __future__ import annotations

import math
import os
import signal
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from itertools import islice

from interpreter.simulate.plan import GameSpec, Plan
from interpreter.simulate.play import play, play_games, ruleset_of, unplayed
from interpreter.simulate.pool import Pool, PoolFailed

Callback = Callable[[dict], None]
AHEAD = 2  # cluster tasks out at once, per slot of the cluster (Dask: nthreads)


@dataclass
class Outcome:
    """How a run went (its records went to ``on_record``)."""

    played: int = 0  # games whose record was passed on, errors included
    failed: int = 0  # of them, the games with an error
    interrupted: bool = False  # stopped before the end of the plan
    stopped_by: int | None = None  # the signal that stopped it (Ctrl-C: SIGINT)
    failure: str | None = None  # what stopped it when no signal did
    restarts: int = 0  # worker processes that died and were replaced
    seconds: float = 0.0
    workers: int = 1


class RunError(Exception):
    """The run could not start or go on (no Dask, no scheduler, workers that keep dying)."""


def default_jobs() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def chunk_size(total: int, workers: int) -> int:
    """Games a cluster task: small enough for a smooth progress bar and an even load,
    big enough that sending them costs little."""
    return max(1, min(25, math.ceil(total / (workers * 8))))


def batches(specs: Iterator[GameSpec], size: int) -> Iterator[list[GameSpec]]:
    while batch := list(islice(specs, size)):
        yield batch


def run(
    plan: Plan,
    jobs: int | None = None,
    scheduler: str | None = None,
    on_record: Callback | None = None,
) -> Outcome:
    """Play every game of ``plan``, passing each record to ``on_record`` as it finishes."""
    outcome = Outcome()

    def take(record: dict) -> None:
        outcome.played += 1
        outcome.failed += record["error"] is not None
        if on_record is not None:
            on_record(record)

    start = time.perf_counter()
    try:
        if scheduler is not None:
            _on_cluster(plan, scheduler, outcome, take)
        else:
            jobs = min(jobs or default_jobs(), plan.total)
            for variant in plan.variants:  # load once here: forked workers inherit it
                ruleset_of(variant)
            if jobs <= 1:
                for spec in plan.specs():
                    take(play(plan, spec))
            else:
                outcome.workers = jobs
                pool = Pool(plan, jobs, take)
                try:
                    pool.play(plan.specs())
                finally:
                    outcome.restarts = pool.restarts
    except KeyboardInterrupt as exc:  # ``cli/stops.py``'s Stopped names its signal
        outcome.interrupted = True
        outcome.stopped_by = getattr(exc, "number", signal.SIGINT)
    except (PoolFailed, RunError) as exc:
        outcome.interrupted = True
        outcome.failure = str(exc)
    outcome.seconds = time.perf_counter() - start
    return outcome


def _on_cluster(plan: Plan, address: str, outcome: Outcome, take: Callback) -> None:
    try:
        from distributed import Client, as_completed
    except ImportError:
        raise RunError(
            "--scheduler needs Dask distributed: pip install 'tabletop-rules[cluster]'"
        ) from None
    try:
        client = Client(address, timeout="20s")
    except (OSError, TimeoutError, ValueError) as exc:
        raise RunError(f"no Dask scheduler at {address}: {exc}") from None
    out: dict = {}  # future -> (its games, whether they are played a second time)
    try:
        outcome.workers = sum(client.nthreads().values()) or 1
        work = batches(plan.specs(), chunk_size(plan.total, outcome.workers))
        finished = as_completed()

        def submit(specs: list[GameSpec], again: bool) -> None:
            future = client.submit(play_games, plan, specs, pure=False)
            out[future] = (specs, again)
            finished.add(future)

        for specs in islice(work, AHEAD * outcome.workers):
            submit(specs, False)
        for future in finished:
            specs, again = out.pop(future)
            try:
                records = future.result()
            except Exception as exc:  # KilledWorker: its workers kept dying; or lost
                if not again:
                    for spec in specs:
                        submit([spec], True)
                else:
                    why = f"error: lost on the cluster, twice: {type(exc).__name__}: {exc}"
                    take(unplayed(specs[0], why))
            else:
                for record in records:
                    take(record)
            future.release()
            for specs in islice(work, 1):
                submit(specs, False)
    except BaseException:
        client.cancel(list(out))
        raise
    finally:
        client.close()
