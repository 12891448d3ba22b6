"""The `rules` program as a process runs it: ``cli/main.py``'s ``main`` in a process of
its own.

The collector's thresholds are raised (``collector.collect_less``) before click and the
rest are imported: at Python's defaults their imports ran the collector a dozen times
in every `rules` process.
"""

from __future__ import annotations


def run() -> None:
    """The `rules` console script (and ``python -m interpreter``)."""
    from interpreter.collector import collect_less

    collect_less()  # before the imports below (``collector.py``)
    from interpreter.cli.main import main

    main()
