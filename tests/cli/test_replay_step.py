"""`rules replay LOG --step`: step through a log position by position at the terminal.

Driven with click's CliRunner input: n/next (or Enter), p/previous, a number to jump,
q to quit; each position is shown like `--at N` (and `--as PLAYER` hides the same).
"""

from __future__ import annotations

import re

from click.testing import CliRunner
from rules_test_support import ROOT

from interpreter.cli.main import cli

EXAMPLE = ROOT / "examples" / "logs" / "rococo-2p-handwritten.jsonl"
HEAD = re.compile(r"^=== position (\d+) of (\d+)")


def step(keys: str, *options: str):
    result = CliRunner().invoke(cli, ["replay", "--step", *options, str(EXAMPLE)], input=keys)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    shown = [int(m.group(1)) for line in result.output.splitlines() if (m := HEAD.match(line))]
    return result, shown


def test_next_previous_jump_and_quit():
    result, shown = step("n\n\np\n300\nprevious\nq\n")
    assert result.exit_code == 0, result.output
    assert shown == [0, 1, 2, 1, 300, 299]
    out = result.output
    assert "=== position 0 of 343 (the start) ===" in out
    assert "=== position 1 of 343 (after event 1) ===" in out
    assert "1. shuffle sorting: E27 E28 E23 E26 E25 E24" in out
    assert "next: a chance outcome (shuffle sorting)" in out
    assert "--- round " in out  # the position, as `--at N` shows it


def test_the_ends_and_the_result():
    result, shown = step("343\nn\n0\np\nnonsense\nq\n")
    assert shown == [0, 343, 0]
    out = result.output
    assert "already at the last position" in out
    assert "already at the first position" in out
    assert "343. checkpoint: prestige Ann 57, Bob 72" in out
    assert re.search(r"^\s*1\.\s+Bob\s+72\b", out, re.M)  # the result table
    assert "? n/next" in out  # the help for an unknown answer


def test_end_of_input_ends_the_stepper():
    result, shown = step("n\n")
    assert result.exit_code == 0
    assert shown == [0, 1]


def test_as_a_player_the_others_hand_is_a_count():
    result, shown = step("27\nq\n", "--as", "Ann")
    assert shown == [0, 27]
    out = result.output[result.output.index("=== position 27") :]
    assert "as Ann sees it" in out
    bob = out[out.index("\nBob: ") :]
    hand = next(line for line in bob.splitlines() if line.strip().startswith("hand:"))
    assert '"count": 3' in hand and not re.search(r"S\d-2", hand)
    assert "27. Bob chose in secret" in out and "(event 25)" not in out
