"""A person at the terminal: shows the visible position and numbered options."""

from __future__ import annotations

import json

import click

from interpreter.agents.base import Agent
from interpreter.engine.seat import Seat


class HumanAgent(Agent):
    def decide(self, seat: Seat) -> str:
        decision = seat.decision
        shown = seat.view()
        click.echo(render_view(shown, seat.ruleset.label))
        what = f" ({decision.prompt})" if decision.prompt != "option" else ""
        click.echo(f"\n{decision.player_name}, choose{what}:")
        for number, option in enumerate(decision.options, start=1):
            about = describe(seat, shown, option.split()[-1]) if option.split() else ""
            click.echo(f"  {number:>3}. {option}" + (f"   ({about})" if about else ""))
        while True:
            answer = click.prompt(
                "number or text (?ID describes a component or space)", default="1"
            ).strip()
            if answer.startswith("?"):
                click.echo(describe(seat, shown, answer[1:].strip()) or "nothing has that id")
                continue
            if answer.isdigit() and 1 <= int(answer) <= len(decision.options):
                return decision.options[int(answer) - 1]
            if answer in decision.options:
                return answer
            matches = [o for o in decision.options if o.startswith(answer)]
            if len(matches) == 1:
                return matches[0]
            click.echo(
                f"not an option: {seat.why_not(answer)}; type an option's number or its text"
            )


def describe(seat: Seat, shown: dict, item: str) -> str:
    """A component's kind and properties, or a space's group and properties, in a line,
    in the words of the ruleset's edition (its `labels`); what a space holds as the
    player's view ``shown`` shows it."""
    ruleset = seat.ruleset
    piece = ruleset.pieces.get(item)
    if piece is not None:
        kind = ruleset.label(piece.kind, "kinds")
        return f"{kind}: {_properties(piece.properties, ruleset.label)}"
    space = seat.tables.spaces.get(item)
    if space is not None:
        group = ruleset.label(space.group, "spaces")
        text = f"{group}: {_properties(space.properties, ruleset.label)}".rstrip(": ")
        entry = shown["spaces"].get(item, {})
        held = entry.get("pieces")
        if isinstance(held, list) and held:
            text += "; holds " + "; ".join(f"{p} ({describe(seat, shown, p)})" for p in held)
        if "owner" in entry:
            text += f"; marker of {entry['owner']}"
        return text
    return ""


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


def render_view(shown: dict, label=lambda term, section=None: term) -> str:
    """A player's view as text; names in the edition's words (``label``)."""
    lines = [f"--- round {shown['round']}, phase {shown['phase'] or shown['stage']} ---"]
    for name, value in shown["counters"].items():
        lines.append(f"{label(name, 'counters')}: {value}")
    for name, value in shown["variables"].items():
        if value is not None:
            lines.append(f"{label(name, 'variables')}: {value}")
    for player in shown["players"]:
        counters = ", ".join(f"{label(k, 'counters')} {v}" for k, v in player["counters"].items())
        lines.append(f"{player['name']}: {counters}")
        for zone, content in player["zones"].items():
            if content and content != {"count": 0}:
                lines.append(f"    {label(zone, 'zones')}: {_content(content)}")
    for zone, content in shown["zones"].items():
        if content and content != {"count": 0}:
            lines.append(f"{label(zone, 'zones')}: {_content(content)}")
    taken = {sid: e for sid, e in shown["spaces"].items()}
    if taken:
        lines.append(
            "board: "
            + "; ".join(
                f"{sid}"
                + (f" [{e['owner']}]" if "owner" in e else "")
                + (f" {_content(e['pieces'])}" if "pieces" in e else "")
                for sid, e in taken.items()
            )
        )
    return "\n".join(lines)


def _content(content) -> str:
    if isinstance(content, list):
        return " ".join(content)
    return json.dumps(content)
