"""Many seeded games of a ruleset, and what they say about its balance.

``plan`` names the games (a seed, a player count and agents for each), ``play``
plays one to a record (``record`` counts what each player did with each item),
``execute`` runs a plan in this process, a pool of worker processes (``pool``) or a Dask
cluster and passes each record on as its game finishes, to ``aggregate.Totals``, which
folds it into sums, and to ``rows``, which writes its CSV row; no record is kept.
``focus`` judges what a mod adds or changes, ``compare`` two variants, and ``report_*``
write it all as text, JSON, CSV and HTML. Every statistic is a sum or count that does not
depend on the order the records arrive in, so it never depends on how the games were run.
"""

from __future__ import annotations

from interpreter.simulate.aggregate import Totals
from interpreter.simulate.compare import compare
from interpreter.simulate.execute import Outcome, run
from interpreter.simulate.plan import Plan, Variant, game_seed

__all__ = ["Outcome", "Plan", "Totals", "Variant", "compare", "game_seed", "run"]
