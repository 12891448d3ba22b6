"""Compare a game's position with a scenario's ``expect:`` block.

Every mismatch is a diagnostic at the expectation's line and column in the scenario
file, saying what was expected and what the game shows.
"""

from __future__ import annotations

from typing import Any

from interpreter.errors import Diagnostic
from interpreter.scenario.names import Names, ScenarioProblem, shown


def check(names: Names, expect: dict[str, Any], path: tuple) -> list[Diagnostic]:
    """All the mismatches of one ``expect:`` block (a wrong name stops it)."""
    problems: list[Diagnostic] = []
    state = names.game.state
    players = state.players

    def mismatch(where: tuple, what: str, expected: Any, actual: Any) -> None:
        problems.append(
            Diagnostic(
                names.at(where),
                f"{what}: expected {_text(expected)}, got {_text(actual)}",
                kind="expectation",
            )
        )

    for section, table in (("counters", state.counters), ("variables", state.variables)):
        for owner, name, value, where in entries(expect.get(section, {}), (*path, section)):
            key = (names.counter if section == "counters" else names.variable)(name, owner, where)
            actual = shown(table.get(key), players)
            expected = value
            if actual != expected:
                label = f"{owner}.{name}" if owner else name
                mismatch(where, f"{section[:-1]} {label}", expected, actual)
    for zone, wanted in expect.get("zones", {}).items():
        where = (*path, "zones", zone)
        contents = list(state.contents(names.zone(zone, where)))
        if isinstance(wanted, list):
            for index, piece in enumerate(wanted):
                names.piece(piece, (*where, index))
            if contents != wanted:
                mismatch(where, f"zone {zone}", wanted, contents)
            continue
        for index, piece in enumerate(wanted.get("contains", [])):
            if names.piece(piece, (*where, "contains", index)) not in contents:
                mismatch((*where, "contains", index), f"zone {zone}", f"to hold {piece}", contents)
        for index, piece in enumerate(wanted.get("lacks", [])):
            if names.piece(piece, (*where, "lacks", index)) in contents:
                mismatch((*where, "lacks", index), f"zone {zone}", f"not to hold {piece}", contents)
        if "count" in wanted and len(contents) != wanted["count"]:
            mismatch((*where, "count"), f"zone {zone} size", wanted["count"], len(contents))
    for space, owner in expect.get("owners", {}).items():
        where = (*path, "owners", space)
        names.space(space, where)
        if owner is not None:
            names.seat(owner, where)
        seat = state.owners.get(space)
        actual = None if seat is None else players[seat]
        if actual != owner:
            mismatch(where, f"owner of {space}", owner, actual)
    if "decision" in expect:
        where = (*path, "decision")
        deciding = [d.player_name for d in names.game.pending()]
        wanted = expect["decision"]
        if wanted is not None:
            names.seat(wanted, where)
        if (wanted is None and deciding) or (wanted is not None and wanted not in deciding):
            mismatch(where, "who decides", wanted or "nobody", ", ".join(deciding) or "nobody")
    return problems


def entries(table: dict[str, Any], path: tuple):
    """(owner, name, value, path) for game entries and players' entries alike."""
    for key, value in table.items():
        if isinstance(value, dict):
            for name, inner in value.items():
                yield key, name, inner, (*path, key, name)
        else:
            yield None, key, value, (*path, key)


def _text(value: Any) -> str:
    if isinstance(value, list):
        return "[" + ", ".join(str(v) for v in value) + "]"
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


__all__ = ["ScenarioProblem", "check", "entries"]
