"""The human agent as a play-testing table, driven through a pseudo-terminal.

``rules play`` runs in a child process whose stdin and stderr are the slave side of
a pty (a person at a terminal) and whose stdout is a pipe (``--json`` read by a
program); the test types on the master side and reads what the person would see.
"""

from __future__ import annotations

import io
import json
import os
import pty
import re
import select
import subprocess
import sys
import time
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from interpreter.agents import HumanAgent, make
from interpreter.agents.history import lines_since
from interpreter.agents.screen import Sight, board, contents, explain
from interpreter.agents.terminal import CLEAR, Table, Terminal, seat_humans
from interpreter.cli.main import cli
from interpreter.engine.game import Game
from interpreter.engine.seat import Seat
from interpreter.log import writer
from interpreter.log.transcript import read_game
from interpreter.ruleset import load_or_raise

ROOT = Path(__file__).parents[2]
TOY = ROOT / "tests" / "engine" / "toy"
RULES = [sys.executable, "-c", "from interpreter.cli.main import main; main()"]
STYLE = re.compile(r"\x1b\[[0-9;]*m")  # colours, not the screen clearing


def plain(text: str) -> str:
    """What the person reads: no colour codes, lines ended by the pty's CR LF as LF."""
    return STYLE.sub("", text).replace("\r\n", "\n")


class Pty:
    """``rules ARGS`` at a pseudo-terminal: stdin and stderr on the pty, stdout piped."""

    def __init__(self, *args: str, env: dict[str, str] | None = None):
        self.master, slave = os.openpty()
        environment = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
        environment.update(env or {})
        self.process = subprocess.Popen(
            [*RULES, *args],
            stdin=slave,
            stderr=slave,
            stdout=subprocess.PIPE,
            cwd=ROOT,
            env=environment,
            close_fds=True,
        )
        os.close(slave)
        self.seen = ""  # everything the terminal showed so far
        self.answered: dict[str, int] = {}  # prompt -> how many times it was answered

    def read_until(self, text: str, count: int = 1, timeout: float = 60) -> str:
        """Read the terminal until ``text`` was shown ``count`` times in all."""
        end = time.monotonic() + timeout
        while plain(self.seen).count(text) < count:
            left = end - time.monotonic()
            assert left > 0, f"{text!r} not shown; the terminal shows:\n{plain(self.seen)[-3000:]}"
            ready, _, _ = select.select([self.master], [], [], left)
            if not ready:
                continue
            try:
                chunk = os.read(self.master, 65536)
            except OSError:  # the child closed the terminal
                chunk = b""
            if not chunk:
                raise AssertionError(f"{text!r} not shown before the end:\n{plain(self.seen)}")
            self.seen += chunk.decode("utf-8", "replace")
        return self.seen

    def type(self, line: str) -> None:
        os.write(self.master, line.encode() + b"\n")

    def answer(self, prompt: str, *lines: str) -> None:
        """At each of the next prompts ``prompt``, type one of ``lines``."""
        for line in lines:
            self.wait(prompt)
            self.type(line)
            self.answered[prompt] = self.answered.get(prompt, 0) + 1

    def wait(self, prompt: str) -> None:
        """Until the next prompt ``prompt`` not answered yet is shown."""
        self.read_until(prompt, self.answered.get(prompt, 0) + 1)

    def end(self, timeout: float = 60) -> tuple[int, str, str]:
        """Type the end of input (Ctrl-D); the exit code, the terminal, stdout."""
        os.write(self.master, b"\x04")
        return self.finish(timeout)

    def finish(self, timeout: float = 60) -> tuple[int, str, str]:
        stdout, _ = self.process.communicate(timeout=timeout)
        while True:
            ready, _, _ = select.select([self.master], [], [], 0.2)
            if not ready:
                break
            try:
                chunk = os.read(self.master, 65536)
            except OSError:
                break
            if not chunk:
                break
            self.seen += chunk.decode("utf-8", "replace")
        os.close(self.master)
        return self.process.returncode, self.seen, stdout.decode("utf-8")


