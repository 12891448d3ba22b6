"""`when_blocks.py`: the combination each `when:` block needs, and the cap on them."""

from __future__ import annotations

from pathlib import Path

from rules_test_support import ROCOCO, position, shown

from interpreter.load import when_blocks
from interpreter.load.ruleset_files import load_file
from interpreter.load.when_blocks import MAX_BLOCK_COMBINATIONS, Block, blocks, plan


def rococo_offered() -> dict:
    return load_file(ROCOCO / "ruleset.yaml").data["expansions"]


def test_each_block_gets_its_smallest_combination_in_the_manifests_order() -> None:
    offered = rococo_offered()
    overlays = [(ROCOCO / offered[name]["file"], [name]) for name in offered]
    found = {(b.path.name, b.combination) for b in blocks(ROCOCO, offered, overlays, set())}
    assert found == {
        ("solo.yaml", ("deluxe", "jewelry_box", "solo")),
        ("haute_couture.yaml", ("deluxe", "jewelry_box", "haute_couture")),
    }


def test_a_block_that_can_never_apply_is_left_to_its_overlays_build(tmp_path: Path) -> None:
    """A name neither offered nor a mod applied: the composer reports it at its place."""
    mod = tmp_path / "m.yaml"
    mod.write_text(
        "overlay: {id: m, name: M, base: rococo}\n"
        "when:\n  - {with: [jewelery_box], add: {}}\n  - {with: [other_mod], add: {}}\n",
        encoding="utf-8",
    )
    offered = rococo_offered()
    assert blocks(ROCOCO, offered, [(mod, [])], set()) == []
    assert [b.combination for b in blocks(ROCOCO, offered, [(mod, [])], {"other_mod"})] == [()]


def test_combinations_are_built_once_and_at_most_up_to_the_cap(tmp_path: Path) -> None:
    path = tmp_path / "x.yaml"
    combos = [(f"e{i}",) for i in range(MAX_BLOCK_COMBINATIONS + 1)]
    found = [Block(path, i, c) for i, c in enumerate([("a",), ("a",), *combos])]
    extra, unchecked = plan(found, built=[("a",)])
    assert extra == combos[:MAX_BLOCK_COMBINATIONS]  # ("a",) was built already
    assert unchecked == [found[-1]]


def test_a_block_beyond_the_cap_is_a_warning_at_its_with(tmp_path: Path) -> None:
    path = tmp_path / "x.yaml"
    text = "overlay: {id: x, name: X}\nwhen:\n  - with: [a]\n  - with: [b, c]\n"
    path.write_text(text, encoding="utf-8")
    warning = when_blocks.unchecked(Block(path, 1, ("b", "c")))
    line, column = position(text, text.index("with: [b"))
    assert str(warning.location) == f"{shown(path)}:{line}:{column}"
    assert warning.severity == "warning"
    assert "`rules validate RULESET --with b --with c`" in warning.hint
