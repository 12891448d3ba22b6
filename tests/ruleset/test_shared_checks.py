"""The checks beside the compiles share their work between the checked builds of one
process where what they read is the same (the secrecy check's walks: ``_Walks`` in
``language/secrecy.py``; components and space groups: ``_Kept`` in
``ruleset/definitions.py``): every combination says what it says checked alone, also
when an expansion changes what the base's shared work depends on."""

from __future__ import annotations

import shutil
import textwrap
from pathlib import Path

import pytest
from rules_test_support import TINY_CONTENT, write_tiny

from interpreter.language import secrecy as secrecy_module
from interpreter.ruleset import load
from interpreter.ruleset.definitions import alike

TOY = Path(__file__).parents[1] / "engine" / "toy"

# base texts whose trees every combination shares: `hint` decides behind `coins`
# (public in the base), `ask` decides behind a function, `ring` emits an event
BASE = """
functions:
  rich:
    params: {p: player}
    returns: bool
    value: p.coins > 3
actions:
  hint:
    params: {}
    effect: |
      if my.coins > 3 { choose p in players as "p" { } }
  ask:
    params: {}
    effect: |
      if rich(me) { choose p in players as "q" { } }
  ring:
    params: {}
    effect: |
      if my.score > 1 { emit played(card: c1) }
"""

# each makes one of the base's trees leak: coins made private, the function made to
# read a hand, the event's trigger made to ask a decision
EXPANSIONS = {
    "private_coins": "patch:\n  counters:\n    coins: {visibility: private}\n",
    "hand_function": (
        "replace:\n  functions:\n    rich:\n      params: {p: player}\n"
        "      returns: bool\n      value: count(p.hand) > 3 and any(c in p.hand)\n"
    ),
    "deciding_trigger": (
        "replace:\n  triggers:\n    on_played:\n      on: played\n"
        '      effect: |\n        choose p in players as "r" { }\n'
    ),
}


def toy_with_expansions(tmp_path: Path) -> Path:
    folder = tmp_path / "toy"
    shutil.copytree(TOY, folder)
    (folder / "extra.yaml").write_text(textwrap.dedent(BASE))
    manifest = folder / "ruleset.yaml"
    text = manifest.read_text().replace("include: [toy.yaml]", "include: [toy.yaml, extra.yaml]")
    text += "expansions:\n"
    for name, body in EXPANSIONS.items():
        (folder / f"{name}.yaml").write_text(f"overlay: {{id: {name}, name: {name}}}\n{body}")
        text += f"  {name}: {{file: {name}.yaml, name: {name}}}\n"
    manifest.write_text(text)
    return folder


def leaks(folder: Path, expansions: list[str] | None = None) -> list[tuple[str, int, int, str]]:
    loaded = load(folder, expansions, verdict=True, use_store=False)
    return [
        (Path(d.location.path).name, d.location.line, d.location.column, d.message)
        for d in loaded.diagnostics
        if d.kind == "secrecy"
    ]


def what(message: str) -> str:
    """The hidden thing a secrecy message names."""
    return message.split("`")[1]


def fresh_walks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(secrecy_module, "WALKS", secrecy_module._Walks())


def test_a_kept_walk_is_not_given_where_a_fact_it_read_changed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = toy_with_expansions(tmp_path)
    fresh_walks(monkeypatch)
    assert leaks(folder) == []  # every walk of the base kept
    private = leaks(folder, ["private_coins"])  # `hint`, and `ask` through `rich`
    assert [(line, what(message)) for _, line, _, message in private] == [
        (11, "coins"),
        (15, "rich() (coins)"),
    ]
    function = leaks(folder, ["hand_function"])
    assert [(line, what(message)) for _, line, _, message in function] == [(15, "rich() (hand)")]
    # `score` is private in the toy: emitting behind it leaks once a trigger decides
    trigger = leaks(folder, ["deciding_trigger"])
    assert [(line, what(message)) for _, line, _, message in trigger] == [(19, "score")]
    assert leaks(folder) == []  # the base's kept walks still serve the base


@pytest.mark.parametrize("expansions", [None, *([name] for name in EXPANSIONS), list(EXPANSIONS)])
def test_each_combination_says_what_it_says_checked_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, expansions: list[str] | None
) -> None:
    folder = toy_with_expansions(tmp_path)
    fresh_walks(monkeypatch)
    alone = leaks(folder, expansions)
    fresh_walks(monkeypatch)
    for other in [None, *([name] for name in EXPANSIONS), list(EXPANSIONS)]:
        leaks(folder, other)  # every walk of every combination kept
    assert leaks(folder, expansions) == alone


