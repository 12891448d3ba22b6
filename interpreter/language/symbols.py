"""The names a ruleset declares, as the checker and compiler need them.

Built from the loaded ruleset before any expression is compiled, so that every
expression can be checked against every declaration wherever it is written.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Signature:
    """Parameters (name → type), which of them are optional, and a result type."""

    params: dict[str, str]
    optional: frozenset[str] = frozenset()
    returns: str = "any"
    unchecked: bool = False  # its definition is broken: calls are not checked against it
    defaults: tuple[tuple[str, Any], ...] = ()  # the optional parameters' values


@dataclass(slots=True)
class Symbols:
    counters: dict[str, str] = field(default_factory=dict)  # name -> "player" | "game"
    variables: dict[str, tuple[str, str]] = field(default_factory=dict)  # name -> (per, type)
    zones: dict[str, str] = field(default_factory=dict)  # name -> "player" | "game"
    groups: dict[str, dict[str, str]] = field(default_factory=dict)  # group -> prop types
    spaces: dict[str, str] = field(default_factory=dict)  # space id -> group
    components: dict[str, str] = field(default_factory=dict)  # piece id -> kind
    kinds: dict[str, dict[str, str]] = field(default_factory=dict)  # kind -> prop types
    actions: dict[str, Signature] = field(default_factory=dict)
    action_properties: dict[str, str] = field(default_factory=dict)
    events: dict[str, Signature] = field(default_factory=dict)
    functions: dict[str, Signature] = field(default_factory=dict)
    constants: dict[str, str] = field(default_factory=dict)  # name -> type
    # name -> value, for the constants whose value is the same on every board side,
    # once the build has worked them out: the code that reads one holds its value
    constant_values: dict[str, Any] = field(default_factory=dict)
    ambiguous: set[str] = field(default_factory=set)  # names defined twice (reported)
    # counters and zones declared with `keys:`, name -> their ``Keys`` (ruleset/keyed.py)
    keyed: dict[str, Any] = field(default_factory=dict)

    def piece_property(self, name: str) -> str | None:
        """The type of a component property declared by any kind (``any`` if they differ)."""
        types = {props[name] for props in self.kinds.values() if name in props}
        if not types:
            return None
        return types.pop() if len(types) == 1 else "any"

    def space_property(self, name: str) -> str | None:
        types = {props[name] for props in self.groups.values() if name in props}
        if not types:
            return None
        return types.pop() if len(types) == 1 else "any"

    def global_names(self) -> set[str]:
        names = set(self.constants) | set(self.spaces) | set(self.components) | set(self.kinds)
        names |= set(self.actions) | set(self.groups) | set(self.functions)
        names |= {n for n, per in self.counters.items() if per == "game"}
        names |= {n for n, (per, _) in self.variables.items() if per == "game"}
        names |= {n for n, per in self.zones.items() if per == "game"}
        return names
