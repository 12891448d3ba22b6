"""Worker processes that know which game each of them is playing.

``concurrent.futures`` loses every game under way when one of its workers dies
(BrokenProcessPool) and cannot say which game the dead worker was playing. Here each
worker has a pipe of its own and is sent games one at a time, at most ``DEPTH`` ahead;
it answers each with its record, so the parent always knows the game under way:

* a worker that dies (killed, out of memory, a crash in C) is replaced; the game it
  was playing is played once more, and if the worker playing it dies again the game
  is a record with an error and its seed (``ATTEMPTS``); the games queued behind it go
  to another worker, none is lost;
* a game past ``Plan.game_timeout`` stops itself between two decisions
  (``play.play_game``); one stuck inside a decision is stopped by killing its worker
  ``grace`` seconds later, and is a record with an error;
* the workers die with the parent: Linux kills them when it dies, however it dies
  (``prctl(PR_SET_PDEATHSIG)``), and elsewhere a worker leaves when its pipe closes.

Memory is bounded whatever the number of games: the games come from an iterator, and
at most ``DEPTH`` games a worker are out at once.
"""

from __future__ import annotations

import contextlib
import ctypes
import multiprocessing
import os
import signal
import sys
import time
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait

from interpreter.simulate.plan import GameSpec, Plan
from interpreter.simulate.play import play, unplayed

DEPTH = 2  # games sent to a worker ahead: one under way, one waiting (no idle round trip)
ATTEMPTS = 2  # a game whose worker dies is played at most this often
PR_SET_PDEATHSIG = 1  # from <linux/prctl.h>


class PoolFailed(RuntimeError):
    """Workers died more often than the games could explain (the cap of ``Pool.restarts``)."""


@dataclass
class _Worker:
    process: multiprocessing.process.BaseProcess
    conn: Connection
    sent: deque[GameSpec]  # sent and not answered yet, the game under way first
    since: float = 0.0  # when the game under way started (time.monotonic)


def grace(timeout: float) -> float:
    """How long past its time a game may go before its worker is killed: enough for the
    game to stop itself at its next decision."""
    return min(timeout, 10.0)


