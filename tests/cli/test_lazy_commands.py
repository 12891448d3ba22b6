"""The lazy `rules` group: `--help` imports no sub-command, yet shows each one's help.

The one-line help of every sub-command is written twice (its docstring, and the lazy
table in ``interpreter.cli.main`` that `rules --help` reads without importing it);
these tests keep the two equal, so the docstring stays the one source of truth.
"""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from interpreter.cli.main import COMMANDS, LazyGroup, cli

ROOT = Path(__file__).resolve().parents[2]
HEAVY = ("jsonschema", "lark", "ruamel", "pygls", "interpreter.check", "interpreter.engine")


def _real(name: str) -> click.Command:
    module, _, attribute = COMMANDS[name].target.partition(":")
    return getattr(importlib.import_module(module), attribute)


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_the_table_help_is_the_commands_own(name: str) -> None:
    command = _real(name)
    assert isinstance(command, click.Command)
    assert command.name == name
    assert COMMANDS[name].short_help == command.get_short_help_str(10_000)
    for limit in (20, 40, 45, 60, 80):  # the help is cut to the terminal's width
        stand_in = click.Command(name, help=COMMANDS[name].short_help)
        assert stand_in.get_short_help_str(limit) == command.get_short_help_str(limit)


def test_every_table_entry_is_a_command_of_the_group() -> None:
    assert cli.list_commands(click.Context(cli)) == sorted(COMMANDS)
    assert sorted(COMMANDS) == [
        "cards",
        "explain",
        "lsp",
        "new",
        "play",
        "reference",
        "replay",
        "schema",
        "serve",
        "simulate",
        "test",
        "validate",
    ]


def test_help_lists_every_command_with_its_help() -> None:
    result = CliRunner().invoke(cli, ["--help"], terminal_width=200)
    assert result.exit_code == 0
    listing = result.output.split("Commands:\n", 1)[1].splitlines()
    assert [line.split()[0] for line in listing] == sorted(COMMANDS)
    assert "  validate   Check rulesets, expansions, mods and single files; report every " in (
        result.output
    )
    for name, entry in COMMANDS.items():
        assert any(line.split(None, 1) == [name, entry.short_help] for line in listing), name


def test_help_is_the_same_before_and_after_the_commands_are_imported() -> None:
    """The listing from the table equals click's own listing of the imported commands."""
    group = LazyGroup(name="rules", lazy=COMMANDS)
    lazy = CliRunner().invoke(group, ["--help"], terminal_width=72).output
    eager = click.Group(name="rules", commands={name: _real(name) for name in COMMANDS})
    assert CliRunner().invoke(eager, ["--help"], terminal_width=72).output == lazy


def test_a_command_is_imported_when_it_is_run() -> None:
    group = LazyGroup(name="rules", lazy=COMMANDS)
    command = group.get_command(click.Context(group), "schema")
    assert command is _real("schema")
    assert group.commands["schema"] is command  # imported once, then kept


def test_an_unknown_command_is_refused_as_before() -> None:
    result = CliRunner().invoke(cli, ["bogus"])
    assert result.exit_code == 2
    assert "Error: No such command 'bogus'." in result.output


@pytest.mark.parametrize("args", [["--help"], ["--version"]])
def test_help_and_version_import_nothing_heavy(args: list[str]) -> None:
    code = (
        "import sys\n"
        "from interpreter.__main__ import main\n"
        f"sys.argv = ['rules', *{args!r}]\n"
        "try:\n    main()\n"
        "except SystemExit:\n    pass\n"
        f"print(sorted(m for m in sys.modules if m.startswith({HEAVY!r})))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True
    )
    assert result.stdout.strip().splitlines()[-1] == "[]"
    if args == ["--help"]:
        assert "validate   Check rulesets" in result.stdout
    else:
        assert "rules, version 0.1.0" in result.stdout
