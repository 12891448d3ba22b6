"""What a position is worth to each player, for a search that stops before the end.

Two judges, both generic: the ruleset's ``estimate`` (a designer's hint, optional), and
the ruleset's own final scoring run on a copy of the position as if the game ended
now (``final_scores``). The second needs nothing written for agents: it counts what
the rules count at the end (Rococo: livres to prestige, hall and fireworks
majorities, statues, ownership markers), and a ruleset that scores during play (the
Queen's Necklace sales) is judged by its score counter as it stands.
"""

from __future__ import annotations

from interpreter.engine.executor import Choice, StopEffect, run_effect
from interpreter.engine.game import Game
from interpreter.engine.what_if import _NoChance
from interpreter.errors import GameError, RuleError
from interpreter.language.runtime import Context

MAX_ANSWERS = 200  # decisions a scoring step may ask in one as-if-ended scoring


def final_scores(world: Game) -> list[float]:
    """Each seat's score if the final scoring ran now, on a copy of the state.

    The scoring's own decisions (a `may choose` of the terrace) take their first
    option, as a what-if does; a step that draws by chance, opens a simultaneous step
    or fails leaves the scores as the steps before it left them.
    """
    ruleset, tables = world.ruleset, world.tables
    score = ruleset.score
    state = world.state
    if world.is_over() or not score:
        return _counters(state, score, len(state.players))
    state = state.copy()
    host = _NoChance()
    for step in ruleset.scoring:
        ctx = Context(state, tables, None, {}, host)  # type: ignore[arg-type]
        effect = step.effect
        run = effect(ctx) if callable(effect) else run_effect(effect, ctx)
        try:
            answer = None
            for _ in range(MAX_ANSWERS):
                asked = next(run) if answer is None else run.send(answer)
                if not isinstance(asked, Choice):
                    break
                answer = asked.first_offer()[0]
            else:
                break
        except StopIteration:
            continue
        except (StopEffect, GameError, RuleError):
            break
    return _counters(state, score, len(state.players))


def _counters(state, score: str | None, players: int) -> list[float]:
    if not score:
        return [0.0] * players
    return [float(state.counters.get(f"{score}#{s}", 0)) for s in range(players)]
