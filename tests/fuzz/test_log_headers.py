"""A log header naming garbage expansion or mod ids (empty, NUL, control characters,
huge, not a text…) gets a located error or a verdict, never a traceback, and the
same verdict with a cold cache as with a warm one (issue 44): the cache once took
``[""]`` for no expansion, and ``["deluxe\\x00jewelry_box"]`` for two.

Derandomized: case ``k`` is ``header_fuzzer.make_header("ci:k")`` on every run."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

sys.path.insert(0, str(Path(__file__).resolve().parent))

import header_fuzzer
from header_fuzzer import verdict, write_log

from interpreter.cli.main import cli

CASES = 40
WARMING = [[], ["deluxe"], ["deluxe", "jewelry_box"]]  # what the warm cache holds


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A Rococo game without expansions, played by random agents."""
    path = tmp_path_factory.mktemp("header-fuzz") / "base.jsonl"
    result = CliRunner().invoke(
        cli, ["play", "rococo", "--players", "3", "--seed", "1", "--log", str(path)]
    )
    assert result.exit_code == 0, result.output
    return path


@pytest.fixture(scope="module")
def warm(base: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A cache folder holding Rococo with each combination of ``WARMING``."""
    cache = tmp_path_factory.mktemp("warm-cache")
    for expansions in WARMING:
        log = write_log(base, {"expansions": expansions}, cache.parent / "warming.jsonl")
        code, output = verdict(log, cache)
        assert code in (0, 3) or ".jsonl:1: error:" not in output, output  # it loaded
    return cache


def same_verdict(base: Path, warm: Path, tmp_path: Path, options: object) -> tuple[int, str]:
    log = write_log(base, options, tmp_path / "case.jsonl")
    cold = verdict(log, tmp_path / "cold-cache")
    assert verdict(log, warm) == cold, options
    assert verdict(log, tmp_path / "cold-cache") == cold, options  # warmed by itself
    return cold


@pytest.mark.parametrize(
    "options",
    [
        {"expansions": [""]},
        {"expansions": ["deluxe\x00jewelry_box"]},
        {"expansions": ["deluxe\n"]},
        {"expansions": ["deluxe", ""]},
        {"expansions": ["x" * 5000]},
        {"expansions": [5]},
        {"expansions": [], "mods": [""]},
        {"expansions": [], "mods": [{"id": "gift\n"}]},
        {"expansions": [], "mods": ["gift\x00"]},
    ],
    ids=repr,
)
def test_a_bad_id_is_a_located_error_whatever_the_cache(
    base: Path, warm: Path, tmp_path: Path, options: dict
) -> None:
    code, output = same_verdict(base, warm, tmp_path, options)
    assert code == 1
    assert output.startswith(f"{tmp_path / 'case.jsonl'}:1: error: "), output
    assert "(at options/" in output, output


@pytest.mark.parametrize("first", range(0, CASES, 10))
def test_garbage_headers_get_one_verdict_whatever_the_cache(
    base: Path, warm: Path, tmp_path: Path, first: int
) -> None:
    for k in range(first, first + 10):
        options = header_fuzzer.make_header(f"ci:{k}")
        folder = tmp_path / str(k)
        folder.mkdir()
        same_verdict(base, warm, folder, options)


@pytest.mark.parametrize(
    "expansions",
    [["deluxe", "deluxe"], ["jewelry_box", "deluxe"], ["deluxe", "jewelry_box", "deluxe"]],
    ids=repr,
)
def test_odd_but_valid_lists_get_one_verdict_whatever_the_cache(
    base: Path, warm: Path, tmp_path: Path, expansions: list[str]
) -> None:
    same_verdict(base, warm, tmp_path, {"expansions": expansions})
