"""Compare a game's position with a scenario's ``expect:`` block.

Every mismatch is a diagnostic at the expectation's line and column in the scenario
file, saying what was expected and what the game shows.
"""

from __future__ import annotations

from typing import Any

from interpreter.engine import marks
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
    for zone, wanted in expect.get("marks", {}).items():
        where = (*path, "marks", zone)
        key = names.zone(zone, where)
        actual = marks.shown(state, {key: zone}).get(zone)
        if actual is None:
            actual = [{} for _ in state.contents(key)]
        if actual != wanted:
            mismatch(where, f"marks on {zone}", wanted, actual)
    if "decision" in expect:
        problems += _decision(names, expect["decision"], (*path, "decision"))
    if "over" in expect and names.game.is_over() != expect["over"]:
        stage = names.game.state.engine["stage"]
        over = _text(names.game.is_over())
        mismatch((*path, "over"), "game over", expect["over"], f"{over} (stage {stage})")
    result = names.game.result() if "scores" in expect or "breakdown" in expect else None
    for player, wanted in expect.get("scores", {}).items():
        where = (*path, "scores", player)
        names.seat(player, where, key=True)
        if result.scores[player] != wanted:
            mismatch(where, f"final score of {player}", wanted, result.scores[player])
    for player, steps in expect.get("breakdown", {}).items():
        names.seat(player, (*path, "breakdown", player), key=True)
        for step, wanted in steps.items():
            where = (*path, "breakdown", player, step)
            actual = result.breakdown[player].get(names.scoring_step(step, where))
            if actual != wanted:
                mismatch(where, f"{player}'s points from {step}", wanted, actual)
    for player, seen in expect.get("view", {}).items():
        problems += seen_check(names, player, seen, (*path, "view", player))
    return problems


def _decision(names: Names, wanted: Any, where: tuple) -> list[Diagnostic]:
    """Who decides now (a name, or null for nobody), or `{player, include, exclude,
    exactly}`: that player decides, with these options."""
    deciding = [d.player_name for d in names.game.pending()]
    player = wanted.get("player") if isinstance(wanted, dict) else wanted
    at = (*where, "player") if isinstance(wanted, dict) else where
    if player is not None:
        names.seat(player, at)
    if (player is None and deciding) or (player is not None and player not in deciding):
        return [
            Diagnostic(
                names.at(at),
                f"who decides: expected {player or 'nobody'}, got "
                f"{', '.join(deciding) or 'nobody'}",
                kind="expectation",
            )
        ]
    if isinstance(wanted, dict) and player is not None:
        return option_problems(names, names.game.legal(player), wanted, where)
    return []


def option_problems(
    names: Names, legal: tuple[str, ...], body: dict[str, Any], where: tuple
) -> list[Diagnostic]:
    """The mismatches of `include`, `exclude` and `exactly` with a decision's options."""
    options = list(legal)
    shown_options = "[" + ", ".join(options) + "]"
    problems = []

    def miss(at: tuple, message: str) -> None:
        problems.append(Diagnostic(names.at(at), message, kind="expectation"))

    for i, text in enumerate(body.get("include", [])):
        if text not in options:
            miss(
                (*where, "include", i),
                f"options: expected {text!r} among them, got {shown_options}",
            )
    for i, text in enumerate(body.get("exclude", [])):
        if text in options:
            miss((*where, "exclude", i), f"options: expected no {text!r}, got {shown_options}")
    if "exactly" in body and options != body["exactly"]:
        miss(
            (*where, "exactly"),
            f"options: expected [{', '.join(body['exactly'])}], got {shown_options}",
        )
    return problems


def seen_check(names: Names, player: str, body: dict[str, Any], where: tuple) -> list[Diagnostic]:
    """What ``player`` sees through the engine's per-player view (``engine/view.py``, the
    one the secrecy test checks): pieces (shown in a zone or known) and counters
    (`P1.coins`, `round`) in `sees` must be in it, those in `hidden` must not."""
    from interpreter.engine.view import view

    seat = names.seat(player, where, key=True)
    visible = visible_names(view(names.game, seat))
    problems = []
    for key, must_see in (("sees", True), ("hidden", False)):
        for i, name in enumerate(body.get(key, [])):
            at = (*where, key, i)
            names.seen_name(name, at)
            if (name in visible) != must_see:
                expected, got = ("shown", "hidden") if must_see else ("hidden", "shown")
                problems.append(
                    Diagnostic(
                        names.at(at),
                        f"what {player} sees: expected {name} {expected}, got {name} {got}",
                        kind="expectation",
                    )
                )
    return problems


def visible_names(shown: dict[str, Any]) -> set[str]:
    """The pieces, counters and variables a view shows: `round`, `P1.coins`, `P1.bid`
    (a variable of none is shown too: the player sees that there is none)."""
    out: set[str] = set(shown["counters"]) | set(shown["variables"])

    def pieces(entry: Any) -> None:
        if isinstance(entry, list):
            out.update(str(p) for p in entry)
        elif isinstance(entry, dict):
            out.update(str(p) for p in entry.get("known", ()))

    for player in shown["players"]:
        out.update(f"{player['name']}.{c}" for c in player["counters"])
        out.update(f"{player['name']}.{v}" for v in player.get("variables", ()))
        for entry in player["zones"].values():
            pieces(entry)
    for entry in shown["zones"].values():
        pieces(entry)
    for space in shown["spaces"].values():
        pieces(space.get("pieces"))
    return out


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
