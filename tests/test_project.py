"""The README's set-up commands and CI stay in step."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def readme_commands() -> list[str]:
    lines = (ROOT / "README.md").read_text().splitlines()
    assert lines[0].startswith("```"), "the README starts with the two set-up commands"
    return lines[1:3]


def test_readme_starts_with_play_and_test_commands() -> None:
    play, test = readme_commands()
    assert "pip install" in play and ".venv/bin/rules" in play
    assert "pip install" in test and test.rstrip().endswith(".venv/bin/pytest")


def test_ci_runs_exactly_the_readme_test_command() -> None:
    _, test = readme_commands()
    assert test in (ROOT / ".ci" / "run").read_text()
