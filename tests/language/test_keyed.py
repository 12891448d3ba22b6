"""Keyed counters and zones (``language/keyed.py``, ``ruleset/keyed.py``): one
declaration with `keys:` gives one counter or zone per key, per player when it is per
player, read and changed as `name[key]`; a key known when compiling is checked then,
a computed one when the rule runs; members are ordinary counters and zones in the
state, the views, scenario files and replays."""

from __future__ import annotations

from pathlib import Path

import pytest
from rules_test_support import invoke

from interpreter.engine.game import Game
from interpreter.engine.view import view
from interpreter.errors import GameError
from interpreter.ruleset import load, load_or_raise

MANIFEST = """id: keyt
name: Keyt
version: 1.0.0
players: {min: 2, max: 3}
include: [core.yaml]
"""
CORE = """constants:
  colours: {value: [red, blue, green]}
kinds:
  chip: {properties: {colour: {type: text, values: [red, blue, green]}}}
components:
  chip:
    kind: chip
    each: {colour: [red, blue, green]}
    count: 2
counters:
  points: {per: player}
  lit: {per: game, keys: colours, max: 5}
  progress: {per: player, keys: {from: 2, to: 4}, visibility: private}
  marker: {per: game, keys: chip}
zones:
  bag: {per: game}
  row: {per: player, keys: chip.colour}
  pile: {per: game, keys: [red, blue, green]}
structure:
  setup: |
    for x in chip { move(x, bag) }
    SETUP
  rounds: {count: 1}
  phases:
    - id: main
      kind: each_player
      effect: |
        choose c in colours as ("light " + c) {
          lit[c] += 1
          my.points += lit[c] + my.progress[3] + my.row[c].size + pile[c].size
        }
scoring: {score: points, steps: []}
"""
SETUP = """lit['red'] += 2
    gain(lit['blue'], 7)
    for p in players { p.progress[3] += p.seat + 1  gain(progress[2], 4, to: p) }
    move(first(c in chip where c.colour == 'green'), players[0].row['green'])
    move(first(c in bag where c.colour == 'red'), pile['red'])
    marker[chip[0]] += 1"""


def write(folder: Path, setup: str = SETUP) -> Path:
    (folder / "ruleset.yaml").write_text(MANIFEST, encoding="utf-8")
    (folder / "core.yaml").write_text(CORE.replace("SETUP", setup), encoding="utf-8")
    return folder


def problems(folder: Path, setup: str) -> list[tuple[int, int, str, str | None]]:
    loaded = load(write(folder, setup), use_store=False)
    return [(d.location.line, d.location.column, d.message, d.hint) for d in loaded.diagnostics]


def test_each_key_is_a_member_read_and_changed_by_a_computed_key(tmp_path: Path) -> None:
    game = Game(load_or_raise(str(write(tmp_path))), ["A", "B"], seed=1)
    counters = game.state.counters
    assert (counters["lit[red]"], counters["lit[blue]"], counters["lit[green]"]) == (2, 5, 0)
    assert [counters[f"progress[3]#{s}"] for s in (0, 1)] == [1, 2]  # `p.progress[3] +=`
    assert [counters[f"progress[2]#{s}"] for s in (0, 1)] == [4, 4]  # `gain(progress[2], …)`
    assert counters["marker[chip_red-1]"] == 1  # a kind's components as keys
    assert game.state.contents("row[green]#0") == ("chip_green-1",)
    assert game.state.contents("pile[red]") == ("chip_red-1",)
    game.apply(0, "light green")  # lit[green] 1 + progress[3] 1 + row 1 + pile 0
    assert game.state.counters["points#0"] == 3
    assert game.state.counters["lit[green]"] == 1


def test_a_member_keeps_the_family_bounds(tmp_path: Path) -> None:
    game = Game(load_or_raise(str(write(tmp_path))), ["A", "B"], seed=1)
    assert game.state.counters["lit[blue]"] == 5  # `gain(lit['blue'], 7)` stops at max 5


def test_views_show_members_by_their_visibility(tmp_path: Path) -> None:
    game = Game(load_or_raise(str(write(tmp_path))), ["A", "B"], seed=1)
    seen = view(game, 1)
    assert seen["counters"]["lit[red]"] == 2
    assert seen["zones"]["pile[red]"] == ["chip_red-1"]
    a, b = seen["players"]
    assert a["zones"]["row[green]"] == ["chip_green-1"]
    assert "progress[3]" not in a["counters"]  # private: A's, not shown to B
    assert b["counters"]["progress[3]"] == 2


@pytest.mark.parametrize(
    "setup, message, hint",
    [
        ("lit['rde'] += 2", "'rde' is not a key of `lit`", "its keys: red, blue, green"),
        ("lit[3] += 1", "`lit` is keyed by a text, not a number", "its keys: red"),
        ("lit += 1", "`lit` holds one value per key", "write `lit['red']`"),
        ("let x = lit", "`lit` holds one value per key", "sum(lit[k] for k in …)"),
        ("let x = players[0].progress[5]", "5 is not a key of `progress`", "its keys: 2, 3, 4"),
        ("let x = progress[2]", "`progress` belongs to a player", "`my.progress[…]`"),
        ("gain(lit['pink'], 1)", "'pink' is not a key of `lit`", "its keys"),
        ("pile['red'] = 1", "`pile[…]` is a zone", None),
    ],
)
def test_a_wrong_key_known_when_compiling_is_a_located_error(
    tmp_path: Path, setup: str, message: str, hint: str | None
) -> None:
    (found,) = problems(tmp_path, setup)
    line, column, text, given = found
    assert line == 22  # the setup's second line, in core.yaml
    assert column > 4
    assert message in text
    if hint:
        assert hint in (given or "")


