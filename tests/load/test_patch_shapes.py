"""Issue 11: a mod's `patch:` of an untyped constant keeps the shape of the value it
replaces, and a bad value is reported at the mod's line, not where the base uses it."""

from __future__ import annotations

from pathlib import Path

import pytest
from rules_test_support import place

from interpreter.ruleset import load


def _mod(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "m.yaml"
    path.write_text("overlay: {id: m, name: M}\npatch:\n  constants:\n" + body, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("body", "mark", "words"),
    [
        ("    base: {value: seven}\n", "seven", "a text; the value it replaces is a number"),
        ("    base: {value: [7]}\n", "[7]", "a list; the value it replaces is a number"),
        ("    nums: {value: 5}\n", "5}", "a number; the value it replaces is a list"),
        ("    nums: {value: [1, two, 3]}\n", "two", "value[1] a text"),
        ('    prices: {value: {"1": 5, "2": x}}\n', "x}", "value.2 a text"),
        ("    prices: {value: [10, 20]}\n", "[10", "a list; the value it replaces is a mapping"),
    ],
    ids=["number-to-text", "number-to-list", "list-to-number", "list-item", "map-value", "map"],
)
def test_patched_constant_keeps_its_shape(tiny: Path, tmp_path: Path, body, mark, words) -> None:
    mod = _mod(tmp_path, body)
    loaded = load(tiny, mods=[mod])
    assert loaded.ruleset is None
    (d,) = loaded.diagnostics
    assert str(d.location) == place(mod, mark)
    assert words in d.message
    assert "content.yaml" in (d.hint or "")  # where the base sets it


@pytest.mark.parametrize(
    "body",
    [
        "    base: {value: 9}\n",
        "    nums: {value: [2, 7]}\n",
        "    nums: {value: []}\n",
        '    prices: {value: {"3": 30}}\n',
        "    base: {value: nine, type: text}\n",  # a declared type is the builder's to check
    ],
)
def test_patches_of_the_same_shape_load(tiny: Path, tmp_path: Path, body) -> None:
    loaded = load(tiny, mods=[_mod(tmp_path, body)])
    assert loaded.diagnostics == []
