"""The `rules` program (``cli/entry.py``): what ``main`` prints and the status it exits
with, also where a command lets the process end at once, after the exit handlers."""

from __future__ import annotations

import atexit
import os
import subprocess
import sys
import threading

import pytest
from rules_test_support import ROOT

from interpreter.cli import entry

PROGRAM = (
    "import atexit, sys\n"
    "atexit.register(lambda: print('handler ran', flush=True))\n"
    "from interpreter.cli.{module} import {function}\n"
    "sys.argv = ['rules', *sys.argv[1:]]\n"
    "{function}()\n"
)


def ran(function: str, *args: str) -> tuple[int, str, str]:
    module = "entry" if function == "run" else "main"
    code = PROGRAM.format(module=module, function=function)
    done = subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, cwd=ROOT
    )
    return done.returncode, done.stdout, done.stderr


@pytest.mark.parametrize(
    "args",
    [
        ["validate", "rulesets/queens-necklace"],  # valid: status 0, ends at once
        ["validate", "examples/broken/type-misuse.yaml"],  # errors: status 1
        ["validate", "no/such/folder"],  # a usage problem
        ["validate"],  # click's own usage error: status 2, before the command runs
        ["--version"],
    ],
)
def test_the_program_says_and_exits_as_main_does(args: list[str]) -> None:
    status, out, err = ran("run", *args)
    assert (status, out, err) == ran("main", *args)
    assert out.endswith("handler ran\n")  # the exit handlers ran, after the output


def test_the_process_ends_at_once_only_where_the_command_said_so(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    ended: list[int] = []
    handlers: list[bool] = []
    monkeypatch.setattr(os, "_exit", ended.append)  # this test's process goes on
    monkeypatch.setattr(atexit, "_run_exitfuncs", lambda: handlers.append(True))
    monkeypatch.setattr(entry, "_nothing_left", False)
    with pytest.raises(SystemExit) as exited:
        entry.end(1)
    assert exited.value.code == 1 and ended == []
    monkeypatch.setattr(entry, "_nothing_left", True)
    with pytest.raises(SystemExit) as exited:
        entry.end("a message")  # printed by the interpreter's own exit: no shortcut
    assert exited.value.code == "a message" and ended == []
    entry.end(3)
    assert ended == [3] and handlers == [True]


def test_a_thread_still_running_is_waited_for() -> None:
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        assert entry._others_running()
    finally:
        stop.set()
        other.join()
    assert not entry._others_running()
