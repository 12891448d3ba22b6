"""Log lines are checked by a fast validator; jsonschema words only a refused line.

The oracle is the reader with the fast path turned off (every line through
jsonschema, as before): for every log here, the events, the error and the warnings
must be the same with the fast path on.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from interpreter.log import line_checks, reader

DIGEST = "sha256:" + "0" * 64
HEADER = {"format": "rules-log/1", "ruleset": "rococo", "players": ["A", "B"], "seed": 7}
EVENTS = [
    {"n": 1, "player": "A", "choice": "hire"},
    {"n": 2, "chance": "deal", "outcome": ["x", "y"]},
    {"n": 3, "scores": {"A": 1, "B": -2}},
    {"n": 4, "state_digest": DIGEST},
]


def write(tmp_path: Path, lines: list[Any], name: str = "game.jsonl") -> Path:
    path = tmp_path / name
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return path


def outcome(path: Path, strict: bool = False) -> tuple:
    parsed = reader.read(path, strict)
    events = [(e.line, e.data) for e in parsed.events]
    return events, parsed.errors, parsed.warnings


def slow_outcome(path: Path, monkeypatch: pytest.MonkeyPatch, strict: bool = False) -> tuple:
    with monkeypatch.context() as patch:
        patch.setattr(line_checks, "surely_valid", lambda *_: False)
        return outcome(path, strict)


@pytest.fixture
def slow_calls(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The definitions the full (jsonschema) validator was asked for, one per line."""
    calls: list[str] = []
    original = line_checks.full_validator

    def counting(definition: str):
        calls.append(definition)
        return original(definition)

    monkeypatch.setattr(line_checks, "full_validator", counting)
    return calls


def test_a_valid_log_never_takes_the_slow_path(tmp_path: Path, slow_calls: list[str]) -> None:
    path = write(tmp_path, [HEADER, *EVENTS])
    events, errors, warnings = outcome(path)
    assert [data for _, data in events] == EVENTS
    assert (errors, warnings) == ([], [])
    assert slow_calls == []


def test_only_the_failing_line_takes_the_slow_path(tmp_path: Path, slow_calls: list[str]) -> None:
    bad = {"n": 3, "player": "", "choice": "hire"}
    path = write(tmp_path, [HEADER, *EVENTS[:2], bad, EVENTS[3]])
    events, errors, _ = outcome(path)
    assert len(events) == 2
    assert errors == [(4, "a decision is invalid: '' should be non-empty (at player)")]
    assert slow_calls == ["decision"]


def test_a_float_for_an_integer_is_refused_by_the_slow_path(
    tmp_path: Path, slow_calls: list[str]
) -> None:
    """fastjsonschema takes 5.0 for an integer; the reader must not."""
    path = write(tmp_path, [HEADER, {"n": 1.0, "player": "A", "choice": "hire"}])
    assert outcome(path)[1] == [(2, "a decision is invalid: 1.0 is not of type 'integer' (at n)")]
    assert slow_calls == ["decision"]


def test_a_float_where_any_value_is_allowed_is_still_valid(
    tmp_path: Path, slow_calls: list[str]
) -> None:
    path = write(tmp_path, [HEADER, {**EVENTS[0], "note": 2.5}])
    events, errors, warnings = outcome(path)
    assert (len(events), errors) == (1, [])
    assert warnings == [(2, "unknown key 'note' (ignored)")]
    # the closed check refuses the key, the open one takes the line: a warning alone
    assert slow_calls == []


