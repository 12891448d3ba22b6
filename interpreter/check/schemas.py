"""The JSON Schemas (Draft 2020-12) of every file kind, built here from one place.

``schemas/*.schema.json`` are written from these definitions by
``rules schema --write`` and a test keeps the files and this module equal. The
lists a modder's editor completes (value types, visibilities, statement and
function names) come from the language registry, not from a hand-kept copy.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from interpreter.language.registry import REGISTRY
from interpreter.language.values import TYPE_NAMES

BASE_URL = "https://tabletop-rules.dev/schemas/"
DRAFT = "https://json-schema.org/draft/2020-12/schema"
ID_PATTERN = r"^[A-Za-z_][A-Za-z0-9_]*$"
COMPONENT_ID_PATTERN = r"^[A-Za-z_][A-Za-z0-9_]*$"

VISIBILITIES = ("public", "private", "secret")
ORDERS = ("ordered", "random")
PER = ("player", "game")


def _id_map(item: dict[str, Any], description: str, pattern: str = ID_PATTERN) -> dict[str, Any]:
    return {
        "type": "object",
        "description": description,
        "propertyNames": {
            "pattern": pattern,
            "x-message": "ids are letters, digits and '_', not starting with a digit",
        },
        "additionalProperties": item,
    }


def _expression(description: str) -> dict[str, Any]:
    return {"$ref": "#/$defs/expression", "description": description}


def _effect(description: str) -> dict[str, Any]:
    return {"$ref": "#/$defs/effect", "description": description}


def _common_defs() -> dict[str, Any]:
    functions = ", ".join(sorted(REGISTRY.functions))
    statements = ", ".join(sorted(REGISTRY.statements))
    type_name = {
        "type": "string",
        "enum": list(TYPE_NAMES),
        "description": "A value type of the effect language.",
    }
    return {
        "expression": {
            "type": "string",
            "minLength": 1,
            "description": "A condition or value in the effect language. Functions: " + functions,
            "x-functions": sorted(REGISTRY.functions),
        },
        "effect": {
            "oneOf": [
                {"type": "string", "minLength": 1},
                {
                    "type": "array",
                    "items": {
                        "oneOf": [
                            {"type": "string", "minLength": 1},
                            {"$ref": "#/$defs/effect_step"},
                        ]
                    },
                    "minItems": 1,
                },
            ],
            "description": "Statements of the effect language: a text, or a list of texts and "
            "named steps run in order (an overlay's `extend:` inserts steps next to one; an "
            "effect written as one text is the step `main`). Effects: " + statements,
            "x-statements": sorted(REGISTRY.statements),
        },
        "effect_step": {
            "type": "object",
            "description": "A named step of an effect, which overlays can insert steps next to.",
            "properties": {
                "id": {"type": "string", "pattern": ID_PATTERN},
                "label": {"$ref": "#/$defs/label"},
                "description": {"$ref": "#/$defs/description"},
                "effect": {"type": "string", "minLength": 1, "description": "What it does."},
                "before": {
                    "type": "string",
                    "description": "In an overlay: insert before the step with this id.",
                },
                "after": {
                    "type": "string",
                    "description": "In an overlay: insert after the step with this id.",
                },
            },
            "required": ["id", "effect"],
            "additionalProperties": False,
        },
        "type_name": type_name,
        "provisional": {
            "type": "boolean",
            "description": "true when the value is designed, not printed: a person holding the "
            "physical game should check it.",
        },
        "description": {"type": "string", "description": "What this is, for people."},
        "label": {"type": "string", "description": "The name players see."},
        "property_decl": {
            "type": "object",
            "description": "A property: its type and, optionally, the values it may take.",
            "properties": {
                "type": {"$ref": "#/$defs/type_name"},
                "values": {"type": "array", "description": "The allowed values."},
                "description": {"$ref": "#/$defs/description"},
                "default": {"description": "The value when an item does not give one."},
            },
            "required": ["type"],
            "additionalProperties": False,
        },
        "params": _id_map(
            {
                "oneOf": [
                    {"$ref": "#/$defs/type_name"},
                    {
                        "type": "object",
                        "properties": {
                            "type": {"$ref": "#/$defs/type_name"},
                            "default": {"description": "Makes the parameter optional."},
                            "description": {"$ref": "#/$defs/description"},
                        },
                        "required": ["type"],
                        "additionalProperties": False,
                    },
                ]
            },
            "Parameters by name: a type, or {type, default, description}.",
        ),
    }


def content_schema() -> dict[str, Any]:
    """Sections any content file (and an overlay's add/replace) may hold."""
    return {
        "labels": {
            "type": "object",
            "description": "Display texts, so ids, logs and option texts stay stable while what "
            "people read follows an edition: `term: text` for an id or a value (`yellow: blue`), "
            "or `section.id: text` for one item (`scoring.points: Points for sets`).",
            "propertyNames": {
                "pattern": r"^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)?$",
                "x-message": "a label's key is an id or a value, or `section.id`",
            },
            "additionalProperties": {"type": "string", "minLength": 1},
        },
        "constants": _id_map(
            {
                "type": "object",
                "description": "A named value; decisions on open rules live here, in one place.",
                "properties": {
                    "value": {"description": "The value (the same for every board side)."},
                    "per_side": {
                        "type": "object",
                        "description": "The value for each board side.",
                        "additionalProperties": True,
                    },
                    "type": {"$ref": "#/$defs/type_name"},
                    "description": {"$ref": "#/$defs/description"},
                    "provisional": {"$ref": "#/$defs/provisional"},
                    "decision": {
                        "type": "string",
                        "description": "The reading chosen where the rules are open.",
                    },
                },
                "oneOf": [{"required": ["value"]}, {"required": ["per_side"]}],
                "additionalProperties": False,
            },
            "Named values used by expressions.",
        ),
        "sides": _id_map(
            {
                "type": "object",
                "description": "A board side (or set-up variant) chosen by the number of players.",
                "properties": {
                    "players": {
                        "type": "array",
                        "items": {"type": "integer", "minimum": 1, "maximum": 16},
                        "minItems": 1,
                    },
                    "description": {"$ref": "#/$defs/description"},
                },
                "required": ["players"],
                "additionalProperties": False,
            },
            "Board sides by player count.",
        ),
        "counters": _id_map(
            {
                "type": "object",
                "description": "A whole-number counter: per player (coins, points) or for the "
                "game.",
                "properties": {
                    "per": {"enum": list(PER), "description": "player: one per player; game: one."},
                    "initial": {
                        "oneOf": [{"type": "integer"}, {"type": "object"}],
                        "description": "Starting value (or per side).",
                    },
                    "min": {"type": "integer", "description": "Lowest value (default 0)."},
                    "max": {"type": "integer", "description": "Highest value (none by default)."},
                    "visibility": {
                        "enum": list(VISIBILITIES),
                        "description": "public: all see it; private: only its player; "
                        "secret: nobody until the end.",
                    },
                    "label": {"$ref": "#/$defs/label"},
                    "description": {"$ref": "#/$defs/description"},
                },
                "required": ["per"],
                "additionalProperties": False,
            },
            "Counters.",
        ),
        "variables": _id_map(
            {
                "type": "object",
                "description": "A variable holding a player, component, text, flag or table.",
                "properties": {
                    "per": {"enum": list(PER)},
                    "type": {"$ref": "#/$defs/type_name"},
                    "initial": {"description": "Starting value (default none)."},
                    "visibility": {"enum": list(VISIBILITIES)},
                    "description": {"$ref": "#/$defs/description"},
                },
                "required": ["per", "type"],
                "additionalProperties": False,
            },
            "Variables.",
        ),
        "kinds": _id_map(
            {
                "type": "object",
                "description": "A kind of component and the properties its components have.",
                "properties": {
                    "properties": _id_map({"$ref": "#/$defs/property_decl"}, "Properties by name."),
                    "label": {"$ref": "#/$defs/label"},
                    "description": {"$ref": "#/$defs/description"},
                },
                "additionalProperties": False,
            },
            "Component kinds.",
        ),
        "components": _id_map(
            {
                "type": "object",
                "description": "A component (card, tile, token): its kind and its properties. Keys "
                "other than the listed ones are the kind's properties.",
                "properties": {
                    "kind": {"type": "string", "description": "A kind declared under `kinds`."},
                    "count": {
                        "type": "integer",
                        "minimum": 1,
                        "maximum": 1000,
                        "description": "Number of copies; copies get ids `ID-1`, `ID-2`, …",
                    },
                    "label": {"$ref": "#/$defs/label"},
                    "description": {"$ref": "#/$defs/description"},
                    "provisional": {"$ref": "#/$defs/provisional"},
                },
                "required": ["kind"],
            },
            "Components.",
            COMPONENT_ID_PATTERN,
        ),
        "zones": _id_map(
            {
                "type": "object",
                "description": "A place components are in: a deck, bag, display, hand, pile.",
                "properties": {
                    "per": {"enum": list(PER)},
                    "visibility": {
                        "enum": list(VISIBILITIES),
                        "description": "public: all see the contents; private: its "
                        "player sees them, others the count; secret: "
                        "nobody sees them, all see the count.",
                    },
                    "order": {
                        "enum": list(ORDERS),
                        "description": "ordered: a pile or row; random: a bag, drawn at random.",
                    },
                    "capacity": {
                        "type": "integer",
                        "minimum": 0,
                        "description": "Most components it holds (0 = unlimited).",
                    },
                    "label": {"$ref": "#/$defs/label"},
                    "description": {"$ref": "#/$defs/description"},
                },
                "required": ["per"],
                "additionalProperties": False,
            },
            "Zones.",
        ),
        "spaces": _id_map(
            {
                "type": "object",
                "description": "A group of board spaces with the same properties.",
                "properties": {
                    "capacity": {
                        "type": "integer",
                        "minimum": 0,
                        "description": "Components a space takes (0 = none, a marker only).",
                    },
                    "claimable": {
                        "type": "boolean",
                        "description": "Whether a space takes an ownership marker.",
                    },
                    "visibility": {"enum": list(VISIBILITIES)},
                    "properties": _id_map({"$ref": "#/$defs/property_decl"}, "Space properties."),
                    "items": _id_map(
                        {
                            "type": "object",
                            "description": "A space: its side(s) and property values.",
                            "properties": {
                                "side": {
                                    "oneOf": [
                                        {"type": "string"},
                                        {"type": "array", "items": {"type": "string"}},
                                    ],
                                    "description": "The board side(s) it is on (default: all).",
                                },
                                "capacity": {"type": "integer", "minimum": 0},
                                "label": {"$ref": "#/$defs/label"},
                            },
                        },
                        "The spaces of the group.",
                    ),
                    "label": {"$ref": "#/$defs/label"},
                    "description": {"$ref": "#/$defs/description"},
                    "provisional": {"$ref": "#/$defs/provisional"},
                },
                "required": ["items"],
                "additionalProperties": False,
            },
            "Board space groups.",
        ),
        "functions": _id_map(
            {
                "type": "object",
                "description": "A named, reusable value with parameters.",
                "properties": {
                    "params": {"$ref": "#/$defs/params"},
                    "returns": {"$ref": "#/$defs/type_name"},
                    "value": _expression("The value, using the parameters."),
                    "description": {"$ref": "#/$defs/description"},
                },
                "required": ["value"],
                "additionalProperties": False,
            },
            "Functions.",
        ),
        "actions": _id_map(
            {
                "type": "object",
                "description": "Something a player may do: its conditions and its effect.",
                "properties": {
                    "label": {"$ref": "#/$defs/label"},
                    "description": {"$ref": "#/$defs/description"},
                    "params": {"$ref": "#/$defs/params"},
                    "properties": {
                        "type": "object",
                        "description": "Extra data about the action, read as "
                        "`a.name` in expressions.",
                    },
                    "requires": {
                        "type": "array",
                        "description": "Conditions that must all hold; the message says why not.",
                        "items": {
                            "type": "object",
                            "properties": {
                                "condition": _expression("Must be true."),
                                "message": {
                                    "type": "string",
                                    "description": "Why the action is not allowed.",
                                },
                            },
                            "required": ["condition", "message"],
                            "additionalProperties": False,
                        },
                    },
                    "effect": _effect(
                        "What the action does (none: a named condition, whose `requires` "
                        "`can` asks)."
                    ),
                },
                "additionalProperties": False,
            },
            "Actions.",
        ),
        "events": _id_map(
            {
                "type": "object",
                "description": "An event effects may `emit` and triggers listen to.",
                "properties": {
                    "params": {"$ref": "#/$defs/params"},
                    "description": {"$ref": "#/$defs/description"},
                },
                "additionalProperties": False,
            },
            "Events.",
        ),
        "triggers": _id_map(
            {
                "type": "object",
                "description": "An effect that fires when an event happens or a condition becomes "
                "true for a player.",
                "properties": {
                    "on": {"type": "string", "description": "An event name."},
                    "when": _expression(
                        "Checked for every player after each step; `me` is the player."
                    ),
                    "once": {
                        "enum": ["player", "game", "never"],
                        "description": "Fire at most once per player, once per game, or every "
                        "time (default for events).",
                    },
                    "effect": _effect("What happens."),
                    "description": {"$ref": "#/$defs/description"},
                },
                "oneOf": [{"required": ["on", "effect"]}, {"required": ["when", "effect"]}],
                "additionalProperties": False,
            },
            "Triggers.",
        ),
        "structure": {
            "type": "object",
            "description": "The game's course: setup, rounds of phases, the end.",
            "properties": {
                "setup": _effect("Run once before round 1."),
                "rounds": {
                    "type": "object",
                    "properties": {
                        "count": {"type": "integer", "minimum": 1, "maximum": 1000},
                        "counter": {
                            "type": "string",
                            "description": "A game counter holding the round number.",
                        },
                        "until": _expression("The game ends after the round in which this holds."),
                    },
                    "additionalProperties": False,
                },
                "phases": {
                    "type": "array",
                    "items": {"$ref": "#/$defs/phase"},
                    "description": "The phases of a round, in order.",
                },
                "end": _expression(
                    "The game ends as soon as this holds (checked after each step)."
                ),
            },
            "required": ["phases"],
            "additionalProperties": False,
        },
        "scoring": {
            "type": "object",
            "description": "Final scoring: the score counter, tie-breaks and steps in order.",
            "properties": {
                "score": {
                    "type": "string",
                    "description": "The per-player counter that is the score.",
                },
                "tiebreak": {
                    "type": "array",
                    "items": {"type": "string"},
                    "description": "Counters that break ties, in order.",
                },
                "steps": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "properties": {
                            "id": {"type": "string", "pattern": ID_PATTERN},
                            "label": {"$ref": "#/$defs/label"},
                            "effect": _effect("What this step scores."),
                            "description": {"$ref": "#/$defs/description"},
                            "before": {
                                "type": "string",
                                "description": "In an overlay's "
                                "`add:`: insert before the step with this id.",
                            },
                            "after": {
                                "type": "string",
                                "description": "In an overlay's "
                                "`add:`: insert after the step with this id.",
                            },
                        },
                        "required": ["id", "effect"],
                        "additionalProperties": False,
                    },
                },
                "estimate": _expression("A quick estimate of `me`'s final score for agents."),
            },
            "required": ["score", "steps"],
            "additionalProperties": False,
        },
    }


