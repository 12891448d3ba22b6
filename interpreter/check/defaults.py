"""The defaults of the rules files' keys, declared once.

A key left out of a counter, variable, zone or space takes a default; what that
default is, and what a value such as `capacity: 0` means, used to be written in three
places (the build, the schema's descriptions, the docs) that disagreed (issue 49: for
a space `capacity: 0` was "a marker only" in format.md and "unlimited" in
language.md). Here is the one declaration: the build takes its values from it, and
``render`` is the table both ``docs/format.md`` (between its `defaults` markers) and
``docs/language.md`` print (``tests/check/test_defaults.py`` keeps them equal to it).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

BEGIN = "<!-- defaults: generated from interpreter/check/defaults.py by `rules reference` -->"
END = "<!-- end of defaults -->"


@dataclass(frozen=True, slots=True)
class Default:
    """The value a key takes when it is left out, and what it means."""

    section: str  # the section whose items hold the key (`spaces` for a group and its spaces)
    key: str
    value: Any
    meaning: str

    def written(self) -> str:
        """The value as a rules file writes it (none for no value)."""
        if self.value is None:
            return "none"
        if isinstance(self.value, bool):
            return f"`{str(self.value).lower()}`"
        return f"`{self.value}`"


# what `capacity: 0` means: the one value the docs used to disagree on
ZONE_CAPACITY_ZERO = "no limit"
SPACE_CAPACITY_ZERO = "none (the space takes an ownership marker only)"
ZONE_CAPACITY = f"at most this many components; `0`: {ZONE_CAPACITY_ZERO}"
SPACE_CAPACITY = (
    "components one space holds (a space's own `capacity` overrides its group's); "
    f"`0`: {SPACE_CAPACITY_ZERO}"
)

DEFAULTS: tuple[Default, ...] = (
    Default("counters", "initial", 0, "the value at the start (or one per board side)"),
    Default("counters", "min", 0, "the least value: taking more is an error"),
    Default("counters", "max", None, "no upper limit; with one, a gain stops there"),
    Default("counters", "visibility", "public", "who sees the value"),
    Default("variables", "visibility", "public", "who sees the value"),
    Default("zones", "visibility", "public", "everyone sees the contents"),
    Default("zones", "order", "ordered", "a pile or row; `random`: a bag, drawn at random"),
    Default("zones", "capacity", 0, ZONE_CAPACITY),
    Default("spaces", "capacity", 1, SPACE_CAPACITY),
    Default("spaces", "claimable", False, "whether a space takes an ownership marker"),
    Default("spaces", "visibility", "public", "everyone sees the contents"),
)

_BY_KEY = {(d.section, d.key): d for d in DEFAULTS}


def default(section: str, key: str) -> Any:
    """The value ``key`` of an item of ``section`` takes when left out."""
    return _BY_KEY[(section, key)].value


def sentence(section: str, key: str) -> str:
    """The meaning of a key as a sentence, with its default (a schema's description)."""
    d = _BY_KEY[(section, key)]
    return f"{d.meaning[0].upper()}{d.meaning[1:]}. Default: {d.written()}."


def render() -> str:
    """The table of defaults, as both docs print it."""
    lines = [
        "| section | key | default | meaning |",
        "|---|---|---|---|",
    ]
    for d in DEFAULTS:
        lines.append(f"| `{d.section}` | `{d.key}` | {d.written()} | {d.meaning} |")
    return "\n".join(lines)