# ------------------------------------------------------------- one Rococo game
@pytest.fixture(scope="module")
def rococo_session() -> tuple[int, str, str]:
    """P1 (human) against a random P2, seed 1: three employees taken, one asked
    about by label, a near-miss name, then play on until P2 has moved in the
    actions; then the end of input."""
    table = Pty("play", "rococo", "--players", "2", "--seed", "1", "--agents", "human,random")
    table.answer("P1>", "1", "2", "?queen's FAVOUR", "?fnd", "?hand", "?LIVRES", "?take", "1")
    table.answer("P1>", "?keep", "?convert", "?acquire", "board", "2")  # play S3-1
    table.answer("P1>", "no action", "no bonus")
    table.read_until("P2: play", 1)
    table.wait("P1>")
    return table.end()


def test_the_board_and_the_prompt_are_on_the_terminal(rococo_session) -> None:
    code, screen, stdout = rococo_session
    shown = plain(screen)
    assert code == 1 and "stopped: no more input" in shown  # the end of input, said
    assert stdout == ""  # nothing of the table on stdout
    assert "=== P1: round 1, Choose 3 employees ===\nSince the start:\n" in shown
    assert "  P1 (you): livres 15, thread 1, lace 1, prestige 0" in shown
    assert "P1, choose (take):" in shown
    assert "    1. take S1-1   (S1-1: employee: level 0, type master)" in shown
    # the bonus a piece names is said by its action's label
    assert "bonus gain_2_livres — gain_2_livres: Gain 2 livres)" in shown


def test_hidden_zones_are_counts_in_words(rococo_session) -> None:
    shown = plain(rococo_session[1])
    assert "  employee_deck: 24 pieces (hidden)" in shown
    assert "      reserve: 5 pieces (hidden); you know: S1 (S1-2), S2 (S2-2)" in shown
    assert '{"count"' not in shown and "'count'" not in shown


def test_question_mark_explains_by_label_and_suggests_near_names(rococo_session) -> None:
    shown = plain(rococo_session[1])
    assert "favour: an action, Queen's favour\n    asks for: card (piece), main (bool)" in shown
    assert "    rules: rulesets/rococo/actions.yaml:7:3" in shown
    assert "nothing is called 'fnd'; did you mean: fund?" in shown
    assert "hand: each player's zone, private" in shown
    assert "livres: each player's counter, public\n    Money; public.\n    P1: 15\n" in shown


def test_question_mark_explains_option_words_and_actions_with_prices(rococo_session) -> None:
    shown = plain(rococo_session[1])
    # option words that are no name: where the rules offer them, and what that does
    assert "keep: an option of the action take_tile (Keep or convert a resource tile. " in shown
    assert "convert: an option of the action take_tile (" in shown
    assert "take: a choice made in the action acquire (Acquire resources. Buy 1 tile" in shown
    assert "take: a choice made in the phase choose (Choose 3 employees. " in shown
    assert "    now: take S2-1\n" in shown  # the options open now that it names
    assert "nothing is called" not in shown.replace("nothing is called 'fnd'", "")
    # an action: its description as well as its requirements
    assert "acquire: an action, Acquire resources\n    what it does: Buy 1 tile from" in shown


def test_options_show_their_prices(rococo_session) -> None:
    shown = plain(rococo_session[1])
    assert "    1. favour [+5 livres]   (Queen's favour)\n" in shown
    assert "    3. dismiss [+7 livres]   (Dismiss this employee)\n" in shown
    assert "    2. acquire   (Acquire resources)\n" in shown  # nothing paid yet: no price


