"""Issue 11: valid means playable. YAML that would hang the loader is refused at once,
and syntax errors are worded for people."""

from __future__ import annotations

import subprocess
import sys
import time

import pytest

from interpreter.errors import LoadError
from interpreter.load.yaml_source import load_text

PATH = "f.yaml"


def error_of(text: str):
    with pytest.raises(LoadError) as info:
        load_text(text, PATH)
    (diagnostic,) = info.value.diagnostics
    return diagnostic


def _nested_keys(depth: int) -> str:
    return "a: " + "{" * depth + "}" * depth + "\n"


@pytest.mark.parametrize(
    "text",
    [
        _nested_keys(16),  # the ~35 bytes of the issue
        _nested_keys(40),
        _nested_keys(5_000),
        "a: {" + "[" * 30 + "]" * 30 + ": 1}\n",
        "a:\n  ? {x: {y: {z: 1}}}\n  : 1\n",
        "{{{{{{{{{{{{{{{{{{{{{{{{: 1}: 1}: 1}: 1}: 1}: 1}: 1}: 1}: 1}: 1}: 1}: 1}}}}}}}}}}}}\n",
    ],
    ids=["issue", "deeper", "deepest", "list-key", "block-complex-key", "keys-with-values"],
)
def test_mappings_as_keys_are_refused_at_once(text: str) -> None:
    start = time.process_time()
    diagnostic = error_of(text)
    # bounded, not a speed target: composing such keys took minutes before; a refusal
    # takes milliseconds, and the bound leaves room for a busy machine
    assert time.process_time() - start < 10
    assert diagnostic.location.line >= 1 and diagnostic.location.column >= 1
    assert "cannot be a key" in diagnostic.message
    assert diagnostic.hint


def test_the_issue_input_is_located_at_the_first_key_collection() -> None:
    diagnostic = error_of(_nested_keys(16))
    assert (diagnostic.location.line, diagnostic.location.column) == (1, 5)


def test_the_issue_input_does_not_hang_the_command_line(tmp_path) -> None:
    """The whole CLI, in a subprocess: a hang would be killed by the timeout."""
    folder = tmp_path / "game"
    folder.mkdir()
    (folder / "ruleset.yaml").write_text(_nested_keys(24), encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-m", "interpreter", "validate", str(folder)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 1, result.stdout + result.stderr
    assert "cannot be a key" in result.stdout + result.stderr


@pytest.mark.parametrize("quote", ['"', "'"])
def test_unclosed_quote_is_worded(quote: str) -> None:
    text = f"a: 1\nb: {quote}abc\nc: 2\n"
    diagnostic = error_of(text)
    assert (diagnostic.location.line, diagnostic.location.column) == (2, 4)  # the opening quote
    assert "while" not in diagnostic.message + (diagnostic.hint or "")
    assert "scanning" not in diagnostic.message + (diagnostic.hint or "")
    assert "quoted text" in diagnostic.message
    assert f"closing {quote}" in (diagnostic.hint or "")


def test_other_scanner_contexts_have_no_garbled_hint() -> None:
    for text in ("a: &\nb: 1\n", "a: !<x\n", "a: |x\n  b\n"):
        diagnostic = error_of(text)
        hint = diagnostic.hint or ""
        assert "the while" not in hint and "scanning" not in hint, (text, hint)
