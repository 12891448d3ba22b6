"""What the checker can see of a ruleset that would not play to its end is refused by
`validate`, at its place: recursion through do/emit/can, rounds and turns without
end, the acting player where nobody acts, values of no known type in arithmetic."""

from __future__ import annotations

import textwrap
from pathlib import Path

from interpreter.ruleset import load

MANIFEST = "id: p\nname: P\nversion: 0.1.0\nplayers: {min: 2, max: 2}\ninclude: [c.yaml]\n"
BASE = """\
counters:
  coins: {per: player}
  score: {per: player}
zones:
  pile: {per: game, visibility: public}
constants:
  table: {value: {a: 1}}
events:
  rang: {params: {}}
"""
COURSE = """\
structure:
  rounds: {count: 1}
  phases:
    - {id: go, kind: each_player, effect: "gain(coins, 1)"}
scoring: {score: score, steps: []}
"""


def problems(tmp_path: Path, content: str, course: str = COURSE) -> list[tuple[int, int, str]]:
    (tmp_path / "ruleset.yaml").write_text(MANIFEST)
    (tmp_path / "c.yaml").write_text(BASE + textwrap.dedent(content) + course)
    return [(d.location.line, d.location.column, d.message) for d in load(tmp_path).diagnostics]


def test_an_action_that_does_itself_is_refused_where_it_does(tmp_path):
    found = problems(
        tmp_path,
        """
        actions:
          ping:
            params: {}
            effect: |
              gain(coins, 1)
              do pong()
          pong:
            params: {}
            effect: emit rang()
        triggers:
          echo: {on: rang, effect: do ping()}
        """,
    )
    assert len(found) == 1
    line, _column, message = found[0]
    # at the `do` that closes the loop
    assert "do ping()" in (tmp_path / "c.yaml").read_text().splitlines()[line - 1]
    assert "leads back to where it starts" in message
    assert "action ping" in message and "trigger echo" in message


def test_a_requirement_that_asks_can_of_itself_is_refused(tmp_path):
    found = problems(
        tmp_path,
        """
        actions:
          loop:
            params: {}
            requires:
              - {condition: can loop(), message: never}
            effect: gain(coins, 1)
        """,
    )
    assert [m for _, _, m in found if "leads back" in m]


def test_rounds_and_turns_must_end(tmp_path):
    course = """\
structure:
  rounds: {}
  phases:
    - {id: go, kind: turns, effect: "gain(coins, 1)"}
scoring: {score: score, steps: []}
"""
    messages = [m for _, _, m in problems(tmp_path, "", course)]
    assert any("the rounds never end" in m for m in messages)
    assert any("has no `while`" in m for m in messages)


def test_the_acting_player_where_nobody_acts(tmp_path):
    course = """\
structure:
  setup: |
    gain(coins, my.coins)
    for p in players { act as p { gain(coins, 1) } }
  rounds: {count: 1}
  phases:
    - {id: start, kind: once, effect: "choose p in players as 'first' { }"}
scoring:
  score: score
  steps:
    - {id: end, effect: "for p in players { act as p { choose q in players { } } }"}
"""
    found = problems(tmp_path, "", course)
    assert [(m.split(",")[0]) for _, _, m in found] == [
        "`my` names the acting player",
        "a choice here has nobody to make it: no player acts in this part of the game",
    ]


def test_a_value_of_no_known_type_must_be_made_a_number_before_arithmetic(tmp_path):
    found = problems(
        tmp_path,
        """
        functions:
          bad:
            returns: number
            value: first(keys(table)) + 1
          good:
            returns: number
            value: number(first(keys(table))) + get(table, 'a') + get(table, 'b', 0)
        """,
    )
    assert len(found) == 1 and "`+` needs numbers" in found[0][2]