def test_the_board_is_shown_once_then_what_changed(rococo_session) -> None:
    shown = plain(rococo_session[1])
    assert shown.count("\nBoard:\n") == 1  # the first decision's
    assert "Board: as before\n" in shown  # nothing changed since the last decision
    changed = shown.split("Board, what changed (board: all of it):\n")[1].split("P1, choose")[0]
    assert changed == (
        "  P1 (you): livres 15, thread 1, lace 1, prestige 0\n"
        "      reserve: S2 (S2-1), S3 (S3-1), S4 (S4-1), S5 (S5-1)\n"
        "      hand: S1 (S1-1)\n"
        "Your turn so far: take S1-1   (S1-1: employee: level 0, type master)\n"
    )  # after the first take: only P1's line and their two zones that changed
    # `board` shows all of it: the deck's line, otherwise only in the first board
    assert shown.count("  employee_deck: 24 pieces (hidden)\n") == 2
    assert "    P2: 0 pieces (hidden)" in shown


def test_the_history_shows_what_the_other_player_did(rococo_session) -> None:
    shown = plain(rococo_session[1])
    last = shown.rsplit("Since your last decision:\n", 1)[1].split("Board:")[0]
    # P2's secret picks are not told; their move in the actions is, in words
    assert "  P2 chose in secret\n" in shown  # one line per secret choice, nothing more
    assert "P2's choice" not in shown and "(event " not in shown
    assert re.search(r"^  P2: play S\d-2 \(employee: level 0, type \w+", last, re.M), last
    assert "P1: " not in last  # their own moves are not news to them


def test_the_turn_so_far_gives_the_context_of_the_prompt(rococo_session) -> None:
    shown = plain(rococo_session[1])
    assert "Your turn so far: take S1-1   (S1-1: employee: level 0, type master)\n" in shown
    assert (
        "Your turn so far: play S3-1   (S3-1: employee: level 0, type journeyman, bonus "
        "gain_2_livres — gain_2_livres: Gain 2 livres) → no action\n"
        "P1, choose:\n    1. bonus [+2 livres]\n    2. no bonus\n"
    ) in shown


def test_colour_on_the_terminal(rococo_session) -> None:
    screen = rococo_session[1]
    assert "\x1b[1m=== P1: round 1" in screen  # headings in bold
    assert "\x1b[33m  1.\x1b[0m take S1-1" in screen  # numbers in yellow


# ------------------------------------------------------------ --json and colour
def test_json_stdout_stays_one_json_document() -> None:
    table = Pty(
        "play", str(TOY), "--players", "2", "--seed", "3", "--agents", "human,random", "--json"
    )
    while table.process.poll() is None:
        try:
            table.answer("P1>", "1")
        except AssertionError:
            break
    code, screen, stdout = table.finish()
    assert code == 0, plain(screen)
    result = json.loads(stdout)  # the whole of stdout: one document
    assert result["players"] == ["P1", "P2"] and result["ruleset"] == "toy"
    assert "P1, choose (keep):" in plain(screen)
    assert "choose" not in stdout


def test_no_colour_when_piped_or_no_color() -> None:
    piped = CliRunner().invoke(
        cli,
        ["play", str(TOY), "--players", "2", "--seed", "3", "--agents", "human,random", "--json"],
        input="1\n" * 20,
    )
    assert piped.exit_code == 0, piped.output
    assert "P1, choose (keep):" in piped.stderr and "\x1b" not in piped.stderr
    assert json.loads(piped.stdout)["ruleset"] == "toy"
    table = Pty(
        "play", str(TOY), "--players", "2", "--agents", "human,random", env={"NO_COLOR": "1"}
    )
    table.answer("P1>", "1")
    _, screen, _ = table.end()
    assert "P1, choose" in screen and "\x1b" not in screen


