"""Grid boards: the cells a `grid:` declaration generates, the topology functions
(`cell`, `ray`, `line`, `neighbours`, `distance`, `directions`), their errors, and
`layout: grid` as the views draw it. On a toy ruleset of its own, apart from any game."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from rules_test_support import invoke

from interpreter.engine.game import Game
from interpreter.engine.view import full_view
from interpreter.engine.words import render_view
from interpreter.errors import RuleError
from interpreter.ruleset import load_or_raise
from interpreter.ruleset.grid import drawn_grids

MANIFEST = "id: gridtoy\nname: Grid toy\nversion: 1.0.0\nplayers: {min: 2, max: 2}\n"
CONTENT = """
spaces:
  board:
    grid: {rows: 3, columns: 4, prefix: t_}
    layout: grid
    capacity: 0
    claimable: true
    properties:
      dark: {type: bool, default: false}
    items:
      t_b2: {dark: true}
  shelf:
    items:
      top: {}
structure:
  setup: "claim(t_a1, by: players[0])"
  rounds: {count: 1}
  phases:
    - id: play
      kind: each_player
      effect: choose c in board where c.owner == none as "mark" { claim(c) }
"""


def write(folder: Path, content: str = CONTENT) -> Path:
    folder.mkdir(exist_ok=True)
    (folder / "ruleset.yaml").write_text(MANIFEST + "include: [content.yaml]\n")
    (folder / "content.yaml").write_text(textwrap.dedent(content))
    return folder


@pytest.fixture(scope="module")
def game(tmp_path_factory) -> Game:
    return Game(load_or_raise(write(tmp_path_factory.mktemp("grid") / "toy")), ["A", "B"])


def ids(value) -> list[str]:
    return [str(v) for v in value]


def test_a_grid_generates_its_cells_with_row_and_col(game: Game) -> None:
    board = game.ruleset.groups["board"]
    assert len(board) == 12
    assert board[:5] == ("t_a1", "t_b1", "t_c1", "t_d1", "t_a2")
    assert game.evaluate("t_c2.row") == 2 and game.evaluate("t_c2.col") == 3
    # a written item only adds its values to the generated cell
    assert game.evaluate("count(c in board where c.dark)") == 1
    assert game.evaluate("t_b2.dark") is True and game.evaluate("t_c3.dark") is False


def test_cell_finds_a_square_and_none_off_the_grid(game: Game) -> None:
    assert game.evaluate("cell(board, 2, 3)") == "t_c2"
    assert game.evaluate("cell(board, 4, 1)") is None
    assert game.evaluate("cell(board, 0, 1)") is None


def test_ray_runs_to_the_edge_nearest_first_and_stops_at_its_length(game: Game) -> None:
    assert ids(game.evaluate("ray(t_a1, 'e')")) == ["t_b1", "t_c1", "t_d1"]
    assert ids(game.evaluate("ray(t_a1, 'e', 2)")) == ["t_b1", "t_c1"]
    assert ids(game.evaluate("ray(t_a1, 'se')")) == ["t_b2", "t_c3"]
    assert ids(game.evaluate("ray(t_a1, 'n')")) == []


def test_line_is_the_whole_line_through_the_cell(game: Game) -> None:
    assert ids(game.evaluate("line(t_b2, 'e')")) == ["t_a2", "t_b2", "t_c2", "t_d2"]
    assert ids(game.evaluate("line(t_b2, 'ne')")) == ["t_a3", "t_b2", "t_c1"]


def test_neighbours_eight_and_four_clockwise_from_north(game: Game) -> None:
    assert ids(game.evaluate("neighbours(t_a1)")) == ["t_b1", "t_b2", "t_a2"]
    assert ids(game.evaluate("neighbours(t_b2, 4)")) == ["t_b1", "t_c2", "t_b3", "t_a2"]
    assert len(game.evaluate("neighbours(t_b2)")) == 8


def test_distance_and_directions(game: Game) -> None:
    assert game.evaluate("distance(t_a1, t_d3)") == 3
    assert game.evaluate("distance(t_b2, t_b2)") == 0
    assert game.evaluate("directions()") == ("n", "ne", "e", "se", "s", "sw", "w", "nw")
    assert game.evaluate("directions(4)") == ("n", "e", "s", "w")


@pytest.mark.parametrize(
    ("expression", "message"),
    [
        ("ray(top, 'e')", "ray() needs a cell of a grid, not 'top'"),
        ("ray(t_a1, 'up')", "ray(): 'up' is not a direction"),
        ("neighbours(t_a1, 6)", "directions() takes 4 or 8, not 6"),
    ],
)
def test_misuse_is_a_rule_error_with_a_hint(game: Game, expression: str, message: str) -> None:
    with pytest.raises(RuleError) as caught:
        game.evaluate(expression)
    assert message in str(caught.value)
    assert caught.value.hint


def test_layout_grid_draws_the_board_as_rows_and_columns(game: Game) -> None:
    text = render_view(full_view(game), grids=drawn_grids(game.ruleset, game.tables))
    lines = text.splitlines()
    start = lines.index("board:")
    assert lines[start + 1 : start + 6] == [
        "    a b c d",
        "  1 1 . . .",
        "  2 . . . .",
        "  3 . . . .",
        "    1 A, 2 B",
    ]
    assert "t_a1" not in text  # drawn, not listed again


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("rows: 3,", "rows: 27,", "27 is above the maximum"),
        (
            "  shelf:\n    items:",
            "  shelf:\n    layout: grid\n    items:",
            "cannot be drawn as a grid",
        ),
    ],
)
def test_a_bad_grid_is_a_located_error(tmp_path: Path, old: str, new: str, message: str) -> None:
    folder = write(tmp_path / "bad", textwrap.dedent(CONTENT).replace(old, new))
    result = invoke("validate", str(folder))
    assert result.exit_code == 1, result.output
    assert message in result.output
    assert "content.yaml:" in result.output and "Traceback" not in result.output


def test_what_changed_draws_a_changed_board_whole_and_an_unchanged_one_not(
    tmp_path: Path,
) -> None:
    from interpreter.agents.screen import Sight, changes
    from interpreter.engine.seat import Seat

    game = Game(load_or_raise(write(tmp_path / "toy")), ["A", "B"])
    seat = Seat(game, game.pending()[0])
    before = seat.view()
    assert changes(Sight(seat.ruleset, seat.tables, before), before) == []
    game.apply(0, "mark t_d3")
    seat = Seat(game, game.pending()[0])
    lines = changes(Sight(seat.ruleset, seat.tables, seat.view()), before)
    assert lines[lines.index("board:") + 2 : lines.index("board:") + 6] == [
        "  1 1 . . .",
        "  2 . . . .",
        "  3 . . . 1",
        "    1 A, 2 B",
    ]


def test_the_editor_knows_a_grid_cell_and_finds_it_at_its_group(tmp_path: Path) -> None:
    from interpreter.lsp.index import Index
    from interpreter.ruleset import load

    loaded = load(write(tmp_path / "toy"))
    definitions = Index(loaded.catalog).definitions
    (cell,) = definitions["t_c2"]
    assert cell.kind == "space" and cell.data == {"row": 2, "col": 3}
    assert cell.location.line == 4  # at `grid:`, where it is made
    assert definitions["t_b2"][0].location.line == 11  # written: at its own entry


def test_the_editor_knows_the_cells_of_a_grid_sized_by_constants(tmp_path: Path) -> None:
    # issue 49: `rows` and `columns` take constants; the editor works them out too
    from interpreter.lsp.index import Index
    from interpreter.ruleset import load

    sized = CONTENT.replace("rows: 3, columns: 4", 'rows: height, columns: "height + 1"')
    loaded = load(write(tmp_path / "toy", "constants:\n  height: {value: 3}\n" + sized))
    assert loaded.diagnostics == []
    definitions = Index(loaded.catalog).definitions
    assert definitions["t_d3"][0].data == {"row": 3, "col": 4}
