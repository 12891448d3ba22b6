"""What one connection is sent: its seat's table, built from its seat's view only.

``table_message(host, seat)`` is the whole page's data for ``seat`` (None: the
spectator): the view (``view(game, seat)``, the object the secrecy property test
checks), the words to draw it with (labels and descriptions of what that view holds,
and the spaces of the board, which the rules make public), the seat's open decision
with each option's price and words (the terminal's texts: ``agents/screen.py``),
the history as the transcript words it for that seat (``log/transcript.py``; the
spectator reads as a seat nobody holds), and the final scores. Nothing else of the
game goes out: no state, no other seat's options, no other seat's history.

Sending the whole table after every move (not a difference) keeps the page simple
and makes a reconnect the same as a first connect.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from interpreter.agents.screen import (
    Sight,
    counter_label,
    describe_short,
    option_notes,
    prices,
    space_label,
    zone_label,
)
from interpreter.engine.seat import Seat as EngineSeat
from interpreter.engine.view import view
from interpreter.engine.words import PLAY, render_result
from interpreter.log.transcript import Reading, read_live_game, read_live_games
from interpreter.ruleset.grid import drawn_grids
from interpreter.serve.host import Host

MAX_HISTORY = 300  # history lines sent (the latest): a page stays light in a long game
SHOWN = ("heading", "event", "reveal")


def table_messages(host: Host, seats: Iterable[int | None]) -> dict[int | None, dict[str, Any]]:
    """The message of each of ``seats``; their histories from one replay of the game."""
    seats = list(dict.fromkeys(seats))
    readings = read_live_games(host.game, seats) if host.game.events else {}
    return {seat: table_message(host, seat, readings.get(seat)) for seat in seats}


def table_message(host: Host, seat: int | None, reading: Reading | None = None) -> dict[str, Any]:
    """The message that draws ``seat``'s page (see the module's docstring); its history
    from ``reading`` (``read_live_game`` for that seat) when given."""
    game, ruleset = host.game, host.game.ruleset
    shown = view(game, seat)
    sight = Sight(ruleset, game.tables, shown)
    message: dict[str, Any] = {
        "type": "table",
        "game": ruleset.name,
        "you": shown["you"],
        "moves": host.moves,
        "events": len(game.events),  # how far the game is (public: every seat counts them)
        "heading": _heading(game.ruleset, shown),
        "view": shown,
        "words": _words(sight),
        "board": _board(sight),
        "decision": _decision(host, seat, sight),
        "waiting": [d["player"] for d in shown["pending"]],
        "history": _history(host, seat, reading),
        "result": _result(host) if game.is_over() else None,
    }
    return message


def _heading(ruleset, shown: dict[str, Any]) -> str:
    phase = next((p for p in ruleset.phases if p.id == shown["phase"]), None)
    if phase is None:
        return f"round {shown['round']}, {shown['stage']}"
    return f"round {shown['round']}, {ruleset.label(phase.id, 'phases', phase.label)}"


def pieces_in(shown: dict[str, Any]) -> list[str]:
    """Every piece id the view names (shown in a zone or space, or known in one)."""
    found: list[str] = []

    def add(content: Any) -> None:
        if isinstance(content, list):
            found.extend(content)
        elif isinstance(content, dict):
            found.extend(content.get("known") or [])

    for player in shown["players"]:
        for content in player["zones"].values():
            add(content)
    for content in shown["zones"].values():
        add(content)
    for entry in shown["spaces"].values():
        add(entry.get("pieces"))
    return list(dict.fromkeys(found))


def _words(sight: Sight) -> dict[str, Any]:
    """Labels and one-line descriptions of what the view holds, in the edition's words."""
    ruleset, shown = sight.ruleset, sight.shown
    zones = {z: zone_label(ruleset, z) for z in ruleset.zones}
    counters = {c: counter_label(ruleset, c) for c in ruleset.counters}
    variables = {v: ruleset.label(v, "variables") for v in shown["variables"]}
    pieces = {}
    for piece in pieces_in(shown):
        definition = ruleset.pieces.get(piece)
        label = definition.label if definition is not None and definition.label else piece
        face = shown.get("faces", {}).get(piece)  # a die this seat sees: its face too
        label = label if face is None else f"{label} showing {face}"
        pieces[piece] = {"label": label, "about": describe_short(sight, piece)}
    return {
        "zones": zones,
        "zone_about": {z: ruleset.description("zones", z) for z in ruleset.zones},
        "counters": counters,
        "variables": variables,
        "pieces": pieces,
    }


def _board(sight: Sight) -> list[dict[str, Any]]:
    """The board's spaces by group, in the rules' order, with their labels (public)."""
    ruleset, tables = sight.ruleset, sight.tables
    groups: dict[str, dict[str, Any]] = {}
    for sid, space in tables.spaces.items():
        group = groups.setdefault(
            space.group,
            {"id": space.group, "label": ruleset.label(space.group, "spaces"), "spaces": []},
        )
        group["spaces"].append({"id": sid, "label": space_label(sight, sid)})
    # a group the rules lay out as a grid (`layout: grid`) is drawn as its rows and
    # columns: the page gets its rows of space ids (None where no cell is)
    for group_id, rows in drawn_grids(ruleset, tables):
        if group_id in groups:
            groups[group_id]["rows"] = [list(row) for row in rows]
    return list(groups.values())


def _decision(host: Host, seat: int | None, sight: Sight) -> dict[str, Any] | None:
    """The seat's open decision: its id, prompt and options with prices and words."""
    opened = host.decision_of(seat)
    if opened is None:
        return None
    decision_id, decision = opened
    engine_seat = EngineSeat(host.game, decision)
    priced = prices(engine_seat, f"{host.game.seed}/serve/{decision_id}")
    sight = Sight(sight.ruleset, sight.tables, sight.shown, decision.options, priced)
    prompt = decision.prompt
    label = "" if prompt == "option" else (sight.action_label(prompt) or prompt)
    return {
        "id": decision_id,
        "prompt": label,
        "options": [
            {"text": o, "price": priced.get(o, ""), "about": option_notes(sight, o)}
            for o in decision.options
        ],
    }


def _history(host: Host, seat: int | None, reading: Reading | None) -> list[dict[str, Any]]:
    """The transcript's lines for ``seat`` (the latest ``MAX_HISTORY``)."""
    if not host.game.events:
        return []
    if reading is None:
        reading = read_live_game(host.game, seat)
    lines = [line for line in reading.lines if line.kind in SHOWN]
    return [{"event": li.event, "kind": li.kind, "text": li.text} for li in lines[-MAX_HISTORY:]]


def _result(host: Host) -> dict[str, Any]:
    """The final scores: ranking rows with each source of points, and the terminal's
    table (with its legend) as text."""
    result, ruleset = host.game.result(), host.game.ruleset
    sources: list[str] = []
    for parts in result.breakdown.values():
        sources.extend(k for k in parts if k not in sources)
    order = [PLAY] + [step.id for step in ruleset.scoring]
    sources.sort(key=lambda k: order.index(k) if k in order else len(order))
    labels = {step.id: ruleset.label(step.id, "scoring", step.label) for step in ruleset.scoring}
    rows, place = [], 1
    for group in result.ranking:
        for name in group:
            parts = [result.breakdown[name].get(k, 0) for k in sources]
            rows.append(
                {"place": place, "player": name, "score": result.scores[name], "parts": parts}
            )
        place += len(group)
    return {
        "columns": [("in play" if k == PLAY else labels.get(k, k)) for k in sources],
        "rows": rows,
        "text": render_result(result, ruleset),
    }