def test_the_table_writes_to_the_terminal_when_stderr_is_a_file(tmp_path: Path) -> None:
    """stderr redirected (``2>file``) by a person at a terminal: the table goes to
    /dev/tty, the file keeps only the messages of ``rules play`` itself."""
    err, out = tmp_path / "err.txt", tmp_path / "out.json"
    args = ["play", str(TOY), "--players", "2", "--seed", "3", "--agents", "human,random", "--json"]
    pid, master = pty.fork()  # the child's controlling terminal is the pty: /dev/tty
    if pid == 0:  # pragma: no cover (the child)
        try:
            os.dup2(os.open(err, os.O_WRONLY | os.O_CREAT, 0o600), 2)
            os.dup2(os.open(out, os.O_WRONLY | os.O_CREAT, 0o600), 1)
            os.chdir(ROOT)
            os.execv(sys.executable, [*RULES, *args])
        finally:
            os._exit(127)
    table = Pty.__new__(Pty)
    table.master, table.seen, table.answered = master, "", {}
    while True:
        try:
            table.answer("P1>", "1")
        except AssertionError:  # the game is over: the terminal closed
            break
    _, status = os.waitpid(pid, 0)
    os.close(master)
    assert os.waitstatus_to_exitcode(status) == 0, plain(table.seen)
    assert "P1, choose (keep):" in plain(table.seen)
    assert json.loads(out.read_text(encoding="utf-8"))["ruleset"] == "toy"
    assert err.read_text(encoding="utf-8") == ""


# ------------------------------------------------------------------ hot seat
def test_hot_seat_clears_and_asks_to_pass_the_device() -> None:
    table = Pty("play", str(TOY), "--players", "2", "--seed", "3", "--agents", "human,human")
    table.answer("press Enter", "")  # to P1
    table.answer("P1>", "1")
    table.answer("press Enter", "")  # to P2
    table.answer("P2>", "1")
    code, screen, _ = table.end()
    shown = plain(screen)
    assert code == 1
    to_p1 = shown.index("Pass the device to P1; P1, press Enter")
    to_p2 = shown.index("Pass the device to P2; P2, press Enter")
    assert shown.endswith(CLEAR, 0, to_p1) and shown.endswith(CLEAR, 0, to_p2)
    after = shown[to_p2:]
    assert after.index(CLEAR) < after.index("=== P2: round 1, pick ===")
    assert "hand: c4, c5" in shown[:to_p2] and "hand: c4, c5" not in after  # P1's, hidden
    assert "  P1 chose in secret" in after


class _TypedAtTerminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_no_hot_seat_with_one_human_piped_input_or_when_refused(monkeypatch) -> None:
    agents = {0: HumanAgent(0), 1: HumanAgent(1)}
    assert seat_humans(agents).hot_seat is False  # answers piped in: nobody to pass to
    assert seat_humans(agents, hot_seat=True).hot_seat is True
    monkeypatch.setattr("sys.stdin", _TypedAtTerminal())
    assert seat_humans(agents).hot_seat is True
    assert agents[0].table is agents[1].table
    assert seat_humans(agents, hot_seat=False).hot_seat is False
    assert seat_humans({0: HumanAgent(0)}).hot_seat is False
    result = CliRunner().invoke(
        cli,
        ["play", str(TOY), "--players", "2", "--agents", "human,human", "--no-hot-seat"],
        input="1\n" * 30,
    )
    assert result.exit_code == 0, result.output
    assert "Pass the device" not in result.stderr and "P2, choose" in result.stderr


# ------------------------------------------------------------ the agent itself
def _at_table(agent: HumanAgent) -> io.StringIO:
    out = io.StringIO()
    agent.table = Table(Terminal(out=out, colour=False))
    return out


def test_answers_by_number_or_text(monkeypatch) -> None:
    game = Game(load_or_raise(TOY), ["Ann", "Bob"], seed=1)
    decision = next(d for d in game.pending() if d.player == 0)
    monkeypatch.setattr("sys.stdin", io.StringIO(f"9\nnonsense\n{decision.options[1]}\n"))
    agent = HumanAgent(0)
    out = _at_table(agent)
    assert agent.choose(game, decision) == decision.options[1]
    assert out.getvalue().count("not an option: ") == 2
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n"))
    assert agent.choose(game, decision) == decision.options[0]


