"""Unsaved editor texts (interpreter/load/buffers.py): read instead of the files
inside `reading`, never remembered after it."""

from __future__ import annotations

from pathlib import Path

from interpreter.load.buffers import reading, text_for
from interpreter.ruleset import load


def test_the_loader_reads_the_unsaved_text_only_inside_the_block(rococo_copy: Path) -> None:
    path = rococo_copy / "functions.yaml"
    text = path.read_text(encoding="utf-8")
    broken = text.replace("staff_size(p) -", "staff_sise(p) -", 1)
    assert load(rococo_copy).diagnostics == []  # the file, remembered by the loader
    with reading({path: broken}):
        assert text_for(path) == broken
        (problem,) = load(rococo_copy).diagnostics
        assert "staff_sise" in problem.message
        assert problem.location.line == broken[: broken.index("staff_sise")].count("\n") + 1
    assert text_for(path) is None
    assert load(rococo_copy).diagnostics == []  # the buffer's document was not kept
    assert path.read_text(encoding="utf-8") == text