def _phase_def() -> dict[str, Any]:
    return {
        "type": "object",
        "description": "A phase: who acts, in which order, doing what.",
        "properties": {
            "id": {"type": "string", "pattern": ID_PATTERN},
            "label": {"$ref": "#/$defs/label"},
            "description": {"$ref": "#/$defs/description"},
            "kind": {
                "enum": ["once", "each_player", "turns", "simultaneous"],
                "description": "once: the effect runs once; each_player: once per player "
                "in order; turns: players take turns in order while "
                "`while` holds for someone; simultaneous: every player "
                "decides in secret at the same time.",
            },
            "order": _expression("The players in order (default: seat order)."),
            "while": _expression("For `turns`: whether player `me` still takes turns."),
            "skip": _expression("Skip the phase when this holds."),
            "effect": _effect("What happens (with `me` bound to the player, except in `once`)."),
            "before": {
                "type": "string",
                "description": "In an overlay's `add:`: insert before the phase with this id.",
            },
            "after": {
                "type": "string",
                "description": "In an overlay's `add:`: insert after the phase with this id.",
            },
        },
        "required": ["id", "kind", "effect"],
        "additionalProperties": False,
    }


def _document(
    name: str,
    title: str,
    description: str,
    properties: dict[str, Any],
    required: list[str] | None = None,
) -> dict[str, Any]:
    defs = _common_defs()
    defs["phase"] = _phase_def()
    schema: dict[str, Any] = {
        "$schema": DRAFT,
        "$id": BASE_URL + name,
        "title": title,
        "description": description,
        "type": "object",
        "properties": properties,
        "additionalProperties": False,
        "$defs": defs,
    }
    if required:
        schema["required"] = required
    return schema


