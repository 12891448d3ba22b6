"""The `rules` process collects garbage less often (collector.py), never more."""

from __future__ import annotations

import gc

from interpreter.collector import THRESHOLDS, collect_less


def test_the_thresholds_are_raised_and_never_lowered() -> None:
    old = gc.get_threshold()
    try:
        gc.set_threshold(700, 10, 10)
        collect_less()
        assert gc.get_threshold() == THRESHOLDS
        gc.set_threshold(THRESHOLDS[0] * 2, 10, 1000)
        collect_less()  # a higher threshold set by someone else stays
        assert gc.get_threshold() == (THRESHOLDS[0] * 2, THRESHOLDS[1], 1000)
    finally:
        gc.set_threshold(*old)
