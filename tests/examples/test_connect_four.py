"""The Connect Four example (examples/games/connect-four, docs/rules/connect-four.md):
dropping, a full column, four in a row in each of the four ways a line runs, the draw,
the team game, and whole games at 2 and 4 players, logged and replayed.

Positions are drawn as the board is (`rules replay --at`): row 1 on top, `.` an empty
cell, `1` a red disc, `2` a yellow one. Whole random games are checked against a
four-in-a-row test written here in Python, independently of the rules' `line`.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import pytest
from rules_test_support import ROOT, invoke

from interpreter.agents import make
from interpreter.engine.game import Game, IllegalMove
from interpreter.ruleset import load_or_raise

CONNECT_FOUR = ROOT / "examples" / "games" / "connect-four"
COLUMNS = "abcdefg"
ROWS = 6
# (row step, column step) of the four ways a line runs: across, up and down, two diagonals
AXES = {"across": (0, 1), "up and down": (1, 0), "falling": (1, 1), "rising": (-1, 1)}


@cache
def rules(teams: bool = False):
    return load_or_raise(str(CONNECT_FOUR), ["teams"] if teams else [])


def started(players: int = 2, seed: int = 0) -> Game:
    names = [f"P{i + 1}" for i in range(players)]
    return Game(rules(teams=players == 4), names, seed=seed)


def cells(picture: str) -> dict[str, int]:
    """The owners of a board drawn row by row, top first: {"d6": 0, …}."""
    lines = picture.split()
    assert len(lines) == ROWS and all(len(line) == len(COLUMNS) for line in lines)
    return {
        f"{COLUMNS[col]}{row + 1}": int(mark) - 1
        for row, line in enumerate(lines)
        for col, mark in enumerate(line)
        if mark != "."
    }


def arranged(picture: str, mover: int) -> Game:
    """A game whose board is ``picture`` (the heights to match), ``mover``'s turn
    started on it."""
    game = started()
    game.pause()
    owners = cells(picture)
    game.state.owners.clear()
    game.state.owners.update(owners)
    for column in COLUMNS:
        height = sum(1 for cell in owners if cell[0] == column)
        game.state.counters[f"height[{column}]"] = height
    game.run_step("play", mover)
    return game


def four_in_a_row(owners: dict[str, int], seat: int) -> str | None:
    """The way four of ``seat``'s discs line up on the board, if they do (Python, not
    the rules' `line`)."""
    at = {(int(cell[1:]), COLUMNS.index(cell[0]) + 1): owner for cell, owner in owners.items()}
    for name, (dr, dc) in AXES.items():
        for row, col in at:
            if all(at.get((row + i * dr, col + i * dc)) == seat for i in range(4)):
                return name
    return None


def won(game: Game) -> list[int]:
    return [game.state.counters[f"won#{s}"] for s in range(len(game.state.players))]


def test_it_validates_without_a_warning_and_its_scenarios_pass() -> None:
    result = invoke("validate", "--strict", str(CONNECT_FOUR))
    assert result.exit_code == 0, result.output
    assert "valid" in result.output
    result = invoke(
        "test", str(CONNECT_FOUR / "scenarios.yaml"), str(CONNECT_FOUR / "scenarios-teams.yaml")
    )
    assert result.exit_code == 0, result.output
    assert "14 scenarios: 14 passed, 0 failed" in result.output


def test_a_disc_falls_to_the_lowest_empty_cell_and_a_full_column_is_refused() -> None:
    game = started()
    for n in range(ROWS):  # red and yellow in turn into column d, from the bottom up
        assert "drop d" in game.legal(n % 2)
        game.apply(n % 2, "drop d")
        assert game.state.owners[f"d{ROWS - n}"] == n % 2
        assert game.state.counters["height[d]"] == n + 1
    assert game.legal(0) == ("drop a", "drop b", "drop c", "drop e", "drop f", "drop g")
    with pytest.raises(IllegalMove):
        game.apply(0, "drop d")
    assert len(game.state.owners) == ROWS  # the refused disc went nowhere


