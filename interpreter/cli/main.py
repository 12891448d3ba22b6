"""The ``rules`` command: one click group, one module per sub-command.

The group is lazy: a sub-command's module (and jsonschema, lark, ruamel… behind it)
is imported only when that sub-command runs, so ``rules --help`` and ``rules
--version`` start in a few tens of milliseconds.
"""

from __future__ import annotations

import importlib
import sys
from typing import NamedTuple

import click

from interpreter import __version__
from interpreter.cli.options import rules_path_option
from interpreter.collector import collect_less

INTERNAL_ERROR = 70


class LazyCommand(NamedTuple):
    """Where a sub-command lives and its one-line help, shown without importing it.

    ``short_help`` must equal the command's own short help (its docstring's first
    sentence); ``tests/cli/test_lazy_commands.py`` checks that it does."""

    target: str  # "module:attribute"
    short_help: str


COMMANDS: dict[str, LazyCommand] = {
    "cards": LazyCommand(
        "interpreter.cli.cards:cards",
        "Print a reference of RULESET's cards: every component (by kind), space and "
        "action with its label, kind, properties, requirements and effect as source.",
    ),
    "explain": LazyCommand(
        "interpreter.cli.explain:explain",
        "Show where NAME (an action, component, space, function, …) is defined, its YAML "
        "and its effect; without NAME, list what the ruleset defines.",
    ),
    "lsp": LazyCommand(
        "interpreter.cli.lsp:lsp",
        "Run the language server on stdin/stdout (editors start it; see docs/modding.md).",
    ),
    "new": LazyCommand(
        "interpreter.cli.new:new",
        "Scaffold a mod (`rules new mod NAME --base RULESET`) or a ruleset.",
    ),
    "play": LazyCommand(
        "interpreter.cli.play:play",
        "Play one game of RULESET (an id in rulesets/ or a folder) to the end.",
    ),
    "reference": LazyCommand(
        "interpreter.cli.reference:reference",
        "Print the effect-language reference (or write it with --write).",
    ),
    "replay": LazyCommand(
        "interpreter.cli.replay:replay_command",
        "Replay LOG against its ruleset: was every move legal, what is the score.",
    ),
    "schema": LazyCommand(
        "interpreter.cli.schema:schema",
        "Print one JSON Schema, or write them all with --write.",
    ),
    "serve": LazyCommand(
        "interpreter.cli.serve:serve",
        "Serve a game of RULESET as a web table: one private link per player's seat.",
    ),
    "simulate": LazyCommand(
        "interpreter.cli.simulate:simulate",
        "Play GAMES seeded games of RULESET and report its balance.",
    ),
    "test": LazyCommand(
        "interpreter.cli.test_command:test_command",
        "Run the scenarios of FILES (YAML: a position, moves, expected outcomes).",
    ),
    "validate": LazyCommand(
        "interpreter.cli.validate:validate",
        "Check rulesets, expansions, mods and single files; report every error.",
    ),
}


class LazyGroup(click.Group):
    """A click group that imports a sub-command's module on first use."""

    def __init__(self, *args, lazy: dict[str, LazyCommand], **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.lazy = lazy

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *self.lazy})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands and cmd_name in self.lazy:
            module, _, attribute = self.lazy[cmd_name].target.partition(":")
            self.add_command(getattr(importlib.import_module(module), attribute), cmd_name)
        return super().get_command(ctx, cmd_name)

    def invoke(self, ctx: click.Context) -> object:
        """Run the sub-command; a file it was asked to write and could not
        (``atomic_file.write_output``) is an error of the user's input, exit 1."""
        from interpreter.atomic_file import OutputError

        try:
            return super().invoke(ctx)
        except OutputError as exc:
            click.echo(f"{exc.path}: error: {exc.reason}", err=True)
            if exc.hint:
                click.echo(f"     = hint: {exc.hint}", err=True)
            ctx.exit(1)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """Click's own listing, but the help of a lazy command comes from the table."""
        names = self.list_commands(ctx)
        if not names:
            return
        limit = formatter.width - 6 - max(len(name) for name in names)
        rows = []
        for name in names:
            if name in self.lazy and name not in self.commands:
                stand_in = click.Command(name, help=self.lazy[name].short_help)
                rows.append((name, stand_in.get_short_help_str(limit)))
                continue
            command = self.get_command(ctx, name)
            if command is not None and not command.hidden:
                rows.append((name, command.get_short_help_str(limit)))
        with formatter.section("Commands"):
            formatter.write_dl(rows)


@click.group(cls=LazyGroup, lazy=COMMANDS, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="rules")
@rules_path_option
def cli() -> None:
    """tabletop-rules: validate, play and replay board games written as data."""


def main() -> None:
    """Run the CLI; any unexpected exception is one line and exit code 70."""
    collect_less()  # a command reads rules and keeps them (``collector.py``)
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
