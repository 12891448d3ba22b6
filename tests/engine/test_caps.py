"""Valid means playable: a ruleset `rules validate` accepts never hangs `rules play`
and never ends in an internal error. Loops, nesting, numbers, collections and the
course of the game are capped at run time; what the checker can see is refused
before. Each case plays a small ruleset in a subprocess with a timeout and expects
exit 1 with the failing rule named `file:line:col: error: …` (or a validate error)."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

MANIFEST = """\
id: capped
name: Capped
version: 0.1.0
players: {min: 2, max: 3}
include: [content.yaml]
"""

BASE = """\
counters:
  coins: {per: player}
  score: {per: player}
  loops: {per: game}
zones:
  pile: {per: game, visibility: public}
  hand: {per: player, visibility: private}
kinds:
  token:
    properties:
      value: {type: number}
      word: {type: text, default: "a"}
components:
  t1: {kind: token, value: 1}
  t2: {kind: token, value: 2}
constants:
  words: {value: {a: "x", b: 2}}
"""

STRUCTURE = """\
structure:
  setup: |
    {setup}
  rounds: {{count: 2}}
  phases:
    - id: act
      kind: each_player
      effect: |
        {effect}
scoring:
  score: score
  steps: []
"""


def game(tmp_path: Path, effect: str = ";", setup: str = ";", extra: str = "", structure=None):
    folder = tmp_path / "capped"
    folder.mkdir()
    (folder / "ruleset.yaml").write_text(MANIFEST)
    effect = effect.replace("\n", "\n        ")  # the effect's lines inside the YAML block
    body = structure if structure is not None else STRUCTURE.format(setup=setup, effect=effect)
    (folder / "content.yaml").write_text(BASE + textwrap.dedent(extra) + body)
    return folder


def play(folder: Path) -> subprocess.CompletedProcess:
    command = [sys.executable, "-m", "interpreter", "play", str(folder), "--players", "2"]
    return subprocess.run(command, capture_output=True, text=True, timeout=120)


def located(result: subprocess.CompletedProcess, message: str) -> str:
    assert result.returncode == 1, result.stdout + result.stderr
    assert "internal error" not in result.stderr and "Traceback" not in result.stderr
    line = next((x for x in result.stderr.splitlines() if message in x), None)
    assert line is not None, result.stderr
    assert "content.yaml:" in line.split(": error: ")[0], line
    return line


@pytest.mark.parametrize(
    ("effect", "message"),
    [
        # 2. loops the step budget did not see: a `for` with an empty body, iteration
        # inside expressions, a collection that doubles
        ("while true { for i in range(0, 10000) { } }", "step budget"),
        (
            "let n = count(a in range(0, 10000) where "
            "count(b in range(0, 10000) where a == b) > 0)",
            "step budget",
        ),
        ("let l = [1]\nwhile true { l = l + l }", "collection grew beyond"),
        # 5. numbers that explode, values of no declared type reaching arithmetic
        ("let x = 2\nwhile true { x = x * x }", "number grew beyond"),
        ("let w = get(words, 'a', 0)", "is not a number"),
        # 6. a player beyond the table, none given as a player
        ("gain(coins, 1, to: players[5])", "position 5 is outside the list"),
        ("gain(coins, 1, to: first(p in players where p.coins > 99))", "given none"),
        # 11. negative positions do not wrap; a negative draw; a text is no collection
        ("gain(coins, 1, to: players[-1])", "position -1 is outside"),
        ("draw(pile, my.hand, -3)", "negative number"),
        ("for c in first(keys(words)) { }", "`for` needs a collection"),
        # a property of none (found by the fuzzer as a KeyError)
        ("let t = first(x in pile.pieces)\ngain(coins, t.value)", "instead of a component"),
    ],
)
def test_a_run_away_rule_ends_in_a_located_error(tmp_path, effect, message):
    located(play(game(tmp_path, effect=effect)), message)


def test_actions_nested_without_end_end_in_a_located_error(tmp_path):
    """4. A chain 400 actions deep (no cycle the checker could see) stops at the cap."""
    chain = "actions:\n" + "".join(
        f"  a{i}:\n    params: {{}}\n    effect: do a{i + 1}()\n" for i in range(400)
    )
    chain += "  a400:\n    params: {}\n    effect: gain(coins, 1)\n"
    line = located(play(game(tmp_path, effect="do a0()", extra=chain)), "nested more than")
    assert "an action that does itself" in line


def test_the_rounds_are_capped_when_until_never_holds(tmp_path):
    """3. Rounds with an `until` that never holds."""
    structure = """\
structure:
  rounds: {until: loops < 0}
  phases:
    - {id: tick, kind: once, effect: "loops += 1"}
scoring: {score: score, steps: []}
"""
    located(play(game(tmp_path, structure=structure)), "1,000 rounds")


def test_turns_that_never_stop_are_capped(tmp_path):
    """3. A `turns` phase whose `while` always holds."""
    structure = """\
structure:
  rounds: {count: 1}
  phases:
    - {id: go, kind: turns, while: "true", effect: "gain(coins, 1)"}
scoring: {score: score, steps: []}
"""
    located(play(game(tmp_path, structure=structure)), "steps of play")


def test_a_trigger_that_always_fires_is_capped(tmp_path):
    """3. A `when` trigger that is always true (and may fire again and again)."""
    extra = """\
triggers:
  again:
    when: "true"
    once: never
    effect: loops += 1
"""
    located(play(game(tmp_path, effect="gain(coins, 1)", extra=extra)), "steps of play")


def test_a_payment_the_setup_cannot_make_is_a_located_rule_error(tmp_path):
    """No player's move is under way in the setup: a rule that cannot be carried out
    there (found by the fuzzer as an unlocated illegal move) is the rules' defect."""
    folder = game(tmp_path, setup="for p in players { pay(coins, 5, by: p) }")
    located(play(folder), "not enough coins")


def test_a_can_leading_back_through_an_action_held_in_a_value_ends_in_a_located_error(tmp_path):
    """`can` of an action held in a value (no cycle the checker could see) that leads
    back to the action asking it: every check that asks `can` counts a level."""
    extra = textwrap.dedent(
        """\
        functions:
          holds: {params: {a: action}, returns: bool, value: "can a()"}
        actions:
          looping:
            params: {}
            requires:
              - {condition: "holds(first(g in gate).check)", message: never}
            effect: gain(coins, 1)
        """
    )
    folder = game(tmp_path, effect="if can looping() { gain(coins, 1) }", extra=extra)
    content = folder / "content.yaml"
    text = content.read_text().replace(
        "kinds:\n", "kinds:\n  gate:\n    properties:\n      check: {type: action}\n", 1
    )
    content.write_text(
        text.replace("components:\n", "components:\n  g1: {kind: gate, check: looping}\n", 1)
    )
    located(play(folder), "nested more than")
