"""A block of well-formed events is parsed and checked a column at a time
(``reader._Reader._parse_regular``, by orjson where it is installed, else by the
standard library); any other block is read line by line. Both must give the same
events, line numbers, errors and warnings: each log below is read both ways and
compared (the line-by-line way alone is what the other log tests pin)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from interpreter.log import line_checks, reader


@pytest.fixture(scope="module")
def lines(kit, tmp_path_factory) -> list[bytes]:
    path = tmp_path_factory.mktemp("regular") / "game.jsonl"
    result = kit.run("play", "queens-necklace", "--players", "3", "--seed", "5", "--log", str(path))
    assert result.exit_code == 0, result.output
    return [line for line in path.read_bytes().split(b"\n") if line]


def _variants(lines: list[bytes]) -> dict[str, bytes]:
    head, events = lines[0], lines[1:]

    def line(data: dict) -> bytes:
        return json.dumps(data, ensure_ascii=False).encode()

    decision = json.loads(next(e for e in events if b'"choice"' in e))
    at = events.index(line(decision)) if line(decision) in events else 0
    n = decision["n"]
    return {
        "as written": b"\n".join(lines) + b"\n",
        "no last newline": b"\n".join(lines),
        "crlf": b"\r\n".join(lines),
        "bom": b"\xef\xbb\xbf" + b"\n".join(lines),
        "a comment": b"\n".join([head, *events[:3], b"# note", *events[3:]]),
        "a blank line": b"\n".join([head, *events[:3], b"", *events[3:]]),
        "a space before": b"\n".join([head, *events[:3], b" " + events[3], *events[4:]]),
        "bad utf-8": b"\n".join([head, *events[:2], b'{"n": 3, "player": "\xff", "choice": "x"}']),
        "extra data": b"\n".join([head, *events[:2], events[2] + b" 7"]),
        "not an object": b"\n".join([head, events[0], b"[1]"]),
        "a number out of step": b"\n".join([head, *events[1:]]),
        "n a float": b"\n".join([head, *events[:at], line({**decision, "n": float(n)})]),
        "n true": b"\n".join([head, *events[:at], line({**decision, "n": True})]),
        "an unknown key": b"\n".join(
            [head, *events[:at], line({**decision, "why": "x"}), *events[at + 1 :]]
        ),
        "a key missing": b"\n".join([head, *events[:at], line({"n": n, "player": "P1"})]),
        "an empty player": b"\n".join([head, *events[:at], line({**decision, "player": ""})]),
        "an outcome of numbers": b"\n".join(
            [head, b'{"n": 1, "chance": "deal", "outcome": [1, 2]}', *events[1:]]
        ),
        "a checkpoint": b"\n".join(
            [head, *events[: at + 1], line({"n": n + 1, "scores": {"P0": 1}})]
        ),
        "a bad checkpoint": b"\n".join([head, *events[: at + 1], line({"n": n + 1, "scores": 3})]),
        "an unknown event": b"\n".join([head, b'{"n": 1, "what": 2}']),
        "a score of 30 digits": b"\n".join(
            [head, *events[: at + 1], line({"n": n + 1, "scores": {"P0": 10**29}})]
        ),
        "n of 20 digits": b"\n".join([head, *events[:at], line({**decision, "n": 10**19})]),
        "a lone surrogate": b"\n".join(
            [head, *events[:at], json.dumps({**decision, "choice": "\ud800"}).encode()]
        ),
        "nan": b"\n".join([head, *events[:at], b'{"n": NaN, "player": "P1", "choice": "x"}']),
        "deep": b"\n".join(
            [head, b'{"n": 1, "chance": "x", "outcome": ' + b"[" * 5000 + b"]" * 5000 + b"}"]
        ),
    }


def _read(path: Path, strict: bool) -> tuple:
    parsed = reader.read(path, strict=strict)
    events = [(e.line, e.data, e.kind) for e in parsed.events]
    header = None if parsed.header is None else (parsed.header.line, parsed.header.data)
    return events, parsed.errors, parsed.warnings, header


@pytest.mark.parametrize("parser", ["orjson", "json"])  # where orjson is installed, and not
@pytest.mark.parametrize("block", [1 << 16, 97])
@pytest.mark.parametrize("strict", [False, True])
def test_blocks_read_both_ways_give_the_same(
    lines, tmp_path, monkeypatch, block, strict, parser
) -> None:
    if parser == "orjson" and reader.orjson is None:
        pytest.skip("orjson is not installed")
    if parser == "json":
        monkeypatch.setattr(reader, "orjson", None)
    monkeypatch.setattr(reader, "BLOCK_BYTES", block)
    taken = []
    regular = reader._Reader._parse_regular

    def spy(self, part):
        found = regular(self, part)
        taken.append(found is not None)
        return found

    for name, data in _variants(lines).items():
        path = tmp_path / f"{name}.jsonl"
        path.write_bytes(data)
        monkeypatch.setattr(reader._Reader, "_parse_regular", spy)
        fast = _read(path, strict)
        monkeypatch.setattr(reader._Reader, "_parse_regular", lambda self, part: None)
        slow = _read(path, strict)
        assert fast == slow, name
    assert any(taken) and not all(taken)  # both ways were taken


def test_the_column_check_agrees_with_the_line_check() -> None:
    """A block's check (fastjsonschema on the array) says what the lines' checks say."""
    decision, many = line_checks.line_check("decision"), line_checks.many_check("decision")
    good = {"n": 1, "player": "A", "choice": ""}
    samples = [
        good,
        {"n": 0, "player": "A", "choice": "x"},
        {"n": 1, "player": "", "choice": "x"},
        {"n": True, "player": "A", "choice": "x"},
        {"n": 1.0, "player": "A", "choice": "x"},
        {"n": 1, "player": "A"},
        {"n": 1, "player": "A", "choice": "x", "more": 1},
        {"n": 1, "player": "A", "other": "x"},
    ]
    for sample in samples:
        assert many([good, sample]) == (decision(good) and decision(sample)), sample
    assert [decision(sample) for sample in samples] == [True] + [False] * 7
    assert many([]) and many([good, good])
    outcome, outcomes = line_checks.line_check("chance"), line_checks.many_check("chance")
    fine = {"n": 2, "chance": "deal", "outcome": ["x"]}
    for sample in (
        {"n": 2, "chance": "deal", "outcome": []},
        {"n": 2, "chance": "deal", "outcome": ["x", 3]},
        {"n": 2, "chance": "deal", "outcome": [True]},
        {"n": 2, "chance": "deal", "outcome": "x"},
    ):
        assert outcomes([fine, sample]) == (outcome(fine) and outcome(sample)), sample
