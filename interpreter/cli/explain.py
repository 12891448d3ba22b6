"""``rules explain RULESET [NAME]``: what a card, space or action is and does.

Authors look at their own cards here (``--with``, ``--mod``); effects are shown as
source re-printed from the checked tree, never as a raw parse tree, and no listing is
cut without saying so.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from interpreter.cli.options import expansions_option, mods_option, rules_path_option
from interpreter.cli.play import load_for_cli
from interpreter.cli.report import source_line
from interpreter.language.compiled import did_you_mean
from interpreter.language.parser import SyntaxProblem, parse
from interpreter.language.unparse import unparse
from interpreter.load.ruleset_files import Catalog, Item, Loader, requirement_chain, resolve_ruleset
from interpreter.ruleset import generated
from interpreter.ruleset.model import Ruleset

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
SHOWN = 12  # names of a section the overview shows before "N more, use --all"
# Fields of an item that hold an expression (`expr`) or an effect, in display order.
TEXT_FIELDS = (("value", "expr"), ("when", "expr"), ("effect", "effect"))


@click.command()
@click.argument("ruleset")
@click.argument("name", required=False)
@rules_path_option
@expansions_option
@mods_option
@click.option(
    "--all",
    "section",
    type=click.Choice(SECTIONS),
    default=None,
    help="List every item of this section, with its label.",
)
def explain(
    ruleset: str,
    name: str | None,
    expansions: tuple[str, ...],
    mods: tuple[Path, ...],
    section: str | None,
) -> None:
    """Show where NAME (an action, component, space, function, …) is defined, its YAML
    and its effect; without NAME, list what the ruleset defines."""
    definition = load_for_cli(ruleset, expansions, mods)
    folder = resolve_ruleset(ruleset)
    catalog = Loader().ruleset(folder, list(expansions), list(mods))
    if name is not None and section is not None:
        raise click.UsageError("give NAME or --all SECTION, not both")
    if section is not None:
        _list_section(definition, catalog, section)
    elif name is None:
        _overview(definition, catalog, folder, ruleset, expansions, mods)
    else:
        _explain_name(definition, catalog, name)


# -------------------------------------------------------------------- overview
def _overview(
    definition: Ruleset,
    catalog: Catalog,
    folder: Path,
    ruleset: str,
    expansions: tuple[str, ...],
    mods: tuple[Path, ...],
) -> None:
    click.echo(
        f"{definition.name} {definition.version} ({definition.id}), "
        f"{definition.min_players}-{definition.max_players} players"
        + (f" ({definition.players_advice()})" if definition.players_advice() else "")
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
    options = "".join(f" --with {e}" for e in expansions) + "".join(f" --mod {m}" for m in mods)
    for section in SECTIONS:
        items = catalog.sections.get(section, {})
        if not items:
            continue
        names = sorted(items)
        shown = ", ".join(names[:SHOWN])
        if len(names) > SHOWN:
            more = len(names) - SHOWN
            shown += f", … {more} more: rules explain {ruleset}{options} --all {section}"
        click.echo(f"  {section} ({len(items)}): {shown}")


def _list_section(definition: Ruleset, catalog: Catalog, section: str) -> None:
    """Every item of ``section`` on its own line, with its label or description."""
    items = catalog.sections.get(section, {})
    click.echo(f"{section} ({len(items)}):")
    if section == "spaces":
        for group, item in items.items():
            members = definition.groups.get(group, ())
            click.echo(f"  {group} ({len(members)}){_about(item)}")
            for space in members:
                label = definition.spaces[space].label
                click.echo(f"    {space}" + (f" - {label}" if label != space else ""))
        return
    copies: dict[str, int] = {}
    for piece in definition.pieces.values():
        copies[piece.design] = copies.get(piece.design, 0) + 1
    for key, item in items.items():
        data = item.data if isinstance(item.data, dict) else {}
        facts = []
        if section == "components":
            facts.append(str(data.get("kind", "")))
            if copies.get(key, 1) > 1:
                facts.append(f"{copies[key]} copies")
        shown = f" ({', '.join(f for f in facts if f)})" if any(facts) else ""
        click.echo(f"  {key}{shown}{_about(item)}")


def _about(item: Item) -> str:
    data = item.data if isinstance(item.data, dict) else {}
    text = data.get("label") or data.get("description") or ""
    text = " ".join(str(text).split())
    return f" - {text}" if text else ""


# ------------------------------------------------------------------- one name
def _explain_name(definition: Ruleset, catalog: Catalog, name: str) -> None:
    matches: list[tuple[str, Item, tuple]] = [
        (s[:-1] if s.endswith("s") else s, catalog.sections[s][name], ())
        for s in SECTIONS
        if name in catalog.sections.get(s, {})
    ]
    for group in catalog.sections.get("spaces", {}).values():
        if isinstance(group.data, dict) and name in (group.data.get("items") or {}):
            matches.append((f"space (group {group.id})", group, ("items", name)))
    piece = definition.pieces.get(name)
    components = catalog.sections["components"]
    if piece is not None and piece.design not in components:  # made by an `each`
        maker = generated.origin(components, piece.design)
        if maker is not None:
            matches.append((f"component {name}, generated by", maker, ()))
    elif piece is not None and piece.design != name:
        matches.append((f"component {name}, a copy of", components[piece.design], ()))
    family = name.partition("[")[0]  # a member of a keyed counter or zone: `pile[red]`
    for section, what in (("counters", "counter"), ("zones", "zone")):
        item = catalog.sections[section].get(family)
        if not matches and name in definition.keyed.get(family, {}).values() and item:
            matches.append((f"{what} {name}, a member of", item, ()))
    if not matches:
        raise click.BadParameter(_unknown(definition, catalog, name), param_hint="NAME")
    for what, item, sub in matches:
        location = item.location(*sub, key=True)
        click.echo(f"{location}: {what} {item.id if what.startswith('comp') or not sub else name}")
        _echo_source(location.path, location.line)
        data = item.data if isinstance(item.data, dict) else {}
        _echo_texts(data)
        if what.startswith("component"):
            _echo_linked(definition, catalog, data)


def _unknown(definition: Ruleset, catalog: Catalog, name: str) -> str:
    known: set[str] = set(definition.pieces)
    for items in catalog.sections.values():
        known.update(items)
    known.update(definition.spaces)
    message = f"{definition.id} defines nothing called {name!r}"
    hint = did_you_mean(name, known)
    return (
        f"{message}; {hint}"
        if hint
        else f"{message} (`rules explain {definition.id}` lists it all)"
    )


def _echo_texts(data: dict[str, Any]) -> None:
    """The item's requirements, expressions and effect, re-printed (in YAML order)."""
    for index, requirement in enumerate(data.get("requires") or []):
        if isinstance(requirement, dict) and isinstance(requirement.get("condition"), str):
            _echo_code(f"requires[{index}]", requirement["condition"], "expr")
            if requirement.get("message"):
                click.echo(f"    message: {requirement['message']}")
    for field, start in TEXT_FIELDS:
        text = _joined(data.get(field))
        if text is not None:
            _echo_code(field, text, start)


