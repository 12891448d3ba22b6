"""Run-time values of the effect language and their static types.

Players, pieces, zones and actions get their own small classes so that a value of
unknown static type can still be told apart at run time; they subclass ``int`` or
``str`` so that they hash, compare and copy as cheaply as the plain values.
"""

from __future__ import annotations

from typing import Any


class Player(int):
    """A seat, 0-based in turn order."""

    __slots__ = ()

    def __repr__(self) -> str:
        return f"Player({int(self)})"


class Piece(str):
    """A component in play, by its id (``E12``, ``ruby3-2``)."""

    __slots__ = ()


class ZoneRef(str):
    """A zone or board space, by its key (``deck``, ``hand#1``, ``hall1_guest2``)."""

    __slots__ = ()


class ActionRef(str):
    """An action of the ruleset, by its id."""

    __slots__ = ()


# Static types. ``list:T`` is a list of T; ``any`` disables the checks that need a type.
NUMBER, BOOL, TEXT, PLAYER, PIECE, ZONE, ACTION, MAP, ANY, NONE = (
    "number",
    "bool",
    "text",
    "player",
    "piece",
    "zone",
    "action",
    "map",
    "any",
    "none",
)
COUNTER, EVENT = "counter", "event"
SCALARS = (NUMBER, BOOL, TEXT, PLAYER, PIECE, ZONE, ACTION, MAP)
TYPE_NAMES = (*SCALARS, "list", *(f"list:{t}" for t in SCALARS), ANY)


def list_of(item: str) -> str:
    return f"list:{item}"


def is_list(type_: str) -> bool:
    return type_ == "list" or type_.startswith("list:")


def item_type(type_: str) -> str:
    return type_[5:] if type_.startswith("list:") else ANY


def compatible(expected: str, actual: str) -> bool:
    """Whether a value of static type ``actual`` may stand where ``expected`` is asked."""
    if ANY in (expected, actual) or expected == actual:
        return True
    if actual == NONE:
        return expected not in (NUMBER, BOOL) and not is_list(expected)
    if is_list(expected) and is_list(actual):
        return compatible(item_type(expected), item_type(actual))
    if expected == "list":
        return is_list(actual)
    return False


_NOUNS = {
    NUMBER: ("a number", "numbers"),
    BOOL: ("a condition (true/false)", "conditions"),
    TEXT: ("a text", "texts"),
    PLAYER: ("a player", "players"),
    PIECE: ("a component", "components"),
    ZONE: ("a zone or space", "zones or spaces"),
    ACTION: ("an action", "actions"),
    MAP: ("a table", "tables"),
    ANY: ("a value", "values"),
    NONE: ("none", "nones"),
    COUNTER: ("a counter name", "counter names"),
    EVENT: ("an event name", "event names"),
}


def describe(type_: str) -> str:
    """A type in the words a modder uses."""
    if is_list(type_):
        inner = item_type(type_)
        return (
            "a collection"
            if inner == ANY
            else f"a collection of {_NOUNS.get(inner, (inner, inner))[1]}"
        )
    return _NOUNS.get(type_, (type_, type_))[0]


def type_of(value: Any) -> str:
    """The static type a run-time value belongs to (used for `any`-typed checks)."""
    if isinstance(value, bool):
        return BOOL
    if isinstance(value, Player):
        return PLAYER
    if isinstance(value, int):
        return NUMBER
    if isinstance(value, Piece):
        return PIECE
    if isinstance(value, ZoneRef):
        return ZONE
    if isinstance(value, ActionRef):
        return ACTION
    if isinstance(value, str):
        return TEXT
    if isinstance(value, dict):
        return MAP
    if isinstance(value, list | tuple):
        return "list"
    return NONE if value is None else ANY


def to_json(value: Any) -> Any:
    """Encode a run-time value as JSON data that ``from_json`` reads back exactly."""
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, Player):
        return {"player": int(value)}
    if isinstance(value, Piece):
        return {"piece": str(value)}
    if isinstance(value, ZoneRef):
        return {"zone": str(value)}
    if isinstance(value, ActionRef):
        return {"action": str(value)}
    if isinstance(value, int | str):
        return value
    if isinstance(value, list | tuple):
        return [to_json(v) for v in value]
    if isinstance(value, dict):
        return {"map": [[to_json(k), to_json(v)] for k, v in value.items()]}
    raise TypeError(f"cannot encode {value!r}")


def from_json(data: Any) -> Any:
    if isinstance(data, list):
        return tuple(from_json(v) for v in data)
    if isinstance(data, dict):
        ((tag, raw),) = data.items()
        if tag == "map":
            return {from_json(k): from_json(v) for k, v in raw}
        return {"player": Player, "piece": Piece, "zone": ZoneRef, "action": ActionRef}[tag](raw)
    return data


def is_number(value: Any) -> bool:
    """Whether a run-time value is a number of the rules (an int, never a bool). Hot
    checks test ``type(value) is int`` first and ask this only of anything else."""
    return type(value) is int or (isinstance(value, int) and not isinstance(value, bool))


AS_THEY_ARE = (str, Piece, ZoneRef)  # the types whose ``text_id`` is their own text


def text_id(value: Any) -> str:
    """The stable human-readable text of a value, as option texts and logs show it."""
    if type(value) in AS_THEY_ARE:
        return str(value)  # the common cases first
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "none"
    if isinstance(value, list | tuple):
        return " ".join(text_id(v) for v in value)
    return str(value)
