"""The immutable definitions of a compiled ruleset.

Everything here is produced once by ``build.py``; the engine only reads it. Game
specific values come from the ruleset's YAML, never from this code.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from interpreter.engine.result_mode import HIGHEST, ResultMode
from interpreter.errors import Location
from interpreter.language.effects import CompiledEffect

Fn = Callable[[Any], Any]


@dataclass(frozen=True, slots=True)
class AutomatonDef:
    """A seat the rules drive: it joins games of these player counts."""

    id: str
    name: str
    players: tuple[int, ...]
    seat: str = "last"  # first | last


@dataclass(frozen=True, slots=True)
class CounterDef:
    name: str
    per: str
    initial: Any  # int, or {side: int}
    minimum: int | None
    maximum: int | None
    visibility: str
    label: str


@dataclass(frozen=True, slots=True)
class VariableDef:
    name: str
    per: str
    type: str
    initial: Any
    visibility: str


@dataclass(frozen=True, slots=True)
class ZoneDef:
    name: str
    per: str
    visibility: str
    order: str
    capacity: int
    label: str


@dataclass(frozen=True, slots=True)
class SpaceDef:
    id: str
    group: str
    sides: tuple[str, ...] | None  # None: on every side
    capacity: int
    claimable: bool
    visibility: str
    properties: dict[str, Any]
    label: str


@dataclass(frozen=True, slots=True)
class PieceDef:
    id: str
    design: str
    kind: str
    properties: dict[str, Any]
    label: str


@dataclass(frozen=True, slots=True)
class Requirement:
    condition: Fn
    message: str
    text: str
    parts: tuple[Any, ...] = ()  # the message: texts and compiled `{expression}` values

    def render(self, ctx: Any) -> str:
        if not self.parts:
            return self.message
        out = []
        for part in self.parts:
            if isinstance(part, str):
                out.append(part)
            else:
                try:
                    out.append(_text(ctx, part(ctx)))
                except Exception:
                    out.append("?")
        return "".join(out)


def _text(ctx: Any, value: Any) -> str:
    from interpreter.language.values import Player, text_id

    if isinstance(value, Player):
        return ctx.state.players[int(value)]
    return text_id(value)


@dataclass(frozen=True, slots=True)
class ActionDef:
    id: str
    label: str
    params: dict[str, str]
    defaults: dict[str, Any]
    properties: dict[str, Any]
    requires: tuple[Requirement, ...]
    effect: CompiledEffect
    location: Location
    # all `requires` in one, the parameters as arguments: fn(ctx, *args) gives the
    # first unmet one's index, or -1 (what `can` calls; None if it did not compile)
    checker: Fn | None = None


@dataclass(frozen=True, slots=True)
class TriggerDef:
    id: str
    on: str | None
    when: Fn | None
    once: str
    effect: CompiledEffect


@dataclass(frozen=True, slots=True)
class PhaseDef:
    id: str
    label: str
    kind: str
    order: Fn | None
    while_: Fn | None
    skip: Fn | None
    effect: CompiledEffect


@dataclass(frozen=True, slots=True)
class ScoringStep:
    id: str
    label: str
    effect: CompiledEffect


@dataclass(frozen=True, slots=True)
class Ruleset:
    id: str
    name: str
    version: str
    # a hash of the loaded content (logs record it; replay compares it); "" in a
    # checked build (``build(lazy=True)``: `validate`), whose ruleset is never played
    digest: str
    min_players: int
    max_players: int
    expansions: tuple[str, ...]  # applied overlays, in the canonical order
    sides: dict[str, tuple[int, ...]]
    constants: dict[str, Any]  # name -> value or {"per_side": {...}}
    counters: dict[str, CounterDef]
    variables: dict[str, VariableDef]
    zones: dict[str, ZoneDef]
    spaces: dict[str, SpaceDef]
    groups: dict[str, tuple[str, ...]]
    pieces: dict[str, PieceDef]
    kinds: dict[str, dict[str, str]]
    functions: dict[str, tuple[tuple[str, ...], Fn]]
    actions: dict[str, ActionDef]
    events: dict[str, tuple[str, ...]]
    triggers: dict[str, TriggerDef]
    setup: CompiledEffect | None
    rounds: int | None
    round_counter: str | None
    until: Fn | None
    end: Fn | None
    phases: tuple[PhaseDef, ...]
    score: str | None
    tiebreak: tuple[str, ...]
    scoring: tuple[ScoringStep, ...]
    estimate: Fn | None
    offered_expansions: dict[str, dict[str, Any]] = field(default_factory=dict)
    # said when a player count outside min-max is asked for: by count (0 = any other)
    players_notes: dict[int, str] = field(default_factory=dict)
    labels: dict[str, str] = field(default_factory=dict)  # display texts by term
    # what people read about an item, by "section.id" (`actions.ID`, `spaces.GROUP`,
    # `kinds.KIND`, `scoring.STEP`, `phases.ID`): the YAML's `description` fields
    descriptions: dict[str, str] = field(default_factory=dict)
    automata: dict[str, AutomatonDef] = field(default_factory=dict)
    result_mode: ResultMode = HIGHEST  # who wins from the scores (`scoring.result`)
    # how the views draw a space group, by group: "grid" (rows and columns by the
    # spaces' `row` and `col`); a group not named here is a list
    layouts: dict[str, str] = field(default_factory=dict)
    # the kinds that are dice (a kind with `faces`) and the faces a roll may give
    dice: dict[str, tuple[int, ...]] = field(default_factory=dict)
    # counters and zones declared with `keys:`: each family's members by key (the
    # members are in `counters` and `zones` under their names, `progress[3]`)
    keyed: dict[str, dict[Any, str]] = field(default_factory=dict)

    def seats_for(self, people: list[str]) -> list[str]:
        """Everyone at the table: the people and the rules-driven seats that join a game
        of that many people, first or last in seat order."""
        joining = [a for a in self.automata.values() if len(people) in a.players]
        first = [a.name for a in joining if a.seat == "first"]
        last = [a.name for a in joining if a.seat != "first"]
        return [*first, *people, *last]

    provisional: int = 0
    files: tuple[str, ...] = ()
    locations: dict[str, Location] = field(default_factory=dict)
    symbols: Any = None  # the declared names, for compiling more expressions later

    def label(self, term: str, section: str | None = None, default: str | None = None) -> str:
        """The text shown for an id or value: the `labels` section's (``section.term``
        first, then ``term``), else ``default``, else the term itself. Ids, logs and
        option texts never change; only what people read follows the edition."""
        if section is not None and f"{section}.{term}" in self.labels:
            return self.labels[f"{section}.{term}"]
        return self.labels.get(term, default if default is not None else term)

    def description(self, section: str, name: str) -> str:
        """The item's `description` (one line), or ""."""
        return self.descriptions.get(f"{section}.{name}", "")

    def players_refusal(self, count: int) -> str | None:
        """Why a game of ``count`` players cannot be played, or None; with the ruleset's
        advice for that count (a note by count, else the note for any other count)."""
        if self.min_players <= count <= self.max_players:
            return None
        shown = f"{self.name}" + (f" with {', '.join(self.expansions)}" if self.expansions else "")
        advice = self.players_notes.get(count, self.players_notes.get(0, ""))
        note = f" ({advice})" if advice else ""
        low, high = self.min_players, self.max_players
        counts = f"{low}" if low == high else f"{low}-{high}"  # "for 2 players", not "2-2"
        return f"{shown} is for {counts} players, not {count}{note}"

    def players_advice(self) -> str:
        """The notes for the counts that are refused, as one text (empty if none): a note
        for a count the applied expansions allow is never said."""
        said = [
            text if count == 0 else f"{count} player{'' if count == 1 else 's'}: {text}"
            for count, text in sorted(self.players_notes.items())
            if not self.min_players <= count <= self.max_players
        ]
        return "; ".join(said)

    def side_for(self, players: int) -> str | None:
        for name, counts in self.sides.items():
            if players in counts:
                return name
        return None
