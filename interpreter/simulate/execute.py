"""Run a plan: in this process, in a pool of processes, or on a Dask cluster.

The games are cut into small chunks; records come back as chunks finish and are put
back in game order, so the results are the same whatever runs them. ``on_record`` is
called with each record as it arrives (a progress bar, a test); a KeyboardInterrupt,
from Ctrl-C or from ``on_record``, stops the run and keeps the records so far.
"""

from __future__ import annotations

import math
import os
import signal
import time
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import dataclass, field

from interpreter.simulate.plan import GameSpec, Plan
from interpreter.simulate.play import play_chunk, ruleset_of

Callback = Callable[[dict], None]


@dataclass
class Outcome:
    records: list[dict] = field(default_factory=list)
    interrupted: bool = False
    seconds: float = 0.0
    workers: int = 1

    def ordered(self) -> list[dict]:
        return sorted(self.records, key=lambda rec: (rec["variant"], rec["index"]))


def default_jobs() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def chunks(specs: list[GameSpec], workers: int) -> list[list[GameSpec]]:
    """Chunks small enough for a smooth progress bar and an even load, big enough
    that sending them costs little."""
    size = max(1, min(25, math.ceil(len(specs) / (workers * 8))))
    return [specs[i : i + size] for i in range(0, len(specs), size)]


def run(
    plan: Plan,
    jobs: int | None = None,
    scheduler: str | None = None,
    on_record: Callback | None = None,
) -> Outcome:
    """Play every game of ``plan``; an Outcome with the records (partial if stopped)."""
    specs = plan.specs()
    outcome = Outcome()
    start = time.perf_counter()
    try:
        if scheduler is not None:
            _on_cluster(plan, specs, scheduler, outcome, on_record)
        else:
            jobs = jobs or default_jobs()
            for variant in plan.variants:  # load once here: forked workers inherit it
                ruleset_of(variant)
            if jobs <= 1 or len(specs) <= 1:
                _here(plan, specs, outcome, on_record)
            else:
                _in_pool(plan, specs, jobs, outcome, on_record)
    except KeyboardInterrupt:
        outcome.interrupted = True
    outcome.seconds = time.perf_counter() - start
    return outcome


def _take(outcome: Outcome, records: list[dict], on_record: Callback | None) -> None:
    for record in records:
        outcome.records.append(record)
        if on_record is not None:
            on_record(record)


def _here(plan: Plan, specs, outcome: Outcome, on_record) -> None:
    for spec in specs:
        _take(outcome, play_chunk((plan.variants, [spec], plan.max_decisions)), on_record)


def _quiet_worker() -> None:
    """Workers leave Ctrl-C to the parent, which stops them."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _in_pool(plan: Plan, specs, jobs: int, outcome: Outcome, on_record) -> None:
    outcome.workers = jobs
    pool = ProcessPoolExecutor(jobs, initializer=_quiet_worker)
    try:
        pending = {
            pool.submit(play_chunk, (plan.variants, chunk, plan.max_decisions))
            for chunk in chunks(specs, jobs)
        }
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                _take(outcome, future.result(), on_record)
    except BaseException:
        processes = list((getattr(pool, "_processes", None) or {}).values())
        pool.shutdown(wait=False, cancel_futures=True)
        for process in processes:  # the games under way are not waited for
            process.terminate()
        raise
    pool.shutdown()


def _on_cluster(plan: Plan, specs, address, outcome: Outcome, on_record) -> None:
    try:
        from distributed import Client, as_completed
    except ImportError as exc:
        raise RuntimeError(
            "--scheduler needs Dask distributed: pip install 'tabletop-rules[cluster]'"
        ) from exc
    client = Client(address)
    futures = []
    try:
        outcome.workers = sum(client.nthreads().values()) or 1
        work = [
            (plan.variants, chunk, plan.max_decisions) for chunk in chunks(specs, outcome.workers)
        ]
        futures = client.map(play_chunk, work, pure=False)
        for future in as_completed(futures):
            _take(outcome, future.result(), on_record)
    except BaseException:
        client.cancel(futures)
        raise
    finally:
        client.close()
