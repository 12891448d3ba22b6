"""Option texts computed from each item (`choose c in … as (TEXT) { … }`), and texts
joined with `+`, on a copy of the toy ruleset."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from interpreter.engine.game import Game
from interpreter.errors import GameError
from interpreter.language.parser import parse
from interpreter.language.unparse import unparse
from interpreter.ruleset import load

TOY = Path(__file__).resolve().parents[1] / "engine" / "toy"


def toy_with(tmp_path: Path, effect: str):
    folder = tmp_path / "toy"
    shutil.copytree(TOY, folder)
    path = folder / "toy.yaml"
    action = f"  named:\n    params: {{}}\n    effect: |\n      {effect}\n"
    path.write_text(path.read_text().replace("actions:\n", "actions:\n" + action, 1))
    return load(folder, use_store=False), folder


def named_options(tmp_path: Path, effect: str, hand: tuple[str, ...]) -> tuple[str, ...]:
    loaded, _ = toy_with(tmp_path, effect)
    assert loaded.ruleset is not None, [d.message for d in loaded.diagnostics]
    game = Game(loaded.ruleset, ["Ann", "Bob"], seed=1)
    for piece in hand:
        game.state.put(piece, "hand#0")
    game.state.zones["hand#0"] = hand
    game.run_action("named", "Ann")
    return game.pending()[0].options


def test_each_option_reads_as_its_computed_text(tmp_path: Path) -> None:
    options = named_options(
        tmp_path,
        'choose c in my.hand as ("keep " + text(c.points)) { move(c, my.table) }',
        ("c3", "c1"),
    )
    assert options == ("keep 3", "keep 1")


def test_a_where_is_judged_and_equal_texts_are_told_apart(tmp_path: Path) -> None:
    options = named_options(
        tmp_path,
        'choose c in my.hand where c.points > 1 as ("card of " + text(c.points // 10)) { }',
        ("c1", "c2", "c3"),
    )
    assert options == ("card of 0", "card of 0 #2")


def test_a_text_is_required(tmp_path: Path) -> None:
    loaded, folder = toy_with(tmp_path, "choose c in my.hand as (c.points) { }")
    assert loaded.ruleset is None
    found = [d for d in loaded.diagnostics if "an option's text" in d.message]
    assert found, [d.message for d in loaded.diagnostics]
    line = (folder / "toy.yaml").read_text().splitlines()[found[0].location.line - 1]
    assert "as (c.points)" in line


def test_pass_is_no_computed_text(tmp_path: Path) -> None:
    with pytest.raises(GameError, match="other than 'pass'"):
        named_options(tmp_path, 'choose c in my.hand as ("pass") { }', ("c1",))


def test_texts_join_with_plus_and_a_number_still_does_not(tmp_path: Path) -> None:
    loaded, _ = toy_with(tmp_path, 'choose c in my.hand as ("keep " + c.points) { }')
    assert loaded.ruleset is None
    assert any("works on numbers" in d.message for d in loaded.diagnostics)


def test_unparse_keeps_the_computed_text() -> None:
    text = 'choose c in my.hand as ("keep " + text(c.points)) { move(c, my.table) }'
    assert unparse(parse(text, "effect")) == text
