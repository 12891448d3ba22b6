"""Issue 44 point 6: a plain `rules validate` checks every `when:` block.

A `when:` block applies only together with the overlays it names, so building the base
and each expansion alone never built it: an error inside one passed until a player
chose that combination. Each expected place is computed from the text written.
"""

from __future__ import annotations

import json
from pathlib import Path

from rules_test_support import ROOT, headlines, invoke, mutate, position, shown

SOLO = "expansions/solo.yaml"
HAUTE_COUTURE = "expansions/haute_couture.yaml"


def at(path: Path, mark: str) -> tuple[str, int, int]:
    text = path.read_text(encoding="utf-8")
    line, column = position(text, text.index(mark))
    return shown(path), line, column


def break_two_blocks(folder: Path) -> tuple[tuple, tuple]:
    """A name error in Solo's `with: [jewelry_box]` block and a type error in Haute
    Couture's: the places where each must be reported."""
    mutate(folder, SOLO, "if not craftsman_pile.empty", "if not craftsmen_pile.empty")
    mutate(folder, HAUTE_COUTURE, "effect: my.rent_jewel = jewel", "effect: my.rent_jewel = 3")
    name = at(folder / SOLO, "craftsmen_pile.empty")
    path, line, column = at(folder / HAUTE_COUTURE, "my.rent_jewel = 3")
    return name, (path, line, column + len("my.rent_jewel = "))


def test_plain_validate_reports_errors_inside_when_blocks(rococo_copy: Path) -> None:
    (solo, line, column), typed = break_two_blocks(rococo_copy)
    result = invoke("validate", str(rococo_copy))
    assert result.exit_code == 1, result.output
    assert headlines(result) == [
        f"{typed[0]}:{typed[1]}:{typed[2]}: error: `my.rent_jewel` holds a component, "
        "but this is a number",
        f"{solo}:{line}:{column}: error: `craftsmen_pile` is not defined",
    ]
    lines = result.output.splitlines()
    for headline, combination in zip(
        headlines(result),
        ("deluxe, jewelry_box, haute_couture", "deluxe, jewelry_box, solo"),
        strict=True,
    ):
        index = lines.index(headline)
        assert lines[index + 3] == f"     = with: {combination}"  # after the line and caret
    assert result.output.endswith(": 2 errors\n")


def test_json_and_github_name_the_combination(rococo_copy: Path) -> None:
    (solo, line, column), _ = break_two_blocks(rococo_copy)
    report = json.loads(invoke("validate", str(rococo_copy), "--format", "json").output)
    error = next(e for e in report["errors"] if e["kind"] == "unknown-name")
    assert (error["path"], error["line"], error["column"]) == (solo, line, column)
    assert error["with"] == ["deluxe", "jewelry_box", "solo"]
    assert not report["valid"]
    github = invoke("validate", str(rococo_copy), "--format", "github").output
    assert f"line={line},col={column},title=" in github
    assert "%0Awith: deluxe, jewelry_box, solo%0Ahint: did you mean" in github


def test_a_stored_verdict_hides_no_error_in_a_when_block(rococo_copy: Path) -> None:
    """The valid combinations are stored after a first validate; an error made in a
    block afterwards is still found (its combination's files changed)."""
    assert invoke("validate", str(rococo_copy)).exit_code == 0
    (solo, line, column), _ = break_two_blocks(rococo_copy)
    result = invoke("validate", str(rococo_copy))
    assert f"{solo}:{line}:{column}: error: `craftsmen_pile` is not defined" in headlines(result)


def test_the_shipped_rulesets_validate_clean(monkeypatch) -> None:
    monkeypatch.chdir(ROOT)
    for ruleset in ("rococo", "queens-necklace"):
        result = invoke("validate", ruleset)
        assert result.exit_code == 0, result.output
        assert result.output.endswith(": valid\n")


GILDED = """\
overlay: {id: gilded, name: Gilded, base: rococo}
when:
  - with: [jewelry_box]
    extend:
      actions:
        buy_jewel:
          effect:
            - {id: gild, after: main, effect: "gain(prestige, gilt)"}
"""


def test_a_mods_when_block_is_checked_too(tmp_path: Path, monkeypatch) -> None:
    """Alone (`validate MOD`) and applied (`validate RULESET --mod MOD`), a mod is built
    with what its blocks name as well: Jewelry Box, and the Deluxe it requires."""
    monkeypatch.chdir(tmp_path)
    mod = tmp_path / "gilded.yaml"
    mod.write_text(GILDED, encoding="utf-8")
    path, line, column = at(mod, "gilt")
    expected = f"{path}:{line}:{column}: error: `gilt` is not defined"
    for arguments in (["validate", str(mod)], ["validate", "rococo", "--mod", str(mod)]):
        result = invoke(*arguments)
        assert result.exit_code == 1, result.output
        assert headlines(result) == [expected]
        assert "     = with: deluxe, jewelry_box\n" in result.output


def test_blocks_beyond_the_cap_are_warned_about_not_skipped_silently(
    rococo_copy: Path, monkeypatch
) -> None:
    """With room for one block combination, the other block is a warning at its `with:`
    naming the flags that check it (and `--strict` fails on it)."""
    from interpreter.load import when_blocks

    monkeypatch.setattr(when_blocks, "MAX_BLOCK_COMBINATIONS", 1)
    result = invoke("validate", str(rococo_copy))
    assert result.exit_code == 0, result.output
    path, line, column = at(rococo_copy / SOLO, "with: [jewelry_box]")
    warnings = [line for line in result.output.splitlines() if ": warning: " in line]
    assert warnings == [  # Haute Couture's block, offered first, was built
        f"{path}:{line}:{column}: warning: this `when:` block was not checked: its "
        "ruleset's blocks need more than 1 combinations of expansions"
    ]
    assert "`rules validate RULESET --with deluxe --with jewelry_box --with solo`" in (
        result.output
    )
    assert invoke("validate", "--strict", str(rococo_copy)).exit_code == 1