def manifest() -> dict[str, Any]:
    return _document(
        "manifest.schema.json",
        "Ruleset manifest",
        "The `ruleset.yaml` of a ruleset folder: what the game is and which files make it.",
        {
            "id": {
                "type": "string",
                "pattern": ID_PATTERN.replace("_]*$", "_-]*$"),
                "description": "The ruleset id, as logs and `rules play` name it.",
            },
            "name": {"type": "string", "description": "The game's name."},
            "version": {
                "type": "string",
                "pattern": r"^\d+\.\d+\.\d+$",
                "description": "Semantic version of the ruleset data.",
            },
            "description": {"$ref": "#/$defs/description"},
            "players": {
                "type": "object",
                "properties": {
                    "min": {"type": "integer", "minimum": 1, "maximum": 16},
                    "max": {"type": "integer", "minimum": 1, "maximum": 16},
                },
                "required": ["min", "max"],
                "additionalProperties": False,
            },
            "include": {
                "type": "array",
                "items": {"type": "string"},
                "minItems": 1,
                "description": "Content files, relative to this folder.",
            },
            "expansions": _id_map(
                {
                    "type": "object",
                    "properties": {
                        "file": {"type": "string", "description": "The overlay file."},
                        "name": {"type": "string"},
                        "description": {"$ref": "#/$defs/description"},
                    },
                    "required": ["file"],
                    "additionalProperties": False,
                },
                "Expansions and variants this ruleset offers, by id.",
            ),
            "docs": {
                "type": "string",
                "description": "Where the ruleset's option texts are documented.",
            },
        },
        ["id", "name", "version", "players", "include"],
    )


