"""The agent interface."""

from __future__ import annotations

import random

from interpreter.engine.game import Decision, Game


class Agent:
    """Chooses one option text of an open decision."""

    def __init__(self, seat: int, seed: int | str = 0):
        self.seat = seat
        self.rng = random.Random(str(seed))

    def choose(self, game: Game, decision: Decision) -> str:
        raise NotImplementedError
