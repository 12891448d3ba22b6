"""What a position is worth to each player, for a search that stops before the end.

Two judges, both generic: the ruleset's ``estimate`` (a designer's hint, optional), and
the ruleset's own final scoring run on a copy of the position as if the game ended
now (``final_scores``). The second needs nothing written for agents: it counts what
the rules count at the end (conversions of leftovers, majorities, end-of-game
bonuses), and a ruleset that scores during play is judged by its score counter as it
stands.
"""

from __future__ import annotations

from typing import Any

from interpreter.engine.executor import StopEffect, run_effect
from interpreter.engine.game import Game
from interpreter.engine.what_if import NoChance, answer_first
from interpreter.errors import GameError
from interpreter.language.runtime import Context

MAX_ANSWERS = 200  # decisions a scoring step may ask in one as-if-ended scoring


def final_scores(world: Game) -> list[float]:
    """Each seat's score if the final scoring ran now, on a copy of the state.

    The scoring's own decisions (a `may choose` in a step) take their first
    option, as a what-if does. A step that draws by chance, opens a simultaneous step,
    asks more than ``MAX_ANSWERS`` decisions or fails stops the scoring there: the
    scores are what the steps so far gave.
    """
    ruleset, state = world.ruleset, world.state
    if world.is_over() or not ruleset.score:
        return _counters(state, ruleset.score, len(state.players))
    state = state.copy()
    host = NoChance()
    for step in ruleset.scoring:
        ctx = Context(state, world.tables, None, {}, host)  # type: ignore[arg-type]
        if not _run_step(step.effect, ctx):
            break
    return _counters(state, ruleset.score, len(state.players))


def _run_step(effect: Any, ctx: Context) -> bool:
    """Run one scoring step to its end; False if it could not be."""
    run = effect(ctx) if callable(effect) else run_effect(effect, ctx)
    try:
        return answer_first(run, MAX_ANSWERS)
    except (StopEffect, GameError):
        return False


def _counters(state: Any, score: str | None, players: int) -> list[float]:
    if not score:
        return [0.0] * players
    return [float(state.counters.get(f"{score}#{s}", 0)) for s in range(players)]
