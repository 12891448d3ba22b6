"""The checks after the compiles share their work between the checked builds of one
process where what they read is the same (the secrecy check's walks: ``_Walks`` in
``language/secrecy.py``): every combination says what it says checked alone, also
when an expansion changes what a base tree's answer depends on."""

from __future__ import annotations

import shutil
import textwrap
from pathlib import Path

import pytest

from interpreter.language import secrecy as secrecy_module
from interpreter.ruleset import load

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
