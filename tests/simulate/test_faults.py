"""Issue 46: faults cost games, never the run.

The workers are forked from this process, so a game made to misbehave here (by
patching what a worker plays) misbehaves in them: killed in the middle of a game,
stuck inside a decision. Random agents, a few two-player games: quick.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import time

import pytest

from interpreter.simulate import Plan, Variant, run
from interpreter.simulate import pool as pool_module
from interpreter.simulate.play import play, play_game

pytestmark = pytest.mark.skipif(os.name != "posix", reason="POSIX processes and signals")

PLAN = Plan([Variant("rococo")], games=10, counts=[2], seed="46")


def records_of(plan: Plan, also=None, **options) -> tuple[object, dict[int, dict]]:
    """The outcome and the records by game index (each game exactly once)."""
    records: list[dict] = []

    def take(record: dict) -> None:
        records.append(record)
        if also is not None:
            also(record)

    outcome = run(plan, on_record=take, **options)
    by_index = {record["index"]: record for record in records}
    assert len(by_index) == len(records), "a game was reported twice"
    return outcome, by_index


@pytest.fixture(scope="module")
def serial() -> dict[int, dict]:
    return records_of(PLAN, jobs=1)[1]


def same_game(a: dict, b: dict) -> bool:
    return all(a.get(k) == b.get(k) for k in ("seed", "scores", "winners", "decisions", "used"))


def test_a_worker_killed_once_mid_game_costs_nothing(monkeypatch, tmp_path, serial) -> None:
    marker = tmp_path / "killed"

    def dies_once_in_game_3(plan, spec):
        if spec.index == 3 and not marker.exists():
            marker.touch()
            os.kill(os.getpid(), signal.SIGKILL)
        return play(plan, spec)

    monkeypatch.setattr(pool_module, "play", dies_once_in_game_3)
    outcome, games = records_of(PLAN, jobs=2)
    assert marker.exists()  # the worker did die
    assert outcome.played == 10 and not outcome.interrupted and outcome.restarts == 1
    assert sorted(games) == list(range(10))
    assert all(same_game(games[i], serial[i]) for i in range(10))  # game 3 played again
    assert not multiprocessing.active_children()


def test_a_game_that_kills_its_worker_twice_is_an_error_with_its_seed(monkeypatch) -> None:
    def always_dies_in_game_3(plan, spec):
        if spec.index == 3:
            os.kill(os.getpid(), signal.SIGKILL)
        return play(plan, spec)

    monkeypatch.setattr(pool_module, "play", always_dies_in_game_3)
    outcome, games = records_of(PLAN, jobs=2)
    assert outcome.played == 10 and outcome.failed == 1 and not outcome.interrupted
    assert outcome.restarts == 2
    assert games[3]["seed"] == PLAN.spec(3).seed
    assert games[3]["error"] == (
        "error: the worker process playing it died (killed by SIGKILL) on each of its 2 attempts: "
        "the game is lost"
    )
    assert all(games[i]["error"] is None for i in range(10) if i != 3)


def test_a_game_stuck_inside_a_decision_is_stopped_by_killing_its_worker(monkeypatch) -> None:
    def stuck_in_game_2(plan, spec):
        if spec.index == 2:
            time.sleep(3600)  # no decision ends: the game cannot stop itself
        return play(plan, spec)

    monkeypatch.setattr(pool_module, "play", stuck_in_game_2)
    plan = Plan([Variant("rococo")], games=4, counts=[2], seed="46", game_timeout=0.5)
    outcome, games = records_of(plan, jobs=2)
    assert outcome.played == 4 and outcome.failed == 1
    assert games[2]["error"].startswith("error: the game did not end within 0.5 s (--game-timeout)")
    assert games[2]["seed"] == plan.spec(2).seed
    assert not multiprocessing.active_children()


def test_a_game_past_its_time_stops_itself_between_decisions() -> None:
    record = play_game(Variant("rococo"), PLAN.spec(0), timeout=1e-9)
    assert record["error"].startswith("error: the game did not end within 1e-09 s (--game-timeout)")
    assert record["seed"] == PLAN.spec(0).seed


def test_an_interrupted_pool_leaves_no_worker() -> None:
    def stop(record: dict) -> None:
        raise KeyboardInterrupt

    outcome = run(PLAN, jobs=2, on_record=stop)
    assert outcome.interrupted and outcome.stopped_by == signal.SIGINT and outcome.played == 1
    assert not multiprocessing.active_children()


def test_the_games_are_made_as_they_are_sent() -> None:
    plan = Plan([Variant("rococo"), Variant("rococo")], games=10**9, counts=[2, 3])
    specs = plan.specs()
    first = [next(specs) for _ in range(4)]  # a billion games: none made ahead
    assert [(s.index, s.variant, s.players) for s in first] == [
        (0, 0, 2),
        (0, 1, 2),
        (1, 0, 3),
        (1, 1, 3),
    ]
    assert first[2] == plan.spec(1, 0)


def test_a_dask_worker_killed_mid_run_loses_no_game(serial) -> None:
    distributed = pytest.importorskip("distributed", reason="Dask distributed is not installed")
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        client.run(play_game, Variant("rococo"), PLAN.spec(0))  # loaded: games under way soon
        pids = client.run(os.getpid)
        victim = sorted(pids.values())[0]
        killed = []

        def kill_one(record: dict) -> None:
            if not killed:
                os.kill(victim, signal.SIGKILL)
                killed.append(victim)

        plan = Plan([Variant("rococo")], games=40, counts=[2], seed="46")
        outcome, games = records_of(plan, kill_one, scheduler=cluster.scheduler_address)
    assert killed
    assert outcome.played == 40 and not outcome.interrupted
    assert sorted(games) == list(range(40))
    assert all(games[i]["error"] is None for i in games)
    assert all(same_game(games[i], serial[i]) for i in range(10))
