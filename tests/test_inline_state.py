"""Stored rulesets keep their objects' attributes in CPython's fast inline layout."""

from __future__ import annotations

import pickle
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from interpreter.inline_state import InlineState
from interpreter.ruleset import load_or_raise


@dataclass(frozen=True)
class _Frozen(InlineState):
    name: str
    size: int = 0


def test_a_frozen_dataclass_round_trips_through_pickle() -> None:
    copy = pickle.loads(pickle.dumps(_Frozen("a", 3)))
    assert copy == _Frozen("a", 3) and copy.size == 3


def _interpreter_objects(value: Any, seen: set[int]) -> Any:
    if id(value) in seen:
        return
    seen.add(id(value))
    if isinstance(value, dict):
        parts = [*value.keys(), *value.values()]
    elif isinstance(value, list | tuple | set | frozenset):
        parts = list(value)
    elif hasattr(value, "__dict__") and type(value).__module__.startswith("interpreter."):
        yield value
        parts = list(vars(value).values())
    else:
        return
    for part in parts:
        yield from _interpreter_objects(part, seen)


def test_every_object_a_ruleset_holds_is_restored_attribute_by_attribute() -> None:
    ruleset = load_or_raise(Path(__file__).parent.parent / "rulesets" / "rococo")
    kinds = {type(o) for o in _interpreter_objects(ruleset, set())}
    assert len(kinds) > 20
    assert [k.__qualname__ for k in kinds if not issubclass(k, InlineState)] == []
