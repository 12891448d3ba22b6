"""The JSON Schemas (Draft 2020-12) of every file kind, built here from one place.

``schemas/*.schema.json`` are written from these definitions by
``rules schema --write`` and a test keeps the files and this module equal. The
lists a modder's editor completes (value types, visibilities, statement and
function names) come from the language registry, not from a hand-kept copy.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from interpreter.atomic_file import write_output
from interpreter.check.sections import (
    BASE_URL,
    DRAFT,
    ID_PATTERN,
    common_defs,
    content_schema,
    id_map,
    phase_def,
)

__all__ = ["ID_PATTERN", "SCHEMAS", "content", "game_log", "manifest", "overlay", "render"]

# Advice said when a game of a player count outside min-max is asked for. A mapping
# from counts keeps the advice right for every count: "add --with solo" helps a
# 1-player game, not a 6-player one (issue 47).
PLAYERS_NOTE: dict[str, Any] = {
    "description": "Said when a player count outside min-max is asked for: one text for "
    "every such count, or texts by count ({'1': 'add --with solo'}).",
    "oneOf": [
        {"type": "string"},
        {
            "type": "object",
            "propertyNames": {
                "pattern": "^[1-9][0-9]?$",
                "x-message": "a note's key is a player count (1-99)",
            },
            "additionalProperties": {"type": "string"},
        },
    ],
}


def _document(
    name: str,
    title: str,
    description: str,
    properties: dict[str, Any],
    required: list[str] | None = None,
) -> dict[str, Any]:
    defs = common_defs()
    defs["phase"] = phase_def()
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
                    "note": PLAYERS_NOTE,
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
            "expansions": id_map(
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
                            "note": PLAYERS_NOTE,
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
    # an expansion or mod id as a ruleset declares it: never empty, no control character
    # (a replay's verdict must not depend on what a cache holds under a stranger key)
    log_id = {
        "type": "string",
        "maxLength": 200,
        "pattern": ID_PATTERN,
        "x-message": "an id is letters, digits and '_' (up to 200), not starting with a digit",
    }
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
                    "expansions": {
                        "type": "array",
                        "description": "The expansions applied, by id.",
                        "items": log_id,
                    },
                    "mods": {
                        "type": "array",
                        "description": "The mods applied, each by its overlay id, the "
                        "digest of its file and (optional) its path relative to the log's "
                        "folder (a bare text is an id, as older logs wrote it).",
                        "items": {
                            "x-message": "a mod is named by its id, or by {id, digest, path}",
                            "oneOf": [
                                {  # older logs wrote the --mod argument: a file name
                                    "type": "string",
                                    "minLength": 1,
                                    "maxLength": 200,
                                    "pattern": r"^[^\x00-\x1f\x7f]+$(?!\n)",
                                    "x-message": "a mod's name is not empty, at most 200 "
                                    "characters, none of them a control character",
                                },
                                {
                                    "type": "object",
                                    "properties": {
                                        "id": log_id,
                                        "digest": {
                                            "type": "string",
                                            "pattern": r"^sha256:[0-9a-f]{64}$",
                                        },
                                        "path": {
                                            "type": "string",
                                            "minLength": 1,
                                            "maxLength": 1000,
                                            "description": "The mod file relative to the "
                                            "log's folder, `/`-separated: replay looks there "
                                            "(a file whose digest is the one above).",
                                        },
                                    },
                                    "required": ["id"],
                                    "additionalProperties": False,
                                },
                            ],
                        },
                    },
                },
            },
            "players": {"type": "array", "items": player, "minItems": 1, "uniqueItems": True},
            "seed": {"type": ["integer", "string"]},
            "from": {
                "type": "object",
                "description": "The log this game went on from (`rules play --from LOG --at "
                "N`): that file's path relative to this log's folder, its digest, and N, the "
                "events of it this log starts with.",
                "properties": {
                    "log": {"type": "string", "maxLength": 1000},
                    "digest": {"type": "string", "pattern": r"^sha256:[0-9a-f]{64}$"},
                    "at": {"type": "integer", "minimum": 0},
                },
                "required": ["digest", "at"],
            },
            "agents": {
                "type": "array",
                "description": "Who played each person's seat (an agent as `rules play "
                "--agents` names it) and the agent's seed: `rules play --resume` plays on "
                "with them.",
                "items": {
                    "type": "object",
                    "properties": {
                        "player": player,
                        "agent": {"type": "string", "minLength": 1, "maxLength": 200},
                        "seed": {"type": "string", "maxLength": 1000},
                        "since": {
                            "type": "integer",
                            "minimum": 0,
                            "description": "The events played before this agent joined "
                            "(a resume with other agents); 0 when absent.",
                        },
                    },
                    "required": ["player", "agent", "seed"],
                },
            },
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


def _scenario() -> dict[str, Any]:
    """`rules test` files; defined with their runner (imported late: no cycle)."""
    from interpreter.scenario.schema import scenario

    return scenario()


SCHEMAS = {
    "manifest.schema.json": manifest,
    "content.schema.json": content,
    "overlay.schema.json": overlay,
    "game-log.schema.json": game_log,
    "scenario.schema.json": _scenario,
}


def render(name: str) -> str:
    import json  # only to print or write a schema: checking data never needs it

    return json.dumps(SCHEMAS[name](), indent=2, ensure_ascii=False) + "\n"


def write_all(folder: Path) -> list[Path]:
    written = []
    for name in SCHEMAS:
        path = folder / name
        write_output(path, render(name))
        written.append(path)
    return written
