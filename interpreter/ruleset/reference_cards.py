"""A reference of a built ruleset's cards: every component, space and action, in plain
data (``rules cards`` formats it as Markdown, CSV or JSON).

It is made from the compiled ``Ruleset`` (what a game really uses, expansions and mods
applied), so a reference generated from the files can never drift from the rules.
Effects and conditions are re-printed from their parse trees (``unparse``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from interpreter.language.parser import SyntaxProblem, parse
from interpreter.language.unparse import unparse
from interpreter.load.ruleset_files import Catalog
from interpreter.ruleset.model import Ruleset


@dataclass(frozen=True)
class Requirement:
    condition: str  # unparsed
    message: str


@dataclass(frozen=True)
class Card:
    """One row of the reference: a component design, a space or an action."""

    section: str  # "component", "space" or "action"
    id: str
    label: str
    kind: str  # a component's kind, a space's group, "action"
    count: int = 1  # a component design's copies
    description: str = ""
    properties: dict[str, Any] = field(default_factory=dict)
    params: dict[str, str] = field(default_factory=dict)  # an action's, with defaults shown
    requires: tuple[Requirement, ...] = ()
    effect: str = ""  # an action's effect, unparsed
    linked: dict[str, str] = field(default_factory=dict)  # property -> the action's effect


@dataclass(frozen=True)
class Reference:
    ruleset: str
    name: str
    version: str
    expansions: tuple[str, ...]
    components: tuple[Card, ...]
    spaces: tuple[Card, ...]
    actions: tuple[Card, ...]

    def cards(self) -> tuple[Card, ...]:
        return (*self.components, *self.spaces, *self.actions)


def source(text: str, start: str) -> str:
    """``text`` (an effect or a condition that the build checked) re-printed."""
    try:
        return unparse(parse(text, start))
    except SyntaxProblem:  # cannot happen for a built ruleset; show the text as written
        return text.strip()


def build_reference(ruleset: Ruleset, catalog: Catalog | None = None) -> Reference:
    """The reference of ``ruleset``; ``catalog`` (its items) adds the descriptions."""
    actions = tuple(_action(ruleset, name, catalog) for name in ruleset.actions)
    return Reference(
        ruleset=ruleset.id,
        name=ruleset.name,
        version=ruleset.version,
        expansions=ruleset.expansions,
        components=_components(ruleset, catalog),
        spaces=_spaces(ruleset, catalog),
        actions=actions,
    )


def _description(catalog: Catalog | None, section: str, name: str) -> str:
    if catalog is None:
        return ""
    item = catalog.sections.get(section, {}).get(name)
    if item is None or not isinstance(item.data, dict):
        return ""
    text = item.data.get("description")
    return " ".join(str(text).split()) if text else ""


def _components(ruleset: Ruleset, catalog: Catalog | None) -> tuple[Card, ...]:
    """One card per design (copies counted), grouped by kind in declaration order."""
    designs: dict[str, list] = {}
    for piece in ruleset.pieces.values():
        designs.setdefault(piece.design, []).append(piece)
    order = {kind: index for index, kind in enumerate(ruleset.kinds)}
    ranked = sorted(designs.values(), key=lambda ps: order.get(ps[0].kind, len(order)))
    cards = []
    for pieces in ranked:
        first = pieces[0]
        types = ruleset.kinds.get(first.kind, {})
        linked = {
            prop: _effect_of(ruleset, str(value))
            for prop, value in first.properties.items()
            if types.get(prop) == "action" and str(value) in ruleset.actions
        }
        cards.append(
            Card(
                section="component",
                id=first.design,
                label=first.label,
                kind=first.kind,
                count=len(pieces),
                description=_description(catalog, "components", first.design),
                properties=dict(first.properties),
                linked=linked,
            )
        )
    return tuple(cards)


def _spaces(ruleset: Ruleset, catalog: Catalog | None) -> tuple[Card, ...]:
    cards = []
    for group, members in ruleset.groups.items():
        about = _description(catalog, "spaces", group)
        for name in members:
            space = ruleset.spaces[name]
            facts: dict[str, Any] = {
                "sides": list(space.sides) if space.sides is not None else "all",
                "capacity": space.capacity,
                "claimable": space.claimable,
            }
            cards.append(
                Card(
                    section="space",
                    id=name,
                    label=space.label,
                    kind=group,
                    description=about,
                    properties={**facts, **space.properties},
                )
            )
    return tuple(cards)


def _effect_of(ruleset: Ruleset, action: str) -> str:
    effect = ruleset.actions[action].effect  # None: an action that is only a condition
    return source(effect.source, "effect") if effect is not None else ""


def _action(ruleset: Ruleset, name: str, catalog: Catalog | None) -> Card:
    action = ruleset.actions[name]
    params = {
        param: kind
        + (f" = {render_value(action.defaults[param])}" if param in action.defaults else "")
        for param, kind in action.params.items()
    }
    requires = tuple(Requirement(source(r.text, "expr"), r.message) for r in action.requires)
    return Card(
        section="action",
        id=name,
        label=action.label,
        kind="action",
        description=_description(catalog, "actions", name),
        properties=dict(action.properties),
        params=params,
        requires=requires,
        effect=_effect_of(ruleset, name),
    )


def render_value(value: Any) -> str:
    """A property value the way YAML's flow style writes it: ``[8, 6]``, ``{red: 2}``."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "none"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(render_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {render_value(v)}" for k, v in value.items()) + "}"
    return str(value)


def plain(value: Any) -> Any:
    """``value`` with tuples as lists, for JSON."""
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    return value
