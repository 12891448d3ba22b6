"""Positions, pieces and results in words, for people: the terminal, transcripts,
viewers and the final table. Names are shown in the edition's words (``labels``)."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from interpreter.engine.game import Result
from interpreter.ruleset.model import Ruleset
from interpreter.ruleset.tables import Tables


def describe(ruleset: Ruleset, tables: Tables, shown: dict[str, Any], item: str) -> str:
    """A component's kind and properties, or a space's group and properties, in a line,
    in the words of the ruleset's edition (its `labels`); what a space holds as the
    view ``shown`` shows it."""
    piece = ruleset.pieces.get(item)
    if piece is not None:
        kind = ruleset.label(piece.kind, "kinds")
        return f"{kind}: {_properties(piece.properties, ruleset.label)}"
    space = tables.spaces.get(item)
    if space is not None:
        group = ruleset.label(space.group, "spaces")
        text = f"{group}: {_properties(space.properties, ruleset.label)}".rstrip(": ")
        entry = shown["spaces"].get(item, {})
        held = entry.get("pieces")
        if isinstance(held, list) and held:
            text += "; holds " + "; ".join(
                f"{p} ({describe(ruleset, tables, shown, p)})" for p in held
            )
        if "owner" in entry:
            text += f"; marker of {entry['owner']}"
        return text
    return ""


def about(ruleset: Ruleset, tables: Tables, shown: dict[str, Any], item: str) -> str:
    """What a reader asks of ``item`` (a piece, a space, an action, a counter or a zone),
    in a line: ``describe``'s words, then the rules' own description (a piece's kind's,
    a space's group's, the item's), and for a piece the label and description of every
    action its properties name (what its bonus does). "" for an unknown name."""
    parts = [describe(ruleset, tables, shown, item)]
    piece, space = ruleset.pieces.get(item), tables.spaces.get(item)
    if piece is not None:
        parts.append(ruleset.description("kinds", piece.kind))
        for value in piece.properties.values():
            if isinstance(value, str) and value in ruleset.actions:
                parts.append(f"{value}: {action_words(ruleset, value)}".rstrip(": "))
    elif space is not None:
        parts.append(ruleset.description("spaces", space.group))
    elif item in ruleset.actions:
        parts.append(action_words(ruleset, item))
    else:
        for section, table in (("counters", ruleset.counters), ("zones", ruleset.zones)):
            if item in table:
                label = ruleset.label(item, section, table[item].label or None)
                parts += [label if label != item else "", ruleset.description(section, item)]
    return " — ".join(p for p in parts if p)


def action_words(ruleset: Ruleset, action: str) -> str:
    """An action's label and description, as far as they say more than its id."""
    definition = ruleset.actions[action]
    label = ruleset.label(action, "actions", definition.label or None)
    words = [label if label != action else "", ruleset.description("actions", action)]
    return ". ".join(w.rstrip(".") for w in words if w)


def _properties(properties: dict, label) -> str:
    parts = []
    for key, value in properties.items():
        if value is None or value is False or value == {} or value == ():
            continue
        if value is True:
            parts.append(key)
        elif isinstance(value, dict):
            parts.append(f"{key} " + " ".join(f"{label(str(k))}:{v}" for k, v in value.items()))
        elif isinstance(value, tuple | list):
            parts.append(f"{key} " + "/".join(label(str(v)) for v in value))
        elif isinstance(value, str):
            parts.append(f"{key} {label(value)}")
        else:
            parts.append(f"{key} {value}")
    return ", ".join(parts)


def render_view(shown: dict, label=lambda term, section=None: term, grids: tuple = ()) -> str:
    """A player's view as text; names in the edition's words (``label``), the space
    groups of ``grids`` drawn as boards (``Wording.grids``)."""
    header = f"--- round {shown['round']}, phase {shown['phase'] or shown['stage']} ---"
    faces = shown.get("faces") or {}

    def content(items: Any) -> str:  # a die the player sees with its face: `d6-3=4`
        if not faces:
            return _content(items)
        if isinstance(items, list):
            return _content([f"{p}={faces[p]}" if p in faces else p for p in items])
        known = [f"{p}={faces[p]}" if p in faces else p for p in items.get("known", ())]
        return _content({**items, "known": known} if known else items)

    wording = Wording(
        label, lambda zone: label(zone, "zones"), lambda sid: sid, content, grids=grids
    )
    return "\n".join([header, *view_lines(shown, wording)])


@dataclass(frozen=True)
class Wording:
    """How ``view_lines`` words names, zones, spaces and zone contents."""

    label: Callable[..., str]
    zone: Callable[[str], str]
    space: Callable[[str], str]
    content: Callable[[Any], str]
    you: str | None = None  # the name of the player who reads, marked "(you)"
    # space groups drawn as a board of rows and columns (``ruleset/grid.py``): (group,
    # rows of space ids, None where there is no space)
    grids: tuple[tuple[str, tuple[tuple[str | None, ...], ...]], ...] = ()
    # the whole view the grids are drawn from, when the lines are of a part of it
    # (what changed): a board is drawn whole or not at all
    whole: dict | None = None


def view_lines(shown: dict, wording: Wording) -> list[str]:
    """A player's view, one line per thing: counters, variables, each player's
    counters and zones, the game's zones, the public marks by place, the spaces
    taken."""
    label = wording.label
    lines = [f"{label(name, 'counters')}: {value}" for name, value in shown["counters"].items()]
    for name, value in shown["variables"].items():
        if value is not None:
            lines.append(f"{label(name, 'variables')}: {value}")
    for player in shown["players"]:
        counters = ", ".join(
            [f"{label(k, 'counters')} {v}" for k, v in player["counters"].items()]
            + [
                f"{label(k, 'variables')} {v}"
                for k, v in player.get("variables", {}).items()
                if v is not None
            ]
        )
        if wording.you is None:
            lines.append(f"{player['name']}: {counters}")
        else:
            you = " (you)" if player["name"] == wording.you else ""
            lines.append(f"{player['name']}{you}: {counters}".rstrip(": "))
        for zone, content in player["zones"].items():
            if content and content != {"count": 0}:
                lines.append(f"    {wording.zone(zone)}: {wording.content(content)}")
    for zone, content in shown["zones"].items():
        if content and content != {"count": 0}:
            lines.append(f"{wording.zone(zone)}: {wording.content(content)}")
    for zone, places in shown.get("marks", {}).items():  # what the table was told
        told = [f"{i}: {marked_words(facts)}" for i, facts in enumerate(places) if facts]
        lines.append(f"marks on {zone}: " + "; ".join(told))
    drawn: set[str] = set()
    for group, rows in wording.grids:
        lines += grid_lines(label(group, "spaces"), rows, wording.whole or shown)
        drawn.update(sid for row in rows for sid in row if sid)
    taken = []
    for sid, entry in shown["spaces"].items():
        if sid in drawn:
            continue
        text = wording.space(sid)
        if "owner" in entry:
            text += f" [{entry['owner']}]"
        if "pieces" in entry:
            text += f" {wording.content(entry['pieces'])}"
        taken.append(text)
    if taken:
        lines.append("board: " + "; ".join(taken))
    return lines


def marked_words(facts: dict) -> str:
    """One place's marks in words: ``colour red, rank not 3 or 4``."""
    said = []
    for prop, value in facts.items():
        if isinstance(value, dict):
            said.append(f"{prop} not " + " or ".join(str(v) for v in value["not"]))
        else:
            said.append(f"{prop} {value}")
    return ", ".join(said)


def grid_lines(title: str, rows: tuple[tuple[str | None, ...], ...], shown: dict) -> list[str]:
    """A grid of spaces drawn as text: one character a square, `.` empty, the owner's
    seat (1, 2 …) where a player's marker is, `#` where components are, and a blank
    where the grid has no space; columns lettered, rows numbered, a legend below."""
    seats = {player["name"]: str(n + 1) for n, player in enumerate(shown["players"])}
    width = len(rows[0]) if rows else 0
    lines = [f"{title}:", "    " + " ".join(chr(ord("a") + c) for c in range(width))]
    for number, row in enumerate(rows, 1):
        marks = []
        for sid in row:
            entry = shown["spaces"].get(sid, {}) if sid else None
            if entry is None:
                marks.append(" ")
            elif "owner" in entry:
                marks.append(seats.get(entry["owner"], "?")[:1])
            else:
                marks.append("#" if entry.get("pieces") else ".")
        lines.append(f"{number:>3} " + " ".join(marks))
    lines.append("    " + ", ".join(f"{mark} {name}" for name, mark in seats.items()))
    return lines


def _content(content) -> str:
    if isinstance(content, list):
        return " ".join(content)
    return json.dumps(content)


PLAY = "play"  # the engine's breakdown entry: the score gained before the final scoring


def render_result(result: Result, ruleset: Ruleset | None = None) -> str:
    """The final table: place, player, score, then one column per source of points
    that gave someone points (gained during play, then each final scoring step, in
    the ruleset's order), and a legend naming each column in the ruleset's words (its
    label, or its description when the label says no more than the id).

    A source that gave nobody anything gets no column; it is named on a legend line.
    When every point was gained during play, the score column says it all.
    """
    names = list(result.scores)
    sources: list[str] = []
    for parts in result.breakdown.values():
        for key in parts:
            if key not in sources:
                sources.append(key)
    if ruleset is not None:
        order = [PLAY] + [step.id for step in ruleset.scoring]
        sources.sort(key=lambda k: order.index(k) if k in order else len(order))
    scored = [k for k in sources if any(result.breakdown[n].get(k, 0) for n in names)]
    silent = [k for k in sources if k not in scored and k != PLAY]
    score_name, step_labels = "score", {}
    tiebreak_names: tuple[str, ...] = ()
    if ruleset is not None:
        if ruleset.score:
            counter = ruleset.counters.get(ruleset.score)
            score_name = ruleset.label(
                ruleset.score, "counters", counter.label if counter else ruleset.score
            )
        step_labels = {
            step.id: ruleset.label(step.id, "scoring", step.label) for step in ruleset.scoring
        }
        tiebreak_names = tuple(
            ruleset.label(t, "counters", ruleset.counters[t].label) if t in ruleset.counters else t
            for t in ruleset.tiebreak
        )
    all_in_play = scored == [PLAY]
    columns = [] if all_in_play else scored
    heads = {k: ("in play" if k == PLAY else k) for k in columns}
    widths = {
        k: max([len(heads[k])] + [len(str(result.breakdown[n].get(k, 0))) for n in names])
        for k in columns
    }
    name_w = max([len(n) for n in names] + [6])
    score_w = max([len(score_name), 5] + [len(str(v)) for v in result.scores.values()])
    head = f"{'':4}{'player':<{name_w}} {score_name:>{score_w}}"
    head += "".join(f"  {heads[k]:>{widths[k]}}" for k in columns)
    lines = [head.rstrip()]
    counts: dict[int, int] = {}
    for value in result.scores.values():
        counts[value] = counts.get(value, 0) + 1
    place = 1
    for group in result.ranking:
        for name in group:
            row = f"{place:>2}. {name:<{name_w}} {result.scores[name]:>{score_w}}"
            row += "".join(f"  {result.breakdown[name].get(k, 0):>{widths[k]}}" for k in columns)
            keys = result.tiebreak.get(name) or []
            if counts[result.scores[name]] > 1 and keys:
                if len(tiebreak_names) == len(keys):
                    shown = ", ".join(f"{t} {v}" for t, v in zip(tiebreak_names, keys, strict=True))
                    row += f"  (tie-break: {shown})"
                else:
                    row += f"  (tie-break {keys})"
            lines.append(row)
        place += len(group)
    said = ruleset.result_mode.says() if ruleset is not None else None
    if said:
        lines.append(f"result: {said}{_sides(result, ruleset)}")
    if all_in_play:
        lines.append(f"{score_name}: all gained during play; no final scoring step added any")
    for key in columns:  # every column gets a legend: its label, else its description
        if key == PLAY:
            lines.append(f"in play: {score_name} gained during play, before the final scoring")
        elif _says_more(key, step_labels.get(key, key)):
            lines.append(f"{key}: {step_labels[key]}")
        else:
            described = ruleset.description("scoring", key) if ruleset is not None else ""
            lines.append(f"{key}: {described or f'{score_name} from the scoring step {key}'}")
    if silent and not all_in_play:
        named = ", ".join(
            f"{k} ({step_labels[k]})" if _says_more(k, step_labels.get(k, k)) else k for k in silent
        )
        lines.append(f"no {score_name} for anyone from: {named}")
    return "\n".join(lines)


def _sides(result: Result, ruleset: Ruleset) -> str:
    """The sides of more than one player and their totals (`: Ann + Cy 40, …`)."""
    names = list(result.scores)
    teams = ruleset.result_mode.team_of(len(names))
    if not teams:
        return ""
    shown = [
        " + ".join(names[s] for s in team) + f" {sum(result.scores[names[s]] for s in team)}"
        for team in teams
    ]
    return ": " + ", ".join(shown)


def _says_more(key: str, label: str) -> bool:
    """Whether a step's label says more than its id (worth a legend entry)."""
    return label.strip().lower() != key.strip().lower()
