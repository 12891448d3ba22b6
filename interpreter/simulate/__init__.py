"""Many seeded games of a ruleset, and what they say about its balance.

``plan`` names the games (a seed, a player count and agents for each), ``play``
plays one to a record, ``execute`` runs a plan in this process, a pool of worker
processes (``pool``) or a Dask cluster and passes each record on as its game finishes
(``rows`` writes it to CSV at once), ``aggregate`` and ``compare`` turn records into
statistics and ``report_*`` write them as text, JSON, CSV and HTML. Every statistic is computed
from the records in game order, so it never depends on how the games were run.
"""

from __future__ import annotations

from interpreter.simulate.aggregate import aggregate
from interpreter.simulate.compare import compare
from interpreter.simulate.execute import Outcome, run
from interpreter.simulate.plan import Plan, Variant, game_seed

__all__ = ["Outcome", "Plan", "Variant", "aggregate", "compare", "game_seed", "run"]