WINS = [  # (the way the four runs, the board before, the column that completes it)
    ("across", "....... ....... ....... ....... 22.2... 11.1...", "c"),  # the new disc inside
    ("up and down", "....... ....... ....... 1...... 12..... 12.2...", "a"),
    ("rising", "....... ....... ...1... ...2... .121... 1222...", "c"),  # the new disc inside
    ("falling", "....... ....... ....... 21..... 121.... 2221...", "a"),
]


@pytest.mark.parametrize("way,picture,column", WINS, ids=[w[0] for w in WINS])
def test_four_in_a_row_each_way_a_line_runs_wins_at_once(
    way: str, picture: str, column: str
) -> None:
    game = arranged(picture, mover=0)
    assert four_in_a_row(dict(game.state.owners), 0) is None  # no four yet
    game.apply(0, f"drop {column}")
    assert four_in_a_row(dict(game.state.owners), 0) == way
    assert won(game) == [1, 0]
    game.resume()
    assert game.is_over() and not game.pending()
    assert game.result().ranking == [["P1"], ["P2"]]


NO_WINS = [
    ("three in a row", "....... ....... ....... ....... 22..... 11.....", "c"),
    ("four broken by the other colour", "....... ....... ....... ....... 22..... 11.211.", "c"),
    ("four of the other colour", "....... ....... ....... ....... 111.... 222....", "d"),
    ("four not in a line", "....... ....... ....... ....... 1.....2 11....2", "b"),
]


@pytest.mark.parametrize("name,picture,column", NO_WINS, ids=[w[0] for w in NO_WINS])
def test_anything_else_is_no_win(name: str, picture: str, column: str) -> None:
    game = arranged(picture, mover=0)
    game.apply(0, f"drop {column}")
    assert won(game) == [0, 0]
    game.resume()
    assert not game.is_over()
    assert game.pending()[0].player == 1


DRAWN = "2112221 1221112 2221212 1121222 1212111 1122121"  # full, no four in a row


def test_a_full_board_without_four_in_a_row_is_a_draw() -> None:
    game = arranged("." + DRAWN[1:], mover=1)  # a1 empty: yellow drops the last disc
    assert game.legal(1) == ("drop a",)
    game.apply(1, "drop a")
    assert len(game.state.owners) == ROWS * len(COLUMNS)
    game.resume()
    assert game.is_over()
    result = game.result()
    assert result.scores == {"P1": 0, "P2": 0}
    assert result.ranking == [["P1", "P2"]]  # one place: a draw


@pytest.mark.parametrize("seed", range(8))
def test_whole_games_follow_the_rules_at_every_decision(seed: int) -> None:
    """Every decision offers the columns that are not full; the game ends at the first
    four in a row (its dropper scores 1) or on a full board, and never before."""
    game = started(seed=seed)
    agents = {s: make("random", s, seed) for s in range(2)}
    while not game.is_over():
        (decision,) = game.pending()
        owners = dict(game.state.owners)
        assert all(four_in_a_row(owners, s) is None for s in range(2))
        full = {cell[0] for cell in owners if cell[1:] == "1"}
        assert decision.options == tuple(f"drop {c}" for c in COLUMNS if c not in full)
        game.apply(decision.player, agents[decision.player].choose(game, decision))
    owners = dict(game.state.owners)
    winners = [s for s in range(2) if four_in_a_row(owners, s)]
    assert won(game) == [1 if s in winners else 0 for s in range(2)]
    assert winners or len(owners) == ROWS * len(COLUMNS)


