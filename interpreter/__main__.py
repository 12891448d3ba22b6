"""``python -m interpreter`` runs the ``rules`` command."""

from interpreter.cli.main import main

if __name__ == "__main__":
    main()
