"""One-step look-ahead on the ruleset's score estimate (``scoring.estimate``).

Each option is tried on a copy of the game; the option whose resulting position
has the best estimate for this player wins (ties broken at random).
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
        for option in decision.options:
            trial = game.copy()
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
