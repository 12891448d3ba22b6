"""``rules lsp``: the language server for editors, over stdio.

pygls is imported only when the command runs, so ``rules --help`` and every other
command work without the ``lsp`` extra installed.
"""

from __future__ import annotations

import click


@click.command()
@click.option(
    "--debounce",
    type=click.IntRange(0, 10_000),
    default=300,
    show_default=True,
    help="Milliseconds after the last edit before the ruleset is checked again.",
)
def lsp(debounce: int) -> None:
    """Run the language server on stdin/stdout (editors start it; see docs/modding.md).

    It reports every problem `rules validate` finds while you type, in the open,
    unsaved files of the ruleset or mod, and answers hover, completion, go to
    definition and find references.
    """
    try:
        from interpreter.lsp.server import create_server
    except ImportError as exc:
        raise click.ClickException(
            f"the language server needs pygls ({exc}); "
            "install it with: pip install 'tabletop-rules[lsp]'"
        ) from None
    raise SystemExit(create_server(debounce / 1000).start_io())
