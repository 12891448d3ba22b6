"""What each player knows so far, worked out when first asked: the game played again
from its record (its decisions and chance outcomes) with knowledge followed.

A game starts with ``PendingKnowledge``: following who saw which hidden component
costs every move into a hidden zone some work, and nothing needs it until a view, a
world or a digest asks (``Game.follow_knowledge``). Then the record is played again
in a twin that follows it from the start, and the twin's answer is taken over.

A position arranged by hand (a test or a tool editing the state, then running sandbox
verbs) is not what the record gives: there, nobody is taken to know any component
they cannot see, and knowledge is followed from then on. That shows a player less
than a real table might, never more.
"""

from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING, Any

from interpreter.engine.state import PendingKnowledge
from interpreter.errors import GameError, RuleError
from interpreter.language.runtime import Context

if TYPE_CHECKING:
    from interpreter.engine.game import Game


class Knowledge:
    """``follow_knowledge`` and ``reveal`` for ``Game`` (a mixin: it reads the game's
    state, step snapshot and record)."""

    state: Any
    events: list
    _snapshot: Any

    def follow_knowledge(self) -> None:
        """Follow what each player knows of hidden components from now on (views,
        worlds and digests read it): what they know so far is worked out by playing this
        game again from its record (``knowing_twin``). Nothing to do if the game already
        follows it; a game that never does (``replay(views=False)``) refuses when read."""
        if type(self.state.engine["known"]) is not PendingKnowledge:
            return
        if self._snapshot is None and not self.events:  # not started: nothing seen yet
            self.state.engine["known"] = {}
            return
        twin = knowing_twin(self)  # type: ignore[arg-type]
        # no twin: a position arranged by hand, which nobody is taken to know
        self.state.engine["known"] = twin.state.engine["known"] if twin else {}
        if self._snapshot is not None:
            start = twin._snapshot if twin else None
            self._snapshot.engine["known"] = start.engine["known"] if start else {}

    def reveal(self, ctx: Context, pieces: tuple[str, ...], to: tuple[int, ...]) -> None:
        """The rules' `reveal`: ``pieces`` are known to the seats ``to`` from now on."""
        engine = self.state.engine
        known = engine["known"]
        if type(known) is not dict:
            return  # not followed (yet): ``follow_knowledge`` works it out when asked
        copied = False  # copied on the first change: states share their engine dicts
        shown = set(to)
        for piece in pieces:
            had = known.get(piece, ())
            seats = tuple(sorted(shown.union(had)))
            if seats and seats != had:  # nobody's knowledge: no entry (``Tables.witness``)
                if not copied:
                    known, copied = dict(known), True
                known[piece] = seats
        if copied:
            engine["known"] = known


def knowing_twin(game: Game) -> Game | None:
    """``game`` played again from its record, following what each player knows; None
    when the record does not bring back the same position: the state was changed by
    hand (a test or a tool arranging a position), so the record cannot tell what the
    players saw of it."""
    from interpreter.engine.game import Game  # the twin is a game: a cycle at import

    chances = deque(event for event in game.events if "chance" in event)

    def recorded(key: str, items: tuple[str, ...], count: int | None) -> tuple[str, ...]:
        if not chances or chances[0]["chance"] != key:
            raise GameError(f"the record has no outcome for {key}")
        return tuple(chances.popleft()["outcome"])

    twin = Game(game.ruleset, list(game.people), game.seed, chance_source=recorded, start=False)
    twin.state.engine["known"] = {}
    twin.lazy_choices = True  # each recorded move is checked alone, as replay does
    try:
        twin.start()
        for event in game.events:
            # a rules-driven seat's decisions are taken again by the twin's own rules
            if "choice" in event and event["player"] in game.people:
                twin.apply(event["player"], event["choice"])
    except (GameError, RuleError):
        return None
    if twin.events != game.events or not _same_position(twin, game):
        return None
    return twin


def _same_position(twin: Game, game: Game) -> bool:
    one, other = twin.state, game.state
    return (
        one.zones == other.zones
        and one.counters == other.counters
        and one.variables == other.variables
        and one.owners == other.owners
        and _course(one.engine) == _course(other.engine)
    )


def _course(engine: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in engine.items() if key != "known"}
