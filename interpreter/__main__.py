"""``python -m interpreter`` runs the ``rules`` command."""

from interpreter.cli.entry import run
from interpreter.cli.main import main  # the command itself, for callers in their own process

__all__ = ["main", "run"]

if __name__ == "__main__":
    run()
