"""Command-line options several commands share, declared once."""

from __future__ import annotations

from pathlib import Path

import click

from interpreter.load.search import set_rules_path

MAX_ID = 200  # characters of an expansion id (as a log header allows)


def expansion_ids(
    ctx: click.Context, param: click.Parameter, value: tuple[str, ...]
) -> tuple[str, ...]:
    """Every ``--with`` is an id, as the schemas spell one: an empty id, or one with a
    control character, could name what a cache holds for another combination."""
    if value:
        import re

        from interpreter.check.sections import ID_PATTERN

        for given in value:
            if len(given) > MAX_ID or not re.search(ID_PATTERN, given):
                raise click.BadParameter(
                    f"{given[:60]!r} is not an expansion id: an id is letters, digits and "
                    f"'_' (up to {MAX_ID}), not starting with a digit",
                    ctx,
                    param,
                )
    return value


expansions_option = click.option(
    "--with",
    "expansions",
    multiple=True,
    callback=expansion_ids,
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


def _set_rules_path(ctx: click.Context, param: click.Parameter, value: tuple[Path, ...]) -> None:
    if value:
        set_rules_path([*value])


rules_path_option = click.option(
    "--rules-path",
    multiple=True,
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    expose_value=False,
    is_eager=True,
    callback=_set_rules_path,
    metavar="FOLDER",
    help="Look for ruleset ids and mod ids in this folder first (repeatable; then "
    "RULES_PATH, ./rulesets and the bundled rulesets).",
)


# a game's player count and seed, as `play` and `serve` take them (one declaration)
players_option = click.option(
    "--players",
    "count",
    type=click.IntRange(1, 16),
    default=None,
    help="Number of players (required, unless --resume gives the game).",
)
seed_option = click.option(
    "--seed", default="0", show_default=True, help="Seed of the game's chance."
)
