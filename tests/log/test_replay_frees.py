"""A replayed game is freed as soon as its last reference goes, without the cycle
collector: the feed that gives replay its events lets go of the game at the end (the
collector's runs over what replay left behind were a part of its time). A game stopped
in the middle (``stop_after``) is not: its effects wait in generators that hold it."""

from __future__ import annotations

import gc
import sys
import weakref
from collections.abc import Iterator
from pathlib import Path

import pytest

from interpreter.agents import RandomAgent
from interpreter.engine.game import Game
from interpreter.log import reader, writer
from interpreter.log.replay import replay, replay_events
from interpreter.ruleset import load_or_raise


@pytest.fixture(scope="module")
def log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    ruleset = load_or_raise("queens-necklace")
    game = Game(ruleset, ["Ann", "Bob", "Cy"], seed=4)
    agents = [RandomAgent(seat, f"4:{seat}") for seat in range(3)]
    while not game.is_over():
        decision = game.pending()[0]
        game.apply(decision.player, agents[decision.player].choose(game, decision))
    path = tmp_path_factory.mktemp("frees") / "game.jsonl"
    with path.open("w") as stream:
        writer.write(game, stream)
    return path


@pytest.fixture
def no_collector() -> Iterator[None]:
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def test_a_replayed_game_is_freed_without_the_collector(log, no_collector) -> None:
    verdict = replay(log)
    assert verdict.kind == "legal"
    game = weakref.ref(verdict.game)
    del verdict
    assert game() is None


def test_a_game_replayed_from_memory_is_freed_without_the_collector(log, no_collector) -> None:
    parsed = reader.read(log)
    verdict = replay_events(load_or_raise("queens-necklace"), parsed)
    assert verdict.kind == "legal"
    game = weakref.ref(verdict.game)
    del verdict
    assert game() is None


@pytest.mark.parametrize("parser", ["orjson", "json"])
def test_the_reader_lets_go_of_each_line_as_it_is_taken(log, monkeypatch, parser) -> None:
    """A block's lines, alive through a whole replayed game, kept the collector's
    youngest generation full: each of its runs cost replay as much as a few decisions."""
    if parser == "orjson" and reader.orjson is None:
        pytest.skip("orjson is not installed")
    if parser == "json":
        monkeypatch.setattr(reader, "orjson", None)
    parsed, events = reader.open_log(log)
    assert not parsed.errors
    first = next(events)
    data = first.data
    del first
    next(events)  # the block's next line: the reader is past the first
    assert sys.getrefcount(data) == 2  # ``data`` and the call's argument: nothing else
