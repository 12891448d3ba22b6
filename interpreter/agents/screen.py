"""The human agent's screen in words: the board as one player sees it, options with
what they are about, and ``?NAME`` explanations of any action, piece, space or zone.

Everything here reads the seat's view (``engine/view.py``), never the game: a zone
the player may not see is "3 pieces (hidden)", never a list of ids.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from typing import Any

from interpreter.engine.words import Wording, describe, view_lines
from interpreter.ruleset.model import Ruleset
from interpreter.ruleset.tables import Tables


@dataclass(frozen=True)
class Sight:
    """What the screen is drawn from: the rules and one player's view."""

    ruleset: Ruleset
    tables: Tables
    shown: dict[str, Any]

    def name(self, piece: str) -> str:
        """A piece by its label, and its id (what options name) when they differ."""
        definition = self.ruleset.pieces.get(piece)
        label = definition.label if definition is not None and definition.label else piece
        return label if label == piece else f"{label} ({piece})"

    def about(self, item: str) -> str:
        """``describe``'s line, plus the label of every action a piece names in its
        properties (what a bonus on it does)."""
        text = describe(self.ruleset, self.tables, self.shown, item)
        piece = self.ruleset.pieces.get(item)
        if text and piece is not None:
            named = [
                f"{value}: {self.ruleset.actions[value].label}"
                for value in piece.properties.values()
                if isinstance(value, str)
                and value in self.ruleset.actions
                and self.ruleset.actions[value].label not in ("", value)
            ]
            if named:
                text += " — " + "; ".join(named)
        return text

    def action_label(self, word: str) -> str:
        action = self.ruleset.actions.get(word)
        label = self.ruleset.label(word, "actions", action.label if action else word)
        return "" if label == word else label


def contents(sight: Sight, content: Any) -> str:
    """A zone's content in words: its pieces, or "3 pieces (hidden)" and what is known."""
    if isinstance(content, list):
        return ", ".join(sight.name(p) for p in content) if content else "empty"
    count = int(content.get("count", 0))
    text = f"{count} piece{'' if count == 1 else 's'} (hidden)"
    known = content.get("known") or []
    if known:
        text += "; you know: " + ", ".join(sight.name(p) for p in known)
    return text


def board(sight: Sight) -> list[str]:
    """The position as the seat's player sees it, one line per thing, in words."""
    ruleset = sight.ruleset
    wording = Wording(
        ruleset.label,
        lambda zone: zone_label(ruleset, zone),
        lambda sid: space_label(sight, sid),
        lambda content: contents(sight, content),
        you=sight.shown.get("you") or "",
    )
    return view_lines(sight.shown, wording)


def zone_label(ruleset: Ruleset, zone: str) -> str:
    definition = ruleset.zones.get(zone)
    return ruleset.label(zone, "zones", definition.label if definition else None)


def space_label(sight: Sight, sid: str) -> str:
    space = sight.ruleset.spaces.get(sid)
    default = space.label if space is not None and space.label else sid
    return sight.ruleset.label(sid, "spaces", default)


def option_line(sight: Sight, option: str) -> str:
    """An option's text and, in brackets, what its words are: an action's label, a
    piece's or a space's description."""
    notes = []
    for word in option.split():
        about = sight.about(word) or sight.action_label(word)
        if about:
            notes.append(about if len(option.split()) == 1 else f"{word}: {about}")
    return option + (f"   ({'; '.join(notes)})" if notes else "")


# ------------------------------------------------------------------ ?NAME
def names(sight: Sight) -> dict[str, tuple[str, str]]:
    """Every name a player may ask about, lower-cased: (what it is, its id)."""
    ruleset = sight.ruleset
    out: dict[str, tuple[str, str]] = {}
    for what, table, label_of in (
        ("counter", ruleset.counters, lambda k: counter_label(ruleset, k)),
        ("zone", ruleset.zones, lambda k: zone_label(ruleset, k)),
        ("space", ruleset.spaces, lambda k: space_label(sight, k)),
        ("piece", ruleset.pieces, sight.name),
        ("action", ruleset.actions, lambda k: sight.action_label(k) or k),
    ):
        for key in table:
            out[label_of(key).lower()] = (what, key)
    for what, table in (  # ids win over labels
        ("counter", ruleset.counters),
        ("zone", ruleset.zones),
        ("space", ruleset.spaces),
        ("piece", ruleset.pieces),
        ("action", ruleset.actions),
    ):
        for key in table:
            out[key.lower()] = (what, key)
    return out