def test_random_games_end_in_each_of_the_four_ways() -> None:
    """The rules' `line` finds every way a four lines up, as the Python test does."""
    ways: set[str] = set()
    for seed in range(60):
        game = started(seed=seed)
        agents = {s: make("random", s, seed) for s in range(2)}
        while not game.is_over():
            (decision,) = game.pending()
            game.apply(decision.player, agents[decision.player].choose(game, decision))
        winner = [s for s in range(2) if won(game)[s]]
        if winner:
            ways.add(four_in_a_row(dict(game.state.owners), winner[0]) or "none")
        if ways >= set(AXES):
            break
    assert ways == set(AXES)


def test_in_teams_partners_drop_one_colour_and_win_together() -> None:
    game = started(players=4)
    assert game.pending()[0].player == 0
    for seat, column in enumerate("abcd"):
        game.apply(seat, f"drop {column}")
    # P3's disc is red, as P1's: the marker of red's first player
    assert game.state.owners == {"a6": 0, "b6": 1, "c6": 0, "d6": 1}
    for seat, column in enumerate("abca"):  # P1 a5, P2 b5, P3 c5, P4 a4
        game.apply(seat, f"drop {column}")
    for seat, column in enumerate("ebg"):  # P1 e6, P2 b4, P3 g6
        game.apply(seat, f"drop {column}")
    assert not game.is_over()
    game.apply(3, "drop b")  # P4: b3 over b6, b5, b4: yellow's four, up and down
    assert game.is_over()
    result = game.result()
    assert result.scores == {"P1": 0, "P2": 0, "P3": 0, "P4": 1}
    assert result.ranking == [["P2", "P4"], ["P1", "P3"]]  # partners share a place


@pytest.mark.parametrize("players,extra", [(2, []), (4, ["--with", "teams"])], ids=["two", "teams"])
def test_a_game_plays_to_its_end_and_its_log_replays(
    players: int, extra: list[str], tmp_path: Path
) -> None:
    for seed in range(3):
        log = tmp_path / f"game-{seed}.jsonl"
        args = ["play", str(CONNECT_FOUR), *extra, "--players", str(players), "--seed", str(seed)]
        result = invoke(*args, "--log", str(log), "--json")
        assert result.exit_code == 0, result.output
        final = json.loads(result.output)
        assert sum(final["scores"].values()) <= 1  # one winner, or a draw
        if players == 4:
            assert final["result"] == "teams"
            assert final["teams"] == [["P1", "P3"], ["P2", "P4"]]
        replayed = invoke("replay", "--ruleset", str(CONNECT_FOUR), str(log))
        assert replayed.exit_code == 0, replayed.output
        assert "legal and complete" in replayed.output


def test_a_logged_drop_into_a_full_column_is_an_illegal_move(tmp_path: Path) -> None:
    played = tmp_path / "played.jsonl"
    result = invoke("play", str(CONNECT_FOUR), "--players", "2", "--log", str(played))
    assert result.exit_code == 0, result.output
    header = played.read_text().splitlines()[0]
    moves = [{"n": n + 1, "player": f"P{n % 2 + 1}", "choice": "drop d"} for n in range(ROWS + 1)]
    log = tmp_path / "full.jsonl"
    log.write_text("\n".join([header, *map(json.dumps, moves)]) + "\n")
    replayed = invoke("replay", "--ruleset", str(CONNECT_FOUR), str(log))
    assert replayed.exit_code == 1, replayed.output
    assert "drop d" in replayed.output and "illegal" in replayed.output


def test_a_count_of_players_the_game_has_not_is_refused_with_the_way_to_play_it() -> None:
    result = invoke("play", str(CONNECT_FOUR), "--players", "4")
    assert result.exit_code == 1, result.output
    expected = "Connect Four is for 2 players, not 4 (four players play in two teams of two"
    assert expected in result.output
    result = invoke("play", str(CONNECT_FOUR), "--with", "teams", "--players", "2")
    assert result.exit_code == 1, result.output
    assert "Connect Four with teams is for 4 players, not 2" in result.output
    assert "add --with teams" not in result.output  # the advice is for 4 players only
