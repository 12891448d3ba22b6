"""The JSON Schema of scenario files (Draft 2020-12), built here from one place.

``interpreter.check.schemas`` lists it, so ``rules schema --write schemas/`` writes
``schemas/scenario.schema.json`` and the tests keep the file and this module equal.
"""

from __future__ import annotations

import json
from typing import Any

from interpreter.check.sections import BASE_URL, DRAFT

NAME = "scenario.schema.json"

_STRINGS = {"type": "array", "items": {"type": "string"}}
_SCALAR = {"type": ["integer", "string", "boolean", "null"]}
_PLAYER = {"type": "string", "description": "A player's name: P1, P2, … in seat order."}


def _per_player_or_game(value: dict[str, Any], what: str) -> dict[str, Any]:
    """A map of game-wide names to values, and of player names to maps of values."""
    return {
        "type": "object",
        "description": f"Game {what}s by name (`round: 3`), and per-player {what}s under "
        f"the player's name (`P1: {{coins: 5}}`).",
        "additionalProperties": {
            "anyOf": [value, {"type": "object", "additionalProperties": value}]
        },
    }


def _zones(entry: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "object",
        "description": "Zones and board spaces by name; a player's zone as `P1.hand`.",
        "additionalProperties": entry,
    }


_ZONE_CHECK = {
    "anyOf": [
        {**_STRINGS, "description": "The exact contents, in order."},
        {
            "type": "object",
            "properties": {
                "contains": {**_STRINGS, "description": "Pieces that must be there."},
                "lacks": {**_STRINGS, "description": "Pieces that must not be there."},
                "count": {"type": "integer", "minimum": 0, "description": "How many pieces."},
            },
            "additionalProperties": False,
            "minProperties": 1,
        },
    ]
}

_OWNERS = {
    "type": "object",
    "description": "Board spaces by id: the player whose marker is on it, or null for none.",
    "additionalProperties": {"type": ["string", "null"]},
}

_SETUP = {
    "type": "object",
    "description": "Changes to the position after the game's own setup, before the steps.",
    "properties": {
        "counters": _per_player_or_game(_SCALAR, "counter"),
        "variables": _per_player_or_game({}, "variable"),
        "zones": _zones(
            {
                **_STRINGS,
                "description": "The zone's new contents, in order; "
                "pieces it held that are not named anywhere leave play.",
            }
        ),
        "owners": _OWNERS,
        "faces": {
            "type": "object",
            "description": "Dice by id: the face each shows (one of its kind's `faces`); "
            "whoever cannot see a die's zone does not know it.",
            "additionalProperties": {"type": "integer"},
        },
    },
    "additionalProperties": False,
}

_OPTIONS = {
    "type": "object",
    "properties": {
        "player": _PLAYER,
        "include": {**_STRINGS, "description": "Options that must be offered."},
        "exclude": {**_STRINGS, "description": "Options that must not be offered."},
        "exactly": {**_STRINGS, "description": "All the options, in order."},
    },
    "additionalProperties": False,
}

_EXPECT = {
    "type": "object",
    "description": "Outcomes the position must show.",
    "properties": {
        "counters": _per_player_or_game(_SCALAR, "counter"),
        "variables": _per_player_or_game({}, "variable"),
        "zones": _zones(_ZONE_CHECK),
        "owners": _OWNERS,
        "marks": {
            "type": "object",
            "description": "Zones by name (`P2.hand`): the public marks (`mark`) at each "
            "place in order, as views show them (`{colour: red}`, `{rank: {not: [3]}}`, "
            "`{}` for none).",
            "additionalProperties": {"type": "array", "items": {"type": "object"}},
        },
        "decision": {
            "anyOf": [
                {
                    "type": ["string", "null"],
                    "description": "The player who decides now, or null when nobody does.",
                },
                {
                    **_OPTIONS,
                    "required": ["player"],
                    "description": "The player who decides now, and with which options.",
                },
            ]
        },
        "over": {"type": "boolean", "description": "Whether the game has ended."},
        "scores": {
            "type": "object",
            "description": "Each named player's score (the ruleset's `scoring.score` counter); "
            "after `finish:`, the final scores.",
            "additionalProperties": {"type": "integer"},
        },
        "breakdown": {
            "type": "object",
            "description": "A player's points from each final scoring step by its id "
            "(`play`: the score gained before the final scoring).",
            "additionalProperties": {
                "type": "object",
                "additionalProperties": {"type": "integer"},
            },
        },
        "view": {
            "type": "object",
            "description": "What a player sees, through the engine's per-player view: pieces "
            "and counters (`P1.coins`, `round`) by name.",
            "additionalProperties": {
                "type": "object",
                "properties": {
                    "sees": {**_STRINGS, "description": "Shown to this player."},
                    "hidden": {**_STRINGS, "description": "Not shown to this player."},
                },
                "additionalProperties": False,
                "minProperties": 1,
            },
        },
    },
    "additionalProperties": False,
    "minProperties": 1,
}

