"""Chance outcomes for ``Game``: from the log being replayed, from a chance source
(a caller's own dice), or drawn from the seed (``chance.py``); each one checked against
what the rules allow, recorded in the unit's history and, in play, logged.

A mixin of ``Game``: it reads the game's state, seed, replay queues and records.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from interpreter.engine import chance
from interpreter.errors import GameError, ImpossibleChance
from interpreter.language.runtime import Context
from interpreter.ruleset.dice import set_faces


class ChanceHost:
    """``random_order``, ``random_choice``, ``random_pick`` and ``roll`` for ``Game``
    (the host of compiled effects)."""

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

    def roll(self, ctx: Context, dice: tuple[str, ...]) -> None:
        """The rules' `roll`: a face for each die, one chance outcome per zone the dice
        lie in (`roll ZONE`: whether a player sees the outcome is whether they see the
        zone, which a world dealt for them reads, ``seat.py``), checked against each
        die's faces, and written on the dice (``ruleset/dice.py``)."""
        tables = ctx.rules
        where = self.state.where
        by_zone: dict[str, list[str]] = {}
        for die in dice:
            zone = where.get(die)
            if zone is None:
                raise GameError(f"{die} is in no zone: a die is rolled where it lies")
            by_zone.setdefault(zone, []).append(die)
        for zone, here in by_zone.items():
            faces = tuple(tables.dice[d] for d in here)
            texts = tuple(sorted({str(f) for one in faces for f in one}))
            outcome = self._chance(
                f"roll {zone}",
                texts,
                len(here),
                lambda index, faces=faces: chance.rolled(self.seed, index, faces),
            )
            if len(outcome) != len(here) or not all(
                text in map(str, options) for text, options in zip(outcome, faces, strict=True)
            ):
                raise ImpossibleChance.with_options(
                    texts,
                    f"roll {zone}: {list(outcome)} is not one face for each of the "
                    f"{len(here)} dice there, of their faces {', '.join(texts)}",
                )
            values = [(die, int(text)) for die, text in zip(here, outcome, strict=True)]
            set_faces(self.state, values, tables.sees)

    def _chance(
        self,
        key: str,
        items: tuple[str, ...],
        count: int | None,
        drawn: Callable[[int], tuple[str, ...]] | None = None,
    ) -> tuple[str, ...]:
        engine = self.state.engine
        queue = self._replay.get(self._current_runner) if self._replay is not None else None
        if queue:
            entry = queue.popleft()
            if entry[0] != "chance" or entry[1] != key:
                raise GameError(f"replay out of step at {key}")
            outcome = tuple(entry[2])
        elif self.chance_source is not None:
            outcome = tuple(self.chance_source(key, items, count))
        elif drawn is not None:
            outcome = drawn(engine["chance"])
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
