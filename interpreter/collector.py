"""Fewer runs of Python's cyclic garbage collector in a `rules` process.

Reading and building rules makes some hundred thousand objects that all live on
(documents, parse trees, generated code). At Python's default thresholds (a
collection every 700 new objects, an older generation every 10 of those) the
collector scanned that growing heap over 500 times in a cold `rules validate` of a
full ruleset (7 combinations of its expansions): a third of its CPU time. Play makes
no such heap (its collections are under 1 % of a game) and is not affected either
way. The thresholds are set once for the whole process and never lowered again:
lowering them after a build makes the next collection of the older generation scan
the whole build at once.

A batch step whose objects all live until the process ends (`validate` of one path:
the builds of every combination of a ruleset) runs with the collector ``paused``:
even at these thresholds it scanned that heap for 7 % of a cold `validate` of a
full ruleset. In a `rules` process (``collect_less`` was called: its heap is the
command's), its objects are then frozen (``gc.freeze``: never scanned again, or a
first collection after the step scans them all at once), so the garbage cycles it
left stay until the process ends: the peak memory of a `validate` of a full ruleset
of 7 combinations went from 46.8 to 48.9 MB.
Elsewhere (a program calling the command in its own process) nothing is frozen.
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator

THRESHOLDS = (50_000, 50, 100)  # new objects between collections, and the older ages'
_OWN_PROCESS = False  # collect_less was called: a `rules` process, whose heap is its own


def collect_less() -> None:
    """Raise the collector's thresholds for this process (never lower them)."""
    global _OWN_PROCESS
    _OWN_PROCESS = True
    old = gc.get_threshold()
    gc.set_threshold(*(max(o, n) for o, n in zip(old, THRESHOLDS, strict=True)))


@contextlib.contextmanager
def paused() -> Iterator[None]:
    """No collection inside, what it made frozen after (the module docstring)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if _OWN_PROCESS:
            gc.freeze()
        if was_enabled:
            gc.enable()
