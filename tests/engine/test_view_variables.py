"""A player's own variables (`per: player`) are in the views (``engine/view.py``) and on
`rules play`'s board, each shown to whom its visibility allows; before issue 49 the
views left them out altogether."""

from __future__ import annotations

from pathlib import Path

from rules_test_support import invoke

from interpreter.engine.game import Game
from interpreter.engine.view import full_view, view
from interpreter.engine.words import Wording, view_lines
from interpreter.ruleset import load_or_raise

MANIFEST = """id: vars
name: Vars
version: 1.0.0
players: {min: 2, max: 2}
include: [core.yaml]
"""
CORE = """counters:
  points: {per: player}
variables:
  bid: {per: player, type: number, visibility: private}
  partner: {per: player, type: player}
  mood: {per: game, type: text}
structure:
  setup: |
    for p in players { act as p { my.bid = 3 + p.seat  my.partner = p.next } }
  rounds: {count: 1}
  phases:
    - id: main
      kind: each_player
      effect: |
        choose { option "go" { gain(points, my.bid) } }
scoring: {score: points, steps: []}
"""


def game(tmp_path: Path) -> Game:
    (tmp_path / "ruleset.yaml").write_text(MANIFEST, encoding="utf-8")
    (tmp_path / "core.yaml").write_text(CORE, encoding="utf-8")
    return Game(load_or_raise(str(tmp_path)), ["Ann", "Bob"], seed=1)


def test_a_players_variables_are_in_the_view_by_their_visibility(tmp_path: Path) -> None:
    played = game(tmp_path)
    ann, bob = view(played, 0)["players"]
    assert ann["variables"] == {"bid": 3, "partner": "Bob"}  # her own private bid too
    assert bob["variables"] == {"partner": "Ann"}  # his bid is private
    assert full_view(played)["players"][1]["variables"] == {"bid": 4, "partner": "Ann"}


def test_the_board_shows_them_on_the_players_line(tmp_path: Path) -> None:
    shown = view(game(tmp_path), 1)
    wording = Wording(lambda name, *_: name, zone=str, content=str, space=str, you="Bob")
    lines = view_lines(shown, wording)
    assert "Ann: points 0, partner Bob" in lines
    assert "Bob (you): points 0, bid 4, partner Ann" in lines


def test_a_scenario_checks_what_a_player_sees_of_them(tmp_path: Path) -> None:
    game(tmp_path)  # writes the ruleset
    scenario = tmp_path / "vars.yaml"
    scenario.write_text(
        "ruleset: .\nscenarios:\n  - name: bids are private\n    expect:\n"
        "      view:\n        P2: {sees: [P2.bid, P1.partner, mood], hidden: [P1.bid]}\n",
        encoding="utf-8",
    )
    result = invoke("test", str(scenario))
    assert result.exit_code == 0, result.output
    assert "PASS bids are private" in result.output
