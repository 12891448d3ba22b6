"""The `rules` program as a process runs it: ``cli/main.py``'s ``main`` in a process of
its own, which that process's start and end cost less.

* The collector's thresholds are raised (``collector.collect_less``) before click and
  the rest are imported: at Python's defaults their imports ran the collector a
  dozen times in every `rules` process.
* A command whose work leaves nothing behind but memory (its files closed, its
  output written: ``nothing_left``) ends the process at once: the exit handlers run
  and the output is flushed, then ``os._exit`` with the status ``sys.exit`` gives. The
  interpreter's teardown would free every object one by one: a cold `rules validate`
  of a full ruleset spent 2 % of its CPU time there, after its last line was written.

``main`` itself raises ``SystemExit`` as before: tests and programs that call it in
their own process go on after it.
"""

from __future__ import annotations

import sys

_nothing_left = False  # a command said so (``nothing_left``): the process may end at once


def nothing_left() -> None:
    """Say that the command running leaves nothing for the interpreter's teardown but
    memory: every file it wrote is closed, and what it printed went to the standard
    streams."""
    global _nothing_left
    _nothing_left = True


def run() -> None:
    """The `rules` console script (and ``python -m interpreter``)."""
    from interpreter.collector import collect_less

    collect_less()  # before the imports below (``collector.py``)
    from interpreter.cli.main import main

    try:
        main()
    except SystemExit as done:
        end(done.code)
    end(None)


def end(code: object) -> None:
    """End the process as ``sys.exit(code)`` would; at once where nothing is left."""
    if not _nothing_left or not (code is None or type(code) is int) or _others_running():
        sys.exit(code)
    import atexit
    import os

    atexit._run_exitfuncs()  # what the teardown would run first (they run once)
    try:
        for stream in (sys.stdout, sys.stderr):
            if stream is not None:
                stream.flush()
    except Exception:  # a closed pipe: the interpreter's own exit says what it says
        sys.exit(code)
    os._exit(code or 0)


def _others_running() -> bool:
    """Whether anything else runs in this process (``threading``: the teardown would
    wait for it)."""
    threading = sys.modules.get("threading")
    return threading is not None and threading.active_count() > 1