def content() -> dict[str, Any]:
    return _document(
        "content.schema.json",
        "Ruleset content file",
        "Any of the sections of a ruleset; a ruleset's files together define the game.",
        content_schema(),
    )


def _operations() -> dict[str, Any]:
    """What an overlay (or one of its `when` blocks) may do to a base ruleset."""
    sections = content_schema()
    addable = dict(sections)
    for name in ("structure", "scoring"):  # an overlay adds phases or steps only
        addable[name] = {k: v for k, v in sections[name].items() if k != "required"}
    patchable = {
        name: {"type": "object", "description": f"Items of `{name}` to change."}
        for name in sections
    }
    extendable = {
        name: {"type": "object", "description": f"Items of `{name}` to add to."}
        for name in sections
    }
    for name, entries in (("structure", "phases"), ("scoring", "steps")):
        relaxed = {k: v for k, v in sections[name].items() if k != "required"}
        relaxed["properties"] = {
            **relaxed["properties"],
            entries: {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["id"],
                    "properties": {"id": {"type": "string", "pattern": ID_PATTERN}},
                },
                "description": "Entries merged by id: an existing id gets the keys added, a "
                "new one is inserted (`before:`/`after:` an id).",
            },
        }
        extendable[name] = relaxed
    removable = {
        name: {
            "type": "array",
            "items": {"type": "string"},
            "description": f"Ids of `{name}` to remove.",
        }
        for name in sections
    }
    return {
        "add": {
            "type": "object",
            "properties": addable,
            "additionalProperties": False,
            "description": "New items (an id that already exists is an error); new phases "
            "and scoring steps, placed with `before:`/`after:` an id.",
        },
        "replace": {
            "type": "object",
            "properties": sections,
            "additionalProperties": False,
            "description": "Items that replace existing ones whole (one overlay per item).",
        },
        "patch": {
            "type": "object",
            "properties": patchable,
            "additionalProperties": False,
            "description": "Keys set on existing items (one overlay per key).",
        },
        "extend": {
            "type": "object",
            "properties": extendable,
            "additionalProperties": False,
            "description": "Added to existing items: mappings merge by key, lists append, "
            "entries with an id merge by id, effects get steps before/after a step id (`main` "
            "for an effect written as one text). Any number of overlays may extend one item.",
        },
        "remove": {
            "type": "object",
            "properties": removable,
            "additionalProperties": False,
            "description": "Ids of items to remove.",
        },
    }


