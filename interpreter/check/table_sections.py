"""The sections that put things on the table, as JSON Schema: kinds, components (with
`each` generation and `count` copies), zones and space groups (grids included). Split
from ``sections.py`` (the other sections and the pieces they share), which merges
these into ``content_schema``.
"""

from __future__ import annotations

from typing import Any

from interpreter.check.defaults import sentence
from interpreter.check.sections import COMPONENT_ID_PATTERN, ORDERS, PER, id_map
from interpreter.ruleset.counts import counted
from interpreter.ruleset.dice import FACES_SCHEMA
from interpreter.ruleset.keyed import KEYS_SCHEMA
from interpreter.ruleset.visibility import SPACE_VISIBILITIES, VISIBILITIES, described


def table_sections() -> dict[str, Any]:
    """The `kinds`, `components`, `zones` and `spaces` sections of a content file."""
    return {
        "kinds": id_map(
            {
                "type": "object",
                "description": "A kind of component and the properties its components have.",
                "properties": {
                    "properties": id_map({"$ref": "#/$defs/property_decl"}, "Properties by name."),
                    "faces": FACES_SCHEMA,
                    "label": {"$ref": "#/$defs/label"},
                    "description": {"$ref": "#/$defs/description"},
                },
                "additionalProperties": False,
            },
            "Component kinds.",
        ),
        "components": id_map(
            {
                "type": "object",
                "description": "A component (card, tile, token): its kind and its properties. Keys "
                "other than the listed ones are the kind's properties.",
                "properties": {
                    "kind": {"type": "string", "description": "A kind declared under `kinds`."},
                    "count": counted(
                        {
                            "oneOf": [
                                {
                                    "type": "integer",
                                    "minimum": 1,
                                    "maximum": 1000,
                                    "description": "Number of copies; copies get ids "
                                    "`ID-1`, `ID-2`, …",
                                },
                                {
                                    "type": "object",
                                    "description": "With `each`: copies per value of one "
                                    "generated property, in the order `each` lists its values.",
                                    "properties": {
                                        "by": {"type": "string"},
                                        "counts": {
                                            "type": "array",
                                            "items": counted(
                                                {"type": "integer", "minimum": 1, "maximum": 1000}
                                            ),
                                            "maxItems": 1000,
                                        },
                                    },
                                    "required": ["by", "counts"],
                                    "additionalProperties": False,
                                },
                            ]
                        }
                    ),
                    "each": {
                        "type": "object",
                        "description": "Generate one design per combination of these "
                        "properties' values (first key slowest): a list of values, or a "
                        "range `{from, to}` of whole numbers.",
                        "minProperties": 1,
                        "additionalProperties": {
                            "oneOf": [
                                {"type": "array", "minItems": 1, "maxItems": 1000},
                                {
                                    "type": "object",
                                    "properties": {
                                        "from": {"type": "integer"},
                                        "to": {"type": "integer"},
                                    },
                                    "required": ["from", "to"],
                                    "additionalProperties": False,
                                },
                            ]
                        },
                    },
                    "ids": {
                        "type": "string",
                        "description": "With `each`: the generated ids, every property of "
                        "`each` in braces (`{suit}_{rank}`); default `ID_value_value`.",
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
        "zones": id_map(
            {
                "type": "object",
                "description": "A place components are in: a deck, bag, display, hand, pile.",
                "properties": {
                    "per": {"enum": list(PER)},
                    "visibility": {
                        "enum": list(VISIBILITIES),
                        "description": described(),
                    },
                    "order": {
                        "enum": list(ORDERS),
                        "description": "ordered: a pile or row; random: a bag, drawn at random.",
                    },
                    "capacity": counted(
                        {
                            "type": "integer",
                            "minimum": 0,
                            "description": sentence("zones", "capacity"),
                        }
                    ),
                    "keys": KEYS_SCHEMA,
                    "label": {"$ref": "#/$defs/label"},
                    "description": {"$ref": "#/$defs/description"},
                },
                "required": ["per"],
                "additionalProperties": False,
            },
            "Zones.",
        ),
        "spaces": id_map(
            {
                "type": "object",
                "description": "A group of board spaces with the same properties.",
                "properties": {
                    "capacity": counted(
                        {
                            "type": "integer",
                            "minimum": 0,
                            "description": sentence("spaces", "capacity"),
                        }
                    ),
                    "claimable": {
                        "type": "boolean",
                        "description": "Whether a space takes an ownership marker.",
                    },
                    "visibility": {"enum": list(SPACE_VISIBILITIES)},
                    "grid": {
                        "type": "object",
                        "description": "Generate the spaces as a grid of cells named a1, b1 … "
                        "(column letter, row number), each with `row` and `col`; `items` "
                        "then only adds properties to named cells (docs/format.md, grids).",
                        "properties": {
                            "rows": counted({"type": "integer", "minimum": 1, "maximum": 26}),
                            "columns": counted({"type": "integer", "minimum": 1, "maximum": 26}),
                            "prefix": {
                                "type": "string",
                                "pattern": "^[A-Za-z_][A-Za-z0-9_]*$",
                                "description": "Put before every cell id (default: none).",
                            },
                        },
                        "required": ["rows", "columns"],
                        "additionalProperties": False,
                    },
                    "layout": {
                        "enum": ["list", "grid"],
                        "description": "How the views draw the group: a list of spaces "
                        "(default) or, for a `grid`, a board of rows and columns.",
                    },
                    "properties": id_map({"$ref": "#/$defs/property_decl"}, "Space properties."),
                    "items": id_map(
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
                                "capacity": counted({"type": "integer", "minimum": 0}),
                                "label": {"$ref": "#/$defs/label"},
                            },
                        },
                        "The spaces of the group.",
                    ),
                    "label": {"$ref": "#/$defs/label"},
                    "description": {"$ref": "#/$defs/description"},
                    "provisional": {"$ref": "#/$defs/provisional"},
                },
                "anyOf": [{"required": ["items"]}, {"required": ["grid"]}],
                "additionalProperties": False,
            },
            "Board space groups.",
        ),
    }