_ARGS = {
    "type": "object",
    "description": "The action's parameters by name: pieces, spaces and zones by id, "
    "players by name, numbers, texts, booleans.",
    "additionalProperties": {"anyOf": [_SCALAR, {"type": "array", "items": _SCALAR}]},
}

_DO = {
    "type": "object",
    "description": "Run one action now for a player (open decisions are dropped), "
    "with the engine's sandbox; its own decisions are answered by the next steps.",
    "properties": {"action": {"type": "string"}, "player": _PLAYER, "args": _ARGS},
    "required": ["action", "player"],
    "additionalProperties": False,
}

_ANSWER = {
    "anyOf": [
        {"type": "string", "description": "An option's text, for whoever decides now."},
        {**_STRINGS, "minItems": 1, "description": "Option texts answered in turn."},
        {
            "type": "object",
            "properties": {"player": _PLAYER, "option": {"type": "string"}},
            "required": ["option"],
            "additionalProperties": False,
        },
    ]
}

_STEP = {
    "type": "object",
    "description": "One step: exactly one of do, turn, answer, illegal, options, finish, expect.",
    "properties": {
        "do": _DO,
        "turn": {
            "type": "object",
            "description": "Run one step of a phase now (a player's turn), then pause.",
            "properties": {"phase": {"type": "string"}, "player": _PLAYER},
            "required": ["phase"],
            "additionalProperties": False,
        },
        "answer": _ANSWER,
        "illegal": {
            "type": "object",
            "description": "An option or an action that must be refused, and the words of "
            "the refusal (`reason` must occur in them).",
            "properties": {
                "player": _PLAYER,
                "option": {"type": "string"},
                "action": {"type": "string"},
                "args": _ARGS,
                "reason": {"type": "string"},
            },
            "additionalProperties": False,
            "oneOf": [{"required": ["option"]}, {"required": ["action", "player"]}],
        },
        "options": {**_OPTIONS, "description": "The legal options of a player's open decision."},
        "finish": {
            "type": "string",
            "description": "Play on to the end of the game, every decision answered with its "
            "first option (`first`) or by an agent seeded by the scenario's seed (`random`, "
            "`greedy`, `mcts:N`).",
        },
        "expect": _EXPECT,
    },
    "additionalProperties": False,
    "minProperties": 1,
    "maxProperties": 1,
}

_SCENARIO = {
    "type": "object",
    "properties": {
        "name": {"type": "string", "description": "Printed with PASS or FAIL."},
        "description": {"type": "string"},
        "players": {"type": "integer", "minimum": 1, "description": "Overrides the file's."},
        "seed": {"type": ["integer", "string"], "description": "Overrides the file's."},
        "setup": _SETUP,
        "do": _DO,
        "steps": {"type": "array", "items": _STEP},
        "expect": _EXPECT,
    },
    "required": ["name"],
    "additionalProperties": False,
}


def scenario() -> dict[str, Any]:
    return {
        "$schema": DRAFT,
        "$id": BASE_URL + NAME,
        "title": "Scenario tests",
        "description": "Positions, moves and expected outcomes for `rules test`.",
        "type": "object",
        "properties": {
            "ruleset": {
                "type": "string",
                "description": "A ruleset id, or a path to a ruleset folder relative to this file.",
            },
            "with": {**_STRINGS, "description": "Expansions the ruleset offers."},
            "mods": {**_STRINGS, "description": "Mod overlay files, relative to this file."},
            "players": {"type": "integer", "minimum": 1, "description": "Default 2."},
            "seed": {"type": ["integer", "string"], "description": "Default 1."},
            "scenarios": {"type": "array", "items": _SCENARIO, "minItems": 1},
        },
        "required": ["ruleset", "scenarios"],
        "additionalProperties": False,
    }


def render() -> str:
    return json.dumps(scenario(), indent=2, ensure_ascii=False) + "\n"
