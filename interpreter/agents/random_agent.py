"""Uniformly random over the legal options (seeded, so games are reproducible)."""

from __future__ import annotations

from interpreter.agents.base import Agent
from interpreter.engine.game import Decision, Game


class RandomAgent(Agent):
    def choose(self, game: Game, decision: Decision) -> str:
        options = decision.options
        return options[int(self.rng.random() * len(options))]
