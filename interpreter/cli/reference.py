"""``rules reference``: the effect-language reference, generated from the registry."""

from __future__ import annotations

from pathlib import Path

import click

from interpreter.atomic_file import write_output
from interpreter.language.reference import render, with_defaults


@click.command()
@click.option(
    "--write",
    "path",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write the reference to this file (docs/language.md).",
)
def reference(path: Path | None) -> None:
    """Print the effect-language reference (or write it with --write). Writing it also
    renews the table of defaults in the format.md beside it, generated from the same
    declaration (``check/defaults.py``)."""
    text = render()
    if path is None:
        click.echo(text, nl=False)
        return
    write_output(path, text)
    click.echo(f"wrote {path}")
    fmt = path.with_name("format.md")
    if fmt.is_file():
        old = fmt.read_text(encoding="utf-8")
        new = with_defaults(old)
        if new != old:
            write_output(fmt, new)
            click.echo(f"wrote {fmt}")