def _echo_linked(definition: Ruleset, catalog: Catalog, data: dict[str, Any]) -> None:
    """A property that names an action (its kind says `type: action`): that action."""
    types = definition.kinds.get(str(data.get("kind")), {})
    for prop, kind in types.items():
        action = catalog.sections["actions"].get(str(data.get(prop)))
        if kind != "action" or action is None or not isinstance(action.data, dict):
            continue
        click.echo(f"  {prop} {action.id} ({action.location(key=True)}):")
        label = action.data.get("label")
        if label:
            click.echo(f"    {label}")
        _echo_texts(action.data)


def _joined(value: Any) -> str | None:
    """An effect field as one text: a list of texts or named steps runs as one."""
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        texts = [e.get("effect") if isinstance(e, dict) else e for e in value]
        if all(isinstance(t, str) for t in texts):
            return "\n".join(texts)
    return None


def _echo_code(label: str, text: str, start: str) -> None:
    try:
        printed = unparse(parse(text, start))
    except SyntaxProblem as exc:
        click.echo(f"  {label}: syntax error at {exc.line}:{exc.column}: {exc.message}")
        return
    if "\n" not in printed and len(printed) < 72:
        click.echo(f"  {label}: {printed or '(nothing)'}")
        return
    click.echo(f"  {label}:")
    for line in printed.splitlines():
        click.echo(f"    {line}")


def _echo_source(path: str, line: int) -> None:
    """The definition's YAML: its first line and every line indented under it."""
    first = source_line(path, line)
    if first is None:
        return
    indent = len(first) - len(first.lstrip())
    lines = [first]
    while True:
        text = source_line(path, line + len(lines))
        if text is None or (text.strip() and len(text) - len(text.lstrip()) <= indent):
            break
        lines.append(text)
    while not lines[-1].strip():  # blank lines before the next definition
        lines.pop()
    for offset, text in enumerate(lines):
        click.echo(f"  {line + offset:>4} | {text}")
