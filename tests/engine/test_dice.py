"""Dice (`faces` on a kind, `roll`, `d.face`): chance outcomes like a shuffle, seen by
whoever sees the die's zone, and dealt afresh in the worlds of whoever cannot.

The fixture ``dice/`` puts two dice in each player's private cup (rolled at the
setup), a two-faced coin on the public tray and a token that is no die.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from rules_test_support import invoke

from interpreter.engine.game import Game
from interpreter.engine.seat import alternative, determinize
from interpreter.engine.state import knowledge
from interpreter.engine.view import view
from interpreter.engine.words import render_view
from interpreter.errors import RuleError
from interpreter.ruleset import load, load_or_raise
from interpreter.ruleset.dice import FACES

DICE = Path(__file__).parent / "dice"


def started(seed: int = 0, players: int = 2) -> Game:
    return Game(load_or_raise(str(DICE)), [f"P{i + 1}" for i in range(players)], seed=seed)


def faces(game: Game, zone: str) -> list[int]:
    return [game.tables.face(game.state, d) for d in game.state.zones[zone]]


def test_a_roll_is_a_chance_outcome_per_zone_written_on_the_dice() -> None:
    game = started(seed=4)
    rolls = [e for e in game.events if "chance" in e]
    assert [e["chance"] for e in rolls] == ["roll cup#0", "roll cup#1"]
    for event, zone in zip(rolls, ("cup#0", "cup#1"), strict=True):
        assert [int(x) for x in event["outcome"]] == faces(game, zone)
        assert all(1 <= int(x) <= 6 for x in event["outcome"])
    assert started(seed=4).state.engine[FACES] == game.state.engine[FACES]  # same seed
    assert any(started(seed=s).state.engine[FACES] != game.state.engine[FACES] for s in range(5))


def test_a_die_never_rolled_shows_its_first_face_and_a_roll_changes_it() -> None:
    game = started()
    assert game.tables.face(game.state, "c") == 0
    seen = set()
    for _ in range(40):
        game.run_action("toss", "P1")
        seen.add(game.tables.face(game.state, "c"))
        assert game.events[-1]["chance"] == "roll tray"
    assert seen == {0, 1}


def test_what_is_no_die_is_neither_rolled_nor_read() -> None:
    game = started()
    with pytest.raises(RuleError, match="t is no die: roll"):
        game.run_action("roll_token", "P1")
    with pytest.raises(RuleError, match=r"t is no die: `\.face`"):
        game.run_action("read_token", "P1")


def test_a_player_sees_the_faces_of_the_dice_in_the_zones_they_see() -> None:
    game = started(seed=2)
    own, others = game.state.zones["cup#0"], game.state.zones["cup#1"]
    open_dice = {"c", *game.state.zones["box"]}  # the coin on the tray, the spare dice
    shown = view(game, 0)["faces"]
    assert set(shown) == {*own, *open_dice}  # their cup and the open dice, not P2's cup
    assert [shown[d] for d in own] == faces(game, "cup#0")
    assert view(game, 0)["players"][1]["zones"]["cup"] == {"count": 2}
    assert set(view(game, 1)["faces"]) == {*others, *open_dice}
    assert set(view(game, None)["faces"]) == open_dice  # a spectator: the open dice only


def test_a_die_shown_is_known_until_it_is_rolled_again() -> None:
    game = started(seed=2)
    mine = game.state.zones["cup#0"]
    game.run_action("show", "P1")  # P1 lifts their cup for everyone
    assert set(mine) <= set(view(game, 1)["faces"])
    assert all(knowledge(game.state)[d] == (0, 1) for d in mine)
    game.run_action("shake", "P1")  # and shakes it again
    assert not set(mine) & set(view(game, 1)["faces"])
    assert not any(1 in knowledge(game.state).get(d, ()) for d in mine)
    assert set(mine) <= set(view(game, 0)["faces"])  # P1 sees their cup as always


def test_a_world_rolls_afresh_the_dice_its_player_cannot_see() -> None:
    game = started(seed=5, players=3)
    real = game.state.engine[FACES]
    own = set(game.state.zones["cup#0"])
    hidden = set(game.state.zones["cup#1"]) | set(game.state.zones["cup#2"])
    worlds = [determinize(game, 0, f"w{n}") for n in range(30)]
    for world in worlds:
        dealt = world.state.engine[FACES]
        assert {d: dealt[d] for d in own} == {d: real[d] for d in own}
        assert view(world, 0)["faces"] == view(game, 0)["faces"]
    totals = Counter(
        sum(w.tables.face(w.state, d) for z in ("cup#1", "cup#2") for d in w.state.zones[z])
        for w in worlds
    )
    assert len(totals) > 5  # the hidden dice are rolled again, not only dealt again
    assert all(len(w.state.zones[z]) == 2 for w in worlds for z in ("cup#1", "cup#2"))
    assert determinize(game, 0, "w1").state.engine[FACES] == worlds[1].state.engine[FACES]
    assert hidden == {d for w in worlds[:1] for z in ("cup#1", "cup#2") for d in w.state.zones[z]}


def test_a_roll_of_the_step_under_way_is_rolled_afresh_for_who_cannot_see_it() -> None:
    game = started(seed=7)
    game.apply("P1", "shake")  # rolled inside P1's turn, whose next decision is open
    assert game.pending()[0].options == ("done", "again")
    mine = faces(game, "cup#0")
    for_p1 = [determinize(game, 0, f"a{n}") for n in range(10)]
    assert all(faces(w, "cup#0") == mine for w in for_p1)  # P1 saw their own roll
    for_p2 = [determinize(game, 1, f"b{n}") for n in range(20)]
    assert all(w.pending()[0].options == ("done", "again") for w in for_p2)
    assert len({tuple(faces(w, "cup#0")) for w in for_p2}) > 3


def test_the_twin_of_the_secrecy_tests_differs_in_hidden_faces_only() -> None:
    game = started(seed=6)
    game.apply("P1", "shake")  # a roll of P1's cup inside the step under way
    twins = [alternative(game, 1, f"t{n}") for n in range(20)]
    assert all(t is not None for t in twins)
    assert all(view(t, 1) == view(game, 1) for t in twins)  # P2 sees nothing change
    assert len({tuple(faces(t, "cup#0")) for t in twins}) > 1  # P1's cup rolled afresh


def test_a_logged_roll_replays_and_a_tampered_one_is_refused(tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    result = invoke("play", str(DICE), "--players", "2", "--seed", "3", "--log", str(log))
    assert result.exit_code == 0, result.output
    assert invoke("replay", "--ruleset", str(DICE), str(log)).exit_code == 0
    lines = log.read_text().splitlines()
    at = next(i for i, line in enumerate(lines) if '"roll cup#1"' in line)
    event = json.loads(lines[at])
    for outcome, why in (
        (["7", event["outcome"][1]], "is not one face for each of the 2 dice there"),
        (event["outcome"][:1], "is not one face for each of the 2 dice there"),
    ):
        lines[at] = json.dumps({**event, "outcome": outcome})
        log.write_text("\n".join(lines) + "\n")
        refused = invoke("replay", "--ruleset", str(DICE), str(log))
        assert refused.exit_code == 1, refused.output
        assert f"impossible chance outcome: roll cup#1: {outcome}" in refused.output
        assert why in refused.output and "Traceback" not in refused.output


@pytest.mark.parametrize(
    ("faces", "message"),
    [
        ("{from: 6, to: 1}", "a range of faces goes from a whole number up to a larger one"),
        ("{from: 1, to: 500}", "a die has at most 100 faces, not 500"),
        ("[1, two, 3]", "expected a whole number, got 'two'"),
        ("[]", "needs at least 1 item"),
    ],
)
def test_faces_refused_are_reported_at_their_place(tmp_path: Path, faces: str, message: str):
    folder = tmp_path / "bad"
    folder.mkdir()
    (folder / "ruleset.yaml").write_text((DICE / "ruleset.yaml").read_text())
    text = (DICE / "content.yaml").read_text().replace("{faces: [0, 1]}", f"{{faces: {faces}}}")
    (folder / "content.yaml").write_text(text)
    loaded = load(folder)
    assert loaded.ruleset is None
    problems = [d for d in loaded.diagnostics if message in d.message]
    assert problems, loaded.diagnostics
    assert problems[0].location.line == 4  # the line of `coin`'s faces


@pytest.mark.parametrize(
    ("condition", "cup", "refused"),
    [
        # a die read through its kind's name reads no zone, yet may lie under a cup
        ("count(x in die where x.face == 6) > 0", "private", True),
        ("announced(count(x in die where x.face == 6) > 0)", "private", False),
        ("count(x in die where x.face == 6) > 0", "public", False),  # every die is open
        ("count(x in my.cup.pieces where x.face == 6) > 0", "private", True),
    ],
)
def test_whether_a_decision_is_asked_may_not_depend_on_a_hidden_face(
    tmp_path: Path, condition: str, cup: str, refused: bool
) -> None:
    folder = tmp_path / "leak"
    folder.mkdir()
    (folder / "ruleset.yaml").write_text((DICE / "ruleset.yaml").read_text())
    text = (DICE / "content.yaml").read_text()
    text = text.replace(
        "cup: {per: player, visibility: private}", f"cup: {{per: player, visibility: {cup}}}"
    )
    guarded = f'        if {condition} {{ choose {{ option "six" {{ }} }} }}\n'
    text = text.replace("        my.total = ", guarded + "        my.total = ")
    (folder / "content.yaml").write_text(text)
    loaded = load(folder)
    leaks = [d for d in loaded.diagnostics if "depends on" in d.message]
    assert bool(leaks) is refused, loaded.diagnostics
    if refused:
        assert "`face`" in leaks[0].message or "`cup`" in leaks[0].message


def test_a_position_in_words_gives_the_faces_its_reader_sees() -> None:
    """`rules replay --at N --as P1` and the like: `d-1=4` for a die P1 sees, only the
    count for P2's cup; a game without dice reads as before (no `=`)."""
    game = started(seed=2)
    text = render_view(view(game, 0))
    for die in game.state.zones["cup#0"]:
        assert f"{die}={game.tables.face(game.state, die)}" in text
    assert all(f"{die}=" not in text for die in game.state.zones["cup#1"])
    assert '"count": 2' in text
    assert "=" not in render_view(view(Game(load_or_raise("reversi"), ["A", "B"], seed=1), 0))


@pytest.mark.parametrize(
    ("faces", "error"),
    [
        ("{t: 1}", "5:15: error: t is no die (its kind has no `faces`)"),
        ("{d-1: 9}", "5:20: error: d-1 has no face 9: its faces are [1, 2, 3, 4, 5, 6]"),
        ("{d-9: 1}", "5:15: error: d-9 is no piece"),
    ],
)
def test_a_scenario_sets_faces_of_dice_only(tmp_path: Path, faces: str, error: str) -> None:
    scenario = tmp_path / "s.yaml"
    scenario.write_text(
        f"ruleset: {DICE}\nscenarios:\n  - name: faces\n    setup:\n      faces: {faces}\n"
    )
    result = invoke("test", str(scenario))
    assert result.exit_code == 1, result.output
    assert f"s.yaml:{error}" in result.output, result.output
    assert "Traceback" not in result.output