def explain(sight: Sight, asked: str) -> list[str]:
    """``?NAME``: what an action, piece, space, zone or counter is, by id or label (any
    case);
    near names when nothing is called so."""
    asked = asked.strip()
    if not asked:
        return [
            "?NAME explains an action, a piece, a space or a zone, by its id or its name",
            "(for instance ?" + next(iter(sight.ruleset.actions), "NAME") + ")",
        ]
    known = names(sight)
    found = known.get(asked.lower())
    if found is None:
        near = difflib.get_close_matches(asked.lower(), list(known), n=4, cutoff=0.6)
        text = f"nothing is called {asked!r}"
        if near:
            text += "; did you mean: " + ", ".join(known[n][1] for n in near) + "?"
        return [text]
    what, key = found
    if what == "action":
        return _action(sight, key)
    if what == "zone":
        return _zone(sight, key)
    if what == "counter":
        return _counter(sight, key)
    if what == "piece":
        return [f"{sight.name(key)}: {sight.about(key)}", f"    where: {where(sight, key)}"]
    return [f"{space_label(sight, key)}: {sight.about(key) or 'a space'}"]


def _action(sight: Sight, key: str) -> list[str]:
    action = sight.ruleset.actions[key]
    label = sight.action_label(key)
    lines = [f"{key}: an action" + (f", {label}" if label else "")]
    if action.params:
        lines.append("    asks for: " + ", ".join(f"{p} ({t})" for p, t in action.params.items()))
    for requirement in action.requires:
        lines.append(f"    needs: {requirement.text}")
    if action.location is not None:
        lines.append(f"    rules: {action.location}")
    return lines


def _zone(sight: Sight, key: str) -> list[str]:
    definition = sight.ruleset.zones[key]
    per = "each player's" if definition.per == "player" else "the table's"
    lines = [f"{zone_label(sight.ruleset, key)}: {per} zone, {definition.visibility}"]
    if definition.per == "player":
        for player in sight.shown["players"]:
            content = player["zones"].get(key)
            if content is not None:
                lines.append(f"    {player['name']}: {contents(sight, content)}")
    elif key in sight.shown["zones"]:
        lines.append(f"    holds: {contents(sight, sight.shown['zones'][key])}")
    return lines


def counter_label(ruleset: Ruleset, name: str) -> str:
    definition = ruleset.counters.get(name)
    return ruleset.label(name, "counters", definition.label if definition else None)


def _counter(sight: Sight, name: str) -> list[str]:
    definition = sight.ruleset.counters[name]
    per = "each player's" if definition.per == "player" else "the table's"
    label = counter_label(sight.ruleset, name)
    lines = [
        f"{name}: {per} counter, {definition.visibility}" + (f"; {label}" if label != name else "")
    ]
    shown = sight.shown
    if definition.per == "player":
        for player in shown["players"]:
            value = player["counters"].get(name, "hidden")
            lines.append(f"    {player['name']}: {value}")
    else:
        lines.append(f"    now: {shown['counters'].get(name, 'hidden')}")
    return lines


def where(sight: Sight, piece: str) -> str:
    """Where the player sees ``piece``: a zone or space, or "out of sight"."""
    shown = sight.shown

    def holds(content: Any) -> bool:
        if isinstance(content, list):
            return piece in content
        return isinstance(content, dict) and piece in (content.get("known") or [])

    for player in shown["players"]:
        for zone, content in player["zones"].items():
            if holds(content):
                return f"{player['name']}'s {zone_label(sight.ruleset, zone)}"
    for zone, content in shown["zones"].items():
        if holds(content):
            return zone_label(sight.ruleset, zone)
    for sid, entry in shown["spaces"].items():
        if holds(entry.get("pieces")):
            return space_label(sight, sid)
    return "out of sight"