def overlay() -> dict[str, Any]:
    operations = _operations()
    names = {"type": "array", "items": {"type": "string", "pattern": ID_PATTERN}}
    return _document(
        "overlay.schema.json",
        "Expansion, variant or mod",
        "Adds to, extends, replaces, patches or removes named items of a base ruleset; "
        "overlays compose whatever order they are named in.",
        {
            "overlay": {
                "type": "object",
                "properties": {
                    "id": {"type": "string", "pattern": ID_PATTERN},
                    "name": {"type": "string"},
                    "description": {"$ref": "#/$defs/description"},
                    "base": {
                        "type": "string",
                        "description": "The ruleset it applies to (for mods).",
                    },
                    "requires": {
                        **names,
                        "description": "Overlays that must be applied too (in any order).",
                    },
                    "overrides": {
                        **names,
                        "description": "Overlays whose replace/patch of the same key this "
                        "one's wins over (without it, two overlays changing one key is an "
                        "error).",
                    },
                    "players": {
                        "type": "object",
                        "properties": {
                            "min": {"type": "integer", "minimum": 1},
                            "max": {"type": "integer"},
                            "note": {
                                "type": "string",
                                "description": "Said when a player count outside min-max is "
                                "asked for.",
                            },
                        },
                        "additionalProperties": False,
                    },
                },
                "required": ["id", "name"],
                "additionalProperties": False,
            },
            **operations,
            "when": {
                "type": "array",
                "description": "Blocks applied only when other overlays are applied too.",
                "items": {
                    "type": "object",
                    "properties": {
                        "with": {
                            **names,
                            "minItems": 1,
                            "description": "The block applies when all of these are applied.",
                        },
                        "description": {"$ref": "#/$defs/description"},
                        **operations,
                    },
                    "required": ["with"],
                    "additionalProperties": False,
                },
            },
        },
        ["overlay"],
    )


