"""Command-line options several commands share, declared once."""

from __future__ import annotations

from pathlib import Path

import click

expansions_option = click.option(
    "--with",
    "expansions",
    multiple=True,
    metavar="EXPANSION",
    help="Apply an expansion the ruleset offers (repeatable; the order they are named in "
    "does not matter).",
)
mods_option = click.option(
    "--mod",
    "mods",
    multiple=True,
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="Apply a mod overlay file (repeatable; the order does not matter).",
)
