"""``rules reference``: the effect-language reference, generated from the registry."""

from __future__ import annotations

from pathlib import Path

import click

from interpreter.atomic_file import write_output
from interpreter.language.reference import render


@click.command()
@click.option(
    "--write",
    "path",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write the reference to this file (docs/language.md).",
)
def reference(path: Path | None) -> None:
    """Print the effect-language reference (or write it with --write)."""
    text = render()
    if path is None:
        click.echo(text, nl=False)
        return
    write_output(path, text)
    click.echo(f"wrote {path}")
