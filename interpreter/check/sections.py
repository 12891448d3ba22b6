"""The sections of a ruleset's content files as JSON Schema, and the shared pieces
(ids, expressions, effects, parameters, phases) every file kind's schema uses.

The lists a modder's editor completes (value types, statement and function names)
come from the language registry, not from a hand-kept copy.
"""

from __future__ import annotations

from typing import Any

from interpreter.language.registry import REGISTRY
from interpreter.language.values import TYPE_NAMES
from interpreter.ruleset.counts import counted
from interpreter.ruleset.keyed import KEYS_SCHEMA
from interpreter.ruleset.visibility import VISIBILITIES, described

BASE_URL = "https://tabletop-rules.dev/schemas/"
DRAFT = "https://json-schema.org/draft/2020-12/schema"
# ``(?!\n)``: Python's ``$`` (the validators use ``re.search``) also matches before a
# last newline, and ``"a\n"`` was an id; ECMAScript's ``$`` needs no help
ID_PATTERN = r"^[A-Za-z_][A-Za-z0-9_]*$(?!\n)"
COMPONENT_ID_PATTERN = ID_PATTERN

ORDERS = ("ordered", "random")
PER = ("player", "game")


def id_map(item: dict[str, Any], description: str, pattern: str = ID_PATTERN) -> dict[str, Any]:
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


def common_defs() -> dict[str, Any]:
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
        "params": id_map(
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
    # the table's sections are built from this module's shared pieces: imported here
    from interpreter.check.table_sections import table_sections

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
        "constants": id_map(
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
        "automata": id_map(
            {
                "type": "object",
                "description": "A seat the rules drive (an automaton): it takes part in turn "
                "order, majorities and scoring, and is never asked a decision - wherever one of "
                "its effects offers options it takes the first that is not `pass`, so its rules "
                "decide by the order they offer options in.",
                "properties": {
                    "name": {"type": "string", "minLength": 1, "description": "The seat's name."},
                    "players": {
                        "type": "array",
                        "items": {"type": "integer", "minimum": 1, "maximum": 16},
                        "minItems": 1,
                        "description": "The player counts (of people) at which it joins.",
                    },
                    "seat": {
                        "enum": ["first", "last"],
                        "description": "Where it sits in seat order (default last).",
                    },
                    "description": {"$ref": "#/$defs/description"},
                },
                "required": ["name", "players"],
                "additionalProperties": False,
            },
            "Seats driven by the rules.",
        ),
        "sides": id_map(
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
        "counters": id_map(
            {
                "type": "object",
                "description": "A whole-number counter: per player (coins, points) or for the "
                "game.",
                "properties": {
                    "per": {"enum": list(PER), "description": "player: one per player; game: one."},
                    "initial": counted(
                        {
                            "oneOf": [{"type": "integer"}, {"type": "object"}],
                            "description": "Starting value (or per side).",
                        }
                    ),
                    "min": counted({"type": "integer", "description": "Lowest value (default 0)."}),
                    "max": counted(
                        {"type": "integer", "description": "Highest value (none by default)."}
                    ),
                    "keys": KEYS_SCHEMA,
                    "visibility": {
                        "enum": list(VISIBILITIES),
                        "description": described(),
                    },
                    "label": {"$ref": "#/$defs/label"},
                    "description": {"$ref": "#/$defs/description"},
                },
                "required": ["per"],
                "additionalProperties": False,
            },
            "Counters.",
        ),
        "variables": id_map(
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
        **table_sections(),
        "functions": id_map(
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
        "actions": id_map(
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
        "events": id_map(
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
        "triggers": id_map(
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
                        "count": counted({"type": "integer", "minimum": 1, "maximum": 1000}),
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
                "result": {
                    "enum": ["highest", "lowest", "cooperative", "teams"],
                    "description": "Who wins: the highest score (default), the lowest, "
                    "everyone together on the sum of the scores (cooperative), or the team "
                    "with the highest sum (teams).",
                },
                "teams": {
                    "type": "integer",
                    "minimum": 2,
                    "maximum": 8,
                    "description": "With `result: teams`: how many teams; seat s plays in "
                    "team s mod teams (partners sit apart).",
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


def phase_def() -> dict[str, Any]:
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
