"""Chance outcomes for ``Game``: from the log being replayed, from a chance source
(a caller's own dice), or drawn from the seed (``chance.py``); each one checked against
what the rules allow, recorded in the unit's history and, in play, logged.

A mixin of ``Game``: it reads the game's state, seed, replay queues and records.
"""

from __future__ import annotations

from typing import Any

from interpreter.engine import chance
from interpreter.errors import GameError, ImpossibleChance
from interpreter.language.runtime import Context


class ChanceHost:
    """``random_order``, ``random_choice`` and ``random_pick`` for ``Game`` (the host
    of compiled effects)."""

    state: Any
    seed: int | str
    chance_source: Any
    events: list
    _replay: Any
    _current_runner: Any

    def random_order(self, ctx: Context, zone: str, items: tuple[str, ...]) -> tuple[str, ...]:
        outcome = self._chance(f"shuffle {zone}", items, None)
        if sorted(outcome) != sorted(items):
            raise ImpossibleChance.with_options(
                items,
                f"shuffle {zone}: {list(outcome)} is not an order of the "
                f"{len(items)} components there",
            )
        return outcome

    def random_choice(self, ctx: Context, label: str, texts: tuple[str, ...]) -> str:
        outcome = self._chance(f"choose {label}", texts, 1)
        if len(outcome) != 1 or outcome[0] not in texts:
            raise ImpossibleChance.with_options(
                texts, f"choose {label}: {list(outcome)} is not one of {', '.join(texts)}"
            )
        return outcome[0]

    def random_pick(
        self, ctx: Context, zone: str, items: tuple[str, ...], count: int
    ) -> tuple[str, ...]:
        outcome = self._chance(f"draw {zone}", items, count)
        missing = [p for p in outcome if p not in items]
        if missing or len(outcome) != count or len(set(outcome)) != len(outcome):
            raise ImpossibleChance.with_options(
                items,
                f"draw {zone}: {', '.join(missing) or list(outcome)} "
                f"{'is' if len(missing) == 1 else 'are'} not in {zone}"
                if missing
                else f"draw {zone}: expected {count} distinct components, got {list(outcome)}",
            )
        return outcome

    def _chance(self, key: str, items: tuple[str, ...], count: int | None) -> tuple[str, ...]:
        engine = self.state.engine
        queue = self._replay.get(self._current_runner) if self._replay is not None else None
        if queue:
            entry = queue.popleft()
            if entry[0] != "chance" or entry[1] != key:
                raise GameError(f"replay out of step at {key}")
            outcome = tuple(entry[2])
        elif self.chance_source is not None:
            outcome = tuple(self.chance_source(key, items, count))
        elif count is None:
            outcome = chance.shuffled(self.seed, engine["chance"], items)
        else:
            outcome = chance.picked(self.seed, engine["chance"], items, count)
        outcome = tuple(map(str, outcome))  # texts, as a log gives them back (not ``Piece``)
        engine["chance"] += 1
        self._record(self._current_runner, ("chance", key, outcome))
        if self._replay is None:
            self.events.append({"chance": key, "outcome": list(outcome)})
        return outcome
