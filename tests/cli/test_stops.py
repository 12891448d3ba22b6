"""SIGTERM and SIGHUP stop a game as Ctrl-C does (issue 44), and a signal that comes
while the log is written waits for the write to end."""

from __future__ import annotations

import os
import signal

import pytest

from interpreter.cli.stops import Stopped, Stops

pytestmark = pytest.mark.skipif(os.name != "posix", reason="POSIX signals")


@pytest.mark.parametrize("name", ["SIGINT", "SIGTERM", "SIGHUP"])
def test_a_signal_raises_stopped_with_its_exit_code(name: str) -> None:
    number = getattr(signal, name)
    with Stops().installed(), pytest.raises(Stopped) as stopped:
        os.kill(os.getpid(), number)
        for _ in range(1000):  # the handler runs between two bytecodes
            pass
    assert stopped.value.number == number
    assert stopped.value.exit_code == 128 + number
    assert isinstance(stopped.value, KeyboardInterrupt)  # no `except Exception` takes it


def test_a_signal_waits_for_the_write_under_way() -> None:
    stops = Stops()
    done = []
    with stops.installed(), pytest.raises(Stopped), stops.held():
        os.kill(os.getpid(), signal.SIGTERM)
        for _ in range(1000):
            pass
        done.append("written")  # the block ends before the stop
    assert done == ["written"]


def test_the_handlers_are_put_back() -> None:
    before = signal.getsignal(signal.SIGTERM)
    with Stops().installed():
        assert signal.getsignal(signal.SIGTERM) is not before
    assert signal.getsignal(signal.SIGTERM) is before
