"""Compiled effect blocks: a generator only where a decision can happen inside."""

from __future__ import annotations

import inspect
from dataclasses import fields, is_dataclass
from pathlib import Path
from typing import Any

from interpreter.engine.game import Game
from interpreter.language import effects as fx
from interpreter.ruleset import load_or_raise

TOY = load_or_raise(Path(__file__).parent / "toy")
ROCOCO = load_or_raise(Path(__file__).parents[2] / "rulesets" / "rococo")
_DECIDES = (fx.ChooseItem, fx.ChooseOption, fx.Do, fx.Emit, fx.Act, fx.Stop)


def _seqs(value: Any, seen: set[int]) -> Any:
    """Every block of statements reachable from ``value`` (a ruleset)."""
    if id(value) in seen or isinstance(value, str | int | float | bool | type(None)):
        return
    seen.add(id(value))
    if isinstance(value, fx.Seq):
        yield value
    if isinstance(value, dict):
        parts = list(value.values())
    elif isinstance(value, list | tuple | set | frozenset):
        parts = list(value)
    elif type(value).__module__.startswith("interpreter") and hasattr(value, "__dict__"):
        parts = list(vars(value).values())
    elif is_dataclass(value):  # one with slots: its fields
        parts = [getattr(value, field.name) for field in fields(value)]
    else:
        return
    for part in parts:
        yield from _seqs(part, seen)


def _may_decide(seq: fx.Seq) -> bool:
    """Whether a statement of ``seq`` (or of a block inside it) may wait for a player."""
    for node in seq.body:
        if isinstance(node, _DECIDES) or (isinstance(node, fx.For) and node.simultaneous):
            return True
        inner = [body for _, body in getattr(node, "branches", ())]
        inner += [getattr(node, "body", None), getattr(node, "otherwise", None)]
        if any(isinstance(s, fx.Seq) and _may_decide(s) for s in inner):
            return True
    return False


def _play(ruleset: Any, players: int, seed: int) -> None:
    game = Game(ruleset, [f"P{i}" for i in range(players)], seed=seed)
    while not game.is_over():
        decision = game.pending()[0]
        game.apply(decision.player, decision.options[seed % len(decision.options)])


def test_a_block_is_a_generator_exactly_where_a_decision_can_happen() -> None:
    for ruleset, players in ((TOY, 2), (ROCOCO, 4)):
        _play(ruleset, players, 3)
        compiled = [s for s in _seqs(ruleset, set()) if s.run not in (None, False)]
        generators = [s for s in compiled if inspect.isgeneratorfunction(s.run)]
        assert generators and len(generators) < len(compiled)  # both kinds were run
        for seq in compiled:
            assert inspect.isgeneratorfunction(seq.run) == _may_decide(seq), seq.id
