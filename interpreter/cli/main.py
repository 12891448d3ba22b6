"""The ``rules`` command: one click group, one module per sub-command."""

from __future__ import annotations

import sys

import click

from interpreter import __version__
from interpreter.cli.cards import cards
from interpreter.cli.explain import explain
from interpreter.cli.lsp import lsp  # imports pygls only when `rules lsp` runs
from interpreter.cli.new import new
from interpreter.cli.options import rules_path_option
from interpreter.cli.play import play
from interpreter.cli.reference import reference
from interpreter.cli.replay import replay_command
from interpreter.cli.schema import schema
from interpreter.cli.simulate import simulate
from interpreter.cli.test_command import test_command
from interpreter.cli.validate import validate

INTERNAL_ERROR = 70


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="rules")
@rules_path_option
def cli() -> None:
    """tabletop-rules: validate, play and replay board games written as data."""


cli.add_command(validate)
cli.add_command(play)
cli.add_command(replay_command)
cli.add_command(explain)
cli.add_command(cards)
cli.add_command(schema)
cli.add_command(reference)
cli.add_command(lsp)
cli.add_command(simulate)
cli.add_command(test_command)
cli.add_command(new)


def main() -> None:
    """Run the CLI; any unexpected exception is one line and exit code 70."""
    try:
        cli.main(standalone_mode=True)
    except SystemExit:
        raise
    except KeyboardInterrupt:
        click.echo("interrupted", err=True)
        sys.exit(130)
    except RecursionError:
        click.echo("internal error: nesting too deep", err=True)
        sys.exit(INTERNAL_ERROR)
    except Exception as exc:
        click.echo(f"internal error: {type(exc).__name__}: {exc}", err=True)
        sys.exit(INTERNAL_ERROR)
