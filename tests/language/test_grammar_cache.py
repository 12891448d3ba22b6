"""The grammar's cache file: written once per grammar, reused, never in the way.

Building the LALR tables costs a fifth of a second at every start of `rules`; one file
in ``$XDG_CACHE_HOME/tabletop-rules/`` saves it: Lark's own parser (``Lark.save``,
``grammar-….lark-cache``), kept through the cache folder's integrity check. A cache
that cannot be written or read must change nothing but the speed.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import lark
import pytest

from interpreter.language import parser
from interpreter.language.parser import (
    GRAMMAR_PATH,
    grammar,
    grammar_cache_file,
    parse,
)

SAMPLES = [
    ("effect", "let n = count(s in spaces where s.owner == me); my.score += n * 2 // 3"),
    ("expr", "f(1, [2, 3], 'x') and not (a.b >= -4 or c % 5 != 0)"),
]


def new_process() -> None:
    """Forget the parsers and parsed texts, as a new process has none."""
    grammar.cache_clear()
    parse.cache_clear()


@pytest.fixture
def builds(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """How many times Lark built its parser tables (rather than loading them)."""
    count: list[int] = []
    original = lark.Lark._build_parser

    def counting(self):
        count.append(1)
        return original(self)

    monkeypatch.setattr(lark.Lark, "_build_parser", counting)
    new_process()
    yield count
    new_process()  # the next test builds its own parser again


def trees() -> list[str]:
    return [parse(text, start).pretty() for start, text in SAMPLES]


def uncached_trees(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    monkeypatch.setenv("TABLETOP_RULES_CACHE", "0")
    new_process()
    try:
        return trees()
    finally:
        monkeypatch.delenv("TABLETOP_RULES_CACHE")
        new_process()


def test_the_cache_is_written_then_reused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, builds: list[int]
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("TABLETOP_RULES_CACHE", raising=False)
    first = trees()
    folder = tmp_path / "tabletop-rules"
    files = list(folder.glob("grammar-*.lark-cache"))
    assert len(files) == 1 and all(file.stat().st_size > 1000 for file in files)
    assert builds == [1]
    written = [file.stat().st_mtime_ns for file in files]

    new_process()
    second = trees()
    assert builds == [1]  # loaded, not built again
    assert [file.stat().st_mtime_ns for file in files] == written
    assert grammar().terminals  # what `_anon` reads for the error messages
    assert first == second == uncached_trees(monkeypatch)
    assert builds == [1, 1]  # the uncached parser was built, as it must be


def test_a_cache_folder_reached_by_another_path_is_still_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, builds: list[int]
) -> None:
    """A cache restored elsewhere (CI) or a home reached through another path: the
    file's name says what it holds, its folder does not matter."""
    monkeypatch.delenv("TABLETOP_RULES_CACHE", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "first"))
    expected = trees()
    assert builds == [1]
    shutil.copytree(tmp_path / "first", tmp_path / "second")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "second"))
    new_process()
    assert trees() == expected
    assert builds == [1]  # loaded from the copy, not built again


def test_the_file_name_follows_the_grammar_text(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("TABLETOP_RULES_CACHE", raising=False)
    text = GRAMMAR_PATH.read_text()
    path = grammar_cache_file(text)
    assert path is not None and path.parent == tmp_path / "tabletop-rules"
    assert grammar_cache_file(text) == path
    assert grammar_cache_file(text + "\n// edited\n") != path


def test_a_stale_cache_file_is_removed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("TABLETOP_RULES_CACHE", raising=False)
    folder = tmp_path / "tabletop-rules"
    folder.mkdir()
    (folder / "grammar-0000000000000000.lark-cache").write_bytes(b"old")
    (folder / "other-file").write_bytes(b"kept")
    path = grammar_cache_file(GRAMMAR_PATH.read_text())
    assert sorted(p.name for p in folder.iterdir()) == ["other-file"]
    assert path is not None and not path.exists()


@pytest.mark.parametrize("value", ["0", "off", "no", "false"])
def test_the_environment_variable_turns_it_off(
    value: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, builds: list[int]
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setenv("TABLETOP_RULES_CACHE", value)
    assert grammar_cache_file(GRAMMAR_PATH.read_text()) is None
    trees()
    assert builds == [1]
    assert not (tmp_path / "tabletop-rules").exists()


def test_a_cache_folder_that_cannot_be_made_means_no_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, builds: list[int]
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))
    monkeypatch.delenv("TABLETOP_RULES_CACHE", raising=False)
    assert grammar_cache_file(GRAMMAR_PATH.read_text()) is None
    assert trees() == uncached_trees(monkeypatch)


def test_a_cache_file_that_cannot_be_written_or_read_changes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, builds: list[int]
) -> None:
    """A folder where the cache file should be: opening it fails both ways (even for
    root, whom a read-only mode would not stop)."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("TABLETOP_RULES_CACHE", raising=False)
    paths = [grammar_cache_file(GRAMMAR_PATH.read_text())]
    for path in paths:
        assert path is not None
        path.mkdir()
    expected = uncached_trees(monkeypatch)
    assert trees() == expected
    assert builds == [1, 1]
    assert all(path.is_dir() for path in paths)


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="root writes anywhere")
def test_a_read_only_cache_folder_still_works(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, builds: list[int]
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("TABLETOP_RULES_CACHE", raising=False)
    folder = tmp_path / "tabletop-rules"
    folder.mkdir()
    folder.chmod(0o555)
    try:
        expected = uncached_trees(monkeypatch)
        assert trees() == expected
        assert list(folder.iterdir()) == []
    finally:
        folder.chmod(0o755)


def test_a_read_only_folder_with_a_cache_file_is_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, builds: list[int]
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("TABLETOP_RULES_CACHE", raising=False)
    trees()  # writes the file
    folder = tmp_path / "tabletop-rules"
    folder.chmod(0o555)
    try:
        new_process()
        assert trees() == uncached_trees(monkeypatch)
        assert builds == [1, 1]  # the first build and the uncached one only
    finally:
        folder.chmod(0o755)


def test_a_corrupt_cache_file_is_rebuilt(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, builds: list[int]
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("TABLETOP_RULES_CACHE", raising=False)
    paths = [grammar_cache_file(GRAMMAR_PATH.read_text())]
    for path in paths:
        assert path is not None
        path.write_bytes(b"half a file")  # e.g. a process killed while writing it
    assert trees() == uncached_trees(monkeypatch)
    assert all(path.stat().st_size > 1000 for path in paths)  # written again, whole
    new_process()
    trees()
    assert builds == [1, 1]  # then read


def test_the_module_keeps_one_parser_per_process() -> None:
    assert parser.grammar() is parser.grammar()
