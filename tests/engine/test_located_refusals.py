"""Every run-time error is located (issue 44, point 7): a full zone, a payment that
cannot be made or a `do` whose requirement fails, raised by an effect, is named at the
statement that raised it, with the round, phase and event.

Raised by a step of play that no move is making (the setup, a phase or trigger that
runs after a move's own step ended), it is a defect of the rules: a ``RuleError``.
Raised by the move's own step, it refuses the move, as before: an ``IllegalMove``, now
located too, so that `rules play` names the rule that refused an option it offered."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from interpreter.cli.main import cli
from interpreter.engine.game import Game
from interpreter.errors import IllegalMove, RuleError
from interpreter.ruleset import load_or_raise

MANIFEST = """\
id: refusals
name: Refusals
version: 0.1.0
players: {min: 2, max: 2}
include: [content.yaml]
"""

# the pile holds one token; `setup`, `pick` (a move) and `later` (a phase after it)
# are filled in by each test
CONTENT = """\
counters:
  coins: {{per: player, initial: 1}}
  score: {{per: player}}
zones:
  pile: {{per: game, visibility: public, capacity: 1}}
  hand: {{per: player, visibility: public}}
kinds:
  token: {{}}
components:
  t1: {{kind: token}}
  t2: {{kind: token}}
  t3: {{kind: token}}
actions:
  pay_five:
    params: {{}}
    requires:
      - {{condition: my.coins >= 5, message: too poor}}
    effect: pay(coins, 5)
structure:
  setup: |
    move(t1, pile)
    {setup}
  rounds: {{count: 1}}
  phases:
    - id: pick
      kind: turns
      while: my.hand.size == 0
      effect: |
        choose t in [t2, t3] as "take" {{
          {pick}
        }}
    - id: later
      kind: once
      effect: |
        {later}
scoring:
  score: score
  steps: []
"""


def ruleset(tmp_path: Path, setup: str = ";", pick: str = "move(t, me.hand)", later: str = ";"):
    folder = tmp_path / "refusals"
    folder.mkdir()
    (folder / "ruleset.yaml").write_text(MANIFEST)
    content = CONTENT.format(setup=setup, pick=pick, later=later)
    (folder / "content.yaml").write_text(content)
    return folder, content.splitlines()


def at(error, lines: list[str], statement: str) -> None:
    """``error`` is named at the line of ``content.yaml`` that holds ``statement``."""
    assert error.where is not None, error.message
    assert Path(error.where.path).name == "content.yaml"
    assert statement in lines[error.where.line - 1], (error.where, statement)


def play(folder: Path) -> str:
    result = CliRunner().invoke(cli, ["play", str(folder), "--players", "2", "--seed", "1"])
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output and "internal error" not in result.output
    return result.output


def test_a_later_phase_moving_into_a_full_zone_is_a_located_rule_error(tmp_path):
    """Before: the move that led to the phase was refused as illegal, with the bare
    message `pile is full (1)`."""
    folder, lines = ruleset(tmp_path, later="move(t3, pile)")
    game = Game(load_or_raise(folder), ["Ann", "Bob"], seed=1)
    game.apply("Ann", "take t2")
    with pytest.raises(RuleError) as caught:
        game.apply("Bob", "take t3")
    error = caught.value
    assert error.message == "cannot move t3 into pile: it is full (`capacity: 1`)"
    at(error, lines, "move(t3, pile)")
    assert error.when == "round 1, phase later, event 2"
    assert game.legal("Bob") == ("take t2", "take t3")  # undone, as for any rule error
    output = play(folder)
    assert "content.yaml:" in output.split(": error: cannot move t3 into pile")[0]
    assert "(round 1, phase later, event " in output


def test_a_failed_do_of_a_later_phase_is_a_located_rule_error(tmp_path):
    folder, lines = ruleset(tmp_path, later="act as first(players) { do pay_five() }")
    game = Game(load_or_raise(folder), ["Ann", "Bob"], seed=1)
    game.apply("Ann", "take t2")
    with pytest.raises(RuleError) as caught:
        game.apply("Bob", "take t3")
    assert caught.value.message == "cannot pay_five: too poor"
    at(caught.value, lines, "do pay_five()")
    assert "content.yaml:" in play(folder).split(": error: cannot pay_five: too poor")[0]


def test_an_offered_option_its_own_effect_refuses_is_an_illegal_move_located(tmp_path):
    """The move's own step refuses it: still an illegal move (replay and scenarios say
    so), now named at the statement, and `rules play` prints where."""
    folder, lines = ruleset(tmp_path, pick="move(t, pile)")
    game = Game(load_or_raise(folder), ["Ann", "Bob"], seed=1)
    with pytest.raises(IllegalMove) as caught:
        game.apply("Ann", "take t2")
    error = caught.value
    assert error.message == "cannot move t2 into pile: it is full (`capacity: 1`)"
    at(error, lines, "move(t, pile)")
    assert error.when == "round 1, phase pick, event 1"
    assert game.legal("Ann") == ("take t2", "take t3")
    output = play(folder)
    assert "content.yaml:" in output.split(": error: cannot move t2 into pile")[0]
    assert "(round 1, phase pick, event 1)" in output


@pytest.mark.parametrize(
    ("setup", "statement", "message"),
    [
        (
            "move(t2, pile)",
            "move(t2, pile)",
            "cannot move t2 into pile: it is full (`capacity: 1`)",
        ),
        ("act as first(players) { do pay_five() }", "do pay_five()", "cannot pay_five: too poor"),
    ],
)
def test_a_refusal_in_the_setup_is_located_in_the_setup(tmp_path, setup, statement, message):
    """Before: located, but said to happen in the first phase of round 0."""
    folder, lines = ruleset(tmp_path, setup=setup)
    with pytest.raises(RuleError) as caught:
        Game(load_or_raise(folder), ["Ann", "Bob"], seed=1)
    assert caught.value.message == message
    at(caught.value, lines, statement)
    assert caught.value.when == "the setup, event 1"


def test_an_action_the_sandbox_runs_is_refused_at_its_rule(tmp_path):
    """`run_action` (tests, scenarios): a refused action is an illegal move named at
    the action (its requirement) or at the statement that refused it."""
    folder, lines = ruleset(tmp_path)
    game = Game(load_or_raise(folder), ["Ann", "Bob"], seed=1)
    with pytest.raises(IllegalMove) as caught:
        game.run_action("pay_five", "Ann")
    assert caught.value.message == "cannot pay_five: too poor"
    at(caught.value, lines, "pay_five:")
    assert caught.value.when == "round 1, phase pick, event 1"


def test_a_failing_when_of_a_trigger_is_located_at_the_trigger(tmp_path):
    """Before: at the structure's `rounds` (the course was between two steps)."""
    folder, _ = ruleset(tmp_path)
    content = folder / "content.yaml"
    trigger = "triggers:\n  broke:\n    when: 10 // (my.coins - 1) > 1\n    effect: ;\n"
    content.write_text(content.read_text().replace("structure:\n", trigger + "structure:\n"))
    lines = content.read_text().splitlines()
    with pytest.raises(RuleError) as caught:
        Game(load_or_raise(folder), ["Ann", "Bob"], seed=1)
    assert caught.value.message == "division by zero"
    at(caught.value, lines, "broke:")
    assert caught.value.when == "the setup, event 1"