def test_a_computed_key_out_of_range_is_a_rule_error(tmp_path: Path) -> None:
    write(tmp_path, "lit[text(player_count)] += 1")
    with pytest.raises(GameError, match=r"'2' is not a key of `lit`") as caught:
        Game(load_or_raise(str(tmp_path)), ["A", "B"], seed=1)
    assert "its keys: red, blue, green" in (caught.value.hint or "")
    where = caught.value.where  # located at the statement, in core.yaml
    assert where is not None and (where.line, where.column) == (22, 5)


@pytest.mark.parametrize(
    "keys, message",
    [
        ("colourz", "keys: 'colourz' is neither a constant nor a kind"),
        ("[red, 2]", "all texts or all whole numbers"),
        ("[red, red]", "'red' is a key twice"),
        ("{from: 3, to: 1}", "a range goes `from`"),
        ("{from: 1, to: 5000}", "more than 1,000"),
        ("[a b]", "cannot be a key"),
        ("chip.size", "kind 'chip' has no property 'size'"),
        ("chips.colour", "'chips' is not a kind"),
    ],
)
def test_keys_are_checked_where_declared(tmp_path: Path, keys: str, message: str) -> None:
    write(tmp_path, "stop")
    core = tmp_path / "core.yaml"
    text = core.read_text(encoding="utf-8").replace("keys: colours, max: 5", f"keys: {keys}")
    core.write_text(text, encoding="utf-8")
    loaded = load(tmp_path, use_store=False)
    found = [d for d in loaded.diagnostics if message in d.message]
    assert found, [d.message for d in loaded.diagnostics]
    assert (found[0].location.line, found[0].location.column) == (12, 26)


def test_the_secrecy_check_sees_a_hidden_member_read(tmp_path: Path) -> None:
    # `progress` is private: whether players[1] is asked must not depend on players[0]'s
    setup = "if players[0].progress[3] > 0 { choose c in colours by players[1] { stop } }"
    (found,) = problems(tmp_path, setup)
    assert "depends on `progress`, which not every player can see" in found[2]


def test_a_game_with_keyed_members_is_logged_and_replays(tmp_path: Path) -> None:
    (tmp_path / "keyt").mkdir()
    folder = write(tmp_path / "keyt")
    log = tmp_path / "game.jsonl"
    played = invoke("play", str(folder), "--players", "3", "--seed", "4", "--log", str(log))
    assert played.exit_code == 0, played.output
    replayed = invoke("replay", str(log), "--ruleset", str(folder))
    assert replayed.exit_code == 0, replayed.output
    assert played.output.splitlines()[-3:] == replayed.output.splitlines()[-3:]


def test_a_property_of_the_same_name_is_still_read_as_a_property(tmp_path: Path) -> None:
    # the phase reads `my.row[c]` (the zone); a chip's property `row` stays a list
    write(tmp_path, "lit['red'] += number(chip[0].row[1])")
    core = tmp_path / "core.yaml"
    text = core.read_text(encoding="utf-8").replace(
        "values: [red, blue, green]}}}",
        "values: [red, blue, green]}, row: {type: list, default: [1, 2]}}}",
    )
    core.write_text(text, encoding="utf-8")
    game = Game(load_or_raise(str(tmp_path)), ["A", "B"], seed=1)
    assert game.state.counters["lit[red]"] == 2
    game.apply(0, "light red")
    assert game.state.counters["points#0"] == 3  # lit[red] 3 + progress[3] 0 + rows 0


def test_a_key_range_may_end_at_a_constant(tmp_path: Path) -> None:
    """A range's ends are counts: `keys: {from: 2, to: last_column}` as `rounds.count` or
    a capacity takes a constant; a name that is no constant is refused there."""
    write(tmp_path)
    core = tmp_path / "core.yaml"
    text = core.read_text(encoding="utf-8")
    text = text.replace("keys: {from: 2, to: 4}", "keys: {from: 2, to: top - 1}")
    core.write_text(text.replace("constants:\n", "constants:\n  top: {value: 5}\n"), "utf-8")
    loaded = load(tmp_path, use_store=False)
    assert loaded.ruleset is not None, [d.message for d in loaded.diagnostics]
    assert loaded.ruleset.keyed["progress"] == {
        2: "progress[2]",
        3: "progress[3]",
        4: "progress[4]",
    }
    core.write_text(core.read_text(encoding="utf-8").replace("top - 1", "tops"), "utf-8")
    problems = [d.message for d in load(tmp_path, use_store=False).diagnostics]
    assert any("tops" in m for m in problems), problems
