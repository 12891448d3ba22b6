"""The game a server hosts: who sits where, the keys to the seats, the log.

One ``Host`` holds the only true game. A person reaches their seat with a token (an
unguessable string from ``secrets.token_urlsafe``, in their private URL); the
spectator token opens the view of no seat. Whatever a connection is sent comes from
``table.table_message`` for its seat: the seat's view (``engine/view.py``, the object
``tests/engine/test_secrecy.py`` checks), never the game.

A move names the decision it answers (``Decision id``: the number of events the game
had when that seat's decision opened), so a click on a page drawn before the game
moved on is refused as stale instead of being applied to a decision the person never
saw. Every refusal leaves the game as it was.

The log is written as ``rules play --log`` writes it (``log/stream.py``): each move's
lines once the game has applied it whole, so ``rules serve --resume LOG`` or ``rules
play --resume LOG`` goes on from wherever the server stopped.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field

from interpreter.agents import Agent
from interpreter.engine.game import Decision, Game, IllegalMove
from interpreter.errors import GameError
from interpreter.log import writer
from interpreter.log.stream import LogStream

HUMAN = "human"
TOKEN_BYTES = 18  # 24 characters in the URL, 144 random bits


class Refused(Exception):
    """A message the host turns down, in words for the person; nothing changed."""


@dataclass
class Seat:
    """One person's or agent's place at the table."""

    index: int
    name: str
    kind: str  # "human" or an agent spec
    token: str | None = None  # a person's key to the seat
    agent: Agent | None = None


@dataclass
class Host:
    """The game, its seats and its log; methods called under the server's one lock."""

    game: Game
    seats: list[Seat]
    stream: LogStream | None = None
    written: int = 0  # the game's events already in the log
    spectator: str = field(default_factory=lambda: secrets.token_urlsafe(TOKEN_BYTES))
    opened: dict[int, tuple[int, str, tuple[str, ...]]] = field(default_factory=dict)
    moves: int = 0  # moves applied by this server (each changes what pages show)

    def __post_init__(self) -> None:
        for seat in self.seats:
            if seat.kind == HUMAN and seat.token is None:
                seat.token = secrets.token_urlsafe(TOKEN_BYTES)
        self._note_decisions(None)

    # ---------------------------------------------------------------- keys
    def seat_of(self, token: object) -> int | None:
        """The seat ``token`` opens (None: the spectator's); ``Refused`` for any other."""
        if isinstance(token, str):
            if secrets.compare_digest(token, self.spectator):
                return None
            for seat in self.seats:
                if seat.token is not None and secrets.compare_digest(token, seat.token):
                    return seat.index
        raise Refused("this link opens no seat at this table: ask the host for yours")

    # ---------------------------------------------------------------- decisions
    def decision_of(self, seat: int | None) -> tuple[int, Decision] | None:
        """The open decision of ``seat`` and its id, or None."""
        if seat is None:
            return None
        for decision in self.game.pending():
            if decision.player == seat:
                return self.opened[seat][0], decision
        return None

    def agent_decision(self) -> tuple[Seat, Decision] | None:
        """An open decision an agent takes, or None (the game waits for people)."""
        if self.game.is_over():
            return None
        by_index = {seat.index: seat for seat in self.seats}  # rules-driven seats have none
        for decision in self.game.pending():
            seat = by_index.get(decision.player)
            if seat is not None and seat.agent is not None:
                return seat, decision
        return None

    def choose(self, seat: int | None, decision_id: int, option: str) -> None:
        """A person's move: checked, applied, logged; ``Refused`` changes nothing."""
        if seat is None:
            raise Refused("a spectator makes no moves")
        if self.game.is_over():
            raise Refused("the game is over")
        open_ = self.decision_of(seat)
        if open_ is None:
            waiting = ", ".join(d.player_name for d in self.game.pending()) or "nobody"
            raise Refused(f"you have no decision to make now (waiting for: {waiting})")
        current, decision = open_
        if decision_id != current:
            raise Refused(
                "that choice answered an earlier decision (the game has moved on): "
                "choose again among the options shown now"
            )
        if option not in decision.options:
            raise Refused(f"not an option: {self.game.why_not(seat, option)}")
        self.apply(seat, option)

    def apply(self, seat: int, option: str) -> None:
        """Apply a legal option, then write its lines to the log."""
        try:
            self.game.apply(seat, option)
        except IllegalMove as exc:  # the options said legal: the engine is the judge
            raise Refused(f"not an option: {exc}") from None
        except GameError as exc:  # a defect of the rules, met during the move
            raise Refused(f"the rules failed on this move: {exc.headline()}") from None
        self.moves += 1
        self._note_decisions(seat)
        if self.stream is not None:
            self.stream.add(writer.event_lines(self.game, self.written))
            self.written = len(self.game.events)
            if self.game.is_over():
                self.stream.close()

    def _note_decisions(self, mover: int | None) -> None:
        """Give each newly opened decision its id: the events so far."""
        now = len(self.game.events)
        for decision in self.game.pending():
            key = (decision.prompt, decision.options)
            known = self.opened.get(decision.player)
            if known is None or decision.player == mover or known[1:] != key:
                self.opened[decision.player] = (now, *key)