SPACES = "spaces:\n  seat:\n    capacity: 1\n    items:\n      seat1: {}\n  decoration:\n"
SPACES += "    capacity: 0\n    claimable: true\n    items:\n      deco1: {}\nkinds:\n"


def with_spaces(tmp_path: Path, later: str) -> tuple[Path, list[str]]:
    """The ruleset with a space of one component (`seat1`) and one of none (`deco1`)."""
    folder, _ = ruleset(tmp_path, later=later)
    content = folder / "content.yaml"
    content.write_text(content.read_text().replace("kinds:\n", SPACES, 1))
    return folder, content.read_text().splitlines()


def test_a_full_space_is_named_at_the_rule_with_a_hint(tmp_path):
    """Issue 49: the move into a full space names the statement, the piece, the space
    and its capacity, and says what to test first."""
    folder, lines = with_spaces(tmp_path, "move([t1, t3], seat1)")
    game = Game(load_or_raise(folder), ["Ann", "Bob"], seed=1)
    game.apply("Ann", "take t2")
    with pytest.raises(RuleError) as caught:
        game.apply("Bob", "take t3")
    error = caught.value
    assert error.message == "cannot move t3 into seat1: it is full (`capacity: 1`)"
    assert error.hint.startswith("test `seat1.free` or `seat1.size < seat1.capacity` first")
    at(error, lines, "move([t1, t3], seat1)")
    output = play(folder)
    assert "content.yaml:" in output.split(": error: cannot move t3 into seat1")[0]


def test_a_space_of_capacity_0_takes_no_component(tmp_path):
    """Issue 49: `capacity: 0` of a space means a marker only, as format.md says (it
    took any number of components, as `0` of a zone does)."""
    folder, lines = with_spaces(tmp_path, "move(t3, deco1)")
    game = Game(load_or_raise(folder), ["Ann", "Bob"], seed=1)
    game.apply("Ann", "take t2")
    with pytest.raises(RuleError) as caught:
        game.apply("Bob", "take t3")
    assert caught.value.message.startswith("cannot move t3 onto deco1: the space takes no")
    at(caught.value, lines, "move(t3, deco1)")


def test_a_zone_of_capacity_0_has_no_limit(tmp_path):
    folder, _ = ruleset(tmp_path, later="move([t1, t2, t3], first(players).hand)")
    game = Game(load_or_raise(folder), ["Ann", "Bob"], seed=1)
    game.apply("Ann", "take t2")
    game.apply("Bob", "take t3")
    assert set(game.state.zones["hand#0"]) == {"t1", "t2", "t3"}