def test_says_why_an_option_is_refused_and_describes_ids(monkeypatch) -> None:
    rococo = load_or_raise("rococo")
    game = Game(rococo, ["Ann", "Bob"], seed=4)
    for seat, picks in (
        (0, ("take S1-1", "take S2-1", "take S3-1")),
        (1, ("take S1-2", "take S2-2", "take S3-2")),
    ):
        for pick in picks:
            game.apply(seat, pick)
    game.apply(0, "play S1-1")
    monkeypatch.setattr("sys.stdin", io.StringIO("?D12\nsew\nno a\n"))
    agent = HumanAgent(0)
    out = _at_table(agent)
    assert agent.choose(game, game.pending()[0]) == "no action"  # by a unique beginning
    text = out.getvalue()
    assert "D12: dress: colour yellow" in text
    assert "not an option: no dress in the workshop can be paid for" in text


def test_end_of_input_aborts(monkeypatch) -> None:
    game = Game(load_or_raise(TOY), ["Ann", "Bob"], seed=1)
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    agent = HumanAgent(0)
    _at_table(agent)
    with pytest.raises(click.Abort):
        agent.choose(game, game.pending()[0])


def test_hidden_contents_and_unknown_names_in_words() -> None:
    game = Game(load_or_raise(TOY), ["Ann", "Bob"], seed=1)
    seat = Seat(game, game.pending()[0])
    sight = Sight(seat.ruleset, seat.tables, seat.view())
    assert contents(sight, {"count": 1}) == "1 piece (hidden)"
    assert contents(sight, {"count": 3, "known": ["c1"]}) == "3 pieces (hidden); you know: c1"
    assert contents(sight, []) == "empty"
    lines = board(sight)
    assert "    hand: 2 pieces (hidden)" in lines
    assert explain(sight, "zzzz") == ["nothing is called 'zzzz'"]
    assert explain(sight, "C1")[0] == "c1: card: points 1"  # ids in any case


def test_the_tutorial_quotes_a_real_screen() -> None:
    """docs/modding.md, section 8: each run of lines of the quoted screen (between the
    lines cut short and the typed answers) is in the real output."""
    text = (ROOT / "docs" / "modding.md").read_text(encoding="utf-8")
    quoted = text.split("answering `1`, `2`, `1`, `2` (the last plays S3-1)", 1)[1]
    quoted = quoted.split("```\n", 1)[1].split("```", 1)[0]
    result = CliRunner().invoke(
        cli,
        ["play", "rococo", "--players", "2", "--seed", "1", "--agents", "human,random"],
        input="1\n2\n1\n2\nno action\nno bonus\n",
    )
    assert result.exit_code == 1  # the end of input
    runs, run = [], []
    for line in quoted.splitlines():
        if line.strip() == "…" or line.startswith("P1> "):
            runs.append("\n".join(run))
            run = []
        else:
            run.append(line)
    runs.append("\n".join(run))
    assert len([r for r in runs if r.strip()]) == 3
    for run_text in runs:
        assert run_text.strip("\n") in result.stderr, run_text


def test_the_history_is_the_transcript_for_that_player(tmp_path: Path) -> None:
    """What the table tells a player is what `rules transcript --as` tells them: the
    live game read for their seat equals its log read for them, line for line."""
    game = Game(load_or_raise("rococo"), ["P1", "P2"], seed=2)
    agents = {seat: make("random", seat, 2) for seat in (0, 1)}
    for _ in range(60):
        decision = game.pending()[0]
        game.apply(decision.player, agents[decision.player].choose(game, decision))
    log = tmp_path / "game.jsonl"
    log.write_text("".join(f"{line}\n" for line in writer.lines(game)), encoding="utf-8")
    for seat, name in enumerate(("P1", "P2")):
        logged = [
            (line.event, line.kind, line.text)
            for line in read_game(log, as_player=name).lines
            if line.kind in ("heading", "event", "reveal")
        ]
        live = [(line.event, line.kind, line.text) for line in lines_since(game, seat, 0)]
        assert live == logged
        assert any(t.endswith(" chose in secret") for _, _, t in live)
        assert [x for x in live if x[0] > 40] == [
            (line.event, line.kind, line.text) for line in lines_since(game, seat, 40)
        ]
