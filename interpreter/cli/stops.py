"""Signals that stop a game: Ctrl-C (SIGINT), SIGTERM and SIGHUP end ``rules play``
alike, by ``Stopped`` (a ``KeyboardInterrupt``: no ``except Exception`` of the rules'
code or an agent's swallows it), wherever the game is.

A signal that comes while the log is being written is held until the write is done
(``held``): the log never ends inside a decision's lines because of a stop the
program was told of (only SIGKILL, which no program sees, can cut a line).
"""

from __future__ import annotations

import signal
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

NAMES = ("SIGINT", "SIGTERM", "SIGHUP")  # SIGHUP: the terminal closed; none on Windows


class Stopped(KeyboardInterrupt):
    """A signal stopped the game; ``exit_code`` is 128 + its number, as a shell says."""

    def __init__(self, number: int):
        super().__init__(signal.Signals(number).name)
        self.number = number

    @property
    def exit_code(self) -> int:
        return 128 + self.number


class Stops:
    """The handlers of ``NAMES`` while a game is played (``installed``)."""

    def __init__(self) -> None:
        self._holding = False
        self._held: int | None = None  # a signal that came while holding

    def _handle(self, number: int, _frame: FrameType | None) -> None:
        if self._holding:
            self._held = number
            return
        raise Stopped(number)

    @contextmanager
    def installed(self) -> Iterator[Stops]:
        """The handlers, where Python lets a program set them (``signal.signal`` refuses
        to outside its main flow of control: there, only Ctrl-C stops, by Python's own
        ``KeyboardInterrupt``)."""
        previous = {}
        try:
            for name in NAMES:
                number = getattr(signal, name, None)
                if number is not None:
                    previous[number] = signal.signal(number, self._handle)
        except ValueError:  # not the main flow of control
            pass
        try:
            yield self
        finally:
            for number, handler in previous.items():
                signal.signal(number, handler)

    @contextmanager
    def held(self) -> Iterator[None]:
        """No stop inside: a signal that comes is raised at the end of the block."""
        self._holding = True
        try:
            yield
        finally:
            self._holding = False
        if self._held is not None:
            number, self._held = self._held, None
            raise Stopped(number)
