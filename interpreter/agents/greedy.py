"""One-step look-ahead on the ruleset's score estimate (``scoring.estimate``).

Each option is tried on a copy of the game; the option whose resulting position
has the best estimate for this player wins (ties broken at random). The copies
draw chance from their own stream and, during a simultaneous step, leave out the
other players' secret choices, so the agent never looks at what it may not know.
"""

from __future__ import annotations

from interpreter.agents.base import Agent
from interpreter.engine.game import Decision, Game, IllegalMove


class GreedyAgent(Agent):
    def choose(self, game: Game, decision: Decision) -> str:
        if len(decision.options) == 1:
            return decision.options[0]
        best: list[str] = []
        best_value = None
        hide = self.seat if game.has_secret_decisions() else None
        for option in decision.options:
            trial = game.copy(hide_from=hide)
            try:
                trial.apply(self.seat, option)
            except IllegalMove:
                continue
            value = trial.estimate(self.seat)
            if best_value is None or value > best_value:
                best, best_value = [option], value
            elif value == best_value:
                best.append(option)
        if not best:
            return decision.options[0]
        return best[int(self.rng.random() * len(best))]