def test_the_kept_walks_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(secrecy_module, "MAX_KEPT", 2)
    walks = secrecy_module._Walks()
    trees = [secrecy_module.Tree("name", [secrecy_module.Token("NAME", f"n{i}")]) for i in range(5)]
    for tree in trees:
        assert walks.recall(("decides",), tree, (), lambda: True) is True
    assert walks._count <= 2
    # a walk is kept with its facts: other facts walk again
    assert walks.recall(("decides",), trees[-1], (), lambda: False) is True
    assert walks.recall(("decides",), trees[-1], (None,), lambda: False) is False


# ------------------------------------------------- components and space groups kept
def tiny_with_references(tmp_path: Path, extra: str) -> Path:
    """The tiny ruleset where `c2` names the piece `c3` and `slot2` the side `wide`,
    with an expansion ``extra``."""
    content = TINY_CONTENT.replace(
        "      special: {type: bool, default: false}\n",
        "      special: {type: bool, default: false}\n      pair: {type: piece, default: null}\n",
    ).replace("special: true}", "special: true, pair: c3}")
    folder = write_tiny(tmp_path / "tiny", content)
    (folder / "extra.yaml").write_text(f"overlay: {{id: extra, name: Extra}}\n{extra}")
    return folder


def said(folder: Path, expansions: list[str] | None = None) -> list[tuple[int, str]]:
    loaded = load(folder, expansions, verdict=True, use_store=False)
    return [(d.location.line, d.message) for d in loaded.diagnostics]


def line_of(folder: Path, mark: str) -> int:
    lines = (folder / "content.yaml").read_text().splitlines()
    return next(n for n, line in enumerate(lines, 1) if mark in line)


def test_a_kept_component_is_checked_again_where_a_name_it_refers_to_is_gone(
    tmp_path: Path,
) -> None:
    folder = tiny_with_references(tmp_path, "remove:\n  components: [c3]\n")
    assert said(folder) == []  # `c2` kept
    assert said(folder, ["extra"]) == [(line_of(folder, "c2:"), "'c3' is not a component")]
    assert said(folder) == []


def test_a_kept_space_group_is_checked_again_where_a_side_it_names_is_gone(
    tmp_path: Path,
) -> None:
    folder = tiny_with_references(tmp_path, "remove:\n  sides: [wide]\n")
    assert said(folder) == []  # `slot` kept
    assert (line_of(folder, "slot2:"), "unknown board side 'wide'") in said(folder, ["extra"])
    assert said(folder) == []


def test_a_kept_component_is_not_given_for_a_kind_declared_otherwise(tmp_path: Path) -> None:
    folder = tiny_with_references(
        tmp_path,
        "extend:\n  kinds:\n    card:\n      properties:\n        rank: {type: number}\n",
    )
    assert said(folder) == []
    lacking = [m for _, m in said(folder, ["extra"]) if "lacks property 'rank'" in m]
    assert len(lacking) == 4  # c1, c2, c3 and pawn
    assert said(folder) == []


def test_alike_data_is_the_same_values_under_the_same_keys() -> None:
    shared = [1, 2]
    assert alike({"a": shared, "b": 1}, {"a": shared, "b": 1})
    assert not alike({"a": shared, "b": 1}, {"a": [1, 2], "b": 1})  # equal, not the same
    assert not alike({"a": 1, "b": 2}, {"b": 2, "a": 1})  # another order
    assert not alike({"a": True}, {"a": 1})  # equal, yet another value
    assert alike(shared, shared) and not alike(shared, [1, 2])


def test_a_signature_is_made_once_per_declaration_and_again_for_another() -> None:
    from interpreter.ruleset.conversions import signature

    params = {"n": "number", "p": {"type": "player", "default": None}}
    made = signature(params, "number")
    assert signature(params, "number") is made  # the same mapping, read again
    assert signature(params, "bool") is not made and signature(params, "bool").returns == "bool"
    assert signature(params, "number", unchecked=True).unchecked
    copied = signature(dict(params), "number")  # a patch copies an item's mapping
    assert copied is not made and copied == made
