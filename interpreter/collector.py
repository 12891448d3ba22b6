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
"""

from __future__ import annotations

import gc

THRESHOLDS = (50_000, 50, 100)  # new objects between collections, and the older ages'


def collect_less() -> None:
    """Raise the collector's thresholds for this process (never lower them)."""
    old = gc.get_threshold()
    gc.set_threshold(*(max(o, n) for o, n in zip(old, THRESHOLDS, strict=True)))
