"""``rules schema``: print or write the JSON Schemas generated from the registry."""

from __future__ import annotations

from pathlib import Path

import click

from interpreter.check import schemas


@click.command()
@click.argument("name", required=False, type=click.Choice(sorted(schemas.SCHEMAS)))
@click.option(
    "--write",
    "folder",
    type=click.Path(file_okay=False, path_type=Path),
    help="Write every schema into this folder (e.g. schemas/).",
)
def schema(name: str | None, folder: Path | None) -> None:
    """Print one JSON Schema, or write them all with --write."""
    if folder is not None:
        for path in schemas.write_all(folder):
            click.echo(f"wrote {path}")
        return
    if name is None:
        raise click.UsageError("name a schema or pass --write FOLDER")
    click.echo(schemas.render(name), nl=False)
