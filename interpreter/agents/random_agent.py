"""Uniformly random over the legal options (seeded, so games are reproducible)."""

from __future__ import annotations

from interpreter.agents.base import Agent
from interpreter.engine.seat import Seat


class RandomAgent(Agent):
    def decide(self, seat: Seat) -> str:
        options = seat.options
        return options[int(self.rng.random() * len(options))]