def game_log() -> dict[str, Any]:
    """One line of a game log: the header or an event (rules-log/1)."""
    player = {"type": "string", "minLength": 1}
    header = {
        "type": "object",
        "properties": {
            "format": {"const": "rules-log/1"},
            "ruleset": {"type": "string", "minLength": 1, "maxLength": 200},
            "ruleset_version": {"type": "string"},
            "ruleset_digest": {"type": "string", "pattern": r"^sha256:[0-9a-f]{64}$"},
            "options": {
                "type": "object",
                "properties": {
                    "expansions": {"type": "array", "items": {"type": "string"}},
                    "mods": {"type": "array", "items": {"type": "string"}},
                },
            },
            "players": {"type": "array", "items": player, "minItems": 1, "uniqueItems": True},
            "seed": {"type": ["integer", "string"]},
        },
        "required": ["format", "ruleset", "players"],
    }
    n = {"type": "integer", "minimum": 1}
    decision = {
        "type": "object",
        "properties": {"n": n, "player": player, "choice": {"type": "string"}},
        "required": ["n", "player", "choice"],
    }
    chance = {
        "type": "object",
        "properties": {
            "n": n,
            "chance": {"type": "string"},
            "outcome": {"type": "array", "items": {"type": "string"}},
        },
        "required": ["n", "chance", "outcome"],
    }
    scores = {
        "type": "object",
        "properties": {
            "n": n,
            "scores": {"type": "object", "additionalProperties": {"type": "integer"}},
        },
        "required": ["n", "scores"],
    }
    digest = {
        "type": "object",
        "properties": {
            "n": n,
            "state_digest": {"type": "string", "pattern": r"^sha256:[0-9a-f]{64}$"},
        },
        "required": ["n", "state_digest"],
    }
    return {
        "$schema": DRAFT,
        "$id": BASE_URL + "game-log.schema.json",
        "title": "Game log line (rules-log/1)",
        "description": "Each non-blank, non-comment line of a game log is one JSON object: "
        "line 1 the header, every other line an event.",
        "oneOf": [
            {"$ref": "#/$defs/header"},
            {"$ref": "#/$defs/decision"},
            {"$ref": "#/$defs/chance"},
            {"$ref": "#/$defs/score_checkpoint"},
            {"$ref": "#/$defs/digest_checkpoint"},
        ],
        "$defs": {
            "header": header,
            "decision": decision,
            "chance": chance,
            "score_checkpoint": scores,
            "digest_checkpoint": digest,
        },
    }


SCHEMAS = {
    "manifest.schema.json": manifest,
    "content.schema.json": content,
    "overlay.schema.json": overlay,
    "game-log.schema.json": game_log,
}


def render(name: str) -> str:
    return json.dumps(SCHEMAS[name](), indent=2, ensure_ascii=False) + "\n"


def write_all(folder: Path) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name in SCHEMAS:
        path = folder / name
        path.write_text(render(name), encoding="utf-8")
        written.append(path)
    return written
