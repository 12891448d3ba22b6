"""The log's events fed to a replayed game: the replay loop takes the decisions, the
engine asks for the chance outcomes and the rules-driven seats' decisions, and both
read them in the log's order from one ``Feed``, which also tells the positions on the
way (``rules replay --at N``)."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from interpreter.engine.game import Game
from interpreter.errors import ChanceProblem
from interpreter.log.reader import BadLine, LogLine


class NeedChance(ChanceProblem):
    """The game needs a chance outcome the log does not give (it ended)."""

    def __init__(self, key: str, items: tuple[str, ...], count: int | None):
        what = "an order of" if count is None else f"{count} of"
        super().__init__(f"the game needs a chance outcome next: {key} ({what} {', '.join(items)})")
        self.key, self.items, self.count = key, items, count


class MalformedLine(ChanceProblem):
    """The next line of the log, read when the game needed it, is malformed."""

    def __init__(self, line: int, message: str):
        super().__init__(message)
        self.line = line


class ChanceOutOfStep(ChanceProblem):
    def __init__(self, message: str, line: LogLine):
        super().__init__(message)
        self.line = line


class Reached(Exception):
    """Replay stopped at the position asked for (``stop_after``), in the middle of the
    engine's work: the game's state is the position after that many events."""

    def __init__(self, chance: str | None):
        super().__init__(chance or "")
        self.chance = chance  # the chance outcome the game asks for next, if any


# Called with (n, game, next chance key or None) at the position after every n events.
PositionHook = Callable[[int, Game, "str | None"], None]


class Feed:
    """The log's events in order, shared by the replay loop and the chance source.

    The position after ``n`` events is the game just before it takes event ``n + 1``
    (or at the end): when the engine asks for the next chance outcome or an
    automaton's decision, or when the replay loop reaches the next decision. There
    ``on_position`` is told of it, and replay stops there when ``stop_at`` is ``n``.

    Events are read from ``events`` (a list or a lazy reader) only as they are
    needed: a malformed line raises ``MalformedLine`` when it is reached.
    """

    def __init__(
        self,
        events: Iterable[LogLine],
        stop_at: int | None = None,
        on_position: PositionHook | None = None,
    ):
        self.events = iter(events)
        self.ahead: LogLine | None = None  # the next event, once peeked
        self.ended = False
        self.index = 0
        self.last: LogLine | None = None
        self.stop_at = stop_at
        self.on_position = on_position
        self.game: Game | None = None
        self.told = -1
        # the replay loop's next event, the position before it told when that is asked
        positions = on_position is not None or stop_at is not None  # most replays neither
        self.next_event = self._told_next if positions else self.take

    def at_position(self, chance: str | None = None) -> None:
        """The game is at the position after ``index`` events: tell, or stop there."""
        if self.on_position is not None and self.told < self.index and self.game is not None:
            self.told = self.index
            self.on_position(self.index, self.game, chance)
        if self.stop_at is not None and self.index >= self.stop_at:
            raise Reached(chance)

    def peek(self) -> LogLine | None:
        """The next event, not taken; None at the end of the log. A malformed line is
        raised as ``MalformedLine``, a chance problem: the engine asks through here."""
        if self.ahead is None and not self.ended:
            try:
                self.ahead = next(self.events, None)
            except BadLine as exc:
                self.ended = True
                raise MalformedLine(exc.line, exc.message) from None
            self.ended = self.ahead is None
        return self.ahead

    def take(self) -> LogLine | None:
        """The next event, taken (read unless peeked at); None at the end of the log.

        The replay loop's one call an event (``next_event``): a malformed line it reads
        raises the reader's ``BadLine``, outside the engine's work (``_fed``)."""
        entry = self.ahead
        if entry is None:
            entry = None if self.ended else next(self.events, None)
            if entry is None:
                self.ended = True
                return None
        else:
            self.ahead = None
        self.last = entry
        self.index += 1
        return entry

    def _told_next(self) -> LogLine | None:
        """``take``, once the position before the event was told (``at_position``)."""
        self.at_position()
        return self.take()

    def chance(self, key: str, items: tuple[str, ...], count: int | None) -> tuple[str, ...]:
        self.at_position(key)
        entry = self.peek()
        if entry is None:
            raise NeedChance(key, items, count)
        if entry.kind != "chance":
            raise ChanceOutOfStep(
                f"the game needs a chance outcome ({key}) here, but the log "
                f"has a {entry.kind.replace('_', ' ')}",
                entry,
            )
        if entry.data["chance"] != key:
            raise ChanceOutOfStep(
                f"the game needs the chance outcome {key!r} here, but the log "
                f"has {entry.data['chance']!r}",
                entry,
            )
        self.take()
        return tuple(entry.data["outcome"])

    def automaton(self, name: str, text: str) -> None:
        """The rules made ``name``'s decision ``text``: the log's next event must say so."""
        self.at_position()
        entry = self.peek()
        if entry is None:
            raise NeedChance(f"{name} (rules-driven) chooses", (text,), 1)
        if entry.kind != "decision" or entry.data.get("player") != name:
            raise ChanceOutOfStep(
                f"the rules make {name}'s decision here ({text!r}), but the log has "
                f"{_describe(entry)}",
                entry,
            )
        if entry.data.get("choice") != text:
            raise ChanceOutOfStep(
                f"{name} is driven by the rules and chooses {text!r} here, not "
                f"{entry.data.get('choice')!r}",
                entry,
            )
        self.take()


def _describe(entry: LogLine) -> str:
    if entry.kind == "decision":
        return f"a decision by {entry.data.get('player')}"
    return f"a {entry.kind.replace('_', ' ')}"