EDGE_LINES = [
    [{**HEADER, "format": "rules-log/2"}],
    [{**HEADER, "players": []}],
    [{**HEADER, "players": ["A", "A"]}],
    [{**HEADER, "seed": True}],
    [{**HEADER, "seed": 1.5}],
    [{**HEADER, "ruleset_digest": "sha256:abc"}],
    [{**HEADER, "options": {"mods": [{"id": "m", "extra": 1}]}}],
    [{**HEADER, "options": {"mods": [{"id": "m", "digest": DIGEST}, "plain"]}}],
    [{**HEADER, "options": {"expansions": ["a", 3]}}],
    [HEADER, {"n": 0, "player": "A", "choice": "x"}],
    [HEADER, {"n": True, "player": "A", "choice": "x"}],
    [HEADER, {"n": "1", "player": "A", "choice": "x"}],
    [HEADER, {"n": 1, "player": "A", "choice": 3}],
    [HEADER, {"n": 1, "chance": "deal", "outcome": "x"}],
    [HEADER, {"n": 1, "chance": "deal"}],
    [HEADER, {"n": 1, "scores": {"A": 1.5}}],
    [HEADER, {"n": 1, "scores": {"A": 2.0}}],
    [HEADER, {"n": 1, "scores": []}],
    [HEADER, {"n": 1, "state_digest": DIGEST + "\n"}],
    [HEADER, {"n": 1, "state_digest": "md5:00"}],
    [HEADER, {"n": 2, "player": "A", "choice": "x"}],
    [HEADER, {"n": 1, "player": "A", "choice": "x", "extra": [1.0]}],
    [HEADER, {"player": "A", "choice": "x"}],
    [{"ruleset": "rococo"}],
]


@pytest.mark.parametrize("lines", EDGE_LINES, ids=[json.dumps(b[-1])[:60] for b in EDGE_LINES])
@pytest.mark.parametrize("strict", [False, True])
def test_verdicts_and_messages_are_those_of_jsonschema(
    lines: list[Any], strict: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write(tmp_path, lines)
    assert outcome(path, strict) == slow_outcome(path, monkeypatch, strict)


JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 3)
    | st.floats(-2, 2)
    | st.sampled_from(["", "A", "x", DIGEST, "sha256:1", "rules-log/1"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from("AB"), inner),
    max_leaves=6,
)
KEYS = ["n", "player", "choice", "chance", "outcome", "scores", "state_digest", "extra"]
HEADER_KEYS = ["format", "ruleset", "players", "seed", "options", "ruleset_digest", "extra"]


def lines_from(keys: list[str], base: dict[str, Any]) -> st.SearchStrategy[dict[str, Any]]:
    """A line near a valid one: some keys dropped, some given any JSON value."""
    return st.builds(
        lambda drop, changes: {
            **{k: v for k, v in base.items() if k not in drop},
            **changes,
        },
        st.sets(st.sampled_from(sorted(base))),
        st.dictionaries(st.sampled_from(keys), JSON, max_size=3),
    )


@settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    header=lines_from(HEADER_KEYS, HEADER),
    event=st.sampled_from(EVENTS).flatmap(lambda e: lines_from(KEYS, e)),
)
def test_any_line_gets_the_same_verdict_both_ways(
    header: dict[str, Any],
    event: dict[str, Any],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    path = write(tmp_path, [header, event], "property.jsonl")
    for strict in (False, True):
        assert outcome(path, strict) == slow_outcome(path, monkeypatch, strict)


@pytest.mark.parametrize(
    "event",
    [
        '{"n": 1E0, "player": "A", "choice": "x"}',
        '{"n": 1e+0, "player": "A", "choice": "x"}',
        '{"n": 1, "player": "A", "choice": "x", "extra": {"deep": [-0.5]}}',
        '{"n": 1, "scores": {"A": 10E-1}}',
        '{"n": 1, "player": "A", "choice": "1.5e3 in a text is no number"}',
        '{"n": NaN, "player": "A", "choice": "x"}',
        '{"n": 1, "scores": {"A": -Infinity}}',
        '{"n": 1, "player": "A", "choice": "x", "extra": NaN}',
        '{"n": 1E400, "player": "A", "choice": "x"}',
    ],
)
def test_floats_written_any_way_are_seen(
    event: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "raw.jsonl"
    path.write_text(json.dumps(HEADER) + "\n" + event + "\n", encoding="utf-8")
    assert outcome(path) == slow_outcome(path, monkeypatch)
    assert outcome(path, strict=True) == slow_outcome(path, monkeypatch, strict=True)