class Pool:
    """``jobs`` worker processes playing the games of ``plan``; ``take`` gets each record."""

    def __init__(self, plan: Plan, jobs: int, take: Callable[[dict], None]):
        self.plan = plan
        self.jobs = jobs
        self.take = take
        # forked, a worker inherits the loaded rulesets; where there is no fork, it loads them
        self.forks = "fork" in multiprocessing.get_all_start_methods()
        self.context = multiprocessing.get_context("fork" if self.forks else "spawn")
        self.workers: list[_Worker] = []
        self.todo: deque[GameSpec] = deque()  # games to send before new ones
        self.deaths: dict[tuple[int, int], int] = {}  # (variant, index) -> workers lost
        self.restarts = 0
        self.limit = plan.game_timeout + grace(plan.game_timeout)

    def play(self, specs: Iterator[GameSpec]) -> None:
        """Play every game of ``specs``; the workers are gone when this returns or
        raises (Ctrl-C, SIGTERM: the games under way are not waited for)."""
        try:
            self.workers = [self._start() for _ in range(self.jobs)]
            while self._send(specs):
                self._receive()
                self._stop_late()
        finally:
            for worker in self.workers:
                _end(worker)

    def _send(self, specs: Iterator[GameSpec]) -> bool:
        """Fill every worker up to ``DEPTH`` games; whether any is busy."""
        for n in range(len(self.workers)):
            worker = self.workers[n]
            while len(worker.sent) < DEPTH:
                spec = self.todo.popleft() if self.todo else next(specs, None)
                if spec is None:
                    break
                try:
                    worker.conn.send(spec)
                except OSError:  # it died since: the game goes to its successor
                    self.todo.appendleft(spec)
                    self._lost(worker, _how(worker))
                    break
                if not worker.sent:
                    worker.since = time.monotonic()
                worker.sent.append(spec)
        return any(worker.sent for worker in self.workers)

    def _receive(self) -> None:
        """Wait for a record, a death or the next deadline, and deal with what came."""
        busy = [w for w in self.workers if w.sent]
        first = min(w.since for w in busy) + self.limit
        ready = set(
            wait(
                [w.conn for w in busy] + [w.process.sentinel for w in busy],
                max(0.0, first - time.monotonic()),
            )
        )
        for worker in busy:
            woke = worker.conn in ready or worker.process.sentinel in ready
            if woke and not self._drain(worker):
                self._lost(worker, _how(worker))

    def _drain(self, worker: _Worker) -> bool:
        """Take every record waiting in the worker's pipe; False if the worker is gone."""
        try:
            while worker.sent and worker.conn.poll():
                record = worker.conn.recv()
                spec = worker.sent.popleft()
                self.deaths.pop((spec.variant, spec.index), None)
                worker.since = time.monotonic()
                self.take(record)
        except (EOFError, OSError):
            return False
        return worker.process.is_alive()

    def _stop_late(self) -> None:
        """Kill the workers whose game is past its time and grace."""
        now = time.monotonic()
        for worker in list(self.workers):
            if worker.sent and now - worker.since > self.limit:
                late = worker.sent[0]
                worker.process.kill()
                worker.process.join()
                self._drain(worker)  # the records it sent before it was killed
                if worker.sent and worker.sent[0] is late:
                    worker.sent.popleft()
                    self.take(
                        unplayed(
                            late,
                            f"error: the game did not end within {self.plan.game_timeout:g} s "
                            "(--game-timeout) and did not stop itself: its worker was killed",
                        )
                    )
                self._lost(worker, None)

    def _lost(self, worker: _Worker, how: str | None) -> None:
        """Replace a dead worker. The game it was playing, when it died ``how`` (None: it
        was killed here, the game is dealt with), is played again or, the second time,
        is an error; the games queued behind it go back first in line."""
        _end(worker)
        if worker.sent and how is not None:
            spec = worker.sent.popleft()
            key = (spec.variant, spec.index)
            deaths = self.deaths.get(key, 0) + 1
            if deaths >= ATTEMPTS:
                self.deaths.pop(key, None)
                self.take(
                    unplayed(
                        spec,
                        f"error: the worker process playing it died ({how}) "
                        f"on each of its {ATTEMPTS} attempts: the game is lost",
                    )
                )
            else:
                self.deaths[key] = deaths
                worker.sent.appendleft(spec)
        self.todo.extendleft(reversed(worker.sent))
        self.restarts += 1
        if self.restarts > self.jobs + ATTEMPTS * self.plan.total:
            raise PoolFailed(
                f"the worker processes died {self.restarts} times, more than the games "
                "explain: is the machine out of memory?"
            )
        self.workers[self.workers.index(worker)] = self._start()

    def _start(self) -> _Worker:
        mine, theirs = self.context.Pipe()
        others = [w.conn for w in self.workers if not w.conn.closed] + [mine]
        if not self.forks:  # a spawned worker is given no end but its own
            others = []
        process = self.context.Process(
            target=_serve, args=(self.plan, theirs, others, os.getpid()), daemon=True
        )
        process.start()
        theirs.close()
        return _Worker(process, mine, deque())


def _how(worker: _Worker) -> str:
    worker.process.join(1.0)
    code = worker.process.exitcode
    if code is None:
        return "its pipe closed"
    if code < 0:
        return f"killed by {signal.Signals(-code).name}"
    return f"exit code {code}"


def _end(worker: _Worker) -> None:
    """Close the pipe (an idle worker leaves by itself) and kill the process (a busy
    one is not waited for)."""
    worker.conn.close()
    if worker.process.exitcode is None:
        worker.process.kill()
    worker.process.join()


def _serve(plan: Plan, conn: Connection, others: list[Connection], parent: int) -> None:
    """A worker: play each game sent, answer with its record, until the pipe closes."""
    _die_with(parent)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    for name in ("SIGTERM", "SIGHUP"):  # not the handlers the parent had when it forked
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), signal.SIG_DFL)
    for other in others:  # the parent's ends: held here, no pipe would ever close
        other.close()
    while True:
        try:
            spec = conn.recv()
        except (EOFError, OSError):
            return
        try:
            conn.send(play(plan, spec))
        except OSError:
            return


def _die_with(parent: int) -> None:
    """On Linux, be killed when the parent dies (however it dies: even SIGKILL)."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):  # no libc: the pipe still ends it
            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:  # it died before the request was made
        os._exit(0)
