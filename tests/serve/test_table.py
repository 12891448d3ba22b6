"""What a page is sent to draw the table (`interpreter/serve/table.py`)."""

from __future__ import annotations

from rules_test_support import ROOT

from interpreter.engine.game import Game
from interpreter.ruleset import load_or_raise
from interpreter.serve.host import Host, Seat
from interpreter.serve.table import table_message


def test_a_group_laid_out_as_a_grid_is_sent_as_its_rows_and_columns():
    """Reversi's board (`layout: grid`, 8 x 8) reaches the page as rows of cell ids in
    board order, so the page draws it as a board; other groups stay lists."""
    ruleset = load_or_raise("reversi", [], [])
    game = Game(ruleset, ["P1", "P2"], seed=1)
    host = Host(game, [Seat(0, "P1", "human"), Seat(1, "P2", "human")])
    board = {g["id"]: g for g in table_message(host, 0)["board"]}
    rows = board["board"]["rows"]
    assert len(rows) == 8 and all(len(row) == 8 for row in rows)
    assert rows[0][:3] == ["a1", "b1", "c1"] and rows[7][7] == "h8"
    assert {s["id"] for s in board["board"]["spaces"]} == {c for row in rows for c in row}


def test_a_group_with_no_layout_has_no_rows():
    ruleset = load_or_raise("queens-necklace", [], [])
    game = Game(ruleset, ["P1", "P2"], seed=1)
    host = Host(game, [Seat(0, "P1", "human"), Seat(1, "P2", "human")])
    assert all("rows" not in group for group in table_message(host, 0)["board"])


def test_a_die_is_sent_with_its_face_to_the_seats_that_see_it():
    """A player's own dice come with their faces; the others' cups only as a count, and
    no label names their dice (examples/games/liars-dice)."""
    ruleset = load_or_raise(str(ROOT / "examples" / "games" / "liars-dice"), [], [])
    game = Game(ruleset, ["P1", "P2"], seed=3)
    host = Host(game, [Seat(0, "P1", "human"), Seat(1, "P2", "human")])
    labels = table_message(host, 0)["words"]["pieces"]
    for die in game.state.zones["cup#0"]:
        assert labels[die]["label"] == f"d6 showing {game.tables.face(game.state, die)}"
    assert not set(game.state.zones["cup#1"]) & set(labels)
