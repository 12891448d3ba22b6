"""``rules explain RULESET [NAME]``: what a card, space or action is and does."""

from __future__ import annotations

import click

from interpreter.cli.options import expansions_option, rules_path_option
from interpreter.cli.play import load_for_cli
from interpreter.cli.report import source_line
from interpreter.language.parser import SyntaxProblem, parse
from interpreter.load.ruleset_files import Loader, requirement_chain, resolve_ruleset

SECTIONS = (
    "actions",
    "components",
    "spaces",
    "functions",
    "constants",
    "counters",
    "zones",
    "kinds",
    "triggers",
    "events",
    "variables",
    "sides",
)


@click.command()
@click.argument("ruleset")
@click.argument("name", required=False)
@rules_path_option
@expansions_option
def explain(ruleset: str, name: str | None, expansions: tuple[str, ...]) -> None:
    """Show where NAME (an action, component, space, function, …) is defined, its YAML
    and its parsed effect; without NAME, list what the ruleset defines."""
    definition = load_for_cli(ruleset, expansions, ())
    folder = resolve_ruleset(ruleset)
    catalog = Loader().ruleset(folder, list(expansions))
    if name is None:
        click.echo(
            f"{definition.name} {definition.version} ({definition.id}), "
            f"{definition.min_players}-{definition.max_players} players"
            + (f" ({definition.players_note})" if definition.players_note else "")
        )
        if definition.expansions:
            click.echo(f"  applied: {', '.join(definition.expansions)}")
        offered = definition.offered_expansions
        if offered:
            click.echo(f"  expansions ({len(offered)}), added with --with ID:")
            for expansion, entry in offered.items():
                needs = requirement_chain(folder, expansion, offered)[:-1]
                requires = f"; requires {', '.join(needs)}" if needs else ""
                about = f": {entry['description']}" if entry.get("description") else ""
                click.echo(f"    {expansion} - {entry.get('name', expansion)}{requires}{about}")
        for section in SECTIONS:
            items = catalog.sections.get(section, {})
            if items:
                shown = ", ".join(sorted(items)[:12]) + (" …" if len(items) > 12 else "")
                click.echo(f"  {section} ({len(items)}): {shown}")
        return
    matches = [
        (s, catalog.sections[s][name]) for s in SECTIONS if name in catalog.sections.get(s, {})
    ]
    for group in catalog.sections.get("spaces", {}).values():
        if isinstance(group.data, dict) and name in (group.data.get("items") or {}):
            matches.append(("space", group))
    piece = definition.pieces.get(name)
    if piece is not None and piece.design != name:
        matches.append(("components", catalog.sections["components"][piece.design]))
    if not matches:
        raise click.BadParameter(
            f"{definition.id} defines nothing called {name!r}", param_hint="NAME"
        )
    for section, item in matches:
        location = item.location(key=True)
        click.echo(f"{location}: {section[:-1] if section.endswith('s') else section} {item.id}")
        _echo_source(location.path, location.line)
        data = item.data if isinstance(item.data, dict) else {}
        effects = [("effect", data.get("effect"))] + [
            (f"requires[{i}]", r.get("condition"))
            for i, r in enumerate(data.get("requires") or [])
            if isinstance(r, dict)
        ]
        if section == "components" and data.get("bonus"):
            bonus = catalog.sections["actions"].get(str(data["bonus"]))
            if bonus is not None:
                effects.append((f"bonus {bonus.id}", bonus.data.get("effect")))
        for label, text in effects:
            if isinstance(text, list):
                text = "\n".join(text)
            if isinstance(text, str):
                start = "expr" if label.startswith("requires") else "effect"
                try:
                    tree = parse(text, start)
                    click.echo(f"  parsed {label}:")
                    click.echo("    " + tree.pretty().rstrip().replace("\n", "\n    "))
                except SyntaxProblem as exc:
                    click.echo(f"  {label}: syntax error at {exc.line}:{exc.column}: {exc.message}")


def _echo_source(path: str, line: int, limit: int = 40) -> None:
    first = source_line(path, line)
    if first is None:
        return
    indent = len(first) - len(first.lstrip())
    click.echo(f"  {line:>4} | {first}")
    for offset in range(1, limit):
        text = source_line(path, line + offset)
        if text is None or (text.strip() and len(text) - len(text.lstrip()) <= indent):
            break
        click.echo(f"  {line + offset:>4} | {text}")
