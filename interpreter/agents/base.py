"""The agent interface: an agent decides from its seat, never from the game."""

from __future__ import annotations

import random

from interpreter.engine.game import Decision, Game
from interpreter.engine.seat import Seat


class Agent:
    """Chooses one option text of an open decision.

    An agent may carry state from one decision to the next (its random generator;
    mcts's unused iterations and MAST means). ``reproducible``: its decisions are a
    function of its seed and the positions it was asked about, so ``rules play
    --resume`` rebuilds its state by asking it again about each of its past positions
    (``cli/resume.py``), and the resumed game is the one that was not interrupted. A
    person is not, nor a search with a time budget."""

    reproducible = True

    def __init__(self, seat: int, seed: int | str = 0):
        self.seat = seat
        self.rng = random.Random(str(seed))

    def choose(self, game: Game, decision: Decision) -> str:
        """Called by whoever runs the table: the agent only ever gets the ``Seat``."""
        return self.decide(Seat(game, decision))

    def decide(self, seat: Seat) -> str:
        raise NotImplementedError
