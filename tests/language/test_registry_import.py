"""Every primitive registers in the one registry, whichever module a process imports
first.

Unpickling a stored ruleset (``ruleset/stored.py``) may import
``primitive_functions`` before anything else. It imports the registry, whose last
lines import every primitive module; two of them took a helper from the half-made
``primitive_functions``, so the import failed, the stored entry was a miss, and the
primitive modules that had finished (the grid's functions, the dice) stayed
registered in a registry nobody used again: `validate` then reported `roll` as an
unknown effect.
"""

from __future__ import annotations

import subprocess
import sys

import pytest


@pytest.mark.parametrize(
    "first",
    [
        "interpreter.language.primitive_functions",
        "interpreter.language.primitive_statements",
        "interpreter.language.primitive_rotate",
        "interpreter.language.primitive_grid",
        "interpreter.language.primitive_dice",
        "interpreter.language.registry",
    ],
)
def test_every_primitive_is_registered_whichever_module_comes_first(first: str) -> None:
    code = (
        f"import {first}\n"
        "from interpreter.language.registry import REGISTRY\n"
        "assert {'count', 'cell', 'gain_if'} <= set(REGISTRY.functions), REGISTRY.functions\n"
        "assert {'roll', 'rotate', 'draw'} <= set(REGISTRY.statements), REGISTRY.statements\n"
        "assert 'face' in REGISTRY.attributes['piece']\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )
    assert result.returncode == 0, result.stderr
