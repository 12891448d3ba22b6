"""The `rules` program (``cli/entry.py``): what ``main`` prints and the status it exits
with, the exit handlers run after the output."""

from __future__ import annotations

import subprocess
import sys

import pytest
from rules_test_support import ROOT

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
        ["validate", "rulesets/queens-necklace"],  # valid: status 0
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
