"""Issue 11: valid means playable. A cap on the pieces a ruleset declares (checked
before counts are expanded) and schema errors located where the mistake is."""

from __future__ import annotations

import time
from pathlib import Path

from click.testing import CliRunner
from rules_test_support import TINY_CONTENT, TINY_MANIFEST, position

from interpreter.check import limits
from interpreter.check.schema_check import check
from interpreter.cli.main import cli
from interpreter.load.ruleset_files import Loader
from interpreter.load.yaml_source import load_text
from interpreter.ruleset import load

PATH = "f.yaml"


def _many_pieces(folder: Path, components: int, count: int) -> Path:
    """The tiny ruleset with ``components`` more components of ``count`` copies each."""
    folder.mkdir()
    manifest = TINY_MANIFEST.split("expansions:")[0]  # no expansion: one content file
    (folder / "ruleset.yaml").write_text(manifest, encoding="utf-8")
    extra = "".join(
        f"  m{i}: {{kind: card, suit: red, points: 1, count: {count}}}\n" for i in range(components)
    )
    content = TINY_CONTENT.replace("components:\n", "components:\n" + extra, 1)
    (folder / "content.yaml").write_text(content, encoding="utf-8")
    return folder


def _line_of(folder: Path, mark: str) -> int:
    text = (folder / "content.yaml").read_text(encoding="utf-8")
    return position(text, text.index(mark))[0]


# --------------------------------------------------------------- 7: the piece cap
def test_piece_cap_is_reported_at_the_component_that_crosses_it(tmp_path: Path) -> None:
    folder = _many_pieces(tmp_path / "big", 25, 1000)  # 25 000 pieces (+ the tiny ones)
    loader = Loader()
    catalog = loader.ruleset(folder)
    (diagnostic,) = limits.check(catalog)
    assert diagnostic.location.line == _line_of(folder, "m20:")  # the 21st: 21 000 > 20 000
    assert "more than 20,000 pieces" in diagnostic.message
    assert "'m20'" in diagnostic.message
    assert limits.check(catalog, limits.Limits(max_pieces=10**6)) == []


def test_within_the_cap_nothing_is_reported(tmp_path: Path) -> None:
    folder = _many_pieces(tmp_path / "fine", 3, 1000)
    assert limits.check(Loader().ruleset(folder)) == []


def test_a_huge_ruleset_is_refused_quickly_by_load(tmp_path: Path) -> None:
    """`load` (hence validate, play and replay) refuses before expanding any count.

    Needs interpreter/ruleset/build.py to call ``limits.check`` first (issue 11)."""
    folder = _many_pieces(tmp_path / "huge", 2000, 1000)  # two million pieces
    start = time.process_time()
    loaded = load(folder)
    assert time.process_time() - start < 20  # without the cap: minutes and gigabytes
    assert loaded.ruleset is None
    assert any("more than 20,000 pieces" in d.message for d in loaded.diagnostics)


def test_play_is_protected_by_the_piece_cap(tmp_path: Path) -> None:
    folder = _many_pieces(tmp_path / "huge", 30, 1000)
    result = CliRunner().invoke(cli, ["play", str(folder), "--players", "2"])
    assert result.exit_code == 1, result.output
    assert "more than 20,000 pieces" in result.output


# ------------------------------------------------- 10a: a list entry missing a key
def test_list_entry_missing_a_key_is_reported_at_the_entry() -> None:
    text = "structure:\n  rounds: {count: 2}\n  phases:\n    - {kind: each_player}\n"
    (d,) = check(load_text(text, PATH), "content.schema.json")
    assert (d.location.line, d.location.column) == position(text, text.index("{kind"))
    assert d.message == "missing key `id` in entry 1 of `phases`"


def test_block_list_entry_missing_a_key_is_reported_at_the_entry() -> None:
    text = (
        "actions:\n  take:\n    effect: pass()\n    requires:\n"
        "      - condition: 'true'\n        message: fine\n"
        "      - message: no condition\n"
    )
    (d,) = check(load_text(text, PATH), "content.schema.json")
    assert (d.location.line, d.location.column) == position(text, text.index("message: no"))
    assert d.message == "missing key `condition` in entry 2 of `requires`"


def test_mapping_missing_a_key_keeps_its_message() -> None:
    text = "counters:\n  coins: {initial: 3}\n"
    (d,) = check(load_text(text, PATH), "content.schema.json")
    assert d.message == "missing required key 'per' in 'coins'"
