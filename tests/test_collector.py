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


def test_a_paused_step_collects_nothing_and_restores_the_collector(monkeypatch) -> None:
    from interpreter import collector

    monkeypatch.setattr(collector, "_OWN_PROCESS", False)  # a program's own process
    frozen = gc.get_freeze_count()
    with collector.paused():
        assert not gc.isenabled()
        before = gc.get_stats()[0]["collections"]
        junk = [[i] for i in range(3 * THRESHOLDS[0])]
        assert gc.get_stats()[0]["collections"] == before
    del junk
    assert gc.isenabled() and gc.get_freeze_count() == frozen  # nothing frozen here
    gc.disable()
    try:
        with collector.paused():
            pass
        assert not gc.isenabled()  # left as it was
    finally:
        gc.enable()


def test_a_rules_process_freezes_what_the_step_made(monkeypatch) -> None:
    from interpreter import collector

    monkeypatch.setattr(collector, "_OWN_PROCESS", True)
    try:
        with collector.paused():
            kept = [[i] for i in range(1000)]
        assert gc.get_freeze_count() >= len(kept)
    finally:
        gc.unfreeze()
