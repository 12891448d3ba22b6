"""`rules play` / `rules replay`: the final score table.

One column per source of points that gave someone points (the score gained during
play, then each final scoring step in the ruleset's order), a legend in the
ruleset's words, the steps that gave nobody anything named on one line, and the
tie-break by its counter's name. A ruleset whose score is all gained during play
(Queen's Necklace: money from the sales) shows only the score, and says so.
"""

from __future__ import annotations

import re

import pytest
from click.testing import CliRunner

from interpreter.cli.main import cli
from interpreter.engine.game import Result
from interpreter.engine.words import render_result
from interpreter.ruleset import load_or_raise

ROW = re.compile(r"^\s*(\d+)\.\s+(\S+)\s+(-?\d+)\b")


def play(*args: str) -> str:
    result = CliRunner().invoke(cli, ["play", *args], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


# --- the table from a given result (exact text) ------------------------------------------
def test_money_scored_during_play_shows_only_the_score() -> None:
    result = Result(
        scores={"B": 280, "A": 120},
        breakdown={"A": {"play": 120, "money": 0}, "B": {"play": 280, "money": 0}},
        ranking=[["B"], ["A"]],
        tiebreak={"A": [], "B": []},
    )
    assert render_result(result, load_or_raise("queens-necklace")) == "\n".join(
        [
            "    player money",
            " 1. B        280",
            " 2. A        120",
            "money: all gained during play; no final scoring step added any",
        ]
    )


def test_rococo_columns_for_the_steps_that_scored_with_a_legend() -> None:
    steps = ("livres", "endgame", "halls", "fireworks", "terrace", "statues", "markers")
    points = {
        "A": dict(zip(("play", *steps), (3, 4, 0, 0, 6, 0, 0, 7), strict=True)),
        "B": dict(zip(("play", *steps), (9, 2, 3, 0, 0, 0, 0, 6), strict=True)),
    }
    result = Result(
        scores={"A": 20, "B": 20},
        breakdown=points,
        ranking=[["A", "B"]],
        tiebreak={"A": [3], "B": [3]},
    )
    assert render_result(result, load_or_raise("rococo")) == "\n".join(
        [
            "    player prestige  in play  livres  endgame  fireworks  markers",
            " 1. A            20        3       4        0          6        7"
            "  (tie-break: livres 3)",
            " 1. B            20        9       2        3          0        6"
            "  (tie-break: livres 3)",
            "in play: prestige gained during play, before the final scoring",
            "livres: Livres to prestige (1 per 10)",
            "endgame: End-game employee bonuses and the Favour card",
            "fireworks: Fireworks majority",
            "markers: Ownership markers",
            "no prestige for anyone from: halls (Hall majorities), "
            "terrace (Watch the fireworks from the terrace), statues",
        ]
    )


def test_a_column_whose_label_is_its_id_is_explained_by_its_description() -> None:
    """`statues` is labelled "Statues": the legend says what the step scores instead."""
    result = Result(
        scores={"A": 4, "B": 2},
        breakdown={"A": {"play": 0, "statues": 4}, "B": {"play": 0, "statues": 2}},
        ranking=[["A"], ["B"]],
    )
    text = render_result(result, load_or_raise("rococo"))
    assert text.splitlines()[0] == "    player prestige  statues"
    assert "\nstatues: Per statue, 2 prestige per distinct main colour in one set" in text


def test_the_legend_is_in_the_editions_words() -> None:
    result = Result(
        scores={"A": 5, "B": 4},
        breakdown={"A": {"play": 0, "halls": 5}, "B": {"play": 0, "halls": 4}},
        ranking=[["A"], ["B"]],
        tiebreak={"A": [0], "B": [0]},
    )
    text = render_result(result, load_or_raise("rococo", ["deluxe"]))
    assert text.splitlines()[0] == "    player prestige  halls"
    assert "halls: Gallery majorities" in text
    assert "Libras to prestige (1 per 10)" not in text  # `livres` is not in the result
    assert "tie-break" not in text  # no equal scores


# --- the table `rules play` prints -------------------------------------------------------
def test_play_queens_necklace_prints_money_without_an_empty_money_column() -> None:
    out = play("queens-necklace", "--players", "2", "--names", "A,B", "--agents", "random")
    lines = out.splitlines()
    assert lines[0] == "Queen's Necklace, 2 players, seed 0"
    assert lines[1] == "    player money"
    rows = [ROW.match(line) for line in lines[2:4]]
    assert all(rows) and {m.group(2) for m in rows} == {"A", "B"}
    assert lines[4] == "money: all gained during play; no final scoring step added any"
    assert len(lines) == 5


@pytest.mark.parametrize("args", [("rococo",), ("rococo", "--with", "deluxe")])
def test_play_rococo_columns_match_the_legend(args) -> None:
    out = play(*args, "--players", "3", "--seed", "2", "--agents", "random")
    lines = out.splitlines()
    head = lines[1].split()
    assert head[:2] == ["player", "prestige"]
    rows = [line for line in lines if ROW.match(line)]
    assert len(rows) == 3
    legend = lines[2 + len(rows) :]
    named = {line.split(":", 1)[0] for line in legend}
    ruleset = load_or_raise(*(("rococo", ["deluxe"]) if "deluxe" in args else ("rococo",)))
    steps = [step.id for step in ruleset.scoring]
    columns = " ".join(head[2:]).replace("in play", "in_play").split()
    for column in columns:  # every column is explained
        assert column.replace("in_play", "in play") in named
    assert [c for c in columns if c in steps] == [s for s in steps if s in columns]
    for row in rows:  # no column is all zeros, and the parts add up to the score
        values = [int(v) for v in row.split("(")[0].split()[2:]]
        assert values[0] == sum(values[1:])
    for index in range(len(columns)):
        assert any(int(row.split("(")[0].split()[3 + index]) for row in rows)
    silent = [line for line in legend if line.startswith("no prestige for anyone from:")]
    for step in steps:  # each step is a column or named as scoring nothing
        assert step in columns or (silent and step in silent[0])
