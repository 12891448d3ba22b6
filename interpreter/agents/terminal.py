"""Where a person at the table reads and types: never standard output.

``rules play --json`` prints one JSON document on stdout; the board, the prompts
and the history go to the terminal instead: stderr, or ``/dev/tty`` when stderr is
redirected but the person types at a terminal. Colour only on a terminal, and
never when ``NO_COLOR`` is set (https://no-color.org).

A ``Table`` is shared by the human agents of one game: in hot-seat mode, when the
device passes from one person to another, it clears the screen and waits for
Enter, so nobody reads the previous player's hand.
"""

from __future__ import annotations

import os
import sys
from typing import Any, TextIO

import click

CLEAR = "\x1b[2J\x1b[H"  # erase the screen, cursor home
STYLES: dict[str, dict[str, Any]] = {
    "heading": {"bold": True},
    "player": {"fg": "cyan", "bold": True},
    "number": {"fg": "yellow"},
    "history": {"fg": "bright_black"},
    "problem": {"fg": "red"},
    "prompt": {"fg": "green", "bold": True},
}


class Terminal:
    """The stream a person reads (see the module's docstring) and the input they type."""

    def __init__(self, out: TextIO | None = None, colour: bool | None = None):
        self.out = out if out is not None else _terminal_stream()
        if colour is None:
            colour = _isatty(self.out) and not os.environ.get("NO_COLOR")
        self.colour = colour

    def style(self, text: str, kind: str) -> str:
        return click.style(text, **STYLES[kind]) if self.colour else text

    def say(self, text: str = "", kind: str | None = None) -> None:
        self.out.write((self.style(text, kind) if kind and text else text) + "\n")
        self.out.flush()

    def ask(self, prompt: str) -> str:
        """One line typed by the person; the end of input is ``click.Abort``, which
        ``rules play`` turns into "stopped: no more input" (and the log so far)."""
        self.out.write(self.style(prompt, "prompt") + " ")
        self.out.flush()
        line = sys.stdin.readline()
        if not line:
            self.out.write("\n")
            self.out.flush()
            raise click.Abort()
        return line.rstrip("\r\n")

    def clear(self) -> None:
        """Erase what is on the screen (a terminal only: a file keeps its text)."""
        if _isatty(self.out):
            self.out.write(CLEAR)
            self.out.flush()


class Table:
    """What the human agents of one game share: the terminal and, in hot-seat mode,
    who has the device now."""

    def __init__(self, terminal: Terminal | None = None, hot_seat: bool = False):
        self._terminal = terminal
        self.hot_seat = hot_seat
        self.holder: str | None = None  # the player who has the device

    @property
    def terminal(self) -> Terminal:
        if self._terminal is None:  # opened late: CLI runners swap the streams first
            self._terminal = Terminal()
        return self._terminal

    def hand_to(self, player: str) -> bool:
        """Hot-seat: before ``player`` sees their screen, hide the previous one and wait
        until the device is theirs. True when the screen was cleared."""
        if not self.hot_seat or self.holder == player:
            return False
        terminal = self.terminal
        terminal.clear()
        terminal.ask(f"Pass the device to {player}; {player}, press Enter")
        terminal.clear()
        self.holder = player
        return True


def seat_humans(agents: dict[int, Any], hot_seat: bool | None = None) -> Table:
    """Seat the human agents among ``agents`` at one table; hot-seat when asked, or
    (``hot_seat`` None) when more than one person plays at this terminal. Answers
    piped in (a script, a test) pass no device: no hot-seat unless asked."""
    from interpreter.agents.human import HumanAgent

    humans = [a for a in agents.values() if isinstance(a, HumanAgent)]
    if hot_seat is None:
        hot_seat = len(humans) > 1 and _isatty(sys.stdin)
    table = Table(hot_seat=hot_seat)
    for agent in humans:
        agent.table = table
    return table


def _terminal_stream() -> TextIO:
    err = sys.stderr
    if _isatty(err) or not _isatty(sys.stdin):
        return err
    try:  # stderr goes to a file, and the person types at a terminal: write there
        return open("/dev/tty", "w", encoding="utf-8")  # open for the whole game
    except OSError:
        return err


def _isatty(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False
