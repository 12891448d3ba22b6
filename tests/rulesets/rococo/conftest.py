"""Position set-up helpers for Rococo rule tests.

A test builds a game, arranges the exact position the rule needs by editing the
state (counters, zones, space owners), runs one action or phase with the engine's
sandbox, answers its decisions, and checks the outcome.
"""

from __future__ import annotations

from functools import cache

import pytest

from interpreter.engine.game import Game
from interpreter.language.values import Piece
from interpreter.ruleset import load_or_raise


@cache
def rococo(expansions: tuple[str, ...] = ()):
    return load_or_raise("rococo", list(expansions))


class Table:
    """A Rococo game with helpers to arrange positions and drive decisions."""

    def __init__(self, players: int = 3, seed: int = 0, expansions: tuple[str, ...] = ()):
        self.game = Game(
            rococo(tuple(expansions)), [f"P{i + 1}" for i in range(players)], seed=seed
        )

    @property
    def state(self):
        return self.game.state

    # --- arranging ------------------------------------------------------
    def set(self, seat: int, counter: str, value: int) -> Table:
        self.state.counters[f"{counter}#{seat}"] = value
        return self

    def get(self, seat: int, counter: str) -> int:
        return self.state.counters[f"{counter}#{seat}"]

    def put(self, piece: str, zone: str, seat: int | None = None) -> Table:
        key = zone if seat is None else f"{zone}#{seat}"
        self.state.put(piece, key)
        return self

    def clear(self, zone: str, seat: int | None = None, to: str = "box") -> Table:
        key = zone if seat is None else f"{zone}#{seat}"
        for piece in self.state.zones.get(key, ()):
            self.state.put(piece, to)
        return self

    def own(self, space: str, seat: int, piece: str | None = None) -> Table:
        """Put ``seat``'s marker on a space (and a component on it, if given)."""
        if piece is not None:
            self.state.put(piece, space)
        self.state.owners[space] = seat
        return self

    def zone(self, zone: str, seat: int | None = None) -> tuple[str, ...]:
        return self.state.zones.get(zone if seat is None else f"{zone}#{seat}", ())

    # --- running --------------------------------------------------------
    def act(self, action: str, seat: int, card: str | None = None, **args) -> Table:
        if card is not None:
            args["card"] = Piece(card)
        self.game.run_action(action, seat, **args)
        return self

    def options(self, seat: int | None = None) -> tuple[str, ...]:
        pending = self.game.pending()
        if seat is None:
            return pending[0].options if pending else ()
        return self.game.legal(seat)

    def answer(self, *texts: str) -> Table:
        for text in texts:
            seat = self.game.pending()[0].player
            self.game.apply(seat, text)
        return self

    def eval(self, text: str, seat: int | None = None, **env):
        return self.game.evaluate(text, seat, **env)


@pytest.fixture
def table() -> Table:
    return Table(3)


@pytest.fixture
def make_table():
    return Table
